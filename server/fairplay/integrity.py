"""The organiser's integrity report: evidence of peeking and scouting, never a verdict.

Three things are looked for, each reported with what it rests on:

- **shared addresses**: entries of different players whose registration, join or play connection
  came from one client address (the server keeps only keyed hashes of addresses; the report
  names each by a short prefix of its hash);
- **undo peeks**: a move that turned a card face up, taken back by an undo within
  ``PEEK_SECONDS``: the player saw the card for nothing. Found by replaying the entry's committed
  moves with the engine;
- **scouts**: an entry that dealt most of the game's piles (more than half) within
  ``SCOUT_SECONDS`` of its start, and then ended the game or did nothing for ``IDLE_SECONDS``:
  the shape of a throwaway entry reading the deal for another.

Nothing is done about any of it: the organiser decides.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any, Literal

from spidertour.engine import Deal, EngineError, Game, MoveCards, Settings, Undo, move_from_json

from . import messages as p

PEEK_SECONDS = 5.0
SCOUT_SECONDS = 60.0
IDLE_SECONDS = 60.0
SEEN_AT = {"address_hash": "registration", "join_hash": "join", "play_hash": "play"}


def deals_in_game(settings: Settings) -> int:
    """How many deals the game holds: its draw piles, or its stock's rows."""
    rules = settings.rules
    if rules.draw_piles:
        return rules.draw_piles
    if rules.has_stock:
        return (rules.deck_size - sum(rules.layout)) // rules.columns
    return 0


def flagged(row: Any) -> p.FlaggedEntry:
    final = row["final_score"]
    return p.FlaggedEntry(
        entry_id=row["entry_id"],
        ordinal=row["ordinal"],
        player_id=row["player_id"],
        player=row["player"],
        status=row["status"],
        score=row["score"] if final is None else final,
    )


def shared_addresses(rows: list[Any]) -> list[p.SharedAddress]:
    flags = []
    for column, seen_at in SEEN_AT.items():
        groups: dict[bytes, list[Any]] = defaultdict(list)
        for row in rows:
            if row[column] is not None:
                groups[bytes(row[column])].append(row)
        for hashed, members in groups.items():
            if len({m["player_id"] for m in members}) < 2:
                continue
            name = hashed.hex()[:12]
            flags.append(
                p.SharedAddress(
                    address=name,
                    seen_at=seen_at,  # type: ignore[arg-type]
                    entries=[flagged(m) for m in members],
                    summary=f"{len(members)} entries of different players: {seen_at} from one address ({name})",
                )
            )
    return flags


def peeks(settings: Settings, seed: str, row: Any) -> list[p.Peek]:
    """Replay the entry's moves; every accepted undo that took back a revealing move soon after it."""
    game = Game(settings, seed, entry=row["ordinal"])  # the entry's own deal (renamed with deal_variation)
    undoable: list[tuple[int, float, int, int]] = []  # (move number, t, column, cards revealed)
    found = []
    for n, raw in enumerate(row["moves"], 1):
        t = float(raw.get("t", 0.0))
        try:
            move = move_from_json({k: v for k, v in raw.items() if k != "t"})
            result = game.play(move, t)
        except EngineError:  # never for committed moves; a report must not fail on one anyway
            continue
        if isinstance(move, MoveCards):
            if result.completed or (settings.reveals_final and result.revealed):
                undoable.clear()  # nothing before this can be taken back now
            else:
                undoable.append((n, t, move.src, result.revealed))
        elif isinstance(move, Deal):
            undoable.clear()
        elif isinstance(move, Undo) and undoable:
            m, mt, column, revealed = undoable.pop()
            if revealed and t - mt <= PEEK_SECONDS:
                found.append(p.Peek(move=m, t=mt, column=column, undo_move=n, undo_t=t, seconds=round(t - mt, 3)))
    return found


def scout(settings: Settings, row: Any, elapsed: float) -> p.Scout | None:
    """``elapsed``: the game's length so far (its time limit once over by time, else now - start)."""
    total = deals_in_game(settings)
    need = total // 2 + 1
    if total == 0 or row["started_at"] is None:
        return None
    moves = row["moves"]
    early = enumerate(moves, 1)
    deals = [(n, m) for n, m in early if m.get("type") == "deal" and float(m.get("t", 0)) <= SCOUT_SECONDS]
    if len(deals) < need:
        return None
    last_deal = deals[need - 1][0]
    evidence = [p.DealEvidence(move=n, t=float(m.get("t", 0)), pile=m.get("pile")) for n, m in deals]
    dealt = f"dealt {len(deals)} of {total} piles within {SCOUT_SECONDS:.0f} s of starting, then"

    def found(then: Literal["ended", "idled"], move: int, t: float, idle: float | None, what: str) -> p.Scout:
        return p.Scout(
            entry=flagged(row),
            deals=evidence,
            then=then,
            then_move=move,
            then_t=t,
            idle_seconds=idle,
            summary=f"{dealt} {what}",
        )

    at = float(moves[last_deal - 1].get("t", 0))
    at_move = last_deal
    for n, m in enumerate(moves[last_deal:], last_deal + 1):
        t = float(m.get("t", 0))
        if t - at >= IDLE_SECONDS:
            break
        if m.get("type") == "end":
            return found("ended", n, t, None, f"ended the game at {t:.1f} s (move {n})")
        at, at_move = t, n
    else:  # no pause between moves: the pause, if any, runs from the last move to the game's end or now
        if row["status"] == "ended":
            return None
        t = elapsed
        if t - at < IDLE_SECONDS:
            return None
    idle = round(t - at, 3)
    return found("idled", at_move, at, idle, f"nothing for {idle:.0f} s from {at:.1f} s (after move {at_move})")


def report(tour: Any, rows: list[Any], now: datetime) -> p.IntegrityReport:
    """The report for a tournament (its row) and its entries with their moves (``fairplay.store.integrity_rows``)."""
    settings = Settings.from_json(tour["settings"])
    flags: list[p.Flag] = list(shared_addresses(rows))
    # Several deals (docs/competitions.md): an entry's moves span its deals; the per-game checks
    # (undo peeks, scouting) read one game, so such a report holds the shared addresses only.
    games = rows if tour["settings"].get("deals", 1) == 1 else []
    for row in games:
        if row["started_at"] is None:
            continue
        found = peeks(settings, tour["seed"], row)
        if found:
            listed = ", ".join(f"move {k.move} undone by move {k.undo_move} after {k.seconds:.1f} s" for k in found)
            flags.append(p.UndoPeeks(entry=flagged(row), peeks=found, summary=f"{len(found)} peek(s): {listed}"))
    for row in games:
        if row["started_at"] is None:
            continue
        if row["status"] == "playing":
            elapsed = (now - row["started_at"]).total_seconds()
        else:
            ended = row["ended_at"] or now
            elapsed = (ended - row["started_at"]).total_seconds()
        elapsed = min(elapsed, float(settings.time_limit))
        found_scout = scout(settings, row, elapsed)
        if found_scout is not None:
            flags.append(found_scout)
    return p.IntegrityReport(
        tournament_id=tour["id"],
        name=tour["name"],
        status=tour["status"],
        generated_at=now,
        entries=len(rows),
        thresholds=p.Thresholds(
            peek_seconds=PEEK_SECONDS,
            scout_seconds=SCOUT_SECONDS,
            scout_deals=deals_in_game(settings) // 2 + 1,
            idle_seconds=IDLE_SECONDS,
        ),
        flags=flags,
    )
