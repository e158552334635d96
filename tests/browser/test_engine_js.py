"""The browser's engine (server/static/js/engine/) against the deal vectors and the Python engine."""

from __future__ import annotations

import json
import random
from typing import Any

import asyncpg
from playwright.async_api import Page

from spidertour.engine import Deal, End, Game, MoveCards, Settings, Undo
from spidertour.engine.deals.variation import Renaming
from spidertour.engine.replay import replay_game
from spidertour.server.fairplay import commitment as fairness
from tests import paths
from tests.client import Api

VECTORS = json.loads((paths.VECTORS / "deal-vectors.json").read_text())
ENTRY_VECTORS = json.loads((paths.VECTORS / "entry-vectors.json").read_text())

IMPORT = "const engine = await import('/js/engine/index.js'); const sha = await import('/js/lib/sha256.js');"


async def test_every_deal_vector(page: Page) -> None:
    await page.goto("/#/settings")
    assert await page.evaluate("() => !!crypto.subtle")  # 127.0.0.1 is a secure context
    mismatches = await page.evaluate(
        f"""async (vectors) => {{
            {IMPORT}
            const bad = [];
            for (const v of vectors) {{
              const got = await engine.dealJson({{variant: v.variant, suits: v.suits}}, v.seed);
              for (const key of ['shuffled', 'columns', 'draw_piles', 'stock']) {{
                if (JSON.stringify(got[key]) !== JSON.stringify(v[key])) bad.push([v.variant, v.suits, v.seed, key]);
              }}
            }}
            return bad;
        }}""",
        VECTORS,
    )
    assert len(VECTORS) >= 40
    assert mismatches == []


async def test_every_entry_vector(page: Page) -> None:
    """docs/deal.md section 6: each entry's renamed deal, exactly as entry-vectors.json holds it."""
    await page.goto("/#/settings")
    mismatches = await page.evaluate(
        f"""async (vectors) => {{
            {IMPORT}
            const bad = [];
            for (const v of vectors) {{
              const settings = {{variant: v.variant, suits: v.suits, deal_variation: true}};
              if ('draw_pile_choice' in v) settings.draw_pile_choice = v.draw_pile_choice;
              const got = await engine.dealJson(settings, v.seed, undefined, v.entry);
              if (JSON.stringify(got) !== JSON.stringify(v)) bad.push([v.variant, v.suits, v.seed, v.entry]);
            }}
            return bad;
        }}""",
        ENTRY_VECTORS,
    )
    assert len(ENTRY_VECTORS) >= 60
    assert mismatches == []


async def test_renaming_like_the_python_engine(page: Page) -> None:
    cases: list[tuple[dict[str, Any], str, int]] = [
        ({"variant": v, "suits": n, "deal_variation": True, "draw_pile_choice": c}, f"seed-{v}", e)
        for v, n in (("spider78", 2), ("spider", 4), ("huge_spider", 2), ("curds_and_whey", 4))
        for c in (True, False)
        for e in (1, 77)
    ]
    await page.goto("/#/settings")
    from_js = await page.evaluate(
        f"""async (cases) => {{
            {IMPORT}
            const out = [];
            for (const [settings, seed, entry] of cases) {{
              const r = await engine.Renaming.of(settings, seed, entry);
              const move = {{type: "move", from: 1, count: 2, to: 4, t: 2.5}};
              const deal = r.move({{type: "deal", pile: 3}});
              out.push([r.suits, r.sigma, r.piles, r.move(move), r.moveBack(r.move(move)), deal]);
            }}
            let refused = null;
            try {{ await engine.newGame(cases[0][0], "x"); }} catch (err) {{ refused = err.code; }}
            let zero = null;
            try {{ await engine.newGame(cases[0][0], "x", undefined, 0); }} catch (err) {{ zero = err.code; }}
            return [out, refused, zero];
        }}""",
        cases,
    )
    out, refused, zero = from_js
    assert (refused, zero) == ("bad_settings", "bad_settings")
    for (settings, seed, entry), (suits, sigma, piles, moved, back, dealt) in zip(cases, out, strict=True):
        r = Renaming.of(Settings(**settings), seed, entry)
        assert (tuple(suits), tuple(sigma), tuple(piles)) == (r.suits, r.sigma, r.piles)
        move = {"type": "move", "from": 1, "count": 2, "to": 4, "t": 2.5}
        assert moved == r.move_json(move) and back == move
        assert dealt == r.move_json({"type": "deal", "pile": 3})


async def test_plain_javascript_sha256_deals_alike(page: Page) -> None:
    """Pages served over plain http away from localhost have no crypto.subtle: the fallback must agree."""
    await page.goto("/#/settings")
    picked = [v for v in VECTORS if v["variant"] in ("spider78", "huge_spider") and v["suits"] == 2]
    result = await page.evaluate(
        f"""async (vectors) => {{
            {IMPORT}
            const out = [];
            for (const v of vectors) {{
              const hash = async (bytes) => sha.sha256(bytes);
              out.push((await engine.dealJson({{variant: v.variant, suits: v.suits}}, v.seed, hash)).shuffled);
            }}
            const long = new Uint8Array(1000).fill(97);
            out.push(sha.hex(sha.sha256(long)) === sha.hex(await sha.digest(long)));
            return out;
        }}""",
        picked,
    )
    assert result == [v["shuffled"] for v in picked] + [True]


def random_game(
    variant: str, suits: int, seed: str, rng: random.Random, steps: int = 50, **extra: Any
) -> dict[str, Any]:
    """A game with legal moves, deals, undos, refused moves and time, ending or running out of time.

    ``extra``: more settings (``reveals_final``, ``deal_variation``) and the ``entry``."""
    entry = extra.pop("entry", None)
    settings = Settings(variant=variant, suits=suits, time_limit=300, undo_limit=6, **extra)
    game = Game(settings, seed, entry)
    moves: list[dict[str, Any]] = []
    t = 0.0
    for _ in range(steps):
        t += rng.uniform(0.1, 3)
        legal = list(game.legal_moves())
        roll = rng.random()
        if roll < (0.3 if settings.reveals_final else 0.1):
            move: Any = Undo()
        elif roll < 0.18:
            width = len(game.columns)
            move = MoveCards(rng.randrange(width), rng.randint(1, 3), rng.randrange(width))
        elif legal:
            cards = [m for m in legal if m.type == "move"]
            move = rng.choice(cards) if cards and rng.random() < 0.85 else rng.choice(legal)
        else:
            move = Deal() if game.stock is not None else Deal(0)
        moves.append({**move.to_json(), "t": round(t, 3)})
        if game.is_legal(move):
            game.play(move)
    moves.append({**(End().to_json()), "t": round(t + 1, 3)} if rng.random() < 0.5 else {"type": "end", "t": 300})
    line = {"variant": variant, "suits": suits, "seed": seed, "time_limit": 300, "undo_limit": 6, "moves": moves}
    return {**line, **extra, **({} if entry is None else {"entry": entry})}


async def test_replays_step_for_step_like_the_python_engine(page: Page) -> None:
    rng = random.Random(20261122)
    games = [
        random_game(variant, suits, f"replay-{variant}-{i}", rng)
        for i, (variant, suits) in enumerate(
            [
                ("spider78", 2),
                ("spider78", 1),
                ("spider", 4),
                ("huge_spider", 2),
                ("black_widow", 4),
                ("curds_and_whey", 4),
            ]
        )
    ]
    games += [
        random_game("spider78", 2, "fair-78", rng, 80, reveals_final=True, deal_variation=True, entry=3),
        random_game("spider78", 1, "fair-78-inorder", rng, 80, deal_variation=True, entry=12, draw_pile_choice=False),
        random_game("spider", 2, "fair-spider", rng, 80, reveals_final=True),
        random_game("black_widow", 4, "fair-widow", rng, 80, reveals_final=True, deal_variation=True, entry=1),
        random_game("huge_spider", 4, "fair-huge", rng, 60, deal_variation=True, entry=999),
        random_game("curds_and_whey", 4, "fair-curds", rng, 60, reveals_final=True, deal_variation=True, entry=2),
    ]
    await page.goto("/#/settings")
    from_js = await page.evaluate(
        f"""async (games) => {{
            {IMPORT}
            const out = [];
            for (const g of games) out.push(await engine.replayGame(g));
            return out;
        }}""",
        games,
    )
    from_python = [replay_game(g) for g in games]
    assert sum(1 for g in from_python for s in g["steps"] if not s["ok"]) > 5  # refused moves were tried
    assert any(s.get("code") == "reveals_final" for g in from_python for s in g["steps"])
    refusals = {s.get("error") for g in from_python for s in g["steps"]}
    assert "a deal cannot be taken back, nor anything before it" in refusals  # said alike by both engines
    for js, py in zip(from_js, from_python, strict=True):
        assert js["initial"] == py["initial"]
        for i, (a, b) in enumerate(zip(js["steps"], py["steps"], strict=True)):
            assert a == b, f"step {i}"
        assert js["final_score"] == py["final_score"]


async def test_commitment_as_the_server_computes_it(page: Page, api: Api, database_url: str) -> None:
    seed = "s\u00e9ed \u2660 42"
    tour = api.create_tournament(name="Committed", seed=seed, variant="spider", suits=2)
    conn = await asyncpg.connect(database_url)
    try:
        salt = await conn.fetchval("SELECT salt FROM tournaments WHERE id = $1", tour["id"])
    finally:
        await conn.close()
    await page.goto("/#/settings")
    compute = f"""async ([seed, settings, salt]) => {{ {IMPORT} return engine.commitment(seed, settings, salt); }}"""
    assert await page.evaluate(compute, [seed, tour["settings"], salt]) == tour["commitment"]
    assert await page.evaluate(compute, ["another seed", tour["settings"], salt]) != tour["commitment"]
    # Tournaments created before salts: the seed and settings alone.
    unsalted = await page.evaluate(compute, [seed, tour["settings"], None])
    assert unsalted == fairness.commitment(seed, tour["settings"], None) != tour["commitment"]
