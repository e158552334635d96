"""The configuration table (docs/operating.md) names every variable the server reads, and nothing it does not;
the README and docs/ stand alone: no link leads out of the repository."""

from __future__ import annotations

import re

from spidertour.server.config import VARIABLES
from tests import paths

ROOT = paths.ROOT
NOT_THE_SERVERS = {"SPIDERTOUR_URL", "TEST_DATABASE_URL", "TEST_REDIS_URL"}  # read by the commands and tests


def test_every_environment_variable_is_in_the_configuration_table() -> None:
    read = set(VARIABLES)
    assert {"DATABASE_URL", "PORT", "LOG_FORMAT", "COMMIT_INTERVAL_MS"} <= read
    page = (ROOT / "docs" / "operating.md").read_text()
    table = page[page.index("## Configuration") :]
    table = table[: table.index("\n## ", 5)]
    listed = set(re.findall(r"^\| `([A-Z_]+)`", table, re.M))
    listed |= {
        name
        for row in re.findall(r"^\| (`[A-Z_]+`(?:, `[A-Z_]+`)+)", table, re.M)
        for name in re.findall(r"`([A-Z_]+)`", row)
    }
    assert sorted(read - listed) == []
    assert sorted(listed - read - NOT_THE_SERVERS) == []


def test_no_link_leads_out_of_the_repository() -> None:
    """Every relative link of the README and docs/ names a file of the repository."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        text = page.read_text()
        assert "../shared" not in text and "shared/spec" not in text, page
        # Documents kept outside (SERVICE.md, COMMUNITY.md, ...) are never named: the docs say it all.
        assert set(re.findall(r"\b[A-Z]+\.md\b", text)) <= {"README.md"}, page
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            assert (page.parent / target).resolve().is_relative_to(ROOT), (page.name, target)
            assert (page.parent / target).exists(), (page.name, target)


def _first_hour() -> str:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Your first hour") :]
    return section[: section.index("\n## ")]


def test_the_first_hour_sets_what_it_uses_and_dates_nothing() -> None:
    """Its shell examples run as written, one after the other, on a fresh server: every variable
    they use is set by an earlier line, no date in them is fixed (it would soon be past), and every
    organiser's command is given its token."""
    blocks = re.findall(r"```sh\n(.*?)```", _first_hour(), re.S)
    assert blocks
    set_so_far: set[str] = set()
    for block in blocks:
        for line in block.splitlines():
            code = line.split("  #")[0]
            used = set(re.findall(r"\$([A-Z_]+)\b", code))
            assert used <= set_so_far, (line, used - set_so_far)
            set_so_far |= set(re.findall(r"^([A-Z_]+)=", code))
            assert not re.search(r"\b20\d\d-\d\d-\d\d", code), line
            if re.match(r"spidertour (tournament|leaderboard|integrity|organiser|club|series create|bots)", code):
                assert "--admin-token" in code, line


def test_the_architecture_names_every_package_of_the_server() -> None:
    text = (ROOT / "README.md").read_text()
    tree = text[text.index("## Architecture") :]
    tree = tree[: tree.index("```", tree.index("```text") + 7)]
    for init in sorted((ROOT / "server").glob("*/__init__.py")):
        assert f"  {init.parent.name}/" in tree, init.parent.name
