// Moving cards on the table: drag-and-drop, click-to-pick then click-to-drop, and the keyboard.
// Board (board.js) is built on this class: these methods read the board's view and elements,
// and only report what the player asked (onMove, onDeal).

import { parseCard, VARIANTS } from "../engine/rules.js";
import { askDeal } from "./askdeal.js";
import { bestDestination } from "./best.js";

const DRAG_THRESHOLD = 5;
const DOUBLE_TAP = 400; // ms between the two taps (or clicks) that send a group to its best place

export class BoardInput {
  // ---------------------------------------------------------------- pointer: drag or click

  pointerDown(e) {
    if (e.button !== 0 || !this.view || this.view.over) return;
    const cardNode = e.target.closest(".column .card");
    const column = e.target.closest(".column");
    const pile = e.target.closest(".pile");
    const stock = e.target.closest(".stock");
    const target = e.target.closest(".targets .target");
    this.press = { x0: e.clientX, y0: e.clientY, id: e.pointerId, dragging: false, touch: e.pointerType !== "mouse" };
    if (target) this.press.target = target.dataset.target;
    else if (e.target.closest(".targets")) this.press = null;
    else if (pile) this.press.pile = Number(pile.dataset.pile);
    else if (stock) this.press.stock = true;
    else {
      const col = column ? Number(column.dataset.col) : this.columnAt(e.clientX, e.clientY);
      if (col === null) {
        this.press = null;
        return;
      }
      this.press.col = col;
      if (cardNode && column && !cardNode.classList.contains("back")) {
        const index = Number(cardNode.dataset.index);
        this.press.count = this.view.columns[col].length - index;
        this.press.cards = this.groupEls(col, this.press.count);
      }
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
    if (over === press.over) return;
    press.over = over;
    this.clearTarget();
    if (over !== null && over !== press.col) {
      const target = this.columnEl(over);
      target.classList.add("drop-target");
      target.classList.toggle("drop-ok", this.fits(press.col, press.count, over));
    }
  }

  pointerUp(e) {
    const press = this.press;
    if (!press || press.id !== e.pointerId) return;
    this.press = null;
    this.clearTarget();
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
    this.clearTarget();
  }

  clearTarget() {
    this.root.querySelectorAll(".column.drop-target").forEach((n) => n.classList.remove("drop-target", "drop-ok"));
  }

  /** Whether the last `count` cards of column src may go onto column dst by the rules of this game. */
  fits(src, count, dst) {
    const rules = VARIANTS[this.view.variant];
    const from = this.view.columns[src] || [];
    const to = this.view.columns[dst] || [];
    if (!rules || count < 1 || count > this.runAt(src) || src === dst) return false;
    const first = parseCard(from[from.length - count]);
    if (!to.length) return !(rules.kingOnly && dst !== this.view.free_column && (first & 15) !== 12);
    return to[to.length - 1] !== "??" && rules.accepts(parseCard(to[to.length - 1]), first);
  }

  /** As Microsoft Spider does: the longest part of a picked run that fits the target, else all of it. */
  fitting(src, count, dst) {
    for (let k = count; k >= 1; k--) if (this.fits(src, k, dst)) return k;
    return count;
  }

  click(press) {
    const last = this.lastTap; // the tap that picked a group: a quick second one on its column is a double-tap
    this.lastTap = null;
    if (press.target !== undefined) {
      if (press.target === "cancel" || !this.pick) {
        this.pick = null;
        this.highlight();
      } else {
        this.dropPick(Number(press.target));
      }
      return;
    }
    if (press.pile !== undefined) {
      this.pileCursor = press.pile;
      this.deal(press.pile, press.touch);
      return;
    }
    if (press.stock) {
      this.deal(null, press.touch);
      return;
    }
    const col = press.col;
    // A tap on a card beyond the column's movable run, on a face-down card or beside the cards
    // takes the run: narrow columns on a phone leave little room to aim.
    const run = this.runAt(col);
    const chosen = press.count && press.count <= run ? press.count : 0;
    const now = performance.now();
    if (last && last.col === col && now - last.time < DOUBLE_TAP) {
      this.pick = null;
      this.highlight();
      this.sendBest(col, chosen || last.count);
      return;
    }
    if (this.pick) {
      if (col === this.pick.col) {
        this.pick = chosen && chosen !== this.pick.count ? { col, count: chosen, fit: false } : null;
        this.highlight();
        return;
      }
      this.dropPick(col);
      return;
    }
    if (run) {
      this.pick = { col, count: chosen || run, fit: !chosen };
      this.cursor = col;
      this.grab = this.pick.count;
      this.lastTap = { col, count: this.pick.count, time: now };
      this.highlight();
    }
  }

  /** A tap on the stock or a draw pile: on a touch screen asked first (askdeal.js), else at once. */
  async deal(pile, touch) {
    const view = this.view;
    const full = pile === null ? (view.deals_left ?? 0) > 0 : (view.draw_piles?.[pile]?.count ?? 0) > 0;
    // An empty stock or pile, or a stock game with an empty column, is not asked about: the server
    // says why it cannot deal.
    const blocked = pile === null && !VARIANTS[view.variant]?.dealOntoEmpty
      && view.columns.some((cards, c) => c !== view.free_column && !cards.length);
    if (touch && full && !blocked && !this.opts.readonly) {
      const choice = this.opts.pileChoice ? this.opts.pileChoice() : true;
      if (!(await askDeal(view, pile, choice))) return;
    }
    this.opts.onDeal?.(pile);
  }

  /** Double-tap or double-click: the group to its best place (best.js), or a shake when none takes it. */
  sendBest(col, count) {
    if (!count) return;
    const dst = bestDestination(this.view, col, count, (s, k, d) => this.fits(s, k, d));
    if (dst === null) {
      this.refuse(this.groupEls(col, count), "No column takes these cards");
      return;
    }
    this.cursor = dst;
    this.opts.onMove?.(col, count, dst);
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
      this.grabChosen = false;
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
      if (this.pick) this.pick = { ...this.pick, count: next, fit: false };
      else this.grab = next;
      this.grabChosen = true;
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
        if (this.grab > 0) this.pick = { col, count: this.grab, fit: true };
        this.highlight();
      }
      return true;
    }
    if (k === "Enter" || k === " ") {
      this.keyboard = true;
      if (this.pick) this.dropPick(this.cursor);
      else if (this.grab > 0) this.pick = { col: this.cursor, count: this.grab, fit: !this.grabChosen };
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
    const { col: src, count, fit } = this.pick;
    this.pick = null;
    this.cursor = col;
    this.highlight();
    if (src !== col) this.opts.onMove?.(src, fit ? this.fitting(src, count, col) : count, col);
  }
}
