// The game page (#/play/ENTRY): the table, the clock, score, undo and end, the final score.

import { api, player } from "./api.js";
import { Board } from "./board.js";
import { PlaySocket } from "./playsocket.js";
import { beep } from "./sound.js";
import { clock, confirmDialog, describeSettings, el, STATUS_NAMES } from "./ui.js";

const OUTCOMES = { won: "You won!", ended: "Game ended", timed_out: "Out of time" };

function stat(name, label, value = "0") {
  return el("div", { class: `stat stat-${name}` },
    el("span", { class: "label" }, label), el("span", { class: "value", "data-stat": name }, value));
}

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
      el("p", {}, "This device has no player token. Register, or paste your token, in the ",
        el("a", { href: "#/lobby" }, "lobby"), ".")));
    return () => {};
  }

  const title = el("div", { class: "hud-title" }, el("a", { href: "#/lobby", class: "back", title: "Lobby" }, "\u2190"),
    el("b", { "data-field": "name" }, `Entry ${entryId}`), el("span", { class: "muted", "data-field": "rules" }));
  const undoBtn = el("button", { class: "btn", "data-action": "undo", disabled: true, title: "Undo (U)" }, "Undo");
  const endBtn = el("button", { class: "btn danger", "data-action": "end", disabled: true, title: "End (E)" }, "End");
  const hud = el("div", { class: "hud" }, title,
    el("div", { class: "stats" }, stat("score", "Score"), stat("sequences", "Sequences", "\u2013"),
      stat("reveals", "Reveals"), stat("clock", "Time", "--:--")),
    el("div", { class: "actions" }, undoBtn, endBtn,
      el("button", { class: "btn ghost", "data-action": "help", title: "Keys", onclick: () => help.toggleAttribute("hidden") },
        "?")));
  const help = el("div", { class: "help panel", hidden: true },
    el("p", {}, el("b", {}, "Mouse or touch: "), "drag a card (and the cards on it) to a column, or click a card then ",
      "click a column. Click a draw pile or the stock to deal."),
    el("p", {}, el("b", {}, "Keys: "), "\u2190 \u2192 or digits choose a column, \u2191 \u2193 how many cards, ",
      "Enter picks and drops (or a digit drops), Esc cancels, D deals (P chooses the pile), U undoes, E ends."));
  const conn = el("div", { class: "conn", hidden: true, role: "status" });
  const message = el("div", { class: "message", role: "alert", "aria-live": "assertive" });
  const boardEl = el("div", { class: "board" });
  const startPanel = el("div", { class: "start-panel panel", hidden: true });
  const overPanel = el("div", { class: "over-panel panel", hidden: true, role: "dialog" });
  page.append(hud, help, conn, message, el("div", { class: "board-wrap felt" }, boardEl, startPanel, overPanel));

  let view = null;
  let state = null;
  let deadline = null; // performance.now() at which the server's clock reaches 0
  let settings = null; // the tournament's, once loaded
  let messageTimer = null;

  const socket = new PlaySocket(entryId, me.token, {
    state: onState, result: onResult, error: onError, over: onOver, notice: onNotice, connection: onConnection,
  });
  const board = new Board(boardEl, {
    onMove: (src, count, dst) => act({ type: "move", from: src, count, to: dst }),
    // Without draw-pile choice the server deals the piles in order: a click on any pile asks for the next.
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

  function say(text, kind = "error") {
    message.textContent = text;
    message.className = `message show ${kind}`;
    clearTimeout(messageTimer);
    messageTimer = setTimeout(() => message.classList.remove("show"), 5000);
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
    hud.querySelector("[data-stat=sequences]").textContent = `${v.sequences}/${v.sequences_to_win}`;
    hud.querySelector("[data-stat=reveals]").textContent = v.reveals;
    undoBtn.disabled = !v.can_undo || v.over;
    endBtn.disabled = v.over;
    if (v.over) showOver({ outcome: v.outcome, score: v.score, time_left: v.time_left ?? 0,
      time_bonus: v.time_bonus ?? 0, free_column_bonus: v.free_column_bonus ?? 0, final_score: v.final_score ?? v.score });
  }

  function onState(s, first) {
    state = s;
    if (first) loadTournament(s.tournament_id);
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
    if ((code === "not_open" || code === "already_started") && state?.status === "joined") showStart(state);
    say(code === "taken_over" ? "This game was opened in another window or on another device." : reason, "info");
  }

  function onOver(o) {
    beep("over");
    if (view) view = { ...view, over: true, outcome: o.outcome, time_left: o.time_left, can_undo: false };
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
      const why = detail.code === 4001 ? "This game was opened in another window or on another device."
        : detail.code === 4003 ? "This token does not own that entry." : `The connection was closed (${detail.reason}).`;
      conn.replaceChildren(el("span", {}, why), " ",
        detail.code === 4001 ? el("button", { class: "btn", onclick: () => socket.connect() }, "Play here") : null);
      return;
    }
    if (status === "reconnecting" && view) {
      boardEl.classList.add("offline");
      conn.hidden = false;
      conn.textContent = "Connection lost: reconnecting\u2026";
    }
  }

  function showStart(s) {
    startPanel.hidden = false;
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
    overPanel.replaceChildren(
      el("h2", {}, OUTCOMES[o.outcome] || "Game over"),
      el("table", { class: "score-parts" }, el("tbody", {},
        row("Reveals", `${reveals} \u00d7 25`, "reveals", reveals * 25),
        row("Sequences", `${sequences} \u00d7 100`, "sequences", sequences * 100),
        row("Free-column bonus", freeColumnHint(v, o), "free_column_bonus", o.free_column_bonus),
        row("Time bonus", `${o.time_left} s \u00d7 ${sequences}/${toWin}`, "time_bonus", o.time_bonus),
        el("tr", { class: "total" }, el("td", {}, "Final score"), el("td"),
          el("td", { class: "num", "data-part": "final_score" }, o.final_score)))),
      el("div", { class: "over-links" },
        state ? el("a", { class: "btn primary", href: `#/board/${state.tournament_id}` }, "Leaderboard") : null,
        el("a", { class: "btn", href: "#/lobby" }, "Lobby"),
        el("button", { class: "btn ghost", onclick: () => (overPanel.hidden = true) }, "See the table")));
    undoBtn.disabled = true;
    endBtn.disabled = true;
  }

  async function loadTournament(tid) {
    try {
      const t = await api.tournament(tid);
      settings = t.settings;
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
    if (e.key === "u" || e.key === "U") {
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
