// The rules (docs/rules.md) in the browser: cards as small integers, suit * 16 + rank (Ace 0 .. King
// 12), so "lower == upper - 1" holds exactly for the same suit one rank below; which groups move,
// where they go, the five games and their settings. It mirrors the Python engine.

export const RANKS = "A23456789TJQK";
export const SUITS = "SHDC";
export const HIDDEN = "??";
export const KING = 12;
export const SEQUENCE = 13;
export const TWO64 = 1n << 64n;
const MAX_ENTRY = Number.MAX_SAFE_INTEGER; // as the Python engine: 2^53 - 1

export class EngineError extends Error {
  constructor(reason, code) {
    super(reason);
    this.reason = reason;
    this.code = code;
  }
}

export const cardText = (c) => RANKS[c & 15] + SUITS[c >> 4];

export function parseCard(text) {
  const r = RANKS.indexOf(text[0]);
  const s = SUITS.indexOf(text[1]);
  if (text.length !== 2 || r < 0 || s < 0) throw new EngineError(`not a card: '${text}'`, "bad_notation");
  return s * 16 + r;
}

// ------------------------------------------------------------------ rules

/** Length of the movable group at the end of a column (cards, how many are face up). */
function suitRun(cards, up) {
  let n = up ? 1 : 0;
  let i = cards.length - 1;
  while (n < up && cards[i - 1] === cards[i] + 1) { n++; i--; }
  return n;
}

function rankRun(cards, up) {
  let n = up ? 1 : 0;
  let i = cards.length - 1;
  while (n < up && (cards[i - 1] & 15) === (cards[i] & 15) + 1) { n++; i--; }
  return n;
}

function suitRunOrSameRank(cards, up) {
  if (up < 2) return up;
  if (cards[cards.length - 2] === cards[cards.length - 1] + 1) return suitRun(cards, up);
  let n = 1;
  let i = cards.length - 1;
  const rank = cards[i] & 15;
  while (n < up && (cards[i - 1] & 15) === rank) { n++; i--; }
  return n;
}

const oneRankHigher = (top, first) => (top & 15) === (first & 15) + 1;
const suitHigherOrSameRank = (top, first) => top === first + 1 || (top & 15) === (first & 15);

const spiderLayout = (first, six, rest, low) => [...Array(six).fill(first), ...Array(rest).fill(low)];

export const VARIANTS = {
  spider78: {
    deck: 78, suitsAllowed: [1, 2], defaultSuits: 2, layout: spiderLayout(5, 6, 2, 4), allUp: false,
    piles: 5, stock: false, toWin: 6, group: suitRun, accepts: oneRankHigher, kingOnly: false,
    dealOntoEmpty: true, freeDefault: true,
  },
  spider: {
    deck: 104, suitsAllowed: [1, 2, 4], defaultSuits: 4, layout: spiderLayout(6, 4, 6, 5), allUp: false,
    piles: 0, stock: true, toWin: 8, group: suitRun, accepts: oneRankHigher, kingOnly: false,
    dealOntoEmpty: false, freeDefault: false,
  },
  huge_spider: {
    deck: 208, suitsAllowed: [1, 2, 4], defaultSuits: 4, layout: spiderLayout(6, 8, 12, 5), allUp: false,
    piles: 0, stock: true, toWin: 16, group: suitRun, accepts: oneRankHigher, kingOnly: false,
    dealOntoEmpty: false, freeDefault: false,
  },
  black_widow: {
    deck: 104, suitsAllowed: [1, 2, 4], defaultSuits: 4, layout: spiderLayout(6, 4, 6, 5), allUp: false,
    piles: 0, stock: true, toWin: 8, group: rankRun, accepts: oneRankHigher, kingOnly: false,
    dealOntoEmpty: false, freeDefault: false,
  },
  curds_and_whey: {
    deck: 52, suitsAllowed: [4], defaultSuits: 4, layout: Array(13).fill(4), allUp: true,
    piles: 0, stock: false, toWin: 4, group: suitRunOrSameRank, accepts: suitHigherOrSameRank, kingOnly: true,
    dealOntoEmpty: false, freeDefault: false,
  },
};

/** How many cards at the end of a column (card texts, "??" face down) may move together. */
export function movableRun(variant, texts) {
  const up = texts.length - texts.filter((t) => t === HIDDEN).length;
  if (!up) return 0;
  const cards = texts.map((t) => (t === HIDDEN ? -100 : parseCard(t)));
  return VARIANTS[variant].group(cards, up);
}

/** Every setting with its default filled in (docs/rules.md "Tournament settings"). */
export function fullSettings(obj) {
  const rules = VARIANTS[obj.variant ?? "spider78"];
  if (!rules) throw new EngineError(`unknown variant '${obj.variant}'`, "bad_settings");
  const s = {
    variant: obj.variant ?? "spider78",
    suits: obj.suits ?? rules.defaultSuits,
    free_column: obj.free_column ?? rules.freeDefault,
    undo: obj.undo ?? true,
    undo_limit: obj.undo_limit ?? null,
    reveals_final: obj.reveals_final ?? false,
    time_limit: obj.time_limit ?? 600,
    draw_pile_choice: obj.draw_pile_choice ?? true,
    draw_pile_tops_up: obj.draw_pile_tops_up ?? true,
    deal_variation: obj.deal_variation ?? false,
  };
  if (!rules.suitsAllowed.includes(s.suits)) {
    throw new EngineError(`${s.variant} is played with ${rules.suitsAllowed.join(" or ")} suits, not ${s.suits}`,
      "bad_settings");
  }
  for (const name of ["free_column", "undo", "reveals_final", "draw_pile_choice", "draw_pile_tops_up", "deal_variation"]) {
    if (typeof s[name] !== "boolean") throw new EngineError(`${name} must be true or false, not ${s[name]}`, "bad_settings");
  }
  return s;
}

/** An entry's ordinal (docs/deal.md section 6): a whole number from 1. */
export function checkEntry(entry) {
  if (!Number.isInteger(entry)) {
    throw new EngineError(`the entry must be a whole number from 1, not ${JSON.stringify(entry)}`, "bad_settings");
  }
  if (entry < 1 || entry > MAX_ENTRY) {
    throw new EngineError(`the entry must be between 1 and ${MAX_ENTRY}, not ${entry}`, "bad_settings");
  }
  return entry;
}
