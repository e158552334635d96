"""The CSV writer's cells: text a spreadsheet would run gets a quote before it; the rest is unchanged."""

from __future__ import annotations

import csv
import io

from spidertour.server.lib.csv_cells import csv_text, safe_cell


def test_text_a_spreadsheet_would_run_is_quoted() -> None:
    for risky in ("=1+2", "+1", "-1+1", "@SUM(A1)", "\t=1", "\r=1", "-", "=", "-12"):
        assert safe_cell(risky) == "'" + risky


def test_numbers_blanks_and_plain_text_are_written_as_they_are() -> None:
    assert [safe_cell(v) for v in (-12, 0, 2.5, None, "", "Ann", "a=b", " =1", "'=1")] == [
        -12,
        0,
        2.5,
        "",
        "",
        "Ann",
        "a=b",
        " =1",
        "'=1",
    ]


def test_quoting_stays_right() -> None:
    text = csv_text(("name", "score"), [['=A1,"x"', -3], ["line\r\nbreak", 4], [None, 5]])
    assert text.startswith("name,score\r\n")
    assert list(csv.reader(io.StringIO(text, newline=""))) == [
        ["name", "score"],
        ['\'=A1,"x"', "-3"],
        ["line\r\nbreak", "4"],
        ["", "5"],
    ]
