"""axe-core run on the page as it stands: its violations as short lines, one a rule, with how many
elements break it and the first few of them (the package bundles axe.min.js)."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Page

AXE = Axe()
# The rules of WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's own best practices.
OPTIONS: dict[str, Any] = {"resultTypes": ["violations"]}


async def violations(page: Page) -> list[str]:
    """One line a broken rule: `rule-id x count: target, target, target`."""
    results = await AXE.run(page, options=OPTIONS)
    out = []
    for rule in results.response["violations"]:
        nodes = rule["nodes"]
        targets = [" ".join(str(t) for t in node["target"])[:60] for node in nodes[:3]]
        out.append(f"{rule['id']} x{len(nodes)}: {', '.join(targets)}")
    return out
