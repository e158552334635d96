// One game in the browser (docs/rules.md): moves, undo, time and score, to step through replays.

import { cardText, EngineError, fullSettings, HIDDEN, KING, SEQUENCE, VARIANTS } from "./rules.js";

// Why an undo has nothing to take back, by what last closed the door to earlier moves.
const NOTHING_TO_UNDO = {
  "": "there is no move to take back",
  deal: "a deal cannot be taken back, nor anything before it",
  sequence: "a move that completed a sequence cannot be taken back, nor anything before it",
};

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
    this.closedBy = ""; // what last closed the undo door: "deal", "sequence", "reveal" (reveals_final)
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

  /** Apply a move in the rules' JSON form, or throw an EngineError and change nothing. */
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
        this.closedBy = this.settings.reveals_final && revealed + more > 0 ? "reveal" : "sequence";
        this.checkWin();
        return { changed: [src, dst], revealed: revealed + more, completed };
      }
    }
    if (revealed && this.settings.reveals_final) { // a reveal closes the door like a deal
      this.undoStack = [];
      this.closedBy = "reveal";
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
    this.closedBy = "deal";
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
      if (this.closedBy === "reveal") {
        throw new EngineError("a revealed card stays revealed (reveals_final): the move that turned it cannot be " +
          "undone, nor anything before it", "reveals_final");
      }
      throw new EngineError(NOTHING_TO_UNDO[this.closedBy], "nothing_to_undo");
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
