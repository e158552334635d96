// Parts of the first game (pages/first.js): the first-time tip (the goal and how to move, until
// dismissed on this device), and a hint (game/hint.js) shown on the table and said in words.

import { el } from "../lib/ui.js";
import { cardWords } from "../board/cards.js";

const TIP_KEY = "spidertour.first-tip-seen";

/** The goal and how to move, in two lines, with "Got it"; once dismissed it stays away on this device. */
export function firstTip(onClose) {
  let seen = false;
  try {
    seen = localStorage.getItem(TIP_KEY) === "1";
  } catch {
    seen = false;
  }
  const tip = el("div", { class: "first-tip", role: "note", "data-field": "first-tip", hidden: seen },
    el("p", {}, el("b", {}, "Goal: "), "build runs from King down to Ace; a whole run leaves the table. ",
      "Six runs win. Each card you turn face up scores 25, each run 100."),
    el("p", {}, el("b", {}, "To move: "), "drag a card onto a card one higher, or tap it and then tap where it goes; ",
      "a double tap sends it to its best place. Tap a pile to deal. Stuck? Press Hint."),
    el("button", { class: "btn small", type: "button", "data-action": "dismiss-tip", onclick: () => {
      tip.hidden = true;
      try {
        localStorage.setItem(TIP_KEY, "1");
      } catch {
        // private browsing without storage: the tip comes back next time
      }
      onClose();
    } }, "Got it"));
  return tip;
}

/** The hint in words: the card to move and where, and why; or to deal; or that nothing helps. */
export function hintWords(view, found) {
  if (found.pile !== undefined) return `Hint: no move helps now. Deal draw pile ${found.pile + 1} (tap it).`;
  if (found.stock) return "Hint: no move helps now. Deal a row from the stock (tap it).";
  if (found.stuck) return "Hint: no move helps and nothing is left to deal. Undo a move, or end the game.";
  const from = view.columns[found.col];
  const to = view.columns[found.to];
  const card = cardWords(from[from.length - found.count]);
  const group = found.count > 1 ? `${card} and the ${found.count - 1} card${found.count > 2 ? "s" : ""} on it` : card;
  const where = to.length ? `onto ${cardWords(to[to.length - 1])} in column ${found.to + 1}`
    : `into the empty column ${found.to + 1}`;
  return `Hint: move ${group} ${where}: ${found.why}.`;
}

/** The hint on the table: the cards to move and their target glow (the next drawing of the board clears them). */
export function showHint(boardEl, found) {
  boardEl.querySelectorAll(".hint-from, .hint-to").forEach((n) => n.classList.remove("hint-from", "hint-to"));
  if (found.pile !== undefined) {
    boardEl.querySelector(`.pile[data-pile="${found.pile}"]`)?.classList.add("hint-to");
    boardEl.dataset.hint = `pile:${found.pile}`;
    return;
  }
  if (found.stock || found.stuck) {
    boardEl.querySelector(".stock")?.classList.add("hint-to");
    boardEl.dataset.hint = found.stock ? "stock" : "stuck";
    return;
  }
  const cards = [...boardEl.querySelectorAll(`.column[data-col="${found.col}"] .card`)];
  cards.slice(-found.count).forEach((c) => c.classList.add("hint-from"));
  boardEl.querySelector(`.column[data-col="${found.to}"]`)?.classList.add("hint-to");
  boardEl.dataset.hint = `${found.col}:${found.count}:${found.to}`;
}
