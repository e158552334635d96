// The game page (#/play/ENTRY): the table, the clock, score, undo and end, the final score.

import { api, player } from "../lib/api.js";
import { Board } from "../board/board.js";
import { cardWords } from "../board/cards.js";
import { PlaySocket } from "../board/playsocket.js";
import { beep } from "../lib/sound.js";
import { clock, confirmDialog, countdown, describeSettings, el, fill, statusName } from "../lib/ui.js";
import { gameSuits } from "../lib/prefs.js";
import { helpPanel } from "../game/help.js";
import { glossary } from "../lib/glossary.js";
import { buildHud } from "../game/hud.js";
import { fillOver, hasReveals, OUTCOMES_SHORT } from "../game/over.js";
import { resultDialog } from "../game/dialog.js";
import { Standing } from "../game/standing.js";
import { GameTold } from "../game/told.js";
import { matchOfEntry, rememberSeats, startOnArrival } from "../matches/common.js";
import { loadMatch } from "../matches/ingame.js";
import { bracketGameOf, loadBracketGame } from "../brackets/ingame.js";

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

  const standing = new Standing(entryId);
  const helpBox = helpPanel();
  const toggleHelp = helpBox.toggle;
  const help = helpBox.node;
  const head = buildHud(entryId, { line: standing.node, onHelp: () => toggleHelp(),
    onResult: () => result.open() });
  const { hud, title, overBadge, undoBtn, endBtn, resultBtn } = head;
  const conn = el("div", { class: "conn", hidden: true, role: "status" });
  const messageText = el("span", { class: "text" });
  const message = el("div", { class: "message", role: "alert", "aria-live": "assertive", title: "Dismiss",
    onclick: () => hideMessage() }, messageText);
  const boardEl = el("div", { class: "board" });
  const startPanel = el("div", { class: "start-panel panel", hidden: true });
  // The result: a modal dialog named by its heading; the focus goes into it and stays there until it is closed.
  const overPanel = el("div", { class: "over-panel panel", hidden: true, role: "dialog", "aria-modal": "true",
    "aria-labelledby": "over-title" });
  const result = resultDialog(overPanel, () => resultBtn);
  page.append(hud, help, conn, message, el("div", { class: "board-wrap felt" }, boardEl, startPanel, overPanel));
  // The head grows or shrinks (the line under the score bar comes and goes): the table fits itself again.
  const headSize = new ResizeObserver(() => window.dispatchEvent(new Event("spidertour:layout")));
  headSize.observe(hud);

  let view = null;
  let state = null;
  let lastOver = null; // the over message, once the game is over here
  let deadline = null; // performance.now() at which the server's clock reaches 0
  let settings = null; // the tournament's, once loaded
  let matchId = matchOfEntry(entryId); // a match's seat: no tournament, no leaderboard, no place until it is over
  let bracket = null; // a bracket's game: {bracket_id, round}, named and led back to the bracket
  let messageTimer = null;
  const told = new GameTold(() => title.querySelector("[data-field=name]").textContent.trim());

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

  function setClock(seconds) {
    deadline = seconds === null || seconds === undefined ? null : performance.now() + seconds * 1000;
    tick();
  }

  function tick() {
    const node = hud.querySelector("[data-stat=clock]");
    if (view && view.over) {
      node.textContent = clock(view.time_left ?? 0);
      node.parentElement.classList.remove("low");
      standing.tick(null);
      return;
    }
    if (deadline === null) return;
    const left = Math.max(0, (deadline - performance.now()) / 1000);
    standing.tick(left);
    node.textContent = clock(left);
    node.parentElement.classList.toggle("low", left < 60);
  }
  const ticker = setInterval(tick, 250);

  function draw(v) {
    view = v;
    board.render(v);
    // Once over, the final score (time and free-column bonuses in), as the badge and the panel say it.
    const final = v.over ? (v.final_score ?? v.score) : v.score;
    hud.querySelector("[data-stat=score]").textContent = final;
    hud.querySelector(".stat-score .label").textContent = v.over ? "Final" : "Score";
    if (state) showDeal(state, v);
    hud.querySelector("[data-stat=sequences]").textContent = `${v.sequences}/${v.sequences_to_win}`;
    hud.querySelector("[data-stat=reveals]").textContent = v.reveals;
    // A game dealt all face up (Curds and Whey) has nothing to reveal.
    hud.querySelector(".stat-reveals").hidden = !hasReveals(v);
    standing.setView(v);
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
    hud.querySelector(".stat-total").hidden = !several || !!s.practice; // a practice game plays one deal
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
    told.state(s);
    matchId = s.match_id ?? matchId;
    standing.setState(matchId || bracket ? { ...s, tournament_id: null } : s);
    if (s.practice) page.dataset.practice = "true";
    // A practice game over, reopened: where it would have ranked and the par, as its end said.
    if (s.would_rank !== undefined) lastOver = { ...lastOver, would_rank: s.would_rank, par: s.par };
    showDeal(s, s.view);
    if (first && matchId) loadMatch(matchId, { settings: (x) => { settings = x; }, helpBox, title });
    else if (first) loadGame(s.tournament_id);
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
        el("h2", {}, bracket ? `Round ${bracket.round}: both players start together` : "Everyone starts together"),
        el("p", {}, `The server starts every entrant's game at the same moment; your clock (${clock(s.time_limit)}) `,
          "runs from then, whether or not this page is open."),
        el("p", { class: "big-countdown" }, countdown(s.starts_at, "Your game starts in", "Starting\u2026")));
      return;
    }
    if (s.status === "joined" && startOnArrival(entryId)) {
      // Seated by a tap on Play: that tap was the start.
      startPanel.replaceChildren(el("h2", {}, "Dealing\u2026"),
        el("p", {}, `Your clock (${clock(s.time_limit)}) starts now, on the server.`));
      socket.start();
      return;
    }
    const button = el("button", { class: "btn primary big", "data-action": "start",
      onclick: () => { button.disabled = true; socket.start(); } }, "Start the game");
    fill(startPanel, // fill: a tournament's start says nothing of practice (replaceChildren wrote "null")
      el("h2", {}, s.practice ? "Practice: unranked" : "Ready?"),
      s.practice ? el("p", { "data-field": "practice-unranked" },
        (s.deals ?? 1) > 1 ? `Deal ${s.deal} of ${s.deals} of the finished tournament again` : "The finished tournament's deal again",
        ": this game counts on no leaderboard. At its end you see where ",
        "it would have ranked.") : null,
      el("p", {}, `The clock (${clock(s.time_limit)}) starts on the server when you press Start, `,
        "and runs until the end even if you leave the page."),
      s.status === "joined" ? button : el("p", {}, `This entry is ${statusName(s.status)}.`),
      glossary());
  }

  function showOver(o) {
    const focused = overPanel.contains(document.activeElement);
    fillOver(overPanel, o, { view, state, matchId, bracket, startNext: () => socket.start(), close: () => result.close(),
      onPlace: (...place) => told.place(...place) });
    result.shown(focused);
    undoBtn.disabled = true;
    endBtn.disabled = true;
    undoBtn.hidden = true;
    endBtn.hidden = true;
    resultBtn.hidden = false;
    overBadge.hidden = false;
    overBadge.textContent = `game over: ${OUTCOMES_SHORT[o.outcome] || "over"} \u00b7 ${o.final_score}`;
    overBadge.className = `badge over-badge st-${o.outcome}`;
    boardEl.classList.add("game-over");
  }

  /** A bracket's game (its tournament is no one's to read until the bracket is finished), or a tournament's. */
  async function loadGame(tid) {
    bracket = await bracketGameOf(entryId);
    if (!bracket) return loadTournament(tid);
    standing.setState({ ...state, tournament_id: null });
    loadBracketGame(bracket, { settings: (x) => { settings = x; }, helpBox, title });
    if (view?.over) draw(view); // the panel at the end leads to the bracket
    else if (state?.status === "joined") showStart(state);
    return null;
  }

  async function loadTournament(tid) {
    try {
      const t = await api.tournament(tid);
      settings = t.settings;
      standing.setTournament(t);
      helpBox.setSettings(t.settings, t.start);
      gameSuits(t.settings.suits);
      title.querySelector("[data-field=name]").textContent = t.name;
      title.querySelector("[data-field=rules]").textContent = describeSettings(t.settings);
      document.title = `${t.name} \u00b7 spidertour`;
    } catch {
      // A match's seat opened on a device that did not ask for it: its tournament is no one's to read.
      const m = (await api.myMatches().catch(() => [])).find((x) => x.players.some((p) => p.entry_id === entryId));
      if (!m) return; // the title is a nicety
      matchId = m.id;
      rememberSeats([[entryId, m.id]]);
      standing.setState({ ...state, tournament_id: null });
      loadMatch(matchId, { settings: (x) => { settings = x; }, helpBox, title });
      if (view?.over) draw(view); // the panel at the end leads to the match
    }
  }

  function onKey(e) {
    page.classList.add("keys"); // keyboard use: the board's focus frames show (app.css)
    if (e.target.closest("input, textarea, select, dialog, .over-panel") || e.ctrlKey || e.metaKey || e.altKey) return;
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
  const onVisible = () => {
    if (document.visibilityState !== "visible") return;
    if (socket.ready) socket.sync();
    standing.refresh();
  };
  document.addEventListener("visibilitychange", onVisible);
  const onPointer = () => page.classList.remove("keys");
  document.addEventListener("pointerdown", onPointer, true);

  socket.connect();
  window.spidertour = { ...(window.spidertour || {}), socket, board };

  return () => {
    clearInterval(ticker);
    told.stop();
    standing.stop();
    headSize.disconnect();
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("visibilitychange", onVisible);
    document.removeEventListener("pointerdown", onPointer, true);
    socket.stop();
    board.destroy();
  };
}
