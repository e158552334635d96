"""What the practice and analysis tests share: games played over the play websocket, finished
tournaments, and moves worked out with the engine and its solver."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from spidertour.engine import Deal, Game, MoveCards, Settings, move_from_json
from spidertour.engine.solver import solve_game
from tests.client import Api, Player

# One suit, no free column, no undo: the solver decides its positions at once.
ONE_SUIT: dict[str, Any] = {"variant": "spider78", "suits": 1, "free_column": False, "undo": False}


def reveals(seed: str, count: int, **settings: Any) -> list[dict[str, Any]]:
    """Moves that reveal ``count`` cards one after the other (each move reveals one), by the engine."""
    return revealing(Game(Settings(**settings), seed), count)


def revealing(game: Game, count: int) -> list[dict[str, Any]]:
    """Moves of ``game`` (played on it) that reveal ``count`` cards one after the other."""
    moves: list[dict[str, Any]] = []
    while len(moves) < count:
        for move in game.legal_moves():
            trial = game.copy()
            if not isinstance(move, Deal) and trial.play(move).revealed == 1:
                game.play(move)
                moves.append(move.to_json())
                break
        else:
            raise AssertionError(f"no move reveals a card after {moves}")
    return moves


def losing_line(seed: str, settings: dict[str, Any], budget: float = 1.0) -> list[dict[str, Any]]:
    """Moves from the deal of ``seed`` each of which keeps a win the solver finds, but the last, after
    which the solver proves the game lost (draw piles dealt early, at random)."""
    for attempt in range(20):
        rng = random.Random(attempt)
        game = Game(Settings(**settings), seed)
        moves: list[dict[str, Any]] = []
        while not game.over and len(moves) < 40:
            s = solve_game(game, seconds=budget, clock=time.process_time)
            if not s.won:
                if s.exhausted and moves:
                    return moves
                break
            legal = list(game.legal_moves())
            deals = [m for m in legal if isinstance(m, Deal)]
            move = deals[0] if deals and rng.random() < 0.5 else rng.choice(legal)
            game.play(move)
            moves.append(move.to_json())
    raise AssertionError("no losing line found")


def long_game(seed: str, count: int, **settings: Any) -> list[dict[str, Any]]:
    """``count`` recorded moves that never clear the undo history: random moves until a card can go
    to and fro without revealing anything, then that card to and fro (as bench/analysis_memory.py)."""
    game = Game(Settings(**settings), seed)
    rng = random.Random(seed)
    moves: list[dict[str, Any]] = []
    while len(moves) < count:
        legal = [m for m in game.legal_moves() if isinstance(m, MoveCards)]
        for m in legal:
            trial = game.copy()
            back = MoveCards(m.dst, m.count, m.src)
            if trial.play(m).revealed == 0 and not trial.over and back in trial.legal_moves():
                return moves + [(back if k % 2 else m).to_json() for k in range(count - len(moves))]
        move = rng.choice(legal) if legal else next(x for x in game.legal_moves() if isinstance(x, Deal))
        game.play(move)
        moves.append(move.to_json())
        assert not game.over, f"the game of {seed} ended before {count} moves"
    return moves


def positions_after(seed: str, settings: dict[str, Any], moves: list[dict[str, Any]]) -> list[Game]:
    game = Game(Settings(**settings), seed)
    games = [game.copy()]
    for m in moves:
        game.play(move_from_json(m))
        games.append(game.copy())
    return games


async def play(api: Api, ws_url: str, entry_id: int, token: str, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """Start the entry's game, play ``moves`` and end it: its ``over`` message."""
    player, state = await Player.connect(ws_url, entry_id, token)
    try:
        assert state["type"] == "state", state
        started = await player.start()
        assert started["type"] == "state" and started["status"] == "playing", started
        for move in moves:
            result = await player.play(move)
            assert result["type"] == "result", result
        ended = await player.play({"type": "end"})
        assert ended["type"] == "result", ended
        over = await player.recv()
        assert over["type"] == "over", over
        return over
    finally:
        await player.close()


def wait_until(what: str, check: Any, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"never {what}"
        time.sleep(0.2)


def wait_finished_with_par(api: Api, tid: int) -> dict[str, Any]:
    """The tournament once finished and its par worked out."""

    def done() -> dict[str, Any] | None:
        tour = api.tournament(tid)
        return tour if tour["status"] == "finished" and tour["par"] else None

    # The par waits its turn at the server's solver (a few CPU seconds a tournament, queued behind
    # others'): a minute leaves room for a busy machine.
    return wait_until("finished with a par", done, timeout=60.0)  # type: ignore[no-any-return]


def finished_pair(api: Api, ws_url: str, name: str, seed: str) -> int:
    """A finished tournament ``name`` of two players who each turned two cards (one suit, no free
    column, its par worked out): a deal to practise, replays with their analysis."""
    tid = api.create_tournament(name=name, seed=seed, closes_in=3, **ONE_SUIT)["id"]
    for player in ("ann", "bob"):
        _, token = api.register(player)
        eid = api.join(tid, token)["id"]
        asyncio.run(play(api, ws_url, eid, token, reveals(seed, 2, **ONE_SUIT)))
    wait_finished_with_par(api, tid)
    return int(tid)
