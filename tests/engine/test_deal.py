"""docs/deal.md: every vector of docs/vectors/deal-vectors.json, through the function and both commands."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from spidertour.engine import Game, SettingsError
from spidertour.engine.cards import card_text, ordered_deck, parse_card
from spidertour.engine.deals.shuffle import random_stream, shuffled, uniform
from spidertour.engine.deals.vectors import deal_json
from spidertour.engine.settings import Settings
from tests import paths

ROOT = paths.ROOT
VECTORS: list[dict[str, Any]] = json.loads((paths.VECTORS / "deal-vectors.json").read_text(encoding="utf-8"))
SPIDERTOUR = Path(sys.executable).parent / "spidertour"


def label(vector: dict[str, Any]) -> str:
    return f"{vector['variant']}-{vector['suits']}-{vector['seed'][:12]}"


def test_vectors_cover_every_game() -> None:
    assert {v["variant"] for v in VECTORS} == {"spider78", "spider", "huge_spider", "black_widow", "curds_and_whey"}
    assert len(VECTORS) >= 40


@pytest.mark.parametrize("vector", VECTORS, ids=label)
def test_deal_json_reproduces_vector(vector: dict[str, Any]) -> None:
    settings = Settings(variant=vector["variant"], suits=vector["suits"])
    assert deal_json(settings, vector["seed"]) == vector


@pytest.mark.parametrize("vector", VECTORS, ids=label)
def test_game_starts_from_vector(vector: dict[str, Any]) -> None:
    """The game's own columns, reserve and face-down cards are the vector's deal."""
    game = Game(Settings(variant=vector["variant"], suits=vector["suits"]), vector["seed"])
    width = game.settings.rules.columns
    assert [" ".join(card_text(c) for c in col) for col in game.columns[:width]] == vector["columns"]
    face_up = vector["variant"] == "curds_and_whey"
    assert game.down[:width] == [0 if face_up else len(col) - 1 for col in game.columns[:width]]
    view = game.view()
    assert [col[-1] for col in view["columns"][:width]] == [c.split()[-1] for c in vector["columns"]]
    if "draw_piles" in vector:
        assert [p["top"] for p in view["draw_piles"]] == [p.split()[0] for p in vector["draw_piles"]]
    if "stock" in vector:
        assert view["stock"] == len(vector["stock"].split())


@pytest.mark.parametrize("vector", VECTORS, ids=label)
def test_shuffle_is_fisher_yates_over_ordered_deck(vector: dict[str, Any]) -> None:
    rules = Settings(variant=vector["variant"], suits=vector["suits"]).rules
    deck = ordered_deck(rules.deck_size, vector["suits"])
    assert " ".join(card_text(c) for c in shuffled(deck, vector["seed"])) == vector["shuffled"]
    assert Counter(parse_card(c) for c in vector["shuffled"].split()) == Counter(deck)


def test_random_stream_follows_deal_md() -> None:
    block = hashlib.sha256("Ünï:0".encode()).digest() + hashlib.sha256("Ünï:1".encode()).digest()
    expected = [int.from_bytes(block[i : i + 8], "big") for i in range(0, 64, 8)]
    stream = random_stream("Ünï")
    assert [next(stream) for _ in range(8)] == expected


def test_uniform_rejects_numbers_at_or_above_the_limit() -> None:
    n = 3
    limit = 2**64 - 2**64 % n
    stream = iter([limit, limit + 1, 2**64 - 1, 7])
    assert uniform(stream, n) == 7 % n  # the three numbers at or past the limit are skipped
    assert uniform(iter([limit - 1]), n) == (limit - 1) % n


def test_ordered_deck_follows_deal_md() -> None:
    assert [card_text(c) for c in ordered_deck(26, 2)] == [r + s for s in "SH" for r in "A23456789TJQK"]
    assert ordered_deck(78, 1) == ordered_deck(13, 1) * 6
    assert ordered_deck(104, 4) == ordered_deck(52, 4) * 2


def test_deal_refuses_bad_seed() -> None:
    settings = Settings(variant="spider78", suits=1)
    with pytest.raises(SettingsError):
        deal_json(settings, "x" * 5000)
    with pytest.raises(SettingsError):
        deal_json(settings, "\ud800")  # not encodable as UTF-8
    with pytest.raises(SettingsError):
        Game(settings, 12)  # type: ignore[arg-type]


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)


@pytest.mark.parametrize("variant", ["spider78", "spider", "huge_spider", "black_widow", "curds_and_whey"])
def test_python_m_engine_deal_reproduces_vector(variant: str) -> None:
    vector = next(v for v in VECTORS if v["variant"] == variant and v["seed"] != "0")
    proc = run(
        [
            sys.executable,
            "-m",
            "spidertour.engine",
            "deal",
            "--variant",
            variant,
            "--suits",
            str(vector["suits"]),
            "--seed",
            vector["seed"],
        ]
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == vector


def test_spidertour_deal_reproduces_vector() -> None:
    vector = next(v for v in VECTORS if v["variant"] == "spider78" and not v["seed"].isascii())
    proc = run(
        [str(SPIDERTOUR), "deal", "--variant", "spider78", "--suits", str(vector["suits"]), "--seed", vector["seed"]]
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == vector


def test_deal_command_refuses_bad_settings() -> None:
    proc = run(
        [sys.executable, "-m", "spidertour.engine", "deal", "--variant", "spider78", "--suits", "4", "--seed", "x"]
    )
    assert proc.returncode == 2
    assert "spider78" in proc.stderr and proc.stdout == ""
