"""Where the tests find the repository's files."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
VECTORS = DOCS / "vectors"  # deal-vectors.json and entry-vectors.json: seeds and the deals they give
