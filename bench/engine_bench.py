"""How fast the rules engine plays, lists and replays spider78 2-suit games.

Run by hand:  python bench/engine_bench.py [--games N] [--moves N] [--seconds S] [--json]

Games are played by a seeded random player (mostly card moves, a deal now and then, an undo now
and then) and recorded; the figures time the engine on those recordings:

- validated moves/s: ``Game.play(move, t)`` on fresh games, every move fully checked;
- legal-move listings/s: ``list(game.legal_moves())`` on positions met during the games;
- replays: a recorded 300-move game rebuilt from its JSON line (``json.loads``, settings, deal
  from the seed, ``move_from_json`` and ``play`` for each move) to its final position and score;
  the same from pre-parsed move objects; and ``engine.replay.replay_game``, which also builds
  the full view after every step.

Targets on one core: >= 250,000 validated moves/s, a 300-move game replayed in <= 2 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from spidertour.engine import Deal, Game, MoveCards, Settings, Undo, move_from_json
from spidertour.engine.replay import replay_game

SETTINGS = Settings(variant="spider78", suits=2)
TARGET_MOVES_PER_SECOND = 250_000
TARGET_REPLAY_MS = 2.0


def record_game(seed: str, length: int, rng: random.Random) -> tuple[list[Any], list[float], list[Game]]:
    """A random player's game: its moves, their times, and the positions it met (copies)."""
    game = Game(SETTINGS, seed)
    moves: list[Any] = []
    times: list[float] = []
    positions: list[Game] = []
    t = 0.0
    while len(moves) < length and not game.over:
        positions.append(game.copy())
        legal = list(game.legal_moves())
        cards = [m for m in legal if type(m) is MoveCards]
        deals = [m for m in legal if type(m) is Deal]
        roll = rng.random()
        if deals and (not cards or roll < 0.03):
            move: Any = rng.choice(deals)
        elif game.can_undo and roll < 0.08:
            move = Undo()
        elif cards:
            move = rng.choice(cards)
        else:
            break
        t += rng.uniform(0.2, 1.6)
        game.play(move, t)
        moves.append(move)
        times.append(round(t, 3))
    return moves, times, positions


def best_of(runs: int, fn: Callable[[], None]) -> float:
    """The shortest wall time of ``runs`` calls (the least disturbed by the rest of the machine)."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="recorded games (default 20)")
    parser.add_argument("--moves", type=int, default=300, help="moves per game (default 300)")
    parser.add_argument("--runs", type=int, default=7, help="timed runs per figure, best kept (default 7)")
    parser.add_argument("--seed", type=int, default=1, help="the random player's seed")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    recorded = [record_game(f"bench-{i}", args.moves, rng) for i in range(args.games)]
    templates = [Game(SETTINGS, f"bench-{i}") for i in range(args.games)]
    move_count = sum(len(moves) for moves, _, _ in recorded)
    deal_count = sum(type(m) is Deal for moves, _, _ in recorded for m in moves)
    undo_count = sum(type(m) is Undo for moves, _, _ in recorded for m in moves)
    positions = [p for _, _, ps in recorded for p in ps]
    lines = [
        json.dumps(
            {
                "variant": "spider78",
                "suits": 2,
                "seed": f"bench-{i}",
                "moves": [{**m.to_json(), "t": t} for m, t in zip(moves, times, strict=True)],
            }
        )
        for i, (moves, times, _) in enumerate(recorded)
    ]
    specs = [json.loads(line) for line in lines]

    # (a) validated moves: play every recorded move, with its time, on a fresh copy of its deal.
    def play_all() -> None:
        for template, (moves, times, _) in zip(templates, recorded, strict=True):
            game = template.copy()
            play = game.play
            for move, t in zip(moves, times, strict=True):
                play(move, t)

    def play_all_untimed() -> None:
        for template, (moves, _, _) in zip(templates, recorded, strict=True):
            game = template.copy()
            play = game.play
            for move in moves:
                play(move)

    # (b) legal-move listings on every position the games met.
    def list_all() -> None:
        for game in positions:
            list(game.legal_moves())

    # (c) replays to the final score.
    def replay_from_lines() -> None:
        for line in lines:
            spec = json.loads(line)
            game = Game(Settings.from_json(spec), spec["seed"])
            play = game.play
            for raw in spec["moves"]:
                play(move_from_json(raw), raw.get("t"))
            game.final_score  # noqa: B018

    def replay_from_moves() -> None:
        for i, (moves, times, _) in enumerate(recorded):
            game = Game(SETTINGS, f"bench-{i}")
            play = game.play
            for move, t in zip(moves, times, strict=True):
                play(move, t)
            game.final_score  # noqa: B018

    def replay_with_views() -> None:
        for spec in specs:
            replay_game(spec)

    # Same final positions whichever way the games are replayed.
    finals = []
    for i, (moves, times, _) in enumerate(recorded):
        game = Game(SETTINGS, f"bench-{i}")
        for move, t in zip(moves, times, strict=True):
            game.play(move, t)
        finals.append(game.position())
    for spec, final in zip(specs, finals, strict=True):
        game = Game(SETTINGS, spec["seed"])
        for raw in spec["moves"]:
            game.play(move_from_json(raw), raw.get("t"))
        assert game.position() == final

    games = len(recorded)
    per_game = move_count / games
    t_play = best_of(args.runs, play_all)
    t_untimed = best_of(args.runs, play_all_untimed)
    t_list = best_of(args.runs, list_all)
    t_lines = best_of(args.runs, replay_from_lines)
    t_moves = best_of(args.runs, replay_from_moves)
    t_views = best_of(max(1, args.runs // 2), replay_with_views)

    def deal_all() -> None:
        for i in range(games):
            Game(SETTINGS, f"bench-{i}")

    t_deal = best_of(args.runs, deal_all)

    figures = {
        "games": games,
        "moves": move_count,
        "moves_per_game": round(per_game, 1),
        "deals": deal_count,
        "undos": undo_count,
        "validated_moves_per_second": round(move_count / t_play),
        "validated_moves_per_second_no_time": round(move_count / t_untimed),
        "legal_listings_per_second": round(len(positions) / t_list),
        "new_game_from_seed_ms": round(t_deal / games * 1000, 4),
        "replay_json_line_ms": round(t_lines / games * 1000, 4),
        "replay_json_line_per_second": round(games / t_lines, 1),
        "replay_move_objects_ms": round(t_moves / games * 1000, 4),
        "replay_move_objects_per_second": round(games / t_moves, 1),
        "replay_with_views_ms": round(t_views / games * 1000, 4),
        "replay_with_views_per_second": round(games / t_views, 1),
    }
    figures["meets_moves_target"] = figures["validated_moves_per_second"] >= TARGET_MOVES_PER_SECOND
    figures["meets_replay_target"] = figures["replay_json_line_ms"] <= TARGET_REPLAY_MS

    if args.json:
        print(json.dumps(figures))
        return 0
    rows = [
        (
            "validated moves/s, play(move, t)",
            f"{figures['validated_moves_per_second']:,}",
            f">= {TARGET_MOVES_PER_SECOND:,}",
        ),
        ("validated moves/s, play(move)", f"{figures['validated_moves_per_second_no_time']:,}", ""),
        ("legal-move listings/s", f"{figures['legal_listings_per_second']:,}", ""),
        ("new game from a seed, ms", f"{figures['new_game_from_seed_ms']:.3f}", ""),
        (
            f"replay from JSON line, ms ({per_game:.0f} moves)",
            f"{figures['replay_json_line_ms']:.3f}",
            f"<= {TARGET_REPLAY_MS}",
        ),
        ("replay from JSON line, games/s", f"{figures['replay_json_line_per_second']:,.0f}", ""),
        ("replay from move objects, ms", f"{figures['replay_move_objects_ms']:.3f}", ""),
        ("replay_game with a view per step, ms", f"{figures['replay_with_views_ms']:.3f}", ""),
    ]
    print(f"spider78, 2 suits: {games} games, {move_count} moves ({deal_count} deals, {undo_count} undos)")
    width = max(len(r[0]) for r in rows)
    print(f"{'figure':<{width}}  {'value':>12}  target")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>12}  {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
