"""README's configuration table names every variable the server reads."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_environment_variable_is_in_the_configuration_table() -> None:
    source = (ROOT / "server" / "config.py").read_text()
    read = set(re.findall(r'environ\.get\("([A-Z_]+)"', source))
    read |= set(re.findall(r'_(?:int|float)\("([A-Z_]+)"', source))
    assert {"DATABASE_URL", "PORT", "LOG_FORMAT", "SPIDERTOUR_URL"} <= read
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("## Configuration") :]
    table = table[: table.index("\n## ", 5)]
    listed = set(re.findall(r"^\| `([A-Z_]+)`", table, re.M))
    assert sorted(read - listed) == []
