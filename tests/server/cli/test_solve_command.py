"""``spidertour solve``: its output is a docs/replay.md game line that ``spidertour replay`` re-scores."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from spidertour.engine.replay import replay_lines
from spidertour.server.cli.main import main


def test_solve_prints_a_replayable_winning_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--variant", "spider78", "--suits", "1", "--seed", "abc", "--nodes", "5000"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == 1
    game = json.loads(lines[0])
    assert game["variant"] == "spider78" and game["seed"] == "abc" and game["moves"]
    result = json.loads(next(replay_lines(lines)))
    assert result["steps"][-1]["outcome"] == "won"
    summary = json.loads(err.splitlines()[-1])
    assert summary["won"] and summary["final_score"] == result["final_score"]
    assert summary["moves"] == len(game["moves"])


def test_solve_moves_alone_and_an_entrys_deal(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["solve", "--variant", "spider78", "--suits", "2", "--seed", "abc", "--entry", "2", "--nodes", "20000"]
    assert main([*argv, "--moves"]) == 0
    moves = [json.loads(line) for line in capsys.readouterr()[0].splitlines()]
    assert main(argv) == 0
    game = json.loads(capsys.readouterr()[0])
    assert game["entry"] == 2 and game["deal_variation"] is True and game["moves"] == moves
    assert json.loads(next(replay_lines([json.dumps(game)])))["steps"][-1]["outcome"] == "won"


def test_solve_not_found_within_budget_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--variant", "spider", "--suits", "4", "--seed", "x", "--nodes", "50"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "not found within budget" in err


@pytest.mark.parametrize(
    "bad",
    [["--suits", "3"], ["--budget", "0"], ["--nodes", "0"], ["--pace", "-1"], ["--entry", "0"]],
)
def test_solve_bad_input_exits_2(bad: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["solve", "--variant", "spider78", "--suits", "1", "--seed", "abc", "--nodes", "10"]
    for i in range(0, len(bad), 2):
        if bad[i] in argv:
            argv[argv.index(bad[i]) + 1] = bad[i + 1]
        else:
            argv += bad[i : i + 2]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error:")


def test_solve_piped_into_replay() -> None:
    cmd = [sys.executable, "-m", "spidertour.server.cli"]
    solved = subprocess.run(
        [*cmd, "solve", "--variant", "spider78", "--suits", "1", "--seed", "abc", "--nodes", "5000"],
        capture_output=True,
        text=True,
        check=True,
    )
    replayed = subprocess.run([*cmd, "replay"], input=solved.stdout, capture_output=True, text=True, check=True)
    assert json.loads(replayed.stdout)["steps"][-1]["outcome"] == "won"
