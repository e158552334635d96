// The first game (#/play/first): a short, unranked deal of Spider 78 with one suit for a newcomer,
// with hints. No account and no tournament: the browser's engine (js/engine, the rules the server
// plays by) deals and plays it on the same table as every game (js/board), so nothing of it goes
// to the server and it counts on no leaderboard and in no rating.

import { EngineError, fullSettings, newGame } from "../engine/index.js";
import { Board } from "../board/board.js";
import { cardWords } from "../board/cards.js";
import { beep } from "../lib/sound.js";
import { clock, confirmDialog, describeSettings, el } from "../lib/ui.js";
import { gameSuits } from "../lib/prefs.js";
import { glossary } from "../lib/glossary.js";
import { helpPanel } from "../game/help.js";
import { buildHud } from "../game/hud.js";
import { fillOver, OUTCOMES_SHORT } from "../game/over.js";
import { resultDialog } from "../game/dialog.js";
import { firstTip, hintWords, showHint } from "../game/first_parts.js";
import { findHint } from "../game/hint.js";

export const FIRST_SETTINGS = { variant: "spider78", suits: 1, free_column: true, time_limit: 1200 };

const newSeed = () => `first-${Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("")}`;

export function mount(main) {
  const page = el("section", { class: "page game-page first-game", "data-first": "true" });
  main.append(page);
  gameSuits(FIRST_SETTINGS.suits);
  const helpBox = helpPanel();
  helpBox.setSettings(FIRST_SETTINGS, "own");
  for (const li of helpBox.node.querySelectorAll("li")) {
    if (li.textContent.startsWith("Your clock")) {
      li.textContent = `Your clock: ${clock(FIRST_SETTINGS.time_limit)} from the moment you press Start. The game ends `
        + "at a win, when you press End, or when the time is up.";
    }
  }
  const head = buildHud("first", { line: null, onHelp: () => helpBox.toggle(), onResult: () => result.open() });
  const { hud, title, overBadge, undoBtn, endBtn, resultBtn, actions } = head;
  title.querySelector("[data-field=name]").textContent = "A first game";
  title.querySelector("[data-field=rules]").textContent = `${describeSettings(fullSettings(FIRST_SETTINGS))} \u00b7 unranked`;
  const hintBtn = el("button", { class: "btn", "data-action": "hint", disabled: true, title: "Show a useful move (H)",
    onclick: () => hint() }, "Hint");
  actions.insertBefore(hintBtn, actions.lastElementChild);
  const messageText = el("span", { class: "text" });
  const message = el("div", { class: "message", role: "alert", "aria-live": "assertive", title: "Dismiss",
    onclick: () => hideMessage() }, messageText);
  const tip = firstTip(() => window.dispatchEvent(new Event("spidertour:layout")));
  const boardEl = el("div", { class: "board" });
  const startPanel = el("div", { class: "start-panel panel" });
  const overPanel = el("div", { class: "over-panel panel", hidden: true, role: "dialog", "aria-modal": "true",
    "aria-labelledby": "over-title" });
  const result = resultDialog(overPanel, () => resultBtn);
  page.append(hud, helpBox.node, message, tip, el("div", { class: "board-wrap felt" }, boardEl, startPanel, overPanel));

  let game = null;
  let started = null; // performance.now() at Start
  let messageTimer = null;
  const board = new Board(boardEl, {
    bottom: () => (getComputedStyle(actions).position === "fixed" ? actions.getBoundingClientRect().height : 0),
    onMove: (from, count, to) => play({ type: "move", from, count, to }),
    onDeal: (pile) => play(pile === null ? { type: "deal" } : { type: "deal", pile }),
    pileChoice: () => true,
  });
  undoBtn.addEventListener("click", () => play({ type: "undo" }));
  endBtn.addEventListener("click", async () => {
    if (!game || game.outcome) return;
    if (await confirmDialog("End the game?", "Your score stays as it is now, plus the time bonus for the sequences "
      + "you completed.", "End game", "Keep playing")) play({ type: "end" });
  });

  const elapsed = () => (started === null ? 0 : (performance.now() - started) / 1000);

  function say(text, kind = "error") {
    messageText.textContent = cardWords(text);
    message.className = `message show ${kind}`;
    clearTimeout(messageTimer);
    messageTimer = setTimeout(hideMessage, kind === "hint" ? 9000 : 5000);
  }

  function hideMessage() {
    clearTimeout(messageTimer);
    message.classList.remove("show");
  }

  function play(move) {
    if (!game || game.outcome) return;
    if (started === null) { // the deal shows under the start panel; the clock starts with the first game
      board.snapBack();
      say("Press Start the game first: the clock starts then.", "info");
      return;
    }
    const before = game.view();
    let answer;
    try {
      answer = game.play(move, elapsed());
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      board.snapBack();
      beep("error");
      if (game.outcome) { // the time ran out before this move
        draw();
        finish();
        return;
      }
      say(err.reason);
      return;
    }
    draw();
    if (answer.completed > 0) {
      beep("sequence");
      const stacked = move.type === "move"
        ? [...before.columns[move.to], ...before.columns[move.from].slice(-move.count)].slice(-13 * answer.completed) : null;
      board.celebrate(move.type === "move" ? move.to : answer.changed[0] ?? 0, stacked && stacked.slice(0, 13));
      say(answer.completed > 1 ? `${answer.completed} sequences complete!` : "Sequence complete! +100", "ok");
    } else {
      beep(move.type === "deal" ? "deal" : "move");
    }
    if (game.outcome) finish();
  }

  function draw() {
    const v = game.view();
    board.render(v);
    delete boardEl.dataset.hint; // a hint is for the table it was given on
    if (message.classList.contains("hint")) hideMessage();
    hud.querySelector("[data-stat=score]").textContent = v.over ? v.final_score : v.score;
    hud.querySelector(".stat-score .label").textContent = v.over ? "Final" : "Score";
    hud.querySelector("[data-stat=sequences]").textContent = `${v.sequences}/${v.sequences_to_win}`;
    hud.querySelector("[data-stat=reveals]").textContent = v.reveals;
    undoBtn.disabled = !v.can_undo || v.over;
    endBtn.disabled = v.over || started === null;
    hintBtn.disabled = v.over || started === null;
    tick();
  }

  function tick() {
    if (!game) return;
    const left = game.outcome ? game.timeLeft : Math.max(0, FIRST_SETTINGS.time_limit - elapsed());
    hud.querySelector("[data-stat=clock]").textContent = clock(left);
    hud.querySelector(".stat-clock").classList.toggle("low", !game.outcome && left < 60);
    if (!game.outcome && started !== null && left <= 0 && game.tick(elapsed())) {
      draw();
      finish();
    }
  }
  const ticker = setInterval(tick, 250);

  function hint() {
    if (!game || game.outcome || started === null) return;
    const view = game.view();
    const found = findHint(view);
    showHint(boardEl, found);
    say(hintWords(view, found), "hint");
  }

  function finish() {
    beep("over");
    const v = game.view();
    const focused = overPanel.contains(document.activeElement);
    fillOver(overPanel, { outcome: v.outcome, score: v.score, time_left: v.time_left, time_bonus: v.time_bonus,
      free_column_bonus: v.free_column_bonus, final_score: v.final_score }, { view: v, state: null, close: () => result.close() });
    overPanel.querySelector("[data-field=rank]").replaceWith(el("p", { class: "place", "data-field": "unranked" },
      "A first game: unranked, on no leaderboard and in no rating."));
    overPanel.querySelector(".over-links").replaceWith(el("div", { class: "over-links" },
      el("a", { class: "btn primary", href: "#/lobby/open", "data-action": "join-tournament" }, "Now join a tournament"),
      el("button", { class: "btn", "data-action": "play-again", onclick: () => deal(true) }, "Play again"),
      el("button", { class: "btn ghost", "data-action": "see-table", onclick: () => result.close() }, "See the table")));
    result.shown(focused);
    for (const b of [undoBtn, endBtn, hintBtn]) b.hidden = true;
    resultBtn.hidden = false;
    overBadge.hidden = false;
    overBadge.textContent = `game over: ${OUTCOMES_SHORT[v.outcome] || "over"} \u00b7 ${v.final_score}`;
    overBadge.className = `badge over-badge st-${v.outcome}`;
    boardEl.classList.add("game-over");
  }

  /** A new deal; `now`: its clock starts at once (Play again), else at Start. */
  async function deal(now) {
    game = await newGame(FIRST_SETTINGS, newSeed());
    started = null;
    overPanel.hidden = true;
    overBadge.hidden = true;
    resultBtn.hidden = true;
    for (const b of [undoBtn, endBtn, hintBtn]) b.hidden = false;
    boardEl.classList.remove("game-over");
    hideMessage();
    if (now) start();
    else draw();
  }

  function start() {
    started = performance.now();
    startPanel.hidden = true;
    draw();
    boardEl.focus({ preventScroll: true });
  }

  startPanel.append(el("h2", {}, "A first game"),
    el("p", { "data-field": "first-unranked" }, "A short deal of Spider 78 with one suit, just for you: no account, ",
      `no tournament, ranked nowhere. ${clock(FIRST_SETTINGS.time_limit)} on the clock from Start; Hint shows a good move.`),
    el("button", { class: "btn primary big", "data-action": "start", onclick: start }, "Start the game"),
    glossary());

  function onKey(e) {
    if (e.target.closest("input, textarea, select, dialog, .over-panel, summary") || e.ctrlKey || e.metaKey || e.altKey) return;
    if ((e.key === "Enter" || e.key === " ") && e.target.closest("button, a")) return;
    const k = e.key.toLowerCase();
    if (e.key === "?") helpBox.toggle();
    else if (e.key === "Escape" && helpBox.shown) helpBox.toggle(false);
    else if (k === "h" && started !== null) hint();
    else if (k === "u" && started !== null) play({ type: "undo" });
    else if (e.target === boardEl || started === null || !board.key(e)) return;
    e.preventDefault();
  }
  document.addEventListener("keydown", onKey);
  deal(false);

  return () => {
    clearInterval(ticker);
    clearTimeout(messageTimer);
    document.removeEventListener("keydown", onKey);
    board.destroy();
  };
}
