// The game page (#/play/ENTRY): the table, the clock, score, undo and end, the final score.

import { api, player } from "../lib/api.js";
import { Board } from "../board/board.js";
import { cardWords } from "../board/cards.js";
import { VARIANTS } from "../engine/index.js";
import { PlaySocket } from "../board/playsocket.js";
import { beep } from "../lib/sound.js";
import { clock, confirmDialog, countdown, describeSettings, el, STATUS_NAMES } from "../lib/ui.js";
import { gameSuits } from "../lib/prefs.js";

const OUTCOMES = { won: "You won!", ended: "Game ended", timed_out: "Out of time" };
const OUTCOMES_SHORT = { won: "won", ended: "ended", timed_out: "out of time" };

/** 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st. */
export function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th"}`;
}

function stat(name, label, value = "0") {
  return el("div", { class: `stat stat-${name}` },
    el("span", { class: "label" }, label), el("span", { class: "value", "data-stat": name }, value));
}

const hasReveals = (v) => !VARIANTS[v.variant]?.allUp;

function freeColumnHint(v, o) {
  if (v.free_column === null || v.free_column === undefined) return "no free column in this game";
  if (o.outcome !== "won") return "+100 for a win without the free column";
  return v.free_column_used ? "the free column was used" : "won without the free column";
}

export function mount(main, entryIdText) {
  const entryId = Number(entryIdText);
  const me = player();
  const page = el("section", { class: "page game-page", "data-entry": entryId });
  main.append(page);
  if (!me) {
    page.append(el("div", { class: "panel narrow-page" }, el("h1", {}, "Who is playing?"),
      el("p", {}, "This device has no player token. ", el("a", { href: "#/account", "data-action": "sign-in" }, "Sign in"),
        ", or register in the ", el("a", { href: "#/lobby" }, "lobby"), ".")));
    return () => {};
  }

  const overBadge = el("span", { class: "badge over-badge", "data-field": "over", hidden: true });
  const title = el("div", { class: "hud-title" }, el("a", { href: "#/lobby", class: "back", title: "Lobby" }, "\u2190"),
    el("b", { "data-field": "name" }, `Entry ${entryId}`), overBadge, el("span", { class: "muted", "data-field": "rules" }));

  const undoBtn = el("button", { class: "btn", "data-action": "undo", disabled: true, title: "Undo (U)" }, "Undo");
  const resultBtn = el("button", { class: "btn primary", "data-action": "result", hidden: true, title: "The final score",
    onclick: () => { overPanel.hidden = false; } }, "Result");
  const endBtn = el("button", { class: "btn danger", "data-action": "end", disabled: true, title: "End (E)" }, "End");
  const hud = el("div", { class: "hud" }, title,
    el("div", { class: "stats" }, stat("deal", "Deal", "1/1"), stat("score", "Score"),
      stat("total", "Total"), stat("sequences", "Sequences", "\u2013"),
      stat("reveals", "Reveals"), stat("clock", "Time", "--:--")),
    el("div", { class: "actions" }, undoBtn, endBtn, resultBtn,
      el("button", { class: "btn ghost", "data-action": "help", title: "Keys (?)", onclick: () => toggleHelp() },
        "?")));
  for (const name of ["deal", "total"]) hud.querySelector(`.stat-${name}`).hidden = true; // several deals only
  const help = el("div", { class: "help panel", hidden: true, role: "dialog", "aria-label": "How to play" },
    el("button", { class: "btn ghost small close", "data-action": "close-help", title: "Close (Esc)",
      onclick: () => toggleHelp(false) }, "\u00d7"),
    el("h2", {}, "How to play"),
    el("p", {}, el("b", {}, "Mouse or touch: "), "drag a card (and the cards on it) to a column, or tap a card then ",
      "tap a column. Tapping a column away from its cards takes the cards that move together, and the part of them ",
      "that fits goes. Tap a draw pile or the stock to deal."),
    el("table", { class: "keys" }, el("tbody", {}, [
      ["\u2190 \u2192", "choose a column"],
      ["1 \u2026 9, 0", "pick column 1 \u2026 10's movable cards; another digit drops the part that fits there"],
      ["\u2191 \u2193", "take more or fewer cards"],
      ["Enter, Space", "pick up, then drop at the cursor"],
      ["Esc", "put the cards back"],
      ["D", "deal (P chooses the draw pile first)"],
      ["U", "undo"],
      ["E", "end the game"],
      ["?", "show or hide these keys"],
    ].map(([key, what]) => el("tr", {}, el("td", {}, el("kbd", {}, key)), el("td", {}, what))))));
  const conn = el("div", { class: "conn", hidden: true, role: "status" });
  const messageText = el("span", { class: "text" });
  const message = el("div", { class: "message", role: "alert", "aria-live": "assertive", title: "Dismiss",
    onclick: () => hideMessage() }, messageText);
  const boardEl = el("div", { class: "board" });
  const startPanel = el("div", { class: "start-panel panel", hidden: true });
  const overPanel = el("div", { class: "over-panel panel", hidden: true, role: "dialog" });
  page.append(hud, help, conn, message, el("div", { class: "board-wrap felt" }, boardEl, startPanel, overPanel));

  let view = null;
  let state = null;
  let lastOver = null; // the over message, once the game is over here
  let deadline = null; // performance.now() at which the server's clock reaches 0
  let settings = null; // the tournament's, once loaded
  let messageTimer = null;

  const socket = new PlaySocket(entryId, me.token, {
    state: onState, result: onResult, error: onError, over: onOver, notice: onNotice, connection: onConnection,
  });
  const board = new Board(boardEl, {
    // In portrait the Undo/End bar sits over the bottom of the window: the columns end above it.
    bottom: () => {
      const bar = hud.querySelector(".actions");
      return getComputedStyle(bar).position === "fixed" ? bar.getBoundingClientRect().height : 0;
    },
    onMove: (src, count, dst) => act({ type: "move", from: src, count, to: dst }),
    // Without draw-pile choice the server deals the piles in order: a click on any pile asks for the next.
    pileChoice: () => settings?.draw_pile_choice !== false, // the deal's confirmation names the pile dealt
    onDeal: (pile) => act(pile === null || settings?.draw_pile_choice === false ? { type: "deal" } : { type: "deal", pile }),
  });
  undoBtn.addEventListener("click", () => act({ type: "undo" }));
  endBtn.addEventListener("click", endGame);

  function act(move) {
    if (!view || view.over) return;
    socket.send(move);
  }

  async function endGame() {
    if (!view || view.over) return;
    const ok = await confirmDialog("End the game?",
      "Your score stays as it is now, plus the time bonus for the sequences you completed. This cannot be undone.",
      "End game", "Keep playing");
    if (ok) act({ type: "end" });
  }

  /** One message at a time, at the top of the window (never over the cards or the buttons); a tap dismisses it. */
  function say(text, kind = "error") {
    messageText.textContent = cardWords(text);
    message.className = `message show ${kind}`;
    clearTimeout(messageTimer);
    messageTimer = setTimeout(hideMessage, 5000);
  }

  function hideMessage() {
    clearTimeout(messageTimer);
    message.classList.remove("show");
  }

  function toggleHelp(show = help.hidden) {
    help.hidden = !show;
  }

  function setClock(seconds) {
    deadline = seconds === null || seconds === undefined ? null : performance.now() + seconds * 1000;
    tick();
  }

  function tick() {
    const node = hud.querySelector("[data-stat=clock]");
    if (view && view.over) {
      node.textContent = clock(view.time_left ?? 0);
      node.parentElement.classList.remove("low");
      return;
    }
    if (deadline === null) return;
    const left = Math.max(0, (deadline - performance.now()) / 1000);
    node.textContent = clock(left);
    node.parentElement.classList.toggle("low", left < 60);
  }
  const ticker = setInterval(tick, 250);

  function draw(v) {
    view = v;
    board.render(v);
    hud.querySelector("[data-stat=score]").textContent = v.score;
    if (state) showDeal(state, v);
    hud.querySelector("[data-stat=sequences]").textContent = `${v.sequences}/${v.sequences_to_win}`;
    hud.querySelector("[data-stat=reveals]").textContent = v.reveals;
    // A game dealt all face up (Curds and Whey) has nothing to reveal.
    hud.querySelector(".stat-reveals").hidden = !hasReveals(v);
    undoBtn.disabled = !v.can_undo || v.over;
    endBtn.disabled = v.over;
    if (v.over) showOver({ outcome: v.outcome, score: v.score, time_left: v.time_left ?? 0,
      time_bonus: v.time_bonus ?? 0, free_column_bonus: v.free_column_bonus ?? 0, final_score: v.final_score ?? v.score,
      would_rank: lastOver?.would_rank, par: lastOver?.par });
  }

  /** Several deals: which one of how many, and the running total (hidden with one deal). */
  function showDeal(s, v) {
    const several = (s.deals ?? 1) > 1;
    hud.querySelector(".stat-deal").hidden = !several;
    hud.querySelector(".stat-total").hidden = !several;
    hud.querySelector(".stats").classList.toggle("several", several);
    if (!several) return;
    const dealStat = hud.querySelector("[data-stat=deal]");
    dealStat.textContent = `${s.deal}/${s.deals}`;
    dealStat.title = `Deal ${s.deal} of ${s.deals}`;
    // The state's total holds the deals before this one plus this one's score then.
    const then = s.view ? (s.view.final_score ?? s.view.score) : 0;
    hud.querySelector("[data-stat=total]").textContent = s.total - then + (v ? (v.final_score ?? v.score) : 0);
  }

  /** A new deal on the same page: the table as for a new game. */
  function freshTable() {
    overPanel.hidden = true;
    overBadge.hidden = true;
    resultBtn.hidden = true;
    undoBtn.hidden = false;
    endBtn.hidden = false;
    boardEl.classList.remove("game-over");
  }

  function onState(s, first) {
    const newDeal = state && s.deal !== undefined && s.deal !== state.deal;
    state = s;
    if (s.practice) page.dataset.practice = "true";
    showDeal(s, s.view);
    if (first) loadTournament(s.tournament_id);
    if (newDeal && s.view && !s.view.over) {
      freshTable();
      say(`Deal ${s.deal} of ${s.deals}: a new deal, a new clock.`, "info");
    }
    if (s.status === "joined" || !s.view) {
      showStart(s);
      return;
    }
    startPanel.hidden = true;
    draw(s.view);
    if (!s.view.over) setClock(s.time_left);
    if (first && !s.view.over) boardEl.focus({ preventScroll: true });
  }

  function onResult(r) {
    const before = view;
    draw(r.view);
    setClock(r.view.over ? null : r.time_left);
    if (r.repeated) say("Reconnected: your last move was already saved.", "info");
    if (r.completed > 0) {
      beep("sequence");
      celebrate(before, r);
      say(r.completed > 1 ? `${r.completed} sequences complete! +${100 * r.completed}` : "Sequence complete! +100", "ok");
    } else {
      beep(r.move.type === "deal" ? "deal" : "move");
    }
  }

  function celebrate(before, r) {
    const move = r.move;
    if (move.type !== "move" || !before) {
      board.celebrate(r.changed[0] ?? 0, null);
      return;
    }
    const source = before.columns[move.from];
    const stacked = [...before.columns[move.to], ...source.slice(source.length - move.count)];
    board.celebrate(move.to, stacked.slice(-13 * r.completed).slice(0, 13));
  }

  function onError(err) {
    board.snapBack();
    beep("error");
    say(err.reason);
    if (err.code === "time_up" || err.code === "game_over" || err.code === "not_saved") socket.sync();
  }

  function onNotice(code, reason) {
    if (code === "unauthorised") return; // the closing that follows says it in full
    if ((code === "not_open" || code === "already_started" || code === "starts_together") && state?.status === "joined") {
      showStart(state);
    }
    say(code === "taken_over" ? "This game was opened in another window or on another device." : reason, "info");
  }

  function onOver(o) {
    lastOver = o; // a practice game's would_rank and par, kept for the redraw after the sync below
    beep("over");
    if (view) {
      view = { ...view, over: true, outcome: o.outcome, time_left: o.time_left, can_undo: false };
      board.render(view); // no cursor, no picked cards: the game is over
    }
    showOver(o);
    tick();
    socket.sync(); // the final view, with its score parts
  }

  function onConnection(status, detail) {
    if (status === "open") {
      conn.hidden = true;
      boardEl.classList.remove("offline");
      return;
    }
    if (status === "closed") {
      boardEl.classList.add("offline");
      conn.hidden = false;
      if (detail.code === 4003) {
        // Not this player's entry, or this device's session ended (signed out, here or everywhere).
        api.me().then(() => notYours(), (err) => (err.status === 401 ? signedOut() : notYours()));
        return;
      }
      const why = detail.code === 4001 ? "This game was opened in another window or on another device."
        : `The connection was closed (${detail.reason || detail.code}).`;
      conn.replaceChildren(el("span", {}, why),
        ...(detail.code === 4001 ? [" ", el("button", { class: "btn", onclick: () => socket.connect() }, "Play here")] : []));
      return;
    }
    if (status === "reconnecting" && view) {
      boardEl.classList.add("offline");
      conn.hidden = false;
      conn.textContent = "Connection lost: reconnecting\u2026";
    }
  }

  /** The session of this device ended: sign in again to go on with the game. */
  function signedOut() {
    hideMessage();
    startPanel.hidden = true;
    for (const part of [hud.querySelector(".stats"), hud.querySelector(".actions"), page.querySelector(".board-wrap")]) {
      part.hidden = true;
    }
    conn.classList.add("not-yours");
    conn.replaceChildren(el("h2", {}, "You are signed out"),
      el("p", {}, "This device's session has ended. Sign in again: the game is kept, and goes on while its time runs."),
      el("p", {}, el("a", { class: "btn primary", href: "#/account", "data-action": "sign-in" }, "Sign in")));
  }

  /** The player's token does not own this entry (another player's game, or no such entry). */
  function notYours() {
    hideMessage();
    startPanel.hidden = true;
    for (const part of [hud.querySelector(".stats"), hud.querySelector(".actions"), page.querySelector(".board-wrap")]) {
      part.hidden = true;
    }
    conn.classList.add("not-yours");
    conn.replaceChildren(el("h2", {}, "This is not your game"),
      el("p", {}, `Entry ${entryId} belongs to another player, or does not exist. Only its player can open it here; `,
        "anyone can follow the scores on the leaderboard and watch every game's replay once the tournament is over."),
      el("p", {}, el("a", { class: "btn primary", href: "#/lobby" }, "Your games in the lobby")));
  }

  function showStart(s) {
    startPanel.hidden = false;
    if (s.status === "joined" && s.starts_at) {
      // Everyone starts together: the server starts this game at the opening time, connected or not.
      startPanel.replaceChildren(
        el("h2", {}, "Everyone starts together"),
        el("p", {}, `The server starts every entrant's game at the same moment; your clock (${clock(s.time_limit)}) `,
          "runs from then, whether or not this page is open."),
        el("p", { class: "big-countdown" }, countdown(s.starts_at, "Your game starts in", "Starting\u2026")));
      return;
    }
    const button = el("button", { class: "btn primary big", "data-action": "start",
      onclick: () => { button.disabled = true; socket.start(); } }, "Start the game");
    startPanel.replaceChildren(
      el("h2", {}, "Ready?"),
      el("p", {}, `The clock (${clock(s.time_limit)}) starts on the server when you press Start, `,
        "and runs until the end even if you leave the page."),
      s.status === "joined" ? button : el("p", {}, `This entry is ${STATUS_NAMES[s.status] || s.status}.`));
  }

  function showOver(o) {
    const v = view || {};
    const reveals = v.reveals ?? 0;
    const sequences = v.sequences ?? 0;
    const toWin = v.sequences_to_win ?? 1;
    const row = (label, how, part, value) => el("tr", {}, el("td", {}, label), el("td", { class: "muted" }, how),
      el("td", { class: "num", "data-part": part }, value));
    overPanel.hidden = false;
    overPanel.dataset.outcome = o.outcome;
    const place = el("p", { class: "place", "data-field": "rank" }, "Your place: \u2026");
    const next = nextDeal();
    overPanel.replaceChildren(
      el("h2", {}, OUTCOMES[o.outcome] || "Game over"),
      place,
      el("table", { class: "score-parts" }, el("tbody", {},
        hasReveals(v) ? row("Reveals", `${reveals} \u00d7 25`, "reveals", reveals * 25) : null,
        row("Sequences", `${sequences} \u00d7 100`, "sequences", sequences * 100),
        row("Free-column bonus", freeColumnHint(v, o), "free_column_bonus", o.free_column_bonus),
        row("Time bonus", `${o.time_left} s \u00d7 ${sequences}/${toWin}`, "time_bonus", o.time_bonus),
        el("tr", { class: "total" }, el("td", {}, "Final score"), el("td"),
          el("td", { class: "num", "data-part": "final_score" }, o.final_score)))),
      ...(state?.practice ? practiceLines(o) : []),
      dealsPart(o),
      el("div", { class: "over-links" },
        next,
        state?.practice ? el("a", { class: "btn primary", href: `#/finished/${state.tournament_id}` }, "Results & replays")
          : state ? el("a", { class: next ? "btn" : "btn primary", href: `#/board/${state.tournament_id}` },
            "Leaderboard") : null,
        el("a", { class: "btn", href: "#/lobby" }, "Lobby"),
        el("button", { class: "btn ghost", "data-action": "see-table", onclick: () => (overPanel.hidden = true) },
          "See the table")));
    undoBtn.disabled = true;
    endBtn.disabled = true;
    undoBtn.hidden = true;
    endBtn.hidden = true;
    resultBtn.hidden = false;
    overBadge.hidden = false;
    overBadge.textContent = `game over: ${OUTCOMES_SHORT[o.outcome] || "over"} \u00b7 ${o.final_score}`;
    overBadge.className = `badge over-badge st-${o.outcome}`;
    boardEl.classList.add("game-over");
    if (state?.practice) place.textContent = "Practice: this game is ranked nowhere.";
    else showPlace(place);
  }

  /** A practice game's end: where its final score would have ranked, and the tournament's par. */
  function practiceLines(o) {
    const lines = [];
    if (o.would_rank) {
      lines.push(el("p", { class: "would-rank", "data-field": "would-rank", "data-rank": o.would_rank.rank },
        "This would have ranked ", el("b", {}, ordinal(o.would_rank.rank)), ` of ${o.would_rank.of}.`));
    }
    if (o.par !== undefined) {
      const par = o.par;
      lines.push(el("p", { class: "muted", "data-field": "practice-par" }, !par ? "No par for this deal."
        : par.outcome === "won" ? `Par: ${par.final_score} (the solver's line of ${par.moves} moves).`
          : `Par: the solver found no win (${par.outcome}).`));
    }
    return lines;
  }

  /** Several deals: the total so far, and what comes next. */
  function dealsPart(o) {
    const s = state;
    if (!s || (s.deals ?? 1) <= 1) return null;
    const total = o.total ?? s.total;
    const last = s.deal >= s.deals;
    return el("p", { class: "deals-total", "data-field": "deals-total" },
      `Deal ${s.deal} of ${s.deals}. Total so far: `, el("b", { "data-field": "total" }, total),
      last ? ": that was the last deal." : ".",
      !last && s.starts_at ? [" ", countdown(s.starts_at, `Deal ${s.deal + 1} starts for everyone in`,
        `Deal ${s.deal + 1} is starting\u2026`)] : null);
  }

  /** The "Next deal" button, while a deal is left and the player starts it (start "own"). */
  function nextDeal() {
    const s = state;
    if (!s || (s.deals ?? 1) <= 1 || s.deal >= s.deals || s.starts_at) return null;
    const button = el("button", { class: "btn primary", "data-action": "next-deal",
      onclick: () => { button.disabled = true; socket.start(); } }, `Next deal (${s.deal + 1} of ${s.deals})`);
    return button;
  }

  /** The entry's place on the leaderboard, once its final score is in. */
  async function showPlace(node) {
    if (!state) return;
    try {
      const around = await api.around(state.tournament_id, entryId, 0);
      const mine = around.rows.find((r) => r.entry_id === entryId);
      if (!mine) throw new Error("not ranked");
      const still = around.status !== "finished" ? " so far: others may still be playing" : "";
      node.replaceChildren("Your place: ", el("b", {}, `${mine.rank}`), ` of ${around.entrants}${still}`);
      node.dataset.rank = mine.rank;
    } catch {
      node.textContent = "Your place is on the leaderboard.";
    }
  }

  async function loadTournament(tid) {
    try {
      const t = await api.tournament(tid);
      settings = t.settings;
      gameSuits(t.settings.suits);
      title.querySelector("[data-field=name]").textContent = t.name;
      title.querySelector("[data-field=rules]").textContent = describeSettings(t.settings);
      document.title = `${t.name} \u00b7 spidertour`;
    } catch {
      /* the title is a nicety */
    }
  }

  function onKey(e) {
    if (e.target.closest("input, textarea, select, dialog") || e.ctrlKey || e.metaKey || e.altKey) return;
    if ((e.key === "Enter" || e.key === " ") && e.target.closest("button, a")) return;
    if (e.key === "?") {
      toggleHelp();
      e.preventDefault();
    } else if (e.key === "Escape" && !help.hidden) {
      toggleHelp(false);
      e.preventDefault();
    } else if (e.key === "u" || e.key === "U") {
      if (view && view.can_undo) act({ type: "undo" });
      e.preventDefault();
    } else if (e.key === "e" || e.key === "E") {
      endGame();
      e.preventDefault();
    } else if (e.target !== boardEl && board.key(e)) {
      e.preventDefault();
    }
  }
  document.addEventListener("keydown", onKey);
  const onVisible = () => { if (document.visibilityState === "visible" && socket.ready) socket.sync(); };
  document.addEventListener("visibilitychange", onVisible);

  socket.connect();
  window.spidertour = { ...(window.spidertour || {}), socket, board };

  return () => {
    clearInterval(ticker);
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("visibilitychange", onVisible);
    socket.stop();
    board.destroy();
  };
}
