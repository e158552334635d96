"""The test servers' logs leave nothing behind a run that passed, and stay for one that failed: the
run's summary says where."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import paths

INNER = """
import os
from pathlib import Path

import pytest

from tests.serverproc import ServerProcess


def test_a_server() -> None:
    proc = ServerProcess("", "", "", env={"PORT": "abc"})  # refused at once: status 2, one line logged
    with pytest.raises(RuntimeError):
        proc.start()
    assert proc.log_path.exists()
    Path(os.environ["LOG_PATH_FILE"]).write_text(str(proc.log_path))
    assert os.environ["INNER_PASSES"] == "yes"
"""


def run_inner(tmp_path: Path, passes: bool) -> tuple[subprocess.CompletedProcess[str], Path]:
    test = tmp_path / f"test_inner_{passes}.py"
    test.write_text(INNER)
    said = tmp_path / f"log_path_{passes}"
    env = {**os.environ, "LOG_PATH_FILE": str(said), "INNER_PASSES": "yes" if passes else "no"}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.conftest", "-p", "no:cacheprovider", str(test)],
        cwd=paths.ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return run, Path(said.read_text())


@pytest.mark.parametrize("passes", [True, False])
def test_the_servers_logs_go_with_a_run_that_passed_and_stay_for_one_that_failed(tmp_path: Path, passes: bool) -> None:
    run, log = run_inner(tmp_path, passes)
    try:
        assert run.returncode == (0 if passes else 1), run.stdout + run.stderr
        if passes:
            assert not log.exists() and not log.parent.exists(), log
        else:
            assert "PORT: expected a whole number" in log.read_text()
            assert f"the test servers' logs are kept in {log.parent}" in run.stdout, run.stdout
    finally:
        if log.parent.name.startswith("spidertour-tests-"):
            shutil.rmtree(log.parent, ignore_errors=True)
        log.unlink(missing_ok=True)
