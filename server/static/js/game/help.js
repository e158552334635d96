// The game's help ("?"): how to move, the rules of this tournament's game and its scoring, the keys.

import { dealsNote, el, fill } from "../lib/ui.js";
import { rulesLines, scoringLines } from "./rules_text.js";

const KEYS = [
  ["\u2190 \u2192", "choose a column"],
  ["1 \u2026 9, 0", "pick column 1 \u2026 10's movable cards; another digit drops the part that fits there"],
  ["\u2191 \u2193", "take more or fewer cards"],
  ["Enter, Space", "pick up, then drop at the cursor"],
  ["Esc", "put the cards back"],
  ["D", "deal (P chooses the draw pile first)"],
  ["U", "undo"],
  ["E", "end the game"],
  ["?", "show or hide these keys"],
];

/** The help panel, hidden at first: `toggle(show)` shows or hides it, `setSettings(settings, start)`
 * fills in the rules and the scoring once the tournament is known. */
export function helpPanel() {
  const rules = el("section", { class: "help-rules", "data-field": "help-rules" },
    el("p", { class: "muted" }, "The rules of this tournament's game are loading\u2026"));
  const scoring = el("section", { class: "help-scoring", "data-field": "help-scoring", hidden: true });
  const node = el("div", { class: "help panel", hidden: true, role: "dialog", "aria-label": "How to play" },
    el("button", { class: "btn ghost small close", "data-action": "close-help", title: "Close (Esc)",
      onclick: () => toggle(false) }, "\u00d7"),
    el("h2", {}, "How to play"),
    el("p", {}, el("b", {}, "Mouse or touch: "), "drag a card (and the cards on it) to a column, or tap a card then ",
      "tap a column. Tapping a column away from its cards takes the cards that move together, and the part of them ",
      "that fits goes. A double tap (or double click) on a card sends it, with the cards on it, to its best place: ",
      "a card of its suit, then any card one higher, then an empty column (never the free column). On a narrow ",
      "screen a picked card offers a bar of large buttons, one for each column it may go to. Tap a draw pile or ",
      "the stock to deal: on a touch screen the page asks first, as a deal cannot be undone."),
    rules,
    scoring,
    el("h3", {}, "Keys"),
    el("table", { class: "keys" }, el("tbody", {},
      KEYS.map(([key, what]) => el("tr", {}, el("td", {}, el("kbd", {}, key)), el("td", {}, what))))));

  function toggle(show = node.hidden) {
    node.hidden = !show;
  }

  function setSettings(settings, start = "own") {
    const list = (lines) => el("ul", {}, lines.map((line) => el("li", {}, line)));
    fill(rules, el("h3", {}, "This game"), list(rulesLines(settings, start)));
    fill(scoring, el("h3", {}, "Scoring"), list(scoringLines(settings)), dealsNote(settings));
    scoring.hidden = false;
  }

  return { node, toggle, setSettings, get shown() { return !node.hidden; } };
}
