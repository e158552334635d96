// The table: draw piles or stock, completed sequences, and the columns, drawn to fit the
// screen for every game. Moves by drag-and-drop, by click-to-pick then click-to-drop, and from
// the keyboard; the board only reports what the player asked (onMove, onDeal) and leaves the
// rules to the server, whose answer re-renders the board or snaps the cards back.

import { HIDDEN, movableRun, parseCard } from "../engine/rules.js";
import { el } from "../lib/ui.js";
import { cardEl } from "./cards.js";
import { BoardInput } from "./input.js";
import { TAP, narrowColumns, targetsEl } from "./targets.js";

const MAX_CARD = 104;
const MIN_CARD = 14;
const SMALL_CARD = 56; // narrower: a plainer face with a bigger index
const TINY_CARD = 28; // narrower: the rank above the suit
const MIN_FONT = 11; // the smallest index, in px
const SCROLL_CARD = Math.ceil(MIN_FONT / 0.34); // narrower cards have no smaller index strip
const SIDEWAYS = window.matchMedia("(orientation: landscape) and (max-height: 500px)");

/** The paddings, borders and margins under an element and its own, out to the page's body. */
function paddingBelow(node) {
  let total = 0;
  for (let n = node; n && n !== document.body; n = n.parentElement) {
    const style = getComputedStyle(n);
    total += parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth) + parseFloat(style.marginBottom);
  }
  return total;
}

/** Whether the card at i lies inside a run of one suit (the cards before and after it follow on):
 * in the engine's numbering a card one rank below in the same suit is exactly one less. */
function runInside(cards, i) {
  const [a, b, c] = [cards[i - 1], cards[i], cards[i + 1]].map((n) =>
    (n.dataset.card === HIDDEN ? NaN : parseCard(n.dataset.card)));
  return a === b + 1 && b === c + 1;
}

export class Board extends BoardInput {
  /**
   * opts: readonly, onMove(src, count, dst), onDeal(pile or null), room() the height for the whole
   * board, or bottom() the height a bar fixed at the bottom of the window takes from it;
   * pileChoice() whether the player may choose the draw pile (false: the piles go in order).
   */
  constructor(root, opts = {}) {
    super();
    this.root = root;
    this.opts = opts;
    this.view = null;
    this.pick = null; // {col, count, fit}: a group chosen by click or keyboard, waiting for its target;
    // fit: the player did not choose the count, so a drop moves the part of it that fits the target
    this.grabChosen = false; // Up/Down chose how many cards the cursor holds
    this.cursor = 0; // keyboard: the column the arrows are on
    this.grab = 0; // keyboard: how many cards at the cursor
    this.pileCursor = 0;
    this.keyboard = false;
    this.press = null;
    this.dragged = null; // cards dropped on a target, waiting for the server's answer
    root.classList.add("board");
    root.classList.toggle("readonly", !!opts.readonly);
    if (!opts.readonly) {
      root.tabIndex = 0;
      root.setAttribute("role", "application"); // its own keys (a label needs a role to be read)
      root.setAttribute("aria-label", "the table: arrows or digits choose columns, Enter moves, D deals, U undoes");
      root.addEventListener("pointerdown", (e) => this.pointerDown(e));
      root.addEventListener("pointermove", (e) => this.pointerMove(e));
      root.addEventListener("pointerup", (e) => this.pointerUp(e));
      root.addEventListener("pointercancel", () => this.cancelPress());
      root.addEventListener("keydown", (e) => {
        if (this.key(e)) e.preventDefault();
      });
    }
    this.resize = () => this.layout();
    this.observer = new ResizeObserver(this.resize);
    this.observer.observe(root);
    window.addEventListener("resize", this.resize);
    window.addEventListener("spidertour:layout", this.resize);
  }

  destroy() {
    this.observer.disconnect();
    window.removeEventListener("resize", this.resize);
    window.removeEventListener("spidertour:layout", this.resize);
  }

  get width() {
    return this.view ? this.view.columns.length : 0;
  }

  // ---------------------------------------------------------------- drawing

  render(view) {
    this.view = view;
    this.dragged = null;
    this.press = null;
    if (view.over) {
      this.pick = null;
      this.keyboard = false;
    }
    if (this.pick && !this.faceUp(this.pick.col)) this.pick = null;
    if (this.pick) this.pick.count = Math.min(this.pick.count, this.faceUp(this.pick.col));
    this.cursor = Math.min(this.cursor, this.width - 1);
    this.grab = Math.min(Math.max(this.grab, 1), this.faceUp(this.cursor));
    const piles = view.draw_piles;
    if (piles && !piles[this.pileCursor]?.count) this.pileCursor = Math.max(0, piles.findIndex((p) => p.count));
    this.root.dataset.variant = view.variant;
    this.root.replaceChildren(this.reserveEl(view), this.tableauEl(view));
    this.layout();
    this.highlight();
  }

  reserveEl(view) {
    const row = el("div", { class: "reserve" });
    if (view.draw_piles) {
      const piles = el("div", { class: "piles" });
      view.draw_piles.forEach((pile, p) => {
        const stack = el("div", {
          class: `pile${pile.count ? "" : " empty"}`, "data-pile": p, "data-count": pile.count,
          role: "button", title: pile.count ? `Deal pile ${p + 1}` : `Pile ${p + 1} has been dealt`,
        });
        if (pile.count) {
          stack.append(el("div", { class: "card back under" }), cardEl(pile.top || "??"));
          stack.append(el("span", { class: "count" }, pile.count));
        }
        stack.append(el("span", { class: "pile-label" }, `${p + 1}`));
        piles.append(stack);
      });
      row.append(piles);
    }
    if (view.stock !== undefined && view.stock !== null) {
      const deals = view.deals_left ?? 0;
      const stock = el("div", {
        class: `stock${deals ? "" : " empty"}`, "data-stock": view.stock, "data-deals": deals, role: "button",
        title: deals ? "Deal a row" : "The stock is empty",
      });
      for (let i = 0; i < deals; i++) {
        const back = el("div", { class: "card back" });
        back.style.setProperty("--i", i);
        stock.append(back);
      }
      stock.append(el("span", { class: "count" }, `${deals} deal${deals === 1 ? "" : "s"}`));
      row.append(stock);
    }
    const done = el("div", { class: "foundation", "data-sequences": view.sequences ?? 0 });
    for (let i = 0; i < (view.sequences_to_win ?? 0); i++) {
      done.append(el("div", { class: `slot${i < view.sequences ? " done" : ""}` }, i < view.sequences ? "K\u2192A" : ""));
    }
    row.append(done);
    row.classList.toggle("slim", !view.draw_piles && (view.stock === undefined || view.stock === null));
    return row;
  }

  tableauEl(view) {
    const tableau = el("div", { class: "tableau" });
    view.columns.forEach((cards, c) => {
      const column = el("div", {
        class: `column${c === view.free_column ? " free" : ""}`, "data-col": c, "data-count": cards.length,
      });
      if (c === view.free_column) column.append(el("span", { class: "free-label" }, "free"));
      cards.forEach((text, i) => column.append(cardEl(text, { "data-index": i })));
      tableau.append(column);
    });
    return tableau;
  }

  /** The corner index at a card width: its font size, its top, and the strip a covered card must show. */
  indexAt(cw) {
    const bold = document.body.classList.contains("faces-bold");
    const border = bold ? cw * 0.05 : 0; // bold faces have a coloured top edge above the index
    if (cw >= SMALL_CARD) {
      const fs = cw * (bold ? 0.34 : 0.26);
      const top = cw * (bold ? 0.03 : 0.05);
      return { mode: "", fs, top, strip: border + top + fs + 4 };
    }
    if (cw >= TINY_CARD) {
      const fs = Math.max(MIN_FONT, cw * 0.34);
      return { mode: "small-cards", fs, top: 1, strip: border + 1 + fs + 4 };
    }
    // Too narrow for "10♥" on one line: the rank above the suit.
    return { mode: "small-cards tiny-cards", fs: MIN_FONT, top: 1, strip: border + 1 + MIN_FONT * 2 + 2 };
  }

  /** Set the sizes of a card width on the board; returns them. */
  sizeTo(cw, gap, extra) {
    const root = this.root;
    const index = this.indexAt(cw);
    const ch = Math.round(Math.max(cw * 1.4, index.strip * 1.3));
    root.style.setProperty("--cw", `${cw}px`);
    root.style.setProperty("--ch", `${ch}px`);
    root.style.setProperty("--gap", `${gap}px`);
    root.style.setProperty("--fs", `${index.fs.toFixed(2)}px`);
    root.style.setProperty("--ctop", `${index.top.toFixed(2)}px`);
    root.classList.toggle("small-cards", index.mode.includes("small-cards"));
    root.classList.toggle("tiny-cards", index.mode.includes("tiny-cards"));
    const total = this.width * cw + (this.width - 1) * gap + extra;
    root.querySelector(".tableau").style.width = `${total}px`;
    root.querySelector(".reserve").style.width = root.classList.contains("side") ? "" : `${total}px`;
    return { cw, ch, strip: index.strip, sliver: Math.max(4, ch * 0.06), downMin: Math.max(3, ch * 0.05), down: ch * 0.13,
      up: Math.max(index.strip, ch * (cw < SMALL_CARD ? 0.32 : 0.25)) };
  }

  /**
   * Card size from the width, then smaller if the longest column cannot show every face-up card's
   * index in the height left on the screen; face-down cards close up first, then face-up ones down
   * to their index strips.
   */
  layout() {
    if (!this.view) return;
    const root = this.root;
    const n = this.width;
    const width = root.clientWidth || 800;
    const gap = Math.max(1, Math.min(12, Math.floor(width / (n * 9))));
    const extra = this.view.free_column !== null && this.view.free_column !== undefined ? gap * 2 : 0;
    // A phone on its side: the piles and the sequences stand beside the columns, not above them,
    // taking `units` card widths of the row (three piles across, the stock, or the slots alone).
    // Not where that leaves the columns too narrow for a finger (Huge Spider's twenty): their tray
    // of big targets (targets.js) lies over the piles' row.
    const across = (units, aside) => Math.max(MIN_CARD, Math.min(MAX_CARD, Math.floor((width - gap * (n - 1) - extra - aside - 2) / (n + units))));
    const units = this.view.draw_piles ? 3 : this.view.stock != null ? 2 : 1;
    const beside = across(units, gap * (units + 2));
    const side = !document.body.classList.contains("portrait") && SIDEWAYS.matches && beside + gap >= TAP;
    root.classList.toggle("side", side);
    const widest = side ? beside : across(0, 0);
    const tableau = root.querySelector(".tableau");
    const columns = [...tableau.children].map((column) => {
      const cards = [...column.querySelectorAll(".card")];
      const down = cards.filter((c) => c.classList.contains("back")).length;
      const inner = cards.map((c, i) => i > 0 && i < cards.length - 1 && runInside(cards, i));
      const within = inner.filter(Boolean).length;
      return { cards, down, inner, within, up: Math.max(0, cards.length - down - 1) };
    });
    const rootTop = root.getBoundingClientRect().top + window.scrollY;
    const below = Math.max(8, paddingBelow(root) + 5); // what the page's boxes hold under the board
    const room = () => {
      const total = this.opts.room ? this.opts.room() : window.innerHeight - rootTop - (this.opts.bottom?.() ?? 0) - below;
      return total - (tableau.getBoundingClientRect().top + window.scrollY - rootTop);
    };
    // Every face-up card's index shown; or, when even that needs a scroll, the cards inside a run
    // of one suit (their ranks follow from the run's ends) closed up to slivers.
    const full = (s) => Math.max(s.ch, ...columns.map((c) => s.ch + c.down * s.downMin + c.up * s.strip));
    const closed = (s) => Math.max(s.ch, ...columns.map((c) =>
      s.ch + c.down * s.downMin + (c.up - c.within) * s.strip + c.within * s.sliver));
    const fit = (need) => {
      let size = this.sizeTo(widest, gap, extra);
      let space = room();
      for (let i = 0; i < 8 && need(size) > space && size.cw > MIN_CARD; i++) {
        const cw = Math.max(MIN_CARD, Math.min(size.cw - 1, Math.floor(size.cw * (space / need(size)))));
        size = this.sizeTo(cw, gap, extra);
        space = room();
      }
      return { size, space };
    };
    let need = full;
    let { size, space } = fit(need);
    if (need(size) > space && columns.some((c) => c.within)) {
      need = closed;
      ({ size, space } = fit(need));
    }
    // Too long to fit even in slivers (a phone on its side, 20 cards in a column): cards narrower
    // than SCROLL_CARD would hardly shorten it (their index cannot shrink), so they stay that wide
    // and the page scrolls down instead.
    if (need(size) > space && size.cw < SCROLL_CARD && widest >= SCROLL_CARD) {
      size = this.sizeTo(SCROLL_CARD, gap, extra);
      space = need(size);
    }
    space = Math.max(space, Math.min(size.ch * 3, need(size))); // what fits closes up into the room it has
    let tallest = size.ch;
    for (const { cards, down, up, inner, within } of columns) {
      let downStep = size.down;
      let upStep = size.up;
      let innerStep = size.up;
      let excess = size.ch + down * downStep + up * upStep - space;
      if (excess > 0 && down) {
        const take = Math.min(excess, down * (size.down - size.downMin));
        downStep -= take / down;
        excess -= take;
      }
      if (excess > 0 && up) {
        upStep = Math.max(size.strip, upStep - excess / up);
        innerStep = upStep;
        excess = size.ch + down * downStep + up * upStep - space;
      }
      if (excess > 0 && within) innerStep = Math.max(size.sliver, upStep - excess / within);
      let y = 0;
      let last = 0;
      cards.forEach((card, i) => {
        last = y;
        card.style.top = `${Math.round(y)}px`;
        card.style.zIndex = i + 1;
        const sliver = inner[i] && innerStep < size.strip - 3; // a strip has 4 px to spare under its index
        card.classList.toggle("in-run", sliver);
        y += card.classList.contains("back") ? downStep : sliver ? innerStep : upStep;
      });
      tallest = Math.max(tallest, last + size.ch);
    }
    tableau.style.height = `${Math.ceil(tallest) + 4}px`;
  }

  highlight() {
    const root = this.root;
    root.querySelectorAll(".picked, .cursor, .grab, .pile-cursor").forEach((n) =>
      n.classList.remove("picked", "cursor", "grab", "pile-cursor"));
    root.querySelector(".targets")?.remove();
    if (this.pick) this.groupEls(this.pick.col, this.pick.count).forEach((c) => c.classList.add("picked"));
    if (this.pick && !this.opts.readonly && narrowColumns(root)) root.append(this.targetsFor(this.pick));
    if (this.keyboard && !this.opts.readonly && !this.view?.over) {
      this.columnEl(this.cursor)?.classList.add("cursor");
      if (!this.pick) this.groupEls(this.cursor, this.grab).forEach((c) => c.classList.add("grab"));
      root.querySelector(`.pile[data-pile="${this.pileCursor}"]`)?.classList.add("pile-cursor");
    }
    root.dataset.picked = this.pick ? `${this.pick.col}:${this.pick.count}` : "";
  }

  /** The tray of big targets (targets.js) for a picked group: every column that takes it, or the part that fits. */
  targetsFor({ col, count, fit }) {
    const dests = [];
    for (let dst = 0; dst < this.width; dst++) {
      if (dst === col || !this.fits(col, fit ? this.fitting(col, count, dst) : count, dst)) continue;
      const to = this.view.columns[dst];
      dests.push({ col: dst, top: to.length ? to[to.length - 1] : "" });
    }
    return targetsEl(dests);
  }

  /** No place for these cards: they shake, and a short note says so. */
  refuse(cards, text) {
    cards.forEach((c) => {
      c.classList.remove("shake");
      void c.offsetWidth;
      c.classList.add("shake");
    });
    setTimeout(() => cards.forEach((c) => c.classList.remove("shake")), 500);
    this.root.querySelector(".board-note")?.remove();
    const note = el("div", { class: "board-note", role: "status" }, text);
    this.root.append(note);
    setTimeout(() => note.remove(), 2500);
  }

  columnEl(c) {
    return this.root.querySelector(`.column[data-col="${c}"]`);
  }

  groupEls(col, count) {
    const cards = [...(this.columnEl(col)?.querySelectorAll(".card") || [])];
    return count > 0 ? cards.slice(-count) : [];
  }

  faceUp(col) {
    const cards = this.view?.columns[col] || [];
    return cards.filter((t) => t !== "??").length;
  }

  runAt(col) {
    return movableRun(this.view.variant, this.view.columns[col] || []);
  }

  // ---------------------------------------------------------------- effects

  /** A completed sequence: its cards fly from the column to the sequence slots. */
  celebrate(col, texts) {
    const foundation = this.root.querySelector(".foundation");
    if (foundation) {
      foundation.classList.remove("pulse");
      void foundation.offsetWidth;
      foundation.classList.add("pulse");
    }
    if (document.body.classList.contains("simple") || !texts || !texts.length) return;
    const column = this.columnEl(col);
    if (!column || !foundation) return;
    const from = column.getBoundingClientRect();
    const to = foundation.getBoundingClientRect();
    const layer = el("div", { class: "fly-layer" });
    texts.forEach((t, i) => {
      const card = cardEl(t);
      card.style.left = `${from.left}px`;
      card.style.top = `${from.top + i * 6}px`;
      card.style.setProperty("--dx", `${to.left - from.left}px`);
      card.style.setProperty("--dy", `${to.top - from.top - i * 6}px`);
      card.style.animationDelay = `${(texts.length - 1 - i) * 25}ms`;
      layer.append(card);
    });
    this.root.append(layer);
    setTimeout(() => layer.remove(), 1200);
  }
}
