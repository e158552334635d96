// The live leaderboard (#/board/TID): the watch websocket's snapshot, then its coalesced updates
// (changed rows with their ranks, the top rows, a status change), with the viewer's entry marked
// and the time left of every game still playing counted down from its deadline. A team battle
// shows its team table above the players, live from the socket's ``teams`` messages. Equal scores
// are marked, the tie-break said under the table; the time left shows on phones too. Past the
// first page (the socket's top rows) the board goes a page at a time, finds players by name and
// jumps to the viewer's place, each page read from the server.

import { api, knownEntries, player } from "../lib/api.js";
import { openSocket, socketUrl } from "../board/playplace.js";
import { certifiedBadge, clock, countdown, dealsNote, describeSettings, el, number, statusName } from "../lib/ui.js";
import { teamPanel, teamTag } from "../lib/teams.js";
import { tiedIds, tieMark, tieNote } from "../standings/ties.js";
import { boardPager, PAGE, pageOf } from "../standings/pager.js";
import { tournamentState } from "../lib/state.js";
import { playerName } from "../standings/names.js";
import { whenLine } from "../standings/when.js";
import { moveMarks } from "../standings/moves.js";

export function mount(main, tidText) {
  const tid = Number(tidText);
  const page = el("section", { class: "page board-page", "data-tournament": tid });
  const heading = el("h1", { "data-field": "name" }, `Tournament ${tid}`);
  const status = el("span", { class: "badge", "data-field": "status" });
  const live = el("span", { class: "live", "data-field": "live" }, "connecting\u2026");
  const meta = el("p", { class: "meta muted" });
  const body = el("tbody");
  const table = el("table", { class: "standings live-board row-cards" },
    el("thead", {}, el("tr", {}, el("th", { class: "num" }, "#"), el("th", {}, "Player"),
      el("th", { class: "num" }, "Score"), el("th", {}, "Status"), el("th", { class: "num time-left" }, "Time left"))),
    body);
  const mineBox = el("div", { class: "mine-box", hidden: true });
  const footer = el("p", { class: "muted small" });
  let byPoints = false;  // ranked by matchpoints: their tie-break is the total
  const ties = el("div", { class: "tie-box" }, tieNote());
  const teamsBox = el("div", { class: "teams-box", hidden: true });
  const back = el("p", { class: "row back-to-game", hidden: true });  // the way back to one's own game
  let view = { offset: 0, name: "" };  // the first page without a search is the socket's, live
  let paged = null;  // the rows of any other view, read from the server ({rows, found})
  let counts = null;  // {playing, waiting} as the server counts them, for a board bigger than a page
  let refetch = null;
  const pager = boardPager({ go, mine: jumpToMine });
  page.append(el("div", { class: "banner felt" }, el("header", { class: "page-head" }, heading, status, live), meta),
    back, teamsBox, pager.tools, mineBox,
    el("div", { class: "table-wrap" }, table), pager.pager, ties, footer);
  main.append(page);

  let mine = new Set(knownEntries().filter((e) => e.tournament_id === tid).map((e) => e.id));
  let top = [];
  let myRow = null;
  let entrants = 0;
  let ws = null;
  let stopped = false;
  let over = false;  // finished or cancelled: the board is final
  let retry = null;
  const fallback = { ownPort: false }; // the play port could not be reached: the page's own port from then on
  let attempts = 0;
  let skew = 0; // the server's clock minus this device's, in seconds (from the messages' `at`)
  let teams = null; // a team battle's table ({node, update})
  let joined = null; // how many joined, from the tournament: a cancelled one ranks nobody but had its entrants
  let start = "own"; // how the tournament starts: a sitting started together is "under way", not "open"
  let disqualified = 0; // entries taken out of the ranking (said beside the count, not in it)
  let tour = null; // the tournament as last read (its times, for the line that says when it closes)
  const marks = moveMarks(); // rows that just changed or moved, marked a few seconds
  const profiles = new Map(); // entry id -> player id (a public profile's), from any row that carried it

  function rowEl(r, flash, tied = false) {
    const marked = marks.marked(r.entry_id) ? "marked" : "";
    const cls = [mine.has(r.entry_id) ? "mine" : "", flash ? "flash" : "", marked].join(" ").trim();
    if (typeof r.player_id === "number") profiles.set(r.entry_id, r.player_id);
    const running = r.status === "playing" && r.deadline !== null && r.deadline !== undefined;
    const left = el("td", { class: "num time-left", "data-field": "time-left", "data-deadline": running ? r.deadline : null },
      running ? timeLeft(r.deadline) : r.time_left === null || r.time_left === undefined ? "\u2013" : clock(r.time_left));
    // Medals for the first three places, once they have scored.
    const medal = r.rank && r.rank <= 3 && r.score > 0 ? r.rank : null;
    return el("tr", { "data-entry": r.entry_id, class: cls || null, "data-tie": tied ? "" : null },
      el("td", { class: "num", "data-field": "rank", "data-medal": medal }, r.rank ? number(r.rank) : "",
        marks.arrow(r.entry_id)),
      el("td", { "data-field": "player" }, playerName({ ...r, player_id: profiles.get(r.entry_id) }), mine.has(r.entry_id) ? el("span", { class: "you-tag" }, "you") : null,
        teamTag(r.team)),
      el("td", { class: "num score", "data-field": "score" },
        r.matchpoints === undefined ? number(r.score) : `${r.matchpoints} mp \u00b7 ${number(r.score)}`, tied ? tieMark(byPoints) : null),
      el("td", { "data-field": "status" }, el("span", { class: `badge st-${r.status}` },
        statusName(r.status))),
      left);
  }

  /** Whether the board is a cancelled tournament's: its count is of who joined, as on every page. */
  const cancelled = () => status.classList.contains("st-cancelled");


  function timeLeft(deadline) {
    return clock(Math.max(0, deadline - (Date.now() / 1000 + skew)));
  }

  /** Every running game's time left, counted down between the server's updates. */
  function tick() {
    for (const cell of page.querySelectorAll("td[data-deadline]")) cell.textContent = timeLeft(Number(cell.dataset.deadline));
    marks.sweep(page);
  }
  const ticker = setInterval(tick, 1000);

  function draw(changedIds = new Set()) {
    const rows = paged ? paged.rows : top;
    byPoints = rows.some((r) => r.matchpoints !== undefined);
    const tied = tiedIds(rows, (r) => (r.matchpoints === undefined ? r.score : r.matchpoints));
    body.replaceChildren(...rows.map((r) => rowEl(r, changedIds.has(r.entry_id), tied.has(r.entry_id))));
    if (!rows.length) {
      body.append(el("tr", {}, el("td", { colspan: 5, class: "muted" },
        cancelled() ? "Nobody is ranked: the tournament was cancelled." : view.name ? "Nobody by that name."
          : view.offset ? "No places this far down." : "No entrants yet.")));
    }
    ties.replaceChildren(tieNote(byPoints));
    meta.querySelector("[data-field=entrants]").textContent = number(cancelled() && joined !== null ? joined : entrants);
    inPlay();
    pager.update(view, view.name ? paged.found : entrants, rows.length);
    pager.showMine(mine.size > 0 && !!myRow);
    const shown = rows.some((r) => mine.has(r.entry_id));
    mineBox.hidden = !myRow || shown;
    if (myRow && !shown) {
      mineBox.replaceChildren(el("span", { class: "muted" }, "Your place: "),
        el("table", { class: "standings row-cards" }, el("tbody", {}, rowEl(myRow, changedIds.has(myRow.entry_id)))));
    }
  }

  /** How many of the entrants are still playing and yet to start, when the board shows every one. */
  function inPlay() {
    const node = meta.querySelector("[data-field=in-play]");
    if (!node) return;
    const whole = top.length >= entrants;  // the socket's rows hold everyone: count them, live
    const playing = whole ? top.filter((r) => r.status === "playing").length : counts?.playing;
    const waiting = whole ? top.filter((r) => r.status === "joined").length : counts?.waiting;
    const parts = [];
    if (!over && entrants > 0 && typeof playing === "number") {
      parts.push(`${playing} playing now`);
      if (waiting) parts.push(`${waiting} yet to start`);
    }
    if (disqualified) parts.push(`${disqualified} disqualified, not counted`);
    node.textContent = parts.length ? ` (${parts.join(", ")})` : "";
  }

  function setStatus(s) {
    status.textContent = tournamentState({ status: s, start });
    status.className = `badge st-${s}`;
    over = s === "finished" || s === "cancelled";
    if (over) {  // nothing moves any more: no "live" light
      live.textContent = s === "finished" ? "final" : "";
      live.classList.remove("on");
    }
    if (s !== "scheduled") meta.querySelector("[data-field=together-start]")?.remove();  // it has started
    const line = meta.querySelector("[data-field=when-line]");
    if (line && tour) line.replaceChildren(...whenLine({ ...tour, status: s }));
    footer.replaceChildren(s === "finished"
      ? el("a", { href: `#/finished/${tid}`, class: "btn", "data-action": "results" }, "Final results and replays")
      : s === "cancelled" ? "The organiser cancelled this tournament: nobody is ranked."
      : "Scores update live as entrants play: 25 a card turned, 100 a sequence, a time bonus at the end.");
  }

  /** Show a view: a page of places, or of a search by name (the first page unsearched is live). */
  async function go(v, changed = new Set()) {
    view = { offset: Math.max(0, v.offset || 0), name: (v.name || "").slice(0, 40) };
    if (!view.offset && !view.name) {
      paged = null;
      draw(changed);
      return;
    }
    try {
      const board = await api.boardPage(tid, { offset: view.offset, limit: PAGE, name: view.name });
      paged = { rows: board.rows, found: board.found ?? board.entrants };
      entrants = board.entrants;
      draw(changed);
    } catch (err) {
      pager.update(view, 0, 0);
      body.replaceChildren(el("tr", {}, el("td", { colspan: 5, class: "muted" },
        err.status === 400 ? "That name cannot be searched: try a shorter one." : "Could not load these places: try again.")));
    }
  }

  /** Jump to the page that holds the viewer's place. */
  async function jumpToMine() {
    const id = [...mine][0];
    try {
      const around = await api.around(tid, id, 0);
      myRow = around.rows.find((r) => r.entry_id === id) || myRow;
    } catch {
      /* the last known place */
    }
    if (!myRow?.rank) return;
    await go({ offset: pageOf(myRow.rank), name: "" });
    body.querySelector("tr.mine")?.scrollIntoView({ block: "center" });
  }

  /** The counts of who plays, from the server (a board bigger than a page), now and then. */
  let counted = 0;
  async function recount(force = false) {
    if (over || (!force && Date.now() - counted < 10000)) return;
    counted = Date.now();
    try {
      const board = await api.boardPage(tid, { offset: 0, limit: 1 });
      if (typeof board.playing === "number") counts = { playing: board.playing, waiting: board.waiting ?? 0 };
      inPlay();
    } catch {
      /* the last counts stay */
    }
  }

  function receive(msg) {
    if (msg.at) skew = msg.at - Date.now() / 1000;
    if (msg.type === "snapshot") {
      top = msg.top;
      entrants = msg.entrants;
      setStatus(msg.status);
      draw();
    } else if (msg.type === "update") {
      const before = new Map(top.map((r) => [r.entry_id, `${r.score} ${r.rank} ${r.status}`]));
      const places = new Map([...(myRow ? [[myRow.entry_id, myRow.rank]] : []), ...top.map((r) => [r.entry_id, r.rank])]);
      top = msg.top;
      entrants = msg.entrants;
      // Flash what moved: the followed entries that changed, and top rows that differ from before.
      const ids = new Set(msg.changed.map((r) => r.entry_id));
      for (const r of top) if (before.get(r.entry_id) !== `${r.score} ${r.rank} ${r.status}`) ids.add(r.entry_id);
      for (const r of msg.changed) if (mine.has(r.entry_id)) myRow = r;
      marks.note(ids, [...msg.changed, ...top], places);
      if (msg.status) setStatus(msg.status);
      if (paged) {  // another page is shown: read it again, a moment after the moves
        clearTimeout(refetch);
        refetch = setTimeout(() => go(view, ids), 1500);
      } else draw(ids);
      recount();
    } else if (msg.type === "teams" && teams) {
      teams.update(msg.teams);
    } else if (msg.type === "error" && msg.code === "not_found") {
      unknown();
    }
  }

  async function connect() {
    // Follow only our own entries: updates then carry the top page and our rows, however big the field.
    // On the server's play port when it has one (as the game's socket), else, or when that cannot be
    // reached, on the page's own port.
    const place = await socketUrl(`/ws/watch/${tid}?follow=${[...mine].join(",")}`, fallback.ownPort);
    if (stopped) return;
    const socket = openSocket(place, fallback, {
      onopen: () => {
        attempts = 0;
        if (over) return;
        live.textContent = "\u25cf live";
        live.classList.add("on");
      },
      onmessage: (e) => receive(JSON.parse(e.data)),
      onclose: () => {
        live.classList.remove("on");
        if (stopped || over) return;
        live.textContent = "reconnecting\u2026";
        attempts += 1;
        retry = setTimeout(connect, Math.min(5000, 300 * 2 ** attempts));
      },
      again: connect,
      stale: (s) => s !== ws || stopped,
    });
    if (socket !== null) ws = socket;
  }

  function unknown() {
    stopped = true;
    heading.textContent = "No such tournament";
    live.textContent = "";
    status.hidden = true;
    meta.replaceChildren(`There is no tournament ${tid} on this server. `, el("a", { href: "#/lobby" }, "The lobby"),
      " lists every tournament.");
    table.hidden = true;
    footer.replaceChildren();
  }

  async function load() {
    try {
      const t = await api.tournament(tid);
      heading.textContent = t.name;
      tour = t;
      disqualified = t.disqualified || 0;
      start = t.start || "own";
      joined = t.entrants;
      const badge = certifiedBadge(t);
      if (badge && !page.querySelector("[data-field=certified]")) status.after(badge);
      document.title = `${t.name} \u00b7 leaderboard`;
      meta.replaceChildren(describeSettings(t.settings), ` \u00b7 ${clock(t.settings.time_limit)} \u00b7 `,
        el("span", { "data-field": "entrants" }, entrants || t.entrants), " entrants",
        el("span", { "data-field": "in-play" }),
        ...(t.start === "together" && t.status === "scheduled"
          ? [el("span", { "data-field": "together-start" }, " \u00b7 everyone starts together: ", countdown(t.opens_at))]
          : []),
        el("span", { "data-field": "when-line" }, ...whenLine(t)),
        ...(t.series ? [" \u00b7 ", el("a", { href: `#/series/${t.series}`, "data-action": "series" }, "its series")] : []));
      // Several deals: what ranks, in plain words; the score is the total over the deals.
      page.querySelector("[data-field=deals-note]")?.remove();
      const note = dealsNote(t.settings, t.status !== "finished");
      if (note) meta.after(note);
      if ((t.settings.deals ?? 1) > 1) table.querySelector("thead th.num + th + th").textContent = "Total";
      setStatus(t.status);
      if (t.teams && !teams) {
        teams = teamPanel(t.teams.top, "Teams", (id) => mine.has(id));
        teamsBox.replaceChildren(teams.node);
        teamsBox.hidden = false;
      }
    } catch (err) {
      if (err.status === 404) unknown();
      else {
        stopped = true;
        heading.textContent = `Could not load: ${err.message}`;
        live.textContent = "";
      }
      return;
    }
    if (player()) {
      try {
        const entries = await api.myEntries();
        mine = new Set(entries.filter((e) => e.tournament_id === tid).map((e) => e.id));
      } catch {
        /* highlight from what is known */
      }
    }
    if (mine.size && !over) {
      const id = [...mine][0];
      back.replaceChildren(el("a", { class: "btn primary", href: `#/play/${id}`, "data-action": "my-game" },
        "\u2190 Back to my game"));
      back.hidden = false;
    }
    for (const id of mine) {
      try {
        const around = await api.around(tid, id, 0);
        myRow = around.rows.find((r) => r.entry_id === id) || null;
      } catch {
        /* not on the board yet */
      }
    }
    if (!stopped) {
      draw();
      recount(true);
      connect();
    }
  }

  meta.append(el("span", { "data-field": "entrants" }, "0"), " entrants");
  load();
  return () => {
    stopped = true;
    clearInterval(ticker);
    clearTimeout(retry);
    clearTimeout(refetch);
    if (ws) ws.close();
  };
}
