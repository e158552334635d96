"""``spidertour verify --bracket ID``: check a finished knockout bracket (docs/matches.md) without
trusting the server, through ``GET /api/brackets/{id}`` and its replays alone: the commitment
recomputed from the revealed salt, seed and settings; every game rebuilt by the engine from
``<seed>/<round>``; every published score and time left against the rebuilt games; every winner by
the rule (the higher final score, then more time left, then the higher seed; absent: 0, and loses to
one who played)."""

from __future__ import annotations

import json
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


def fetch_bracket(client: Any, get: Any, bracket_id: int) -> tuple[dict[str, Any], str]:
    """The finished bracket and its replays (``get``: verify.py's GET, None for a 404)."""
    return fetch_published(client, get, "bracket", bracket_id, "rounds", ("finished",), "finished")


def _round_of(text: str) -> int:
    try:
        line = json.loads(text)
    except (ValueError, RecursionError):
        return 0
    found = line.get("round") if isinstance(line, dict) else None
    return found if type(found) is int else 0


def _pairing_problems(bracket: dict[str, Any], games: dict[int, GameCheck]) -> list[str]:
    problems = []
    for rnd in bracket["rounds"]:
        for pairing in rnd.get("pairings", []):
            sides = [p for p in pairing.get("players", []) if isinstance(p, dict)]
            if len(sides) == 1:
                if pairing.get("winner") != sides[0].get("player_id"):
                    problems.append(f"round {rnd.get('round')}: a bye not won by its player")
                continue
            keys = []
            for p in sides:
                g = games.get(p.get("entry_id"))  # type: ignore[arg-type]
                if g is None:
                    problems.append(f"round {rnd.get('round')}: no replay of entry {p.get('entry_id')}")
                    break
                g.standing = p.get("final_score")
                if (p.get("final_score"), p.get("time_left")) != (g.recomputed, g.time_left):
                    g.problems.append(f"the bracket gives {p.get('final_score')} and {p.get('time_left')} s left")
                played = g.status != "absent"
                keys.append((g.disqualified is None, played, g.recomputed or 0, g.time_left or 0, -p["seed"], p))
            else:
                if all(k[0] for k in keys):
                    best = max(keys, key=lambda k: k[:5])[5]
                    if pairing.get("winner") != best.get("player_id"):
                        problems.append(f"round {rnd.get('round')}: {best.get('player')} won by the rule")
    return problems


def verify_bracket_data(bracket: dict[str, Any], replays: str) -> Report:
    """Check what a server published about a finished bracket (no I/O)."""
    seed, salt, settings = bracket.get("seed"), bracket.get("salt"), bracket.get("settings")
    shown = {**bracket, "name": f"bracket {bracket.get('id')} ({bracket.get('name')})"}
    if not isinstance(seed, str) or not isinstance(salt, str) or not isinstance(settings, dict):
        return Report(shown, [Check("seed", False, "the finished bracket shows no seed, salt or settings")], [])
    expected = commitment_of(seed, settings, salt)
    published = bracket.get("commitment")
    checks = [
        Check("seed", True, f"revealed: {seed!r} (round r on {seed}/r)"),
        settings_check(settings, True),
        Check(
            "commitment",
            expected == published,
            f"sha256 {expected}" if expected == published else f"published {published}, recomputed {expected}",
        ),
    ]
    games = [
        game_check(n, text, f"{seed}/{_round_of(text)}", settings)
        for n, text in enumerate(replays.splitlines(), 1)
        if text.strip()
    ]
    problems = _pairing_problems(bracket, {g.entry_id: g for g in games if g.entry_id is not None})
    detail = "; ".join(problems) or "every score, time left and winner as the games give them"
    return Report(shown, [*checks, Check("pairings", not problems, detail)], games)
