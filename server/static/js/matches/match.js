// A match (#/match/ID): who is seated and whether each has played; while it waits, a clear "waiting
// for an opponent" with the way to play another match meanwhile (the page asks the server again every
// few seconds, so the result shows as soon as the match is over, without a reload); once over, the
// ranks, scores and rating changes, the seed checked against the commitment in this browser, and
// every seat's game to replay.

import { api, player } from "../lib/api.js";
import { commitment } from "../engine/index.js";
import { gameSuits } from "../lib/prefs.js";
import { clock, confirmDialog, el, explain, fill, notify, number, when } from "../lib/ui.js";
import { ReplayViewer } from "../pages/finished.js";
import { tellMatch } from "./told.js";
import { entryOfMatch, gameTitle, matchRules, matchStatus, provisionalOf, rating, ratingChange, rememberSeats, seatsText }
  from "./common.js";

const POLL_SECONDS = 3;
const DONE = new Set(["won", "ended", "timed_out", "absent", "done", "over"]);
const UNSTARTED = new Set(["joined", "waiting", "seated"]);
const SEAT_WORDS = { joined: "not started", waiting: "not started", seated: "not started", playing: "playing",
  won: "played", ended: "played", timed_out: "played", done: "played", over: "played", absent: "absent" };

export function mount(main, idText) {
  const id = Number(idText);
  const page = el("section", { class: "page match-page", "data-match": id });
  main.append(page);
  let alive = true;
  let timer = null;
  let viewer = null;
  let shown = null; // the status drawn last: the finished part is drawn once
  let seen = null; // the match as last read here: what changed since is told (matches/told.js)

  async function load() {
    let m;
    try {
      m = await api.match(id);
    } catch (err) {
      if (err.status === 404) {
        fill(page, el("h1", {}, "No such match"), el("p", {}, el("a", { class: "btn primary", href: "#/matches" }, "Play now")));
        return;
      }
      if (!page.childElementCount) fill(page, el("p", { class: "error" }, `Could not load the match: ${explain(err)}`));
      schedule();
      return;
    }
    if (!alive) return;
    const final = m.status === "over" || m.status === "unmatched";
    if (!(final && shown === m.status)) draw(m);
    seen = tellMatch(m, seen);
    shown = m.status;
    if (!final) schedule();
  }

  function schedule() {
    clearTimeout(timer);
    if (alive) timer = setTimeout(load, POLL_SECONDS * 1000);
  }

  function draw(m) {
    const me = player();
    const seat = m.players.find((p) => me && p.player_id === me.id) || null;
    const entryId = seat?.entry_id ?? entryOfMatch(m.id);
    if (seat && entryId) rememberSeats([[entryId, m.id]]);
    document.title = `Match ${m.id} \u00b7 spidertour`;
    gameSuits(m.settings.suits);
    page.dataset.status = m.status;
    const parts = [el("header", { class: "page-head" }, el("h1", {}, gameTitle(m.settings), el("small", {}, `, ${seatsText(m.seats)}`)),
      el("span", { class: `badge st-${m.status}`, "data-field": "status" }, matchStatus(m.status))),
    el("p", { class: "muted", "data-field": "rules" }, `Match ${m.id} \u00b7 `, matchRules(m),
      m.created_at ? ` \u00b7 opened ${when(m.created_at)}` : "")];
    if (m.status === "over") parts.push(...result(m, seat));
    else if (m.status === "unmatched") parts.push(unmatched(m));
    else parts.push(waiting(m, seat, entryId));
    parts.push(fairness(m));
    viewer?.destroy();
    viewer = null;
    fill(page, parts);
  }

  /** While the match is not over: where each seat stands (never a score), and what to do meanwhile. */
  function waiting(m, seat, entryId) {
    const mineDone = seat && DONE.has(seat.status);
    const free = m.seats - m.players.length;
    const allDone = free === 0 && m.players.every((p) => DONE.has(p.status));
    const says = mineDone
      ? (free > 0 ? `Waiting for ${free === 1 ? "an opponent" : `${free} opponents`}: your game is in.`
        : allDone ? "Every game is in: the result comes in a moment."
          : "Waiting for your opponents to finish: your game is in.")
      : seat ? "Your seat is kept: play your game whenever you are ready." : "This match is not over yet.";
    const actions = [];
    if (seat && !DONE.has(seat.status) && entryId) {
      actions.push(el("a", { class: "btn primary", href: `#/play/${entryId}`, "data-action": "play" },
        seat.status === "playing" ? "Resume your game" : "Play your game"));
    }
    actions.push(el("a", { class: `btn${mineDone ? " primary" : ""}`, href: "#/matches", "data-action": "play-another" },
      "Play another match"));
    if (seat && UNSTARTED.has(seat.status)) {
      actions.push(el("button", { class: "btn ghost", "data-action": "leave", onclick: () => leave() }, "Give up my seat"));
    }
    return el("div", { class: "panel waiting", "data-field": "waiting" },
      el("h2", {}, says),
      el("p", { class: "muted" }, "The result shows here as soon as every seat has played; scores stay secret until then. ",
        "You can leave this page and come back."),
      el("ul", { class: "seats" }, m.players.map((p) => el("li", { "data-seat": p.seat },
        el("b", {}, p.player), p === seat ? el("span", { class: "you-tag" }, "you") : null,
        el("span", { class: "muted" }, ` rating ${rating(p)}`, provisionalOf(p), " \u00b7 "),
        el("span", { "data-field": "seat-status" }, SEAT_WORDS[p.status] || p.status))),
      Array.from({ length: Math.max(0, free) }, () => el("li", { class: "muted" }, "a free seat"))),
      el("div", { class: "row actions" }, actions));
  }

  async function leave() {
    const ok = await confirmDialog("Give up your seat?", "You leave this match before playing; it is as if you never asked.",
      "Give up", "Keep it");
    if (!ok) return;
    try {
      await api.leaveMatch(id);
      notify("You left the match.", "ok");
      location.hash = "#/matches";
    } catch (err) {
      notify(explain(err), "error", 7000);
    }
  }

  function unmatched(m) {
    return el("div", { class: "panel", "data-field": "unmatched" },
      el("h2", {}, "No opponent came"),
      el("p", {}, "Nobody took the other seats in time: no result and no rating change. The deal's seed is published below."),
      el("a", { class: "btn primary", href: "#/matches", "data-action": "play-another" }, "Play another match"));
  }

  function result(m, seat) {
    const ranked = [...m.players].sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99) || a.seat - b.seat);
    const shared = (p) => ranked.filter((q) => q.rank === p.rank).length > 1;
    const headline = !seat ? "Final result"
      : seat.rank === 1 && shared(seat) ? "A draw" : seat.rank === 1 ? "You won!" : `You are ${seat.rank} of ${m.players.length}`;
    const rows = ranked.map((p) => el("li", { "data-seat": p.seat, class: p === seat ? "mine" : null },
      el("span", { class: "rank", "data-field": "rank" }, p.rank ?? "\u2013", shared(p) ? "=" : ""),
      el("span", { class: "who" }, el("a", { href: `#/player/${p.player_id}` }, p.player),
        p === seat ? el("span", { class: "you-tag" }, "you") : null,
        el("small", { class: "muted" }, p.time_left === null || p.time_left === undefined ? ""
          : ` ${clock(p.time_left)} left`)),
      el("b", { class: "score", "data-field": "final-score" }, p.final_score === null || p.final_score === undefined
        ? "\u2013" : number(p.final_score)),
      el("span", { class: "rating", "data-field": "rating" }, `rating ${rating(p)} `, ratingChange(p), provisionalOf(p)),
      p.status === "absent" ? el("span", { class: "muted" }, "absent")
        : el("button", { class: "btn small", "data-action": "replay", onclick: () => replay(p) }, "Replay")));
    return [el("div", { class: "panel match-result", "data-field": "result" },
      el("h2", { "data-field": "headline" }, headline),
      seat ? el("p", { "data-field": "my-rating" }, "Your rating: ", el("b", {}, rating(seat)), " ", ratingChange(seat),
        provisionalOf(seat), seat.shown_after === null || seat.shown_after === undefined ? " (this match is not rated)" : "")
        : null,
      el("ol", { class: "match-ranks" }, rows),
      el("div", { class: "row actions" },
        el("a", { class: "btn primary", href: "#/matches", "data-action": "play-another" }, "Play another match")))];
  }

  async function replay(p) {
    try {
      const games = await api.matchReplays(id);
      const game = games.find((g) => g.player_id === p.player_id || g.seat === p.seat || g.player === p.player);
      if (!game) return notify("No replay of this game.", "info");
      viewer?.destroy();
      page.querySelector(".replay")?.remove();
      viewer = new ReplayViewer(game);
      page.append(viewer.root);
      await viewer.ready;
      viewer.root.scrollIntoView({ behavior: "auto" });
    } catch (err) {
      notify(explain(err), "error", 7000);
    }
    return null;
  }

  /** The commitment published when the match opened; once over, its seed checked here against it. */
  function fairness(m) {
    const check = el("span", { class: "check", "data-check": "commitment" }, m.seed ? "checking\u2026" : "the seed is secret until the end");
    if (m.seed) {
      commitment(m.seed, m.settings, m.salt).then((hash) => {
        const ok = hash === m.commitment;
        check.textContent = ok ? "\u2713 the salt, seed and settings match the commitment" : "\u2717 mismatch";
        check.classList.add(ok ? "ok" : "bad");
        check.dataset.ok = ok;
      });
    }
    return el("details", { class: "panel fairness", "data-field": "fairness" },
      el("summary", {}, el("b", {}, "Fair play: "), check),
      el("dl", {},
        el("dt", {}, "Commitment"), el("dd", {}, el("code", { "data-field": "commitment" }, m.commitment)),
        m.seed ? [el("dt", {}, "Seed"), el("dd", {}, el("code", { "data-field": "seed" }, m.seed))] : null,
        m.salt ? [el("dt", {}, "Salt"), el("dd", {}, el("code", {}, m.salt))] : null,
        m.over_at ? [el("dt", {}, "Over"), el("dd", {}, when(m.over_at))] : null));
  }

  load();
  return () => {
    alive = false;
    clearTimeout(timer);
    viewer?.destroy();
  };
}
