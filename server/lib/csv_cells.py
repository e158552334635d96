"""CSV the server writes (Python's csv module), safe to open in a spreadsheet.

A spreadsheet takes a cell that begins with ``=``, ``+``, ``-`` or ``@`` (or a tab or a carriage
return before one) as a formula, and a player's name, handle or a club's name may begin so. Such a
text cell is written with a single quote before it, as OWASP's advice on CSV injection has it: the
spreadsheet shows the text and runs nothing. Numbers are written as they are (a negative score stays
a number), and the csv module quotes every cell that holds a separator, a quote or a line break.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """The cell as it is written: blank for None, a quote before text a spreadsheet would run."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(header: Sequence[str], lines: Iterable[Sequence[Any]]) -> str:
    """A header and its lines as CSV (CRLF line ends), every cell made safe."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([safe_cell(cell) for cell in header])
    writer.writerows([safe_cell(cell) for cell in line] for line in lines)
    return out.getvalue()
