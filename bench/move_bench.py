"""What a move's own Python costs, apart from the network, the database and the event loop: the
steps the play session takes for each move, timed alone on one core, and the metrics it keeps.

    .venv/bin/python bench/move_bench.py [--games 40] [--moves 150] [--runs 5]

Games of ``spider78`` (2 suits) are played by a seeded random player (card moves, a deal now and
then) and each move kept as the frame a client sends. Each step is then timed over every frame, the
games replayed from their start, adding one step at a time, with the server's own functions:

1. the frame decoded (``play.messages.decode``);
2. the engine's move made and played (``shapes.engine_move``, ``Game.play``);
3. the commit's row made (``shapes.move_record``: the move's JSON and the entry's state after it);
4. the answer built and encoded (``shapes.result_of``, ``lib.messages.encoder``).

A step's cost is what adding it adds to the run before it (the best of ``--runs`` runs each). A
move costs the server far more than these steps: the event loop, the sockets, the commit and the
watchers come on top (docs/performance.md). Not a test; run by hand.
"""

from __future__ import annotations

import argparse
import random
import time
import timeit
from collections.abc import Callable

import msgspec

from spidertour.engine import Deal, Game, Move, MoveCards, Settings
from spidertour.server.lib.messages import encoder
from spidertour.server.operations.metrics import ACK_SECONDS, COMMIT_BATCH, MOVES, REFUSALS
from spidertour.server.play import messages as p
from spidertour.server.play.live import LiveGame
from spidertour.server.play.shapes import engine_move, move_record, result_of

SETTINGS = Settings(variant="spider78", suits=2)
MAX_MESSAGE = 4096

Frames = list[list[bytes]]  # per game, its moves as frames


def record(games: int, moves: int, seed: int) -> Frames:
    """Each game's moves, as the frames a client sends (a deal now and then, when one is legal)."""
    rng = random.Random(seed)
    out: Frames = []
    for g in range(games):
        game = Game(SETTINGS, f"move-bench-{g}")
        frames: list[bytes] = []
        while len(frames) < moves and not game.over:
            legal = list(game.legal_moves())
            cards = [m for m in legal if type(m) is MoveCards]
            deals = [m for m in legal if type(m) is Deal]
            if deals and (not cards or rng.random() < 0.03):
                move: Move = rng.choice(deals)
            elif cards:
                move = rng.choice(cards)
            else:
                break
            game.play(move, len(frames) * 0.5)
            frames.append(msgspec.json.encode({**move.to_json(), "seq": len(frames) + 1}))
        out.append(frames)
    return out


def live_game(g: int) -> LiveGame:
    """An entry playing game ``g`` as the session holds it."""
    return LiveGame(
        entry_id=g + 1,
        tournament_id=1,
        player_id=g + 1,
        player=f"p{g}",
        ordinal=g + 1,
        settings=SETTINGS,
        seed=f"move-bench-{g}",
        start="own",
        opens_at=0.0,
        status="playing",
        game=Game(SETTINGS, f"move-bench-{g}"),
        started=0.0,
        deadline=600.0,
        moves=0,
        last_seq=0,
        last_move=None,
        last_result=None,
    )


def run(frames: Frames, steps: int) -> tuple[float, int]:
    """CPU seconds for the first ``steps`` steps over every frame, and the frames handled."""
    lives = [live_game(g) for g in range(len(frames))]  # fresh games, made before the clock starts
    count = 0
    began = time.process_time()
    for live, game_frames in zip(lives, frames, strict=True):
        game = live.game
        assert game is not None
        for data in game_frames:
            msg = p.decode(data, MAX_MESSAGE)
            count += 1
            if steps < 2:
                continue
            assert isinstance(msg, p.PlayMove | p.PlayDeal)
            move = engine_move(msg)
            result = game.play(move, live.moves * 0.5)
            if steps < 3:
                continue
            move_json = move.to_json()
            move_record(live, 1, msg.seq, move_json)
            live.moves += 1
            if steps < 4:
                continue
            encoder.encode(result_of(live, msg.seq, move_json, result, 300.0))
    return time.process_time() - began, count


def per_call(fn: Callable[[], object], number: int = 200_000) -> float:
    return timeit.timeit(fn, number=number) / number


def ack() -> None:  # what PlaySession._frame adds around each move
    began = time.perf_counter()
    ACK_SECONDS.observe(time.perf_counter() - began)


def commit() -> None:  # what Play._commit adds to each batch
    COMMIT_BATCH.observe(20)
    MOVES.inc(20)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="move_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--moves", type=int, default=150, help="moves a game at most")
    parser.add_argument("--runs", type=int, default=5, help="runs of each step; the best counts")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    frames = record(args.games, args.moves, args.seed)
    names = ["the frame decoded", "the move made and played", "the commit's row made", "the answer built, encoded"]
    best = []
    count = 0
    for steps in range(1, len(names) + 1):
        times = [run(frames, steps) for _ in range(args.runs)]
        count = times[0][1]
        best.append(min(seconds for seconds, _ in times) / count)
    print(f"{count:,} moves of {len(frames)} games, the best of {args.runs} runs:")
    before = 0.0
    for name, total in zip(names, best, strict=True):
        print(f"  {name:<28} {(total - before) * 1e6:6.2f} us a move")
        before = total
    print(f"  {'together':<28} {best[-1] * 1e6:6.2f} us a move")
    base = per_call(lambda: None)
    print("the metrics:")
    print(f"  per move (ack histogram, two clock reads): {(per_call(ack) - base) * 1e9:6.0f} ns")
    print(f"  per commit batch (batch histogram, moves counter): {(per_call(commit) - base) * 1e9:6.0f} ns")
    refusal = per_call(lambda: REFUSALS.labels("face_down").inc())
    print(f"  per refusal (counter by code): {(refusal - base) * 1e9:6.0f} ns")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
