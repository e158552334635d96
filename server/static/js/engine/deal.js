// The deal (docs/deal.md) in the browser: the seed's stream, the shuffle, and an entry's renaming.

import { digest } from "../lib/sha256.js";
import { checkEntry, fullSettings, SUITS, TWO64, VARIANTS } from "./rules.js";

export function orderedDeck(size, suitCount) {
  const suits = { 1: "S", 2: "SH", 4: "SHDC" }[suitCount];
  const copies = size / (13 * suitCount);
  const deck = [];
  for (let copy = 0; copy < copies; copy++) {
    for (const s of suits) for (let r = 0; r < 13; r++) deck.push(SUITS.indexOf(s) * 16 + r);
  }
  return deck;
}

/** The seed's stream of unsigned 64-bit integers: block k is SHA-256(seed + ":" + k), big-endian. */
class Stream {
  constructor(seed, hash) {
    this.base = new TextEncoder().encode(seed + ":");
    this.hash = hash;
    this.k = 0;
    this.numbers = [];
  }

  async next() {
    if (!this.numbers.length) {
      const digits = new TextEncoder().encode(String(this.k++));
      const input = new Uint8Array(this.base.length + digits.length);
      input.set(this.base);
      input.set(digits, this.base.length);
      const block = new DataView((await this.hash(input)).buffer);
      for (let i = 0; i < 4; i++) this.numbers.push(block.getBigUint64(8 * i, false));
    }
    return this.numbers.shift();
  }

  async uniform(n) {
    const big = BigInt(n);
    const limit = TWO64 - (TWO64 % big);
    for (;;) {
      const x = await this.next();
      if (x < limit) return Number(x % big);
    }
  }
}

/** Fisher-Yates from the end, drawing from the seed's stream. `hash` defaults to crypto.subtle. */
export async function shuffled(deck, seed, hash = digest) {
  const cards = [...deck];
  const stream = new Stream(seed, hash);
  for (let i = cards.length - 1; i > 0; i--) {
    const j = await stream.uniform(i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

/** [0 .. n-1] shuffled from the end by the stream (docs/deal.md section 6; n < 2 draws nothing). */
async function permutation(stream, n) {
  const p = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = await stream.uniform(i + 1);
    [p[i], p[j]] = [p[j], p[i]];
  }
  return p;
}

/** Maximal runs of neighbouring columns dealt the same number of cards: [first, end) pairs. */
function columnGroups(layout) {
  const groups = [];
  let start = 0;
  for (let c = 1; c <= layout.length; c++) {
    if (c === layout.length || layout[c] !== layout[start]) {
      groups.push([start, c]);
      start = c;
    }
  }
  return groups;
}

/**
 * An entry's renaming (docs/deal.md section 6), as engine/deals/variation.py's Renaming: `suits[s]` the suit
 * base suit s becomes, `sigma[c]` the column base column c becomes (the free column stays put),
 * `piles[p]` the position base draw pile p moves to.
 */
export class Renaming {
  constructor(suits, sigma, piles) {
    this.suits = suits;
    this.sigma = sigma;
    this.piles = piles;
  }

  /** The renaming of entry `entry` of a tournament with this seed and these settings. */
  static async of(settingsObj, seed, entry, hash = digest) {
    const s = fullSettings(settingsObj);
    const rules = VARIANTS[s.variant];
    const stream = new Stream(`${seed}:entry:${checkEntry(entry)}`, hash);
    const suits = [...(await permutation(stream, s.suits))];
    for (let i = s.suits; i < 4; i++) suits.push(i);
    const sigma = Array.from({ length: rules.layout.length + (s.free_column ? 1 : 0) }, (_, c) => c);
    for (const [start, end] of columnGroups(rules.layout)) {
      const within = await permutation(stream, end - start);
      for (let i = 0; i < end - start; i++) sigma[start + i] = start + within[i];
    }
    const piles = rules.piles && s.draw_pile_choice
      ? await permutation(stream, rules.piles)
      : Array.from({ length: rules.piles }, (_, p) => p);
    return new Renaming(suits, sigma, piles);
  }

  inverse() {
    const inv = (p) => { const out = []; p.forEach((target, i) => { out[target] = i; }); return out; };
    return new Renaming(inv(this.suits), inv(this.sigma), inv(this.piles));
  }

  card(c) { return this.suits[c >> 4] * 16 + (c & 15); }

  column(c) { return Number.isInteger(c) && c >= 0 && c < this.sigma.length ? this.sigma[c] : c; }

  pile(p) { return Number.isInteger(p) && p >= 0 && p < this.piles.length ? this.piles[p] : p; }

  /** A move (the rules' JSON form) in base numbering as the same move in the entry's; other fields kept. */
  move(m) {
    if (m && m.type === "move") return { ...m, from: this.column(m.from), to: this.column(m.to) };
    if (m && m.type === "deal" && m.pile !== undefined && m.pile !== null) return { ...m, pile: this.pile(m.pile) };
    return m;
  }

  moveBack(m) { return this.inverse().move(m); }

  /** Rename a freshly dealt game in place: cards, columns, draw piles (card i to sigma(i)), stock rows. */
  apply(game) {
    const row = (cards) => {
      const out = [];
      cards.forEach((c, i) => { out[this.sigma[i]] = this.card(c); });
      return out;
    };
    const columns = [];
    const down = [];
    game.columns.forEach((col, c) => {
      columns[this.sigma[c]] = col.map((x) => this.card(x));
      down[this.sigma[c]] = game.down[c];
    });
    game.columns = columns;
    game.down = down;
    if (game.piles) {
      const piles = [];
      game.piles.forEach((pile, p) => { piles[this.piles[p]] = pile.length ? row(pile) : []; });
      game.piles = piles;
    }
    if (game.stock) {
      const stock = [];
      for (let i = 0; i < game.stock.length; i += game.dealt) stock.push(...row(game.stock.slice(i, i + game.dealt)));
      game.stock = stock;
    }
    game.undoStack = game.undoStack.map(([src, n, dst, rev, free]) => [this.column(src), n, this.column(dst), rev, free]);
  }
}
