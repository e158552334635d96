"""Input the command line refuses in one line, with status 2: no hang, no traceback."""

from __future__ import annotations

import functools
import http.server
import json
import subprocess
import threading
from pathlib import Path

import pytest

from spidertour.server.cli.schedules import every_range, first_occurrence
from spidertour.server.lib.tokens import new_token
from tests.server.helpers import spidertour
from tests.serverproc import free_port


def refused(done: subprocess.CompletedProcess[str], needle: str) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")
    assert needle in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("every", "needle"),
    [
        ("0m", "--every is from 5 to 525600 minutes, not 0"),
        ("0", "not 0"),
        ("4m", "not 4"),
        ("525601m", "not 525601"),
        ("99999999999999999999m", "not 99999999999999999999"),
        ("\uff13\uff10m", "a number of minutes"),  # full-width digits: not a number the server takes
        ("-5m", "a number of minutes"),
        ("m", "a number of minutes"),
    ],
)
def test_schedule_every_out_of_range_is_refused_at_once(every: str, needle: str) -> None:
    # No server listens there: the command must refuse before it asks one (and never loop forever).
    server = f"http://127.0.0.1:{free_port()}"
    done = spidertour("schedule", "create", "--name", "x", f"--every={every}", "--server", server, ADMIN_TOKEN="t")
    refused(done, needle)


def test_the_command_line_takes_the_servers_range_of_periods() -> None:
    assert every_range() == (5, 525_600)
    with pytest.raises(ValueError):
        first_occurrence("00:00", 0)


def test_check_acks_of_a_binary_or_deeply_nested_file_is_refused(tmp_path: Path) -> None:
    binary = tmp_path / "acks.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    done = spidertour("bots", "--check-acks", str(binary), DATABASE_URL="postgresql://nobody@127.0.0.1:1/none")
    refused(done, f"{binary}: not an acknowledgement log (not UTF-8 text)")
    nested = tmp_path / "acks.jsonl"
    good = json.dumps({"entry_id": 1, "n": 1, "seq": 1, "move": {"type": "end"}})
    nested.write_text(good + "\n" + "[" * 100_000 + "\n")
    done = spidertour("bots", "--check-acks", str(nested), DATABASE_URL="postgresql://nobody@127.0.0.1:1/none")
    refused(done, f"{nested}:2: not an acknowledgement line (nested too deeply)")


def test_generated_tokens_never_look_like_an_option() -> None:
    # One token in 64 would start with "-" if nothing prevented it: 5000 leave no chance unnoticed.
    tokens = [new_token() for _ in range(5000)] + [new_token(24) for _ in range(5000)]
    assert not [t for t in tokens if t.startswith("-")]
    assert len(set(tokens)) == len(tokens) and {len(new_token()), len(new_token(24))} == {43, 32}


def test_edit_settings_nested_too_deeply_is_refused() -> None:
    server = f"http://127.0.0.1:{free_port()}"
    done = spidertour("tournament", "edit", "1", "--settings", "[" * 100_000, "--server", server, ADMIN_TOKEN="t")
    refused(done, "--settings is not JSON: nested too deeply")


def test_an_answer_that_is_not_json_is_said_so(tmp_path: Path) -> None:
    """Something else at the address (a web server's page): one line, status 1, no traceback."""
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "schedules").write_text("<html>not the server</html>")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as web:
        threading.Thread(target=web.serve_forever, daemon=True).start()
        try:
            done = spidertour("schedule", "list", "--server", f"http://127.0.0.1:{web.server_port}", ADMIN_TOKEN="t")
        finally:
            web.shutdown()
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and "answered 200 but not in JSON" in done.stderr
