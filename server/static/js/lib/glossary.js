// Three words the first screens use, each said in one plain line: par, certified, commitment.
// A <details> block: one tap opens it on a phone (a title would show only under a mouse).

import { el } from "./ui.js";

export const WORDS = [
  ["par", "Par",
    "the score the server's solver makes on the same deal, playing at a steady 2 seconds a move; "
      + "it is published at the finish, a mark to measure your game by."],
  ["certified", "Certified",
    "the server's solver won this deal before the tournament was created: it can be won."],
  ["commitment", "Commitment",
    "a fingerprint (SHA-256) of the deal's secret seed and settings, published before anyone plays, so the deal "
      + "cannot be changed afterwards; anyone can check it when the seed is revealed at the finish."],
];

/** The words explained, one line each, folded under a one-tap summary (`open`: unfolded at first). */
export function glossary({ open = false } = {}) {
  return el("details", { class: "glossary", "data-field": "glossary", open },
    el("summary", {}, "What \u201cpar\u201d, \u201ccertified\u201d and \u201ccommitment\u201d mean"),
    WORDS.map(([word, name, line]) => el("p", { "data-word": word }, el("b", {}, name), `: ${line}`)));
}
