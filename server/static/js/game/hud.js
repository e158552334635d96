// The game page's head: the tournament's name and rules, the score bar (deal, score, total, sequences,
// reveals, time), the buttons (undo, end, result, help) and the line under them (standing.js).

import { el } from "../lib/ui.js";

function stat(name, label, value = "0") {
  return el("div", { class: `stat stat-${name}` },
    el("span", { class: "label" }, label), el("span", { class: "value", "data-stat": name }, value));
}

/** The head's parts; `line`: the node under the score bar; `onHelp`, `onResult`: the "?" and Result buttons. */
export function buildHud(entryId, { line, onHelp, onResult }) {
  const overBadge = el("span", { class: "badge over-badge", "data-field": "over", hidden: true });
  const title = el("div", { class: "hud-title" }, el("a", { href: "#/lobby", class: "back", title: "Lobby" }, "\u2190"),
    el("h1", { class: "hud-name", "data-field": "name" }, `Entry ${entryId}`), overBadge, el("span", { class: "muted", "data-field": "rules" }));
  const undoBtn = el("button", { class: "btn", "data-action": "undo", disabled: true, title: "Undo (U)" }, "Undo");
  const resultBtn = el("button", { class: "btn primary", "data-action": "result", hidden: true, title: "The final score",
    onclick: onResult }, "Result");
  const endBtn = el("button", { class: "btn danger", "data-action": "end", disabled: true, title: "End (E)" }, "End");
  const stats = el("div", { class: "stats" }, stat("deal", "Deal", "1/1"), stat("score", "Score"),
    stat("total", "Total"), stat("sequences", "Sequences", "\u2013"),
    stat("reveals", "Reveals"), stat("clock", "Time", "--:--"));
  const actions = el("div", { class: "actions" }, undoBtn, endBtn, resultBtn,
    el("button", { class: "btn ghost", "data-action": "help", title: "Rules, scoring and keys (?)", onclick: onHelp },
      "?"));
  const hud = el("div", { class: "hud" }, title, stats, actions, line);
  for (const name of ["deal", "total"]) hud.querySelector(`.stat-${name}`).hidden = true; // several deals only
  return {
    hud, title, stats, actions, overBadge, undoBtn, endBtn, resultBtn,
    /** The value node of a stat ("score", "clock", ...). */
    value: (name) => hud.querySelector(`[data-stat=${name}]`),
    /** The whole stat, label and value. */
    stat: (name) => hud.querySelector(`.stat-${name}`),
  };
}
