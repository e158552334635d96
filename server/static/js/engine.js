// The deal (DEAL.md) and the rules (RULES.md) in the browser: enough to rebuild a finished
// tournament's deal from its revealed seed and step through every published replay (REPLAY.md).
// It mirrors the Python engine: cards are small integers, suit * 16 + rank (Ace 0 .. King 12), so
// "lower == upper - 1" holds exactly for the same suit one rank below.

import { digest } from "./sha256.js";

export const RANKS = "A23456789TJQK";
export const SUITS = "SHDC";
export const HIDDEN = "??";
const KING = 12;
const SEQUENCE = 13;
const TWO64 = 1n << 64n;
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

/** Every setting with its default filled in (RULES.md "Tournament settings"). */
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

/** An entry's ordinal (DEAL.md section 6): a whole number from 1. */
export function checkEntry(entry) {
  if (!Number.isInteger(entry)) {
    throw new EngineError(`the entry must be a whole number from 1, not ${JSON.stringify(entry)}`, "bad_settings");
  }
  if (entry < 1 || entry > MAX_ENTRY) {
    throw new EngineError(`the entry must be between 1 and ${MAX_ENTRY}, not ${entry}`, "bad_settings");
  }
  return entry;
}

// ------------------------------------------------------------------ the deal (DEAL.md)

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

/** [0 .. n-1] shuffled from the end by the stream (DEAL.md section 6; n < 2 draws nothing). */
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
 * An entry's renaming (DEAL.md section 6), as engine/variation.py's Renaming: `suits[s]` the suit
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

  /** A move (RULES.md's JSON form) in base numbering as the same move in the entry's; other fields kept. */
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

/**
 * The deal in deal-vectors.json's format (every card shown); with `deal_variation`, entry
 * `entry`'s renamed deal in entry-vectors.json's format.
 */
export async function dealJson(settingsObj, seed, hash = digest, entry = null) {
  const settings = fullSettings(settingsObj);
  const rules = VARIANTS[settings.variant];
  const { game, deck } = await deal(settings, seed, hash, entry);
  const text = (cards) => cards.map(cardText).join(" ");
  const out = { variant: settings.variant, suits: settings.suits, seed };
  if (game.entry !== null) {
    out.entry = game.entry;
    if (rules.piles) out.draw_pile_choice = settings.draw_pile_choice;
  } else {
    out.shuffled = text(deck);
  }
  out.columns = game.columns.slice(0, rules.layout.length).map(text);
  if (game.piles) out.draw_piles = game.piles.map(text);
  if (game.stock) out.stock = text(game.stock);
  return out;
}

// ------------------------------------------------------------------ a game

export class Game {
  /** A game dealt from an already shuffled deck (see newGame). */
  constructor(settingsObj, deck) {
    const s = (this.settings = fullSettings(settingsObj));
    const rules = (this.rules = VARIANTS[s.variant]);
    this.dealt = rules.layout.length;
    this.free = s.free_column ? this.dealt : -1;
    const width = this.dealt + (s.free_column ? 1 : 0);
    this.columns = Array.from({ length: width }, () => []);
    this.down = Array(width).fill(0);
    this.piles = rules.piles ? Array.from({ length: rules.piles }, () => []) : null;
    this.stock = rules.stock ? [] : null;
    this.reveals = 0;
    this.sequences = 0;
    this.freeUsed = false;
    this.undosUsed = 0;
    this.outcome = null;
    this.timeLeft = null;
    this.t = 0;
    this.undoStack = [];
    this.sealed = false; // the undo door was last closed by a reveal (reveals_final)
    this.entry = null; // the entry whose renamed deal this is (deal_variation)
    if (deck) this.dealFrom(deck);
  }

  dealFrom(deck) {
    const layout = this.rules.layout;
    let pos = 0;
    for (let row = 0; row < Math.max(...layout); row++) {
      layout.forEach((height, c) => { if (height > row) this.columns[c].push(deck[pos++]); });
    }
    layout.forEach((height, c) => { this.down[c] = this.rules.allUp ? 0 : height - 1; });
    if (this.piles) {
      for (let p = 0; p < this.piles.length; p++) {
        this.piles[p] = deck.slice(pos, pos + this.dealt);
        pos += this.dealt;
      }
    }
    if (this.stock) this.stock = deck.slice(pos);
  }

  get score() { return 25 * this.reveals + 100 * this.sequences; }

  get freeColumnBonus() {
    return this.outcome === "won" && this.settings.free_column && !this.freeUsed ? 100 : 0;
  }

  get timeBonus() {
    return this.timeLeft === null ? 0 : Math.floor((this.timeLeft * this.sequences) / this.rules.toWin);
  }

  get finalScore() {
    return this.outcome === null ? null : this.score + this.freeColumnBonus + this.timeBonus;
  }

  get canUndo() {
    const s = this.settings;
    const limitOk = s.undo_limit === null || this.undosUsed < s.undo_limit;
    return this.outcome === null && s.undo && limitOk && this.undoStack.length > 0;
  }

  tick(t) {
    if (typeof t !== "number" || !(t >= 0) || !Number.isFinite(t)) {
      throw new EngineError(`the time must be a finite number of seconds >= 0, not ${t}`, "out_of_range");
    }
    if (t < this.t) throw new EngineError(`time cannot go backwards (${t} after ${this.t})`, "time_backwards");
    this.t = t;
    if (this.outcome === null && t >= this.settings.time_limit) this.finish("timed_out", 0);
    return this.outcome !== null;
  }

  /** Apply a move in RULES.md's JSON form, or throw an EngineError and change nothing. */
  play(move, t) {
    if (t !== undefined && t !== null) this.tick(t);
    if (this.outcome !== null) {
      if (this.outcome === "timed_out") throw new EngineError("time is up: the game is over", "time_up");
      throw new EngineError(`the game is over (${this.outcome})`, "game_over");
    }
    const type = move && move.type;
    if (type === "move") return this.moveCards(move.from, move.count, move.to);
    if (type === "deal") return this.deal(move.pile ?? null);
    if (type === "undo") return this.takeBack();
    if (type === "end") {
      this.finish("ended", Math.floor(this.settings.time_limit - this.t));
      return { changed: [], revealed: 0, completed: 0 };
    }
    throw new EngineError(`unknown move type '${type}': expected one of move, deal, undo, end`, "unknown_type");
  }

  moveCards(src, count, dst) {
    const cols = this.columns;
    const width = cols.length;
    if (![src, count, dst].every(Number.isInteger)) {
      throw new EngineError("a move's columns and count must be whole numbers", "wrong_type");
    }
    if (!(src >= 0 && src < width && dst >= 0 && dst < width)) {
      throw new EngineError(`there are only columns 0 to ${width - 1}`, "out_of_range");
    }
    if (count < 1) throw new EngineError("'count' must be at least 1", "out_of_range");
    if (src === dst) throw new EngineError("a group cannot move onto its own column", "same_column");
    const s = cols[src];
    const up = s.length - this.down[src];
    if (count > up) {
      if (!s.length) throw new EngineError(`column ${src} is empty`, "empty_column");
      throw new EngineError(`column ${src} has only ${up} face-up cards`, "face_down");
    }
    if (count > 1 && count > this.rules.group(s, up)) {
      throw new EngineError(`the last ${count} cards of column ${src} are not a group that may move together`,
        "not_a_group");
    }
    const first = s[s.length - count];
    const d = cols[dst];
    if (d.length) {
      if (!this.rules.accepts(d[d.length - 1], first)) {
        throw new EngineError(`${cardText(first)} cannot go onto ${cardText(d[d.length - 1])}`, "cannot_place");
      }
    } else if (this.rules.kingOnly && dst < this.dealt && (first & 15) !== KING) {
      throw new EngineError("an empty column takes only a King", "king_only");
    }
    d.push(...s.splice(s.length - count, count));
    let revealed = 0;
    if (s.length && this.down[src] === s.length) {
      this.down[src]--;
      this.reveals++;
      revealed = 1;
    }
    const freeBefore = this.freeUsed;
    if (dst === this.free) this.freeUsed = true;
    if ((d[d.length - 1] & 15) === 0 && d.length >= SEQUENCE) {
      const [completed, more] = this.removeSequences(dst);
      if (completed) {
        this.undoStack = [];
        this.sealed = this.settings.reveals_final && revealed + more > 0;
        this.checkWin();
        return { changed: [src, dst], revealed: revealed + more, completed };
      }
    }
    if (revealed && this.settings.reveals_final) { // a reveal closes the door like a deal
      this.undoStack = [];
      this.sealed = true;
      return { changed: [src, dst], revealed, completed: 0 };
    }
    this.undoStack.push([src, count, dst, revealed, freeBefore]);
    return { changed: [src, dst], revealed, completed: 0 };
  }

  removeSequences(c) {
    const d = this.columns[c];
    let completed = 0;
    let revealed = 0;
    while (d.length - this.down[c] >= SEQUENCE && (d[d.length - 1] & 15) === 0) {
      const top = d.length - SEQUENCE;
      if ((d[top] & 15) !== KING) break;
      let run = true;
      for (let i = top; i < d.length - 1; i++) if (d[i] !== d[i + 1] + 1) run = false;
      if (!run) break;
      d.splice(top);
      completed++;
      this.sequences++;
      if (d.length && this.down[c] === d.length) {
        this.down[c]--;
        this.reveals++;
        revealed++;
      }
    }
    return [completed, revealed];
  }

  checkWin() {
    if (this.sequences >= this.rules.toWin) this.finish("won", Math.floor(this.settings.time_limit - this.t));
  }

  deal(pile) {
    let cards;
    if (pile !== null) {
      if (!Number.isInteger(pile)) throw new EngineError(`'pile' must be a whole number, not ${pile}`, "wrong_type");
      if (pile < 0) throw new EngineError(`'pile' is out of range: ${pile}`, "out_of_range");
    }
    if (this.piles) {
      const p = this.choosePile(pile);
      cards = this.piles[p];
      this.piles[p] = [];
    } else if (this.stock) {
      if (pile !== null) throw new EngineError('this game deals from its stock: send {"type": "deal"}', "no_piles");
      if (!this.stock.length) throw new EngineError("the stock is empty", "stock_empty");
      if (!this.rules.dealOntoEmpty && !this.columns.slice(0, this.dealt).every((c) => c.length)) {
        throw new EngineError("every column must hold a card before a deal", "empty_column");
      }
      cards = this.stock.splice(0, this.dealt);
    } else {
      throw new EngineError(`${this.settings.variant} has nothing to deal`, "nothing_to_deal");
    }
    cards.forEach((c, i) => this.columns[i].push(c));
    let revealed = 0;
    let completed = 0;
    for (let i = 0; i < cards.length; i++) {
      const col = this.columns[i];
      if (col.length >= SEQUENCE && (col[col.length - 1] & 15) === 0) {
        const [done, more] = this.removeSequences(i);
        completed += done;
        revealed += more;
      }
    }
    this.undoStack = [];
    this.sealed = false;
    if (completed) this.checkWin();
    return { changed: cards.map((_, i) => i), revealed, completed };
  }

  choosePile(pile) {
    const piles = this.piles;
    if (this.settings.draw_pile_choice) {
      if (pile === null) {
        throw new EngineError(`name the draw pile to deal: {"type": "deal", "pile": 0-${piles.length - 1}}`,
          "missing_field");
      }
      if (pile >= piles.length) throw new EngineError(`there are only draw piles 0 to ${piles.length - 1}`, "out_of_range");
      if (!piles[pile].length) throw new EngineError(`draw pile ${pile} is empty`, "pile_empty");
      return pile;
    }
    const following = piles.findIndex((cards) => cards.length);
    if (following < 0) throw new EngineError("every draw pile has been dealt", "pile_empty");
    if (pile !== null && pile !== following) {
      throw new EngineError(`draw piles are dealt in order: the next is pile ${following}`, "wrong_pile");
    }
    return following;
  }

  takeBack() {
    const s = this.settings;
    if (!s.undo) throw new EngineError("undo is off in this game", "undo_off");
    if (s.undo_limit !== null && this.undosUsed >= s.undo_limit) {
      throw new EngineError(`all ${s.undo_limit} undos have been used`, "undo_limit");
    }
    if (!this.undoStack.length) {
      if (this.sealed) {
        throw new EngineError("a revealed card stays revealed (reveals_final): the move that turned it cannot be " +
          "undone, nor anything before it", "reveals_final");
      }
      throw new EngineError("there is no move to take back", "nothing_to_undo");
    }
    const [src, count, dst, revealed, freeBefore] = this.undoStack.pop();
    if (revealed) {
      this.down[src]++;
      this.reveals--;
    }
    const d = this.columns[dst];
    this.columns[src].push(...d.splice(d.length - count, count));
    this.freeUsed = freeBefore;
    this.undosUsed++;
    return { changed: [src, dst], revealed: -revealed, completed: 0 };
  }

  finish(outcome, timeLeft) {
    this.outcome = outcome;
    this.timeLeft = Math.max(0, timeLeft);
    this.undoStack = [];
  }

  /** What the player sees, exactly as the server's view (face-down cards "??"). */
  view() {
    const out = {
      variant: this.settings.variant,
      columns: this.columns.map((col, c) => col.map((card, i) => (i < this.down[c] ? HIDDEN : cardText(card)))),
      free_column: this.free < 0 ? null : this.free,
      score: this.score,
      sequences: this.sequences,
      sequences_to_win: this.rules.toWin,
      reveals: this.reveals,
      over: this.outcome !== null,
      outcome: this.outcome,
      free_column_used: this.freeUsed,
      can_undo: this.canUndo,
      undos_used: this.undosUsed,
    };
    if (this.piles) {
      const show = this.settings.draw_pile_tops_up;
      out.draw_piles = this.piles.map((p) => ({ count: p.length, top: p.length && show ? cardText(p[0]) : null }));
    }
    if (this.stock) {
      out.stock = this.stock.length;
      out.deals_left = Math.floor(this.stock.length / this.dealt);
    }
    if (this.outcome !== null) {
      out.time_left = this.timeLeft;
      out.time_bonus = this.timeBonus;
      out.free_column_bonus = this.freeColumnBonus;
      out.final_score = this.finalScore;
    }
    return out;
  }
}

/**
 * A new game of these settings (RULES.md), dealt from the seed (DEAL.md). With `deal_variation`
 * it is entry `entry`'s renamed deal (DEAL.md section 6) and `entry` is required; else it is ignored.
 */
export async function newGame(settingsObj, seed, hash = digest, entry = null) {
  return (await deal(settingsObj, seed, hash, entry)).game;
}

/** newGame, and the shuffled deck it was dealt from. */
async function deal(settingsObj, seed, hash, entry) {
  const settings = fullSettings(settingsObj);
  const rules = VARIANTS[settings.variant];
  if (settings.deal_variation && (entry === null || entry === undefined)) {
    throw new EngineError("deal_variation is on: the game needs 'entry', its entry's ordinal (1, 2, ...)",
      "bad_settings");
  }
  const renaming = settings.deal_variation ? await Renaming.of(settings, seed, entry, hash) : null;
  const deck = await shuffled(orderedDeck(rules.deck, settings.suits), seed, hash);
  const game = new Game(settings, deck);
  if (renaming) {
    renaming.apply(game);
    game.entry = entry;
  }
  return { game, deck };
}

/** REPLAY.md for one game: {initial, steps, final_score}; each step is the view plus ok/error. */
export async function replayGame(spec, hash = digest) {
  for (const name of ["variant", "suits", "seed"]) {
    if (spec[name] === undefined || spec[name] === null) throw new EngineError(`a game needs '${name}'`, "bad_settings");
  }
  const game = await newGame(spec, spec.seed, hash, spec.entry ?? null);
  const initial = game.view();
  const steps = (spec.moves || []).map((raw) => {
    try {
      if (raw && raw.t !== undefined && raw.t !== null) game.tick(raw.t);
      game.play(raw);
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      return { ...game.view(), ok: false, error: err.reason, code: err.code };
    }
    return { ...game.view(), ok: true };
  });
  return { initial, steps, final_score: game.finalScore };
}

/** SHA-256 hex of the canonical JSON of {"salt", "seed", "settings"}: the tournament's commitment.
 * `salt` null or undefined: the form of tournaments created before salts, {"seed", "settings"}. */
export async function commitment(seed, settings, salt = null, hash = digest) {
  const canonical = (v) => {
    if (v === null || typeof v !== "object") return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  };
  const committed = salt === null || salt === undefined ? { seed, settings } : { salt, seed, settings };
  const bytes = new TextEncoder().encode(canonical(committed));
  return Array.from(await hash(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}
