// Going through a long leaderboard: a page of places at a time, a player found by name, and a jump
// to the viewer's own place. The rows themselves come from the server a page at a time (Redis ranks
// them), so a board of any size costs the same.

import { el, number } from "../lib/ui.js";

export const PAGE = 20;  // places on a page: the watch socket's top rows are the first page

/** The page's first place (0-based offset) that holds `rank`. */
export const pageOf = (rank) => Math.floor((Math.max(1, rank) - 1) / PAGE) * PAGE;

/**
 * The search box and "my place" button (`tools`) and the pager under the table (`pager`).
 * `go({offset, name})` shows a view; `mine()` jumps to the viewer's place (null: no button).
 */
export function boardPager({ go, mine }) {
  const input = el("input", { type: "search", name: "player-search", placeholder: "Find a player",
    "aria-label": "Find a player by name", maxlength: 40, autocomplete: "off", "data-field": "search" });
  const clear = el("button", { type: "button", class: "btn small", "data-action": "clear-search", hidden: true,
    onclick: () => { input.value = ""; go({ offset: 0, name: "" }); } }, "Show all");
  const form = el("form", { class: "board-search", role: "search",
    onsubmit: (e) => { e.preventDefault(); go({ offset: 0, name: input.value.trim() }); } },
    input, el("button", { type: "submit", class: "btn small", "data-action": "search" }, "Find"), clear);
  const mineButton = el("button", { type: "button", class: "btn small", "data-action": "my-place", hidden: true,
    onclick: () => mine() }, "My place");
  const tools = el("div", { class: "board-tools" }, form, mineButton);

  const prev = el("button", { type: "button", class: "btn small", "data-action": "prev-page" }, "\u2190 Better places");
  const next = el("button", { type: "button", class: "btn small", "data-action": "next-page" }, "Next places \u2192");
  const said = el("span", { class: "pager-said muted", "data-field": "pager", "aria-live": "polite" });
  const pager = el("nav", { class: "board-pager", "aria-label": "Pages of the leaderboard", hidden: true },
    prev, said, next);
  let view = { offset: 0, name: "" };
  prev.onclick = () => go({ ...view, offset: Math.max(0, view.offset - PAGE) });
  next.onclick = () => go({ ...view, offset: view.offset + PAGE });

  /** Say where the view stands: `total` places in all (or `found` matches of a search), `shown` rows. */
  function update(v, total, shown) {
    view = v;
    clear.hidden = !v.name;
    if (v.name && input.value.trim() !== v.name) input.value = v.name;
    const first = v.offset + 1;
    const last = v.offset + shown;
    if (v.name) {
      said.textContent = !total ? `Nobody named \u201c${v.name}\u201d`
        : `${number(total)} ${total === 1 ? "player matches" : "players match"} \u201c${v.name}\u201d`
          + (total > PAGE ? ` \u00b7 ${number(first)}\u2013${number(last)}` : "");
    } else {
      said.textContent = shown ? `Places ${number(first)}\u2013${number(last)} of ${number(total)}` : "";
    }
    prev.disabled = v.offset === 0;
    next.disabled = last >= total;
    pager.hidden = !v.name && total <= PAGE && v.offset === 0;
  }

  return { tools, pager, update, showMine: (on) => { mineButton.hidden = !on; } };
}
