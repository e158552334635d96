"""The replay verifier of docs/replay.md: JSON Lines of games in, JSON Lines of steps out."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from .errors import BadMoveError, EngineError, SettingsError, shown
from .game import Game
from .moves import move_from_json
from .settings import Settings, check_seed


def _view(game: Game) -> dict[str, Any]:
    return game.view()


def deal_seed(seed: str, deal: Any) -> str:
    """The seed string a game is dealt from: the line's ``seed``, or ``<seed>/<deal>`` for deal
    ``deal`` (1, 2, ...) of a tournament of several deals."""
    if deal is None:
        return seed
    if type(deal) is not int or deal < 1:
        raise SettingsError(f"'deal' must be a whole number from 1 (which deal of several), not {shown(deal)}")
    return check_seed(f"{seed}/{deal}")


def replay_game(spec: Any) -> dict[str, Any]:
    """Replay one game given as an input object of docs/replay.md. Raises SettingsError if it is not a game."""
    if not isinstance(spec, dict):
        raise SettingsError("a game must be a JSON object")
    if "variant" not in spec and "status_code" in spec and "detail" in spec:  # an HTTP error's body
        raise SettingsError(f"the server's error answer {spec['status_code']}: {spec['detail']}")
    for name in ("variant", "suits", "seed"):
        if spec.get(name) is None:  # null would otherwise fall back to a default
            raise SettingsError(f"a game needs {name!r}")
    settings = Settings.from_json(spec)
    entry = spec.get("entry") if settings.deal_variation else None
    if settings.deal_variation and entry is None:
        raise SettingsError("deal_variation is on: the game needs 'entry', its entry's ordinal (1, 2, ...)")
    game = Game(settings, deal_seed(check_seed(spec["seed"]), spec.get("deal")), entry)
    moves = spec.get("moves", [])
    if not isinstance(moves, list):
        raise SettingsError("'moves' must be a list")
    initial = _view(game)
    steps = [_step(game, raw) for raw in moves]
    return {"initial": initial, "steps": steps, "final_score": game.final_score}


def _step(game: Game, raw: Any) -> dict[str, Any]:
    try:
        if isinstance(raw, dict) and raw.get("t") is not None:
            game.tick(raw["t"])
        game.play(move_from_json(raw))
    except EngineError as err:
        return {**_view(game), "ok": False, "error": err.reason, "code": err.code}
    return {**_view(game), "ok": True}


def replay_line(line: str) -> dict[str, Any]:
    """The output of one input line: the replay, or {"error": ...} when the line is not a game."""
    try:
        return replay_game(json.loads(line))
    except (ValueError, RecursionError):
        return {"error": "not valid JSON"}
    except EngineError as err:
        return {"error": err.reason}


def replay_lines(lines: Iterable[str]) -> Iterator[str]:
    """One output line per input line, in order; a line that is not a game gives {"error": ...}."""
    for line in lines:
        if line.strip():
            yield json.dumps(replay_line(line), separators=(",", ":"))


__all__ = ["BadMoveError", "deal_seed", "replay_game", "replay_line", "replay_lines"]
