"""README's configuration table names every variable the server reads, and nothing it does not."""

from __future__ import annotations

import re

from spidertour.server.config import VARIABLES
from tests import paths

ROOT = paths.ROOT
NOT_THE_SERVERS = {"SPIDERTOUR_URL", "TEST_DATABASE_URL", "TEST_REDIS_URL"}  # read by the commands and tests


def test_every_environment_variable_is_in_the_configuration_table() -> None:
    read = set(VARIABLES)
    assert {"DATABASE_URL", "PORT", "LOG_FORMAT", "COMMIT_INTERVAL_MS"} <= read
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("## Configuration") :]
    table = table[: table.index("\n## ", 5)]
    listed = set(re.findall(r"^\| `([A-Z_]+)`", table, re.M))
    listed |= {
        name
        for row in re.findall(r"^\| (`[A-Z_]+`(?:, `[A-Z_]+`)+)", table, re.M)
        for name in re.findall(r"`([A-Z_]+)`", row)
    }
    assert sorted(read - listed) == []
    assert sorted(listed - read - NOT_THE_SERVERS) == []
