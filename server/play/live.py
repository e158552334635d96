"""An entry's game as the database knows it: rebuilt from its committed moves with the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import asyncpg

from spidertour.engine import Game, Result, Settings, move_from_json

from ..watch.messages import Row, TeamTag, team_of
from . import store
from .deals import deal_count, deal_seed

FINISHED = ("won", "ended", "timed_out", "absent")
OVER = ("won", "ended", "timed_out")  # a game over by its own play or by the clock: a next deal may follow


@dataclass(slots=True)
class LiveGame:
    entry_id: int
    tournament_id: int
    player_id: int
    player: str
    ordinal: int
    settings: Settings
    seed: str
    start: str  # "own" or "together" (the server starts every game at opens_at)
    opens_at: float  # the tournament's opening time, seconds since the epoch
    status: str
    game: Game | None  # None until started
    started: float | None  # the start, as seconds since the epoch on the server's clock
    deadline: float | None
    moves: int
    last_seq: int
    last_move: dict[str, Any] | None  # the last accepted move, to answer a resend of its seq
    last_result: Result | None
    team: TeamTag | None = None  # in a team battle, the club the entry plays for
    practice: bool = False  # played after the finish: on no board, in no standings
    match_id: int | None = None  # a match's seat: on no board (the match is hidden until over)
    hidden: bool = False  # a match's seat or a bracket's game: on no board
    # Several deals (server/play/deals.py): the deal played now (or last), of how many, and the
    # sums of the earlier deals' final scores, time left and moves (0 on deal 1).
    deal: int = 1
    deals: int = 1
    score_before: int = 0
    time_before: int = 0
    moves_before: int = 0

    @property
    def time_limit(self) -> int:
        return self.settings.time_limit

    @property
    def total(self) -> int:
        """The running total of several deals: the earlier deals' final scores and this one's score."""
        game = self.game
        if game is None:
            return self.score_before
        return self.score_before + (game.score if game.final_score is None else game.final_score)

    def next_round_at(self) -> float | None:
        """``start: together``: when the next deal starts for everyone, while this one is over (else None)."""
        if self.start != "together" or self.deal >= self.deals or self.status not in OVER:
            return None
        return self.opens_at + self.deal * self.time_limit

    def row(self) -> Row:
        """This entry as the leaderboard shows it."""
        game = self.game
        if game is None:
            return Row(
                entry_id=self.entry_id, player=self.player, score=self.score_before, status=self.status, team=self.team
            )
        return Row(
            entry_id=self.entry_id,
            player=self.player,
            score=self.score_before + (game.score if game.final_score is None else game.final_score),
            status=self.status,
            time_left=None if game.time_left is None else self.time_before + game.time_left,
            deadline=self.deadline if self.status == "playing" else None,
            team=self.team,
        )


async def load(db: asyncpg.Pool, entry_id: int) -> LiveGame | None:
    """Rebuild an entry's game by replaying its committed moves at their recorded times."""
    async with db.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
        row = await store.entry(conn, entry_id)
        if row is None:
            return None
        committed = await store.moves(conn, entry_id, row["moves_before"]) if row["started_at"] is not None else []
    settings = Settings.from_json(row["settings"])
    live = LiveGame(
        entry_id=entry_id,
        tournament_id=row["tournament_id"],
        player_id=row["player_id"],
        player=row["player"],
        ordinal=row["ordinal"],
        settings=settings,
        seed=row["seed"],
        start=row["start"],
        opens_at=row["opens_at"].timestamp(),
        status=row["status"],
        game=None,
        started=row["started_at"].timestamp() if row["started_at"] else None,
        deadline=row["deadline"].timestamp() if row["deadline"] else None,
        moves=row["moves"],
        last_seq=row["last_seq"],
        last_move=None,
        last_result=None,
        team=team_of(row),
        practice=row["practice"],
        match_id=row["match_id"],
        hidden=row["hidden"],
        deal=row["deal"],
        deals=deal_count(row["settings"]),
        score_before=row["score_before"],
        time_before=row["time_before"],
        moves_before=row["moves_before"],
    )
    if live.started is None:
        return live
    # The tournament's deal (deal k of several: dealt from "<seed>/<k>"), renamed for the entry's
    # ordinal with deal_variation (the engine ignores the ordinal without it).
    game = Game(settings, deal_seed(row["seed"], live.deal, live.deals), entry=row["ordinal"])
    for m in committed:
        live.last_result = game.play(move_from_json(m["move"]), m["t"])
        live.last_move = m["move"]
    if row["status"] == "timed_out":
        game.tick(max(game.t, float(settings.time_limit)))
    live.game = game
    return live
