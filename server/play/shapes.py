"""The engine's moves and views as the play websocket's messages, and times as it sends them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import asyncpg
import msgspec

from spidertour.engine import Deal, End, Move, MoveCards, Result, Undo

from . import messages as p
from . import store
from .live import LiveGame


def engine_move(msg: p.PlayMessage) -> Move:
    if type(msg) is p.PlayMove:
        return MoveCards(msg.from_, msg.count, msg.to)
    if type(msg) is p.PlayDeal:
        return Deal(msg.pile)
    if type(msg) is p.PlayUndo:
        return Undo()
    return End()


MOVE_JSON = msgspec.json.Encoder()
PILE_MOVES = ("deal", "undo")  # the moves that may change the draw piles


def move_record(live: LiveGame, epoch: int, seq: int, move: dict[str, Any]) -> store.MoveRecord:
    """The commit's row of an accepted move (its rules' JSON form): the move and the entry's state
    after it, its score and time left as running totals over the entry's deals."""
    game = live.game
    assert game is not None
    return store.MoveRecord(
        live.entry_id,
        epoch,
        live.moves + 1,
        seq,
        MOVE_JSON.encode(move).decode(),
        game.t,
        game.score + live.score_before,
        game.reveals,
        game.sequences,
        game.outcome or "playing",
        None if game.final_score is None else game.final_score + live.score_before,
        None if game.time_left is None else game.time_left + live.time_before,
    )


def result_of(
    live: LiveGame, seq: int, move: dict[str, Any], result: Result, time_left: float, repeated: bool = False
) -> p.Result:
    """What the move changed: its columns and the view's other fields (the whole view goes on state)."""
    game = live.game
    assert game is not None
    changed = list(result.changed)
    column = game.column_view
    fields = game.view_fields(piles=move["type"] in PILE_MOVES)
    piles = fields.pop("draw_piles", None)
    return p.Result(
        seq=seq,
        n=live.moves,
        move=move,
        changed=changed,
        columns=[column(i) for i in changed],
        fields=p.ViewFields(**fields, draw_piles=None if piles is None else [p.DrawPile(**d) for d in piles]),
        revealed=result.revealed,
        completed=result.completed,
        time_left=time_left,
        repeated=repeated,
    )


def view_of(live: LiveGame) -> p.View:
    assert live.game is not None
    v = live.game.view()
    piles = v.pop("draw_piles", None)
    return p.View(**v, draw_piles=None if piles is None else [p.DrawPile(**d) for d in piles])


def dt(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def state_of(live: LiveGame, time_left: float | None) -> p.State:
    """The whole state of the entry (``time_left`` on the server's clock now)."""
    started = live.started
    if live.start == "together" and live.status == "joined":
        starts_at: float | None = live.opens_at
    else:  # several deals in rounds: when the next one starts, while this one is over
        starts_at = live.next_round_at() if live.deals > 1 else None
    return p.State(
        entry_id=live.entry_id,
        tournament_id=live.tournament_id,
        status=live.status,
        time_limit=live.time_limit,
        last_seq=live.last_seq,
        moves=live.moves,
        view=view_of(live) if live.game is not None else None,
        started_at=None if started is None else dt(started),
        deadline=None if live.deadline is None else dt(live.deadline),
        time_left=time_left,
        starts_at=None if starts_at is None else dt(starts_at),
        practice=True if live.practice else msgspec.UNSET,
        match_id=msgspec.UNSET if live.match_id is None else live.match_id,
        would_rank=msgspec.UNSET,  # a practice game over: filled in by the session (a read of the standings)
        par=msgspec.UNSET,
        **deals_of(live),
    )


def over_of(live: LiveGame) -> p.Over:
    game = live.game
    assert game is not None and game.outcome is not None
    over = p.Over(
        outcome=game.outcome,  # type: ignore[arg-type]
        score=game.score,
        time_left=game.time_left or 0,
        time_bonus=game.time_bonus,
        free_column_bonus=game.free_column_bonus,
        final_score=game.final_score or 0,
    )
    if live.deals > 1:
        over.deal, over.deals, over.total = live.deal, live.deals, live.total
    return over


def deals_of(live: LiveGame) -> dict[str, int]:
    """The deal, of how many, and the running total: only with several deals (docs/protocol.md)."""
    if live.deals == 1:
        return {}
    return {"deal": live.deal, "deals": live.deals, "total": live.total}


async def practice_result(db: asyncpg.Pool, live: LiveGame) -> tuple[p.WouldRank, p.ParSummary | None]:
    """A practice game over (at its end, or reopened): where its final score would have ranked in the
    tournament whose deal it played again (rank of how many), and that tournament's par. With several
    deals, among that deal's results, and the par of deal 1 only (the others have none)."""
    game = live.game
    assert game is not None
    deal = live.deal if live.deals > 1 else None
    row = await store.practice_over(db, live.tournament_id, game.final_score or 0, game.time_left or 0, deal)
    par = None if row["par"] is None else msgspec.convert(row["par"], p.ParSummary)
    return p.WouldRank(rank=row["ahead"] + 1, of=row["ranked"] + 1), par
