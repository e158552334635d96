// Practice and analysis on a finished tournament: the "Practise this deal" button (finished page and
// the lobby's finished cards), "Practise deal N" for each deal of several (finished page), and the
// line under a replay that shows where the win was lost.

import { api, player } from "../lib/api.js";
import { el, notify } from "../lib/ui.js";

const signIn = (what) => el("a", { class: "btn ghost", href: "#/account", "data-field": "practise-hint",
  title: "Practice games belong to a player: sign in or play as a guest first" }, `Sign in to practise ${what}`);

/** The button that starts a practice game of deal `deal` (null: the one deal) and opens it. */
function startButton(tid, deal, label, title) {
  const button = el("button", { class: "btn", "data-action": "practise", "data-deal": deal, title,
    onclick: async () => {
      button.disabled = true;
      try {
        const entry = await api.practice(tid, deal);
        location.hash = `#/play/${entry.id}`;
      } catch (err) {
        notify(err.message, "error");
        button.disabled = false;
      }
    } }, label);
  return button;
}

/** A button that starts a practice game of the tournament `t`'s deal (unranked) and opens it; null
 * for a tournament of several deals (its results page has a button for each: `practiseDeals`). */
export function practiseButton(t) {
  if ((t.settings && t.settings.deals) > 1) return null;
  if (!player()) return signIn("this deal");  // a way in, not a grey line that looks like a disabled button
  return startButton(t.id, null, "Practise this deal", "Play this deal again, unranked");
}

/** The finished page's practice: "Practise this deal", or with several deals "Practise deal N" for each. */
export function practiseDeals(t) {
  const deals = (t.settings && t.settings.deals) || 1;
  if (deals <= 1) return practiseButton(t);
  if (!player()) return signIn("a deal");
  return el("span", { class: "practise-deals", role: "group", "aria-label": "Practise a deal, unranked",
    "data-field": "practise-deals" }, Array.from({ length: deals }, (_, i) => startButton(t.id, i + 1,
    `Practise deal ${i + 1}`, `Play deal ${i + 1} of ${deals} again, unranked`)));
}

const POLL_MS = 1500;

const stillWinnable = (text) => el("b", { "data-field": "still-winnable" }, text);

/**
 * The analysis line of a replay: one segment per position, green while a win exists, red once it is
 * lost (after the turning point, or proven lost), grey where the solver found none within its budget.
 * `seek(i)` shows position i; `mark(i)` follows the replay's step. Polls while the server computes.
 * `who`: the player's name when the game is someone else's (null: this device's player's, "you").
 */
export class AnalysisLine {
  constructor(tid, entryId, seek, who = null, deal = null) {
    this.tid = tid;
    this.entryId = entryId;
    this.deal = deal; // with several deals: which deal's game (a practice game: its own, left out)
    this.seek = seek;
    this.who = who;
    this.cells = [];
    this.timer = null;
    this.step = 0;
    // A group of buttons (one per position), not an image: an image holds nothing to press.
    this.bar = el("div", { class: "analysis-bar", role: "group", "aria-label": "where a win existed: a position a button" });
    this.note = el("p", { class: "analysis-note muted small", "data-field": "analysis-note" }, "Analysing the game\u2026");
    this.root = el("div", { class: "analysis", "data-field": "analysis", "data-status": "computing" }, this.bar, this.note);
    this.load();
  }

  async load() {
    if (!player()) {  // an analysis is asked for with a player's token
      this.note.replaceChildren(el("a", { href: "#/account", "data-field": "analysis-hint" },
        "Sign in to see where the win was lost"));
      this.root.dataset.status = "signed-out";
      return;
    }
    let answer;
    try {
      answer = await api.analysis(this.tid, this.entryId, this.deal);
    } catch (err) {
      if (err.status === 429 && err.retryAfter) {  // too many analyses started: this one a little later
        this.note.textContent = `Analysis waits: ${err.message}`;
        this.timer = setTimeout(() => this.load(), err.retryAfter * 1000);
        return;
      }
      this.note.textContent = err.status === 403 ? "The analysis opens when the tournament is over."
        : "No analysis of this game.";
      this.root.dataset.status = "error";
      return;
    }
    if (answer.status !== "ready") {
      this.timer = setTimeout(() => this.load(), POLL_MS);
      return;
    }
    this.draw(answer);
  }

  draw(a) {
    const turning = a.turning_point;
    this.root.dataset.status = "ready";
    this.root.dataset.turningPoint = turning ?? "";
    this.cells = a.positions.map((p, i) => {
      const lost = p.winnable === false || (turning !== null && i >= turning && p.winnable !== true);
      const kind = p.winnable === true ? "win" : lost ? "lost" : "unknown";
      const title = i ? `after move ${i}: ` : "the deal: ";
      return el("button", { class: `cell ${kind}`, "data-kind": kind, "data-position": i, tabindex: -1,
        title: title + (kind === "win" ? "a win exists" : kind === "lost" ? "no win" : "no win found within the budget"),
        onclick: () => this.seek(i) });
    });
    if (turning !== null) this.cells[turning].classList.add("turning");
    this.bar.replaceChildren(...this.cells);
    const won = a.positions.length && a.positions.every((p) => p.winnable === true);
    // Stopped (End, or the clock) where a win still existed from: the server says which.
    const stopped = a.stopped_winnable === "ended"
      ? stillWinnable(`${this.who ?? "You"} stopped while the game was still winnable.`)
      : a.stopped_winnable === "timed_out" ? stillWinnable("Time ran out while the game was still winnable.") : null;
    this.note.replaceChildren(...(turning !== null
      ? [el("a", { href: "#", "data-field": "turning-point", onclick: (e) => { e.preventDefault(); this.seek(turning); } },
        `move ${turning}: the win was lost here`), stopped ? " " : null, stopped].filter(Boolean)
      : [stopped ?? (won ? "A win existed all the way through." : a.positions.some((p) => p.winnable === true)
        ? "A win still existed at the end." : "The solver found no win in this game.")]));
    this.mark(this.step);
  }

  mark(i) {
    this.step = i;
    this.cells.forEach((c, j) => c.classList.toggle("here", j === Math.min(i, this.cells.length - 1)));
  }

  destroy() {
    clearTimeout(this.timer);
  }
}
