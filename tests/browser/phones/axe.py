"""axe-core run on the page as it stands: its violations as short lines, one a rule, with how many
elements break it and the first few of them (the package bundles axe.min.js).

axe-core cannot tell the colour behind text drawn on a gradient (the header, the felt banners) and
leaves such text unchecked; so for its run each gradient background is laid flat at its worst colour
for the element's text (the stop nearest the text's lightness), and put back after. It runs once the
page's animations are over (a page fades in)."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Page

AXE = Axe()
# axe-core's rules on by default: WCAG 2.0, 2.1 and 2.2 at levels A and AA, and its best practices.
OPTIONS: dict[str, Any] = {"resultTypes": ["violations"]}

FLATTEN = """() => {
  const channel = (v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  const lum = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const rgb = (s) => s.match(/[\\d.]+/g).map(Number);
  for (const n of document.querySelectorAll('body, body *')) {
    const style = getComputedStyle(n);
    if (!style.backgroundImage.includes('gradient')) continue;
    const stops = (style.backgroundImage.match(/rgba?\\([^)]*\\)/g) || []).map(rgb).filter((c) => (c[3] ?? 1) === 1);
    if (!stops.length || !n.textContent.trim()) continue;
    const text = lum(rgb(style.color));
    const worst = stops.reduce((a, b) => (Math.abs(lum(a) - text) <= Math.abs(lum(b) - text) ? a : b));
    n.dataset.axeStyle = n.getAttribute('style') ?? '';
    n.style.setProperty('background', `rgb(${worst.slice(0, 3).join(',')})`, 'important');
  }
}"""
# Every animation that ends, ended (a page fades in: its text is faint for a moment); one cancelled counts as ended.
SETTLE = """() => Promise.all(document.getAnimations()
  .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
  .map((a) => a.finished.catch(() => null)))"""
RESTORE = """() => {
  for (const n of document.querySelectorAll('[data-axe-style]')) {
    n.setAttribute('style', n.dataset.axeStyle);
    delete n.dataset.axeStyle;
  }
}"""


async def violations(page: Page) -> list[str]:
    """One line a broken rule: `rule-id x count: target, target, target`."""
    await page.evaluate(SETTLE)
    await page.evaluate(FLATTEN)
    try:
        results = await AXE.run(page, options=OPTIONS)
    finally:
        await page.evaluate(RESTORE)
    out = []
    for rule in results.response["violations"]:
        nodes = rule["nodes"]
        targets = [" ".join(str(t) for t in node["target"])[:60] for node in nodes[:3]]
        out.append(f"{rule['id']} x{len(nodes)}: {', '.join(targets)}")
    return out
