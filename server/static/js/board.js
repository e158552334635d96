// The table: draw piles or stock, completed sequences, and the columns, drawn to fit the
// screen for every game. Moves by drag-and-drop, by click-to-pick then click-to-drop, and from
// the keyboard; the board only reports what the player asked (onMove, onDeal) and leaves the
// rules to the server, whose answer re-renders the board or snaps the cards back.

import { cardEl } from "./cards.js";
import { movableRun } from "./engine.js";
import { el } from "./ui.js";

const DRAG_THRESHOLD = 5;
const MAX_CARD = 104;
const MIN_CARD = 30;

export class Board {
  /** opts: readonly, onMove(src, count, dst), onDeal(pile or null), room() the height for the columns */
  constructor(root, opts = {}) {
    this.root = root;
    this.opts = opts;
    this.view = null;
    this.pick = null; // {col, count}: a group chosen by click or keyboard, waiting for its target
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
      for (let i = 0; i < deals; i++) stock.append(el("div", { class: "card back", style: `--i:${i}` }));
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

  /** Card size from the width, column fanning from the height left on the screen. */
  layout() {
    if (!this.view) return;
    const root = this.root;
    const n = this.width;
    const width = root.clientWidth || 800;
    const gap = Math.max(3, Math.min(12, Math.floor(width / 110)));
    const extra = this.view.free_column !== null && this.view.free_column !== undefined ? gap * 2 : 0;
    const cw = Math.max(MIN_CARD, Math.min(MAX_CARD, Math.floor((width - gap * (n - 1) - extra - 2) / n)));
    const ch = Math.round(cw * 1.4);
    root.style.setProperty("--cw", `${cw}px`);
    root.style.setProperty("--ch", `${ch}px`);
    root.style.setProperty("--gap", `${gap}px`);
    root.classList.toggle("small-cards", cw < 56);
    const total = n * cw + (n - 1) * gap + extra;
    const tableau = root.querySelector(".tableau");
    for (const part of [tableau, root.querySelector(".reserve")]) part.style.width = `${total}px`;
    const top = tableau.getBoundingClientRect().top + window.scrollY;
    const room = Math.max(ch * 3, this.opts.room ? this.opts.room() : window.innerHeight - top - 12);
    let tallest = ch;
    for (const column of tableau.children) {
      const cards = [...column.querySelectorAll(".card")];
      const down = cards.filter((c) => c.classList.contains("back")).length;
      let downStep = ch * 0.13;
      let upStep = ch * (cw < 56 ? 0.32 : 0.25);
      const natural = down * downStep + Math.max(0, cards.length - down - 1) * upStep;
      if (natural + ch > room && natural > 0) {
        const f = (room - ch) / natural;
        downStep *= f;
        upStep *= f;
      }
      let y = 0;
      let last = 0;
      cards.forEach((card, i) => {
        last = y;
        card.style.top = `${Math.round(y)}px`;
        card.style.zIndex = i + 1;
        y += card.classList.contains("back") ? downStep : upStep;
      });
      tallest = Math.max(tallest, last + ch);
    }
    tableau.style.height = `${Math.ceil(tallest) + 4}px`;
  }

  highlight() {
    const root = this.root;
    root.querySelectorAll(".picked, .cursor, .grab, .pile-cursor").forEach((n) =>
      n.classList.remove("picked", "cursor", "grab", "pile-cursor"));
    if (this.pick) this.groupEls(this.pick.col, this.pick.count).forEach((c) => c.classList.add("picked"));
    if (this.keyboard && !this.opts.readonly) {
      this.columnEl(this.cursor)?.classList.add("cursor");
      if (!this.pick) this.groupEls(this.cursor, this.grab).forEach((c) => c.classList.add("grab"));
      root.querySelector(`.pile[data-pile="${this.pileCursor}"]`)?.classList.add("pile-cursor");
    }
    root.dataset.picked = this.pick ? `${this.pick.col}:${this.pick.count}` : "";
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

  // ---------------------------------------------------------------- pointer: drag or click

  pointerDown(e) {
    if (e.button !== 0 || !this.view || this.view.over) return;
    const cardNode = e.target.closest(".column .card");
    const column = e.target.closest(".column");
    const pile = e.target.closest(".pile");
    const stock = e.target.closest(".stock");
    this.press = { x0: e.clientX, y0: e.clientY, id: e.pointerId, dragging: false };
    if (pile) this.press.pile = Number(pile.dataset.pile);
    else if (stock) this.press.stock = true;
    else if (column) {
      const col = Number(column.dataset.col);
      this.press.col = col;
      if (cardNode && !cardNode.classList.contains("back")) {
        const index = Number(cardNode.dataset.index);
        this.press.count = this.view.columns[col].length - index;
        this.press.cards = this.groupEls(col, this.press.count);
      }
    } else {
      this.press = null;
    }
  }

  pointerMove(e) {
    const press = this.press;
    if (!press || press.id !== e.pointerId || !press.cards) return;
    const dx = e.clientX - press.x0;
    const dy = e.clientY - press.y0;
    if (!press.dragging) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      press.dragging = true;
      this.root.setPointerCapture(e.pointerId);
      this.pick = null;
      this.highlight();
      press.cards.forEach((c) => c.classList.add("dragging"));
    }
    press.cards.forEach((c) => (c.style.transform = `translate(${dx}px, ${dy}px)`));
    const over = this.columnAt(e.clientX, e.clientY);
    this.root.querySelectorAll(".column.drop-target").forEach((n) => n.classList.remove("drop-target"));
    if (over !== null && over !== press.col) this.columnEl(over).classList.add("drop-target");
  }

  pointerUp(e) {
    const press = this.press;
    if (!press || press.id !== e.pointerId) return;
    this.press = null;
    this.root.querySelectorAll(".column.drop-target").forEach((n) => n.classList.remove("drop-target"));
    if (press.dragging) {
      const dst = this.columnAt(e.clientX, e.clientY);
      if (dst === null || dst === press.col) {
        this.snapBack(press.cards);
        return;
      }
      this.dragged = press.cards;
      press.cards.forEach((c) => c.classList.add("waiting"));
      this.opts.onMove?.(press.col, press.count, dst);
      return;
    }
    this.click(press);
  }

  cancelPress() {
    if (this.press?.dragging) this.snapBack(this.press.cards);
    this.press = null;
  }

  click(press) {
    if (press.pile !== undefined) {
      this.pileCursor = press.pile;
      this.opts.onDeal?.(press.pile);
      return;
    }
    if (press.stock) {
      this.opts.onDeal?.(null);
      return;
    }
    const col = press.col;
    if (this.pick) {
      if (col === this.pick.col) {
        this.pick = press.count && press.count !== this.pick.count ? { col, count: press.count } : null;
        this.highlight();
        return;
      }
      const { col: src, count } = this.pick;
      this.pick = null;
      this.highlight();
      this.opts.onMove?.(src, count, col);
      return;
    }
    if (press.count) {
      this.pick = { col, count: press.count };
      this.cursor = col;
      this.grab = press.count;
      this.highlight();
    }
  }

  /** The column under a point: its own width plus half the gaps, anywhere below the reserve. */
  columnAt(x, y) {
    const tableau = this.root.querySelector(".tableau");
    const box = tableau.getBoundingClientRect();
    const ch = parseFloat(this.root.style.getPropertyValue("--ch")) || 100;
    if (y < box.top - ch / 2 || y > Math.max(box.bottom, window.innerHeight)) return null;
    let best = null;
    let bestDistance = Infinity;
    for (const column of tableau.children) {
      const r = column.getBoundingClientRect();
      const distance = x < r.left ? r.left - x : x > r.right ? x - r.right : 0;
      if (distance < bestDistance) {
        bestDistance = distance;
        best = Number(column.dataset.col);
      }
    }
    const gap = parseFloat(this.root.style.getPropertyValue("--gap")) || 8;
    return bestDistance <= gap ? best : null;
  }

  /** The dragged cards fly back to where they were (an illegal drop, or a drop on nothing). */
  snapBack(cards = this.dragged) {
    this.dragged = null;
    if (!cards || !cards.length) return;
    cards.forEach((c) => {
      c.classList.remove("waiting");
      c.classList.add("snapping");
      c.style.transform = "";
    });
    const done = () => cards.forEach((c) => c.classList.remove("dragging", "snapping"));
    const simple = document.body.classList.contains("simple");
    setTimeout(done, simple ? 0 : 260);
  }

  // ---------------------------------------------------------------- keyboard

  /** Arrows or digits choose columns, Up/Down how many cards, Enter moves, D deals, P picks a pile. */
  key(e) {
    if (!this.view || this.view.over || e.ctrlKey || e.metaKey || e.altKey) return false;
    const n = this.width;
    const k = e.key;
    const moveCursor = (c) => {
      this.keyboard = true;
      this.cursor = (c + n) % n;
      this.grab = this.runAt(this.cursor);
      this.highlight();
    };
    if (k === "ArrowLeft" || k === "ArrowRight") {
      moveCursor(this.cursor + (k === "ArrowLeft" ? -1 : 1));
      return true;
    }
    if (k === "ArrowUp" || k === "ArrowDown") {
      this.keyboard = true;
      const col = this.pick ? this.pick.col : this.cursor;
      const count = this.pick ? this.pick.count : this.grab;
      const next = Math.max(1, Math.min(this.faceUp(col), count + (k === "ArrowUp" ? 1 : -1)));
      if (this.pick) this.pick.count = next;
      else this.grab = next;
      this.highlight();
      return true;
    }
    if (/^[0-9]$/.test(k)) {
      const col = k === "0" ? 9 : Number(k) - 1;
      if (col >= n) return true;
      this.keyboard = true;
      if (this.pick) {
        this.dropPick(col);
      } else {
        moveCursor(col);
        if (this.grab > 0) this.pick = { col, count: this.grab };
        this.highlight();
      }
      return true;
    }
    if (k === "Enter" || k === " ") {
      this.keyboard = true;
      if (this.pick) this.dropPick(this.cursor);
      else if (this.grab > 0) this.pick = { col: this.cursor, count: this.grab };
      this.highlight();
      return true;
    }
    if (k === "Escape") {
      this.pick = null;
      this.highlight();
      return true;
    }
    if (k === "d" || k === "D") {
      const piles = this.view.draw_piles;
      if (piles) {
        if (!piles[this.pileCursor]?.count) this.pileCursor = Math.max(0, piles.findIndex((p) => p.count));
        this.opts.onDeal?.(this.pileCursor);
      } else {
        this.opts.onDeal?.(null);
      }
      return true;
    }
    if ((k === "p" || k === "P") && this.view.draw_piles) {
      const piles = this.view.draw_piles;
      this.keyboard = true;
      for (let i = 1; i <= piles.length; i++) {
        const p = (this.pileCursor + i) % piles.length;
        if (piles[p].count) {
          this.pileCursor = p;
          break;
        }
      }
      this.highlight();
      return true;
    }
    return false;
  }

  dropPick(col) {
    const { col: src, count } = this.pick;
    this.pick = null;
    this.cursor = col;
    this.highlight();
    if (src !== col) this.opts.onMove?.(src, count, col);
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
