"""docs/deal.md section 6 (``deal_variation``): every vector of docs/vectors/entry-vectors.json, the entry's
game, the renaming's maps, the replay verifier and the notation with an entry."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from spidertour.engine import Deal, End, Game, MoveCards, NotationError, Settings, SettingsError, Undo
from spidertour.engine.cards import card_text, parse_card
from spidertour.engine.deals.variation import Renaming, column_groups, permutation
from spidertour.engine.deals.vectors import deal_json
from spidertour.engine.replay import replay_game, replay_lines
from tests import paths

ROOT = paths.ROOT
VECTORS: list[dict[str, Any]] = json.loads((paths.VECTORS / "entry-vectors.json").read_text(encoding="utf-8"))
BASE: list[dict[str, Any]] = json.loads((paths.VECTORS / "deal-vectors.json").read_text(encoding="utf-8"))
SPIDERTOUR = Path(sys.executable).parent / "spidertour"


def label(v: dict[str, Any]) -> str:
    choice = "" if "draw_pile_choice" not in v else ("-choice" if v["draw_pile_choice"] else "-inorder")
    return f"{v['variant']}-{v['suits']}-{v['seed'][:6]}-e{v['entry']}{choice}"


def vector_settings(v: dict[str, Any], **kw: Any) -> Settings:
    return Settings(
        variant=v["variant"],
        suits=v["suits"],
        draw_pile_choice=v.get("draw_pile_choice", True),
        deal_variation=True,
        **kw,
    )


def text(cards: list[int]) -> str:
    return " ".join(card_text(c) for c in cards)


def test_vectors_cover_every_game_and_both_pile_orders() -> None:
    assert {v["variant"] for v in VECTORS} == {"spider78", "spider", "huge_spider", "black_widow", "curds_and_whey"}
    assert {v["draw_pile_choice"] for v in VECTORS if v["variant"] == "spider78"} == {True, False}
    assert {v["entry"] for v in VECTORS} >= {1, 2}
    assert len(VECTORS) >= 60


@pytest.mark.parametrize("vector", VECTORS, ids=label)
def test_deal_json_reproduces_entry_vector(vector: dict[str, Any]) -> None:
    assert deal_json(vector_settings(vector), vector["seed"], vector["entry"]) == vector


@pytest.mark.parametrize("vector", VECTORS, ids=label)
def test_entry_game_starts_from_vector(vector: dict[str, Any]) -> None:
    settings = vector_settings(vector)
    game = Game(settings, vector["seed"], vector["entry"])
    width = settings.rules.columns
    assert game.entry == vector["entry"]
    assert [text(c) for c in game.columns[:width]] == vector["columns"]
    face_up = vector["variant"] == "curds_and_whey"
    assert game.down[:width] == [0 if face_up else len(c) - 1 for c in game.columns[:width]]
    if "draw_piles" in vector:
        assert [p["top"] for p in game.view()["draw_piles"]] == [p.split()[0] for p in vector["draw_piles"]]
    if "stock" in vector:
        assert text(game.stock or []) == vector["stock"]
    # The same deal as the base one, renamed (Renaming.game on the seed's own deal).
    base = Game(replace(settings, deal_variation=False), vector["seed"])
    renamed = Renaming.of(settings, vector["seed"], vector["entry"]).game(base)
    assert renamed.position() + f" e{vector['entry']}" == game.position()


def test_two_entries_see_different_boards_of_the_same_cards() -> None:
    settings = Settings(variant="spider", suits=4, deal_variation=True)
    one, two = Game(settings, "cup", 1), Game(settings, "cup", 2)
    assert one.columns != two.columns
    assert sorted(len(c) for c in one.columns) == sorted(len(c) for c in two.columns)

    def every(g: Game) -> Counter[int]:
        return Counter(c for col in g.columns for c in col) + Counter(g.stock or [])

    assert every(one) == every(two)


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)


@pytest.mark.parametrize("choice", [True, False])
def test_python_m_engine_deal_with_entry_reproduces_vector(choice: bool) -> None:
    vector = next(
        v
        for v in VECTORS
        if v["variant"] == "spider78"
        and v["draw_pile_choice"] is choice
        and not v["seed"].isascii()
        and v["entry"] == 2
    )
    args = [
        sys.executable,
        "-m",
        "spidertour.engine",
        "deal",
        "--variant",
        "spider78",
        "--suits",
        str(vector["suits"]),
        "--seed",
        vector["seed"],
        "--entry",
        "2",
    ]
    proc = run(args + ([] if choice else ["--no-draw-pile-choice"]))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == vector


def test_spidertour_deal_with_entry_reproduces_vector() -> None:
    vector = next(v for v in VECTORS if v["variant"] == "huge_spider")
    proc = run(
        [
            str(SPIDERTOUR),
            "deal",
            "--variant",
            "huge_spider",
            "--suits",
            str(vector["suits"]),
            "--seed",
            vector["seed"],
            "--entry",
            str(vector["entry"]),
        ]
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == vector


@pytest.mark.parametrize("entry", ["0", "-3", "x"])
def test_deal_command_refuses_a_bad_entry(entry: str) -> None:
    proc = run(
        [
            sys.executable,
            "-m",
            "spidertour.engine",
            "deal",
            "--variant",
            "spider",
            "--suits",
            "1",
            "--seed",
            "s",
            "--entry",
            entry,
        ]
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert "entry" in proc.stderr


# ------------------------------------------------------------------ the entry's game


@pytest.mark.parametrize("entry", [None, 0, -1, True, 1.0, "1", 2**53, [1]])
def test_deal_variation_needs_a_whole_entry_from_one(entry: Any) -> None:
    settings = Settings(variant="spider78", suits=2, deal_variation=True)
    with pytest.raises(SettingsError) as info:
        Game(settings, "abc", entry)
    assert "entry" in info.value.reason
    with pytest.raises(SettingsError):
        deal_json(settings, "abc", entry)


def test_without_deal_variation_the_entry_is_ignored() -> None:
    settings = Settings(variant="spider78", suits=2)
    base = Game(settings, "abc").position()
    for entry in (None, 1, 7, 0, "anything"):
        game = Game(settings, "abc", entry)  # type: ignore[arg-type]
        assert game.entry is None and game.position() == base
    assert deal_json(settings, "abc", 3) == deal_json(settings, "abc")


def test_game_new_takes_the_entry() -> None:
    game = Game.new("abc", entry=5, variant="black_widow", suits=2, deal_variation=True)
    assert game.position() == Game(Settings(variant="black_widow", suits=2, deal_variation=True), "abc", 5).position()


def test_largest_entry_deals() -> None:
    settings = Settings(variant="curds_and_whey", deal_variation=True)
    assert Game(settings, "abc", 2**53 - 1).entry == 2**53 - 1


# ------------------------------------------------------------------ the renaming


def test_permutation_and_groups_follow_deal_md() -> None:
    assert column_groups((5, 5, 5, 5, 5, 5, 4, 4)) == [range(0, 6), range(6, 8)]
    assert column_groups((4,) * 13) == [range(0, 13)]
    assert permutation(iter([]), 1) == [0]  # nothing drawn
    # n = 3 from [0, 1, 2]: i = 2 draws j = 7 % 3 = 1 -> [0, 2, 1]; i = 1 draws j = 4 % 2 = 0 -> [2, 0, 1].
    assert permutation(iter([7, 4]), 3) == [2, 0, 1]


def test_renaming_is_drawn_in_deal_md_order() -> None:
    """Suits, then each column group left to right, then the piles, from seed + ":entry:" + ordinal."""
    from spidertour.engine.deals.shuffle import random_stream

    settings = Settings(variant="spider78", suits=2, deal_variation=True)
    stream = random_stream("abc:entry:2")
    suits = permutation(stream, 2)
    left, right = permutation(stream, 6), permutation(stream, 2)
    piles = permutation(stream, 5)
    r = Renaming.of(settings, "abc", 2)
    assert r.suits == (*suits, 2, 3)
    assert r.sigma == (*left, *(6 + c for c in right), 8)  # the free column stays put
    assert r.piles == tuple(piles)
    in_order = Renaming.of(replace(settings, draw_pile_choice=False), "abc", 2)
    assert in_order.piles == (0, 1, 2, 3, 4) and in_order.sigma == r.sigma


def test_renaming_maps_cards_moves_and_back() -> None:
    settings = Settings(variant="spider", suits=4, deal_variation=True)
    r = Renaming.of(settings, "maps", 3)
    back = r.inverse()
    for c in [parse_card(t) for t in ("AS", "KH", "7D", "TC")]:
        assert r.card_back(r.card(c)) == c and back.card(r.card(c)) == c
        assert (r.card(c) & 15) == (c & 15)  # ranks never change
    assert sorted(r.card(s * 16) >> 4 for s in range(4)) == [0, 1, 2, 3]
    assert r.card_text("??") == "??"
    assert r.card_text("AS") == card_text(r.card(parse_card("AS")))
    for move in (MoveCards(0, 3, 9), MoveCards(4, 1, 5), Deal(), Undo(), End()):
        assert r.move_back(r.move(move)) == move
    assert r.move(MoveCards(0, 2, 9)) == MoveCards(r.sigma[0], 2, r.sigma[9])
    assert r.move(MoveCards(10, 1, 0)) == MoveCards(10, 1, r.sigma[0])  # out of range: kept, refused alike
    assert r.move_json({"type": "move", "from": 1, "count": 2, "to": 7, "t": 3.5}) == {
        "type": "move",
        "from": r.sigma[1],
        "count": 2,
        "to": r.sigma[7],
        "t": 3.5,
    }
    assert Renaming.identity(settings).move(MoveCards(1, 1, 2)) == MoveCards(1, 1, 2)


def test_renaming_maps_piles_in_spider78() -> None:
    settings = Settings(variant="spider78", suits=1, deal_variation=True)
    r = Renaming.of(settings, "abc", 1)
    assert r.move(Deal(0)) == Deal(r.piles[0])
    assert r.move_json({"type": "deal", "pile": 4}) == {"type": "deal", "pile": r.piles[4]}
    assert r.move(Deal(9)) == Deal(9)
    base = Game(replace(settings, deal_variation=False), "abc")
    game = Game(settings, "abc", 1)
    for p in range(5):  # a pile deals onto the same columns, renamed
        b, g = base.copy(), game.copy()
        b.play(Deal(p))
        g.play(r.move(Deal(p)))
        assert g.position() == r.game(b).position() + " e1"


def test_renaming_a_part_row_reserve_is_refused() -> None:
    settings = Settings(variant="spider", suits=1)
    game = Game(settings, "x")
    assert game.stock is not None
    game.stock = game.stock[:-1]
    with pytest.raises(ValueError):
        Renaming.of(replace(settings, deal_variation=True), "x", 1).game(game)


# ------------------------------------------------------------------ replay and notation


def test_replay_plays_the_entrys_deal_in_its_own_numbering() -> None:
    settings = Settings(variant="spider78", suits=2, deal_variation=True, reveals_final=True)
    r = Renaming.of(settings, "cup", 4)
    base = Game(replace(settings, deal_variation=False), "cup")
    moves = []
    for _ in range(12):
        move = next(iter(base.legal_moves()))
        base.play(move)
        moves.append(r.move(move).to_json())
    out = replay_game({**settings.to_json(), "seed": "cup", "entry": 4, "moves": moves})
    assert out["initial"] == Game(settings, "cup", 4).view()
    assert all(step["ok"] for step in out["steps"])
    assert out["steps"][-1] == {**r.view(base), "ok": True}
    assert out["steps"][-1]["score"] == base.score


def test_replay_line_without_a_valid_entry_is_an_error_line() -> None:
    game = {"variant": "spider", "suits": 1, "seed": "s", "deal_variation": True, "moves": []}
    lines = [
        json.dumps(game),
        json.dumps({**game, "entry": 0}),
        json.dumps({**game, "entry": "2"}),
        json.dumps({**game, "entry": 2}),
        json.dumps({**game, "deal_variation": False, "entry": "x"}),
    ]
    out = [json.loads(line) for line in replay_lines(lines)]
    assert all("entry" in o["error"] for o in out[:3])
    assert out[3]["initial"] == Game(Settings(variant="spider", suits=1, deal_variation=True), "s", 2).view()
    assert out[4]["initial"] == Game(Settings(variant="spider", suits=1), "s").view()


def test_python_m_engine_replay_with_entry() -> None:
    game = {
        "variant": "curds_and_whey",
        "suits": 4,
        "seed": "s",
        "deal_variation": True,
        "entry": 9,
        "moves": [{"type": "end", "t": 10}],
    }
    proc = subprocess.run(
        [sys.executable, "-m", "spidertour.engine", "replay"],
        input=json.dumps(game) + "\n{}\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2 and proc.stderr == "error: line 2 is not a game: a game needs 'variant'\n"
    first, second = [json.loads(line) for line in proc.stdout.splitlines()]
    assert (
        first["initial"]["columns"]
        == Game(Settings(variant="curds_and_whey", deal_variation=True), "s", 9).view()["columns"]
    )
    assert first["final_score"] == 0 and "error" in second


def test_position_carries_the_entry() -> None:
    settings = Settings(variant="huge_spider", suits=2, deal_variation=True)
    game = Game(settings, "pos", 12)
    text_ = game.position()
    assert text_.endswith(" play e12")
    again = Game.from_position(settings, text_)
    assert again.entry == 12 and again.position() == text_
    with pytest.raises(NotationError):
        Game.from_position(replace(settings, deal_variation=False), text_)
    for bad in ("e0", "e", "x12", "e1x", "e" + "9" * 17):
        with pytest.raises(NotationError):
            Game.from_position(settings, text_.rsplit(" ", 1)[0] + " " + bad)
    plain = Game(replace(settings, deal_variation=False), "pos").position()
    assert len(plain.split(" ")) == 7
