// Cards drawn with CSS: the rank and suit symbol on a face, a patterned back for "??".

import { el } from "../lib/ui.js";

const SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAMES = { A: "Ace", T: "10", J: "Jack", Q: "Queen", K: "King" };

export const rankLabel = (r) => (r === "T" ? "10" : r);
export const suitSymbol = (s) => SYMBOLS[s];

/** The element of one card: text "TH", or "??" for a face-down card. */
export function cardEl(text, extra = {}) {
  if (!text || text === "??") {
    return el("div", { class: "card back", "data-card": "??", role: "img", "aria-label": "face-down card", ...extra });
  }
  const [rank, suit] = text;
  const label = rankLabel(rank);
  const court = "JQK".includes(rank) ? " court" : "";
  return el("div", {
    class: `card face suit-${suit}${court}`, "data-card": text, role: "img",
    "aria-label": `${RANK_NAMES[rank] || label} of ${NAMES[suit]}`, ...extra,
  },
  el("span", { class: "corner" }, el("span", { class: "rank" }, label), el("span", { class: "suit" }, SYMBOLS[suit])),
  el("span", { class: "pip" }, court ? label : SYMBOLS[suit]),
  court ? el("span", { class: "pip-suit" }, SYMBOLS[suit]) : null,
  el("span", { class: "corner low" }, el("span", { class: "rank" }, label), el("span", { class: "suit" }, SYMBOLS[suit])));
}

/** A message from the rules with its card codes as the cards show them: "TH cannot go onto KD" -> "10♥ cannot go onto K♦". */
export function cardWords(text) {
  return String(text ?? "").replace(/\b([A2-9TJQK])([SHDC])\b/g, (_, r, s) => `${rankLabel(r)}${SYMBOLS[s]}`);
}
