"""``spidertour verify --match ID``: check a match that is over (docs/matches.md) without trusting the
server, through ``GET /api/matches/{id}`` and its replays alone: the commitment recomputed from the
revealed salt, seed and settings; every seat's game rebuilt by the engine from the seed (its renamed
deal with ``deal_variation``: the seat's number is the entry ordinal it plays); every published final
score, time left and rank against the rebuilt games (equal score and time left: a draw, one rank)."""

from __future__ import annotations

from typing import Any

from .replay_checks import (
    Check,
    GameCheck,
    Report,
    commitment_of,
    fetch_published,
    game_check,
    settings_check,
)

OVER = ("over", "unmatched")


def fetch_match(client: Any, get: Any, match_id: int) -> tuple[dict[str, Any], str]:
    """The match that is over and its replays (``get``: verify.py's GET, None for a 404)."""
    return fetch_published(client, get, "match", match_id, "players", OVER, "over")


def _seat_checks(match: dict[str, Any], games: list[GameCheck]) -> list[Check]:
    seats = [p for p in match["players"] if isinstance(p, dict)]
    by_entry = {g.entry_id: g for g in games if g.entry_id is not None}
    listed: list[Any] = [p.get("entry_id") for p in seats]
    missing = [e for e in listed if e not in by_entry]
    extra = sorted(e for e in set(by_entry) - set(listed) if e is not None)
    problems = [f"seats with no replay: {missing}"] if missing else []
    problems += [f"replays of no seat: {extra}"] if extra else []
    for p in seats:
        g = by_entry.get(p["entry_id"]) if type(p.get("entry_id")) is int else None
        if g is None:
            continue
        g.rank, g.standing = p.get("rank"), p.get("final_score")
        if g.entry != p.get("seat"):
            g.problems.append(f"seat {p.get('seat')}, but its replay plays entry {g.entry}'s deal")
        if g.recomputed is not None and p.get("final_score") != g.recomputed:
            g.problems.append(f"the match gives {p.get('final_score')}, the replay gives {g.recomputed}")
        if g.time_left is not None and p.get("time_left") != g.time_left:
            g.problems.append(f"the match gives {p.get('time_left')} s left, the replay gives {g.time_left}")
    checks = [Check("seats", not problems, "; ".join(problems) or f"{len(seats)} seat(s), each replayed once")]
    played = [by_entry[p["entry_id"]] for p in seats if p.get("entry_id") in by_entry]
    if match["status"] == "unmatched":
        ranked = [g.entry_id for g in played if g.rank is not None]
        checks.append(Check("ranking", not ranked, f"ranked though unmatched: {ranked}" if ranked else "unmatched"))
    elif all(g.recomputed is not None and g.time_left is not None for g in played):
        keys = [(g.recomputed or 0, g.time_left or 0) for g in played]
        wrong = [g.entry_id for g, k in zip(played, keys, strict=True) if g.rank != 1 + sum(o > k for o in keys)]
        detail = f"wrong rank for entries {wrong}" if wrong else "score, then time left; equal on both, a draw"
        checks.append(Check("ranking", not wrong, detail))
    return checks


def verify_match_data(match: dict[str, Any], replays: str) -> Report:
    """Check what a server published about a match that is over (no I/O)."""
    seed, salt, settings = match.get("seed"), match.get("salt"), match.get("settings")
    shown = {**match, "name": f"match {match.get('id')} ({match.get('format')})", "finished_at": match.get("over_at")}
    if not isinstance(seed, str) or not isinstance(salt, str) or not isinstance(settings, dict):
        return Report(shown, [Check("seed", False, "the match over shows no seed, salt or settings")], [])
    expected = commitment_of(seed, settings, salt)
    published = match.get("commitment")
    checks = [
        Check("seed", True, f"revealed: {seed!r}"),
        Check("salt", True, f"revealed: {salt!r}"),
        settings_check(settings, True),
        Check(
            "commitment",
            expected == published,
            f"sha256 {expected}" if expected == published else f"published {published}, recomputed {expected}",
        ),
    ]
    games = [game_check(n, text, seed, settings) for n, text in enumerate(replays.splitlines(), 1) if text.strip()]
    return Report(shown, checks + _seat_checks(match, games), games)
