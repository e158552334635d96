// A finished tournament (#/finished/TID): the revealed seed checked against the commitment in
// this browser, the podium and the final standings (each score as a share of the par, equal
// scores marked with the tie-break said), and a replay viewer that rebuilds the deal from the seed
// (engine.js) and steps through any entrant's published game, re-scoring it on the way.
// #/finished/TID/ENTRY opens that entry's replay (deal 1 of several) in view, its analysis under it.

import { api, knownEntries, player } from "../lib/api.js";
import { Board } from "../board/board.js";
import { cardWords } from "../board/cards.js";
import { commitment, replayGame, VARIANTS } from "../engine/index.js";
import { certifiedBadge, clock, dealsNote, describeSettings, el, number, statusName, when } from "../lib/ui.js";
import { gameSuits } from "../lib/prefs.js";
import { teamPanel, teamTag } from "../lib/teams.js";
import { AnalysisLine, practiseDeals } from "../competitions/practice.js";
import { noReplay, notYet, replayHref } from "../competitions/replay_link.js";
import { ofPar, ofParCell, podium, sharesPar } from "../standings/podium.js";
import { playerName } from "../standings/names.js";
import { tiedIds, tieMark, tieNote } from "../standings/ties.js";


function moveText(m) {
  if (!m) return "the deal";
  if (m.type === "move") return `${m.count} card${m.count === 1 ? "" : "s"} from column ${m.from + 1} to ${m.to + 1}`;
  if (m.type === "deal") return m.pile === undefined || m.pile === null ? "deal a row" : `deal pile ${m.pile + 1}`;
  if (m.type === "undo") return "undo";
  if (m.type === "end") return "end";
  return m.type;
}

export function mount(main, tidText, entryText) {
  const tid = Number(tidText);
  const linked = entryText ? Number(entryText) : null;  // the entry whose replay the address opens
  const page = el("section", { class: "page finished-page", "data-tournament": tid });
  main.append(page);
  let mine = new Set(knownEntries().map((e) => e.id));
  let games = null;
  let viewer = null;

  async function load() {
    let t;
    try {
      t = await api.tournament(tid);
    } catch (err) {
      page.append(el("h1", {}, err.status === 404 ? "No such tournament" : err.message));
      return;
    }
    document.title = `${t.name} \u00b7 results`;
    gameSuits(t.settings.suits);  // the replays' faces
    page.append(el("header", { class: "page-head" }, el("h1", {}, t.name), el("span", { class: `badge st-${t.status}` }, statusName(t.status)),
      certifiedBadge(t)),
      el("p", { class: "muted" }, describeSettings(t.settings), ` \u00b7 ${clock(t.settings.time_limit)}`,
        t.status === "cancelled" && t.cancelled_at ? el("span", { "data-field": "ended" }, ` \u00b7 cancelled ${when(t.cancelled_at)}`)
          : t.finished_at ? el("span", { "data-field": "ended" }, ` \u00b7 finished ${when(t.finished_at)}`) : "",
        t.status === "cancelled" ? el("span", { "data-field": "entrants" }, ` \u00b7 ${number(t.entrants)} entrants, nobody ranked`) : "",
        t.series ? el("span", {}, " \u00b7 ", el("a", { href: `#/series/${t.series}`, "data-action": "series" }, "its series")) : ""));
    const note = dealsNote(t.settings);
    if (note) page.append(note);
    const deals = t.settings.deals ?? 1;
    const byPoints = t.settings.scoring === "matchpoints";
    if (t.status === "cancelled") {
      page.append(el("p", { class: "panel", "data-field": "cancelled" },
        "The organiser cancelled this tournament: nobody is ranked. Its seed: ", el("code", {}, t.seed), "."));
      return;
    }
    if (t.status !== "finished") {
      page.append(el("p", { class: "panel" }, "This tournament is not finished yet: its seed stays secret until then. ",
        el("a", { href: `#/board/${tid}` }, "Watch the live leaderboard"), "."), linked === null ? "" : notYet());
      return;
    }
    const check = el("span", { class: "check", "data-check": "commitment" }, "checking\u2026");
    page.append(el("p", { class: "row" }, el("a", { class: "btn small", href: `/api/tournaments/${tid}/standings.csv`,
      download: `tournament-${tid}-standings.csv`, "data-action": "standings-csv" }, "Download results (CSV)"),
      practiseDeals(t)));
    // The proof of fairness one click away, under the standings: the check's verdict in its summary.
    const fairness = el("details", { class: "panel fairness", "data-field": "fairness" },
      el("summary", {}, el("b", {}, "Fair play: "), check),
      el("dl", {},
        el("dt", {}, "Seed"), el("dd", {}, el("code", { "data-field": "seed" }, t.seed)),
        t.salt ? [el("dt", {}, "Salt"), el("dd", {}, el("code", { "data-field": "salt" }, t.salt))] : null,
        el("dt", {}, "Commitment"), el("dd", {}, el("code", { "data-field": "commitment" }, t.commitment))),
      el("p", { class: "muted small" }, "The commitment was published when the tournament was created: SHA-256 of ",
        t.salt ? "the salt, seed and settings (the salt, drawn by the server, keeps even a short seed from being guessed)." :
          "the seed and settings.", " This page recomputes it, rebuilds the deal from the seed and re-scores every replay."));
    commitment(t.seed, t.settings, t.salt).then((hash) => {
      const ok = hash === t.commitment;
      check.textContent = ok ? `\u2713 the ${t.salt ? "salt, " : ""}seed and settings match the commitment` : `\u2717 mismatch: ${hash}`;
      check.classList.add(ok ? "ok" : "bad");
      check.dataset.ok = ok;
    });

    if (player()) {
      // This device's entries from the server: its token may never have been used in the lobby here.
      try {
        mine = new Set((await api.myEntries()).map((e) => e.id));
      } catch {
        /* mark what is known */
      }
    }
    const standings = await api.standings(tid);
    const body = el("tbody");
    // One replay a deal: "Replay" with one deal, "1 2 3" (deal by deal) with several.
    const replayButtons = (entryId) => (deals <= 1
      ? el("button", { class: "btn small", "data-action": "replay", onclick: () => replay(entryId) }, "Replay")
      : el("span", { class: "deal-replays" }, Array.from({ length: deals }, (_, i) => el("button", {
        class: "btn small", "data-action": "replay", "data-deal": i + 1, title: `Replay deal ${i + 1}`,
        onclick: () => replay(entryId, i + 1) }, String(i + 1)))));
    const tied = tiedIds(standings, (s) => (byPoints ? s.matchpoints : s.score));
    for (const s of standings) {
      body.append(el("tr", { "data-entry": s.entry_id, class: mine.has(s.entry_id) ? "mine" : null },
        el("td", { class: "num" }, number(s.rank)),
        el("td", {}, playerName(s),
          mine.has(s.entry_id) ? el("span", { class: "you-tag" }, "you") : null, teamTag(s.team)),
        byPoints ? el("td", { class: "num score", "data-field": "matchpoints" }, s.matchpoints ?? "",
          tied.has(s.entry_id) ? tieMark(true) : null) : null,
        el("td", { class: byPoints ? "num opt" : "num score" }, number(s.score), !byPoints && tied.has(s.entry_id) ? tieMark() : null),
        deals > 1 || !sharesPar(t.par) ? null : el("td", { class: "num of-par", "data-field": "of-par" }, ofParCell(s.score, t.par)),
        el("td", { class: "opt" }, el("span", { class: `badge st-${s.status}` }, statusName(s.status))),
        el("td", { class: "num opt" }, s.time_left === null ? "" : clock(s.time_left)),
        el("td", {}, s.status === "absent" ? null : replayButtons(s.entry_id))));  // an absent entry has no game
    }
    if (!standings.length) body.append(el("tr", {}, el("td", { colspan: 7, class: "muted" }, "Nobody entered.")));
    if (t.teams) {
      const final = teamPanel(t.teams.top, "Final team standings", (id) => mine.has(id));
      final.update((await api.teams(tid)).teams);
      page.append(final.node);
    }
    const top3 = podium(standings, deals > 1 ? null : t.par, byPoints);
    if (top3) page.append(el("h2", {}, "Podium"), top3);
    page.append(el("h2", {}, "Final standings"), el("div", { class: "table-wrap" },
      el("table", { class: "standings final" }, el("thead", {}, el("tr", {}, el("th", { class: "num" }, "#"),
        el("th", {}, "Player"), byPoints ? el("th", { class: "num", title: "matchpoints" }, "Points") : null,
        el("th", { class: byPoints ? "num opt" : "num" }, deals > 1 ? "Total" : "Score"),
        deals > 1 || !sharesPar(t.par) ? null : el("th", { class: "num", title: "the score as a share of the par" }, "% of par"),
        el("th", { class: "opt" }, "Status"), el("th", { class: "num opt" }, "Time left"),
        el("th", {}, el("span", { class: "sr-only" }, "Replay")))), body)),
      ...(tied.size ? [tieNote(byPoints)] : []));
    page.append(parPanel(t, standings[0]), fairness);
    const out = await api.disqualified(tid);
    if (out.length) {
      page.append(el("div", { class: "panel disqualified", "data-field": "disqualified" },
        el("h2", {}, "Disqualified"),
        el("ul", {}, out.map((d) => el("li", { "data-entry": d.entry_id },
          el("b", {}, d.player), ` \u2014 ${d.reason} `,
          replayButtons(d.entry_id))))));
    }
    if (linked === null) return;
    const absent = standings.some((s) => s.entry_id === linked && s.status === "absent");  // no game: no replay
    const game = absent ? null : await replay(linked, deals > 1 ? 1 : null, true);
    if (game) document.title = `${t.name} \u00b7 replay of ${game.player}`;
    else page.querySelector(".page-head").after(noReplay(linked));
  }

  // The par: the solver's line on this deal (whole deal known) played at a stated human pace, and
  // scored as the engine replays it at that pace (so its replay below re-scores to the same number),
  // next to the winner's score and its share of the par.
  function parPanel(t, winner) {
    const par = t.par;
    const several = (t.settings.deals ?? 1) > 1; // the par is deal 1's; the winner's score a total
    const share = winner && !several ? ofPar(winner.score, par) : "";
    const winnerText = winner ? el("span", { "data-field": "winner" }, `Winner: ${winner.player}, ${number(winner.score)}`,
      share ? [" (", el("span", { "data-field": "share" }, share), ")"] : null, ".") : "Nobody entered.";
    const parts = [el("h2", {}, several ? "Par of deal 1" : "Par")];
    if (!par) {
      parts.push(el("p", { class: "muted", "data-field": "par" }, "The solver is still working out the par: reload in a few seconds. ",
        winnerText));
    } else if (par.outcome !== "won") {
      parts.push(el("p", { "data-field": "par" }, `The solver found no win (${par.outcome}). `, winnerText));
    } else {
      const limit = t.settings.time_limit;
      // Pars stored before in_time was: the line fits when its last move comes before the time limit.
      const inTime = par.in_time ?? par.moves * par.pace < limit;
      const line = inTime
        ? `: the solver's line of ${par.moves} moves, at ${par.pace} s a move`
        : `: the solver's line of ${par.moves} moves would reach ${number(par.final_score)} when time runs out at ` +
          `${par.pace} s a move (it needs ${clock(Math.ceil(par.moves * par.pace))}, the limit is ${clock(limit)})`;
      parts.push(el("p", { "data-field": "par", "data-in-time": inTime },
        el("b", { "data-field": "par-score" }, `Par ${number(par.final_score)}`),
        `${line}, playing with the whole deal known. `,
        winnerText),
      el("button", { class: "btn small", "data-action": "replay-par", onclick: () => replayPar() }, "Replay the par"));
    }
    return el("div", { class: "panel par", "data-field": "par-panel" }, ...parts);
  }

  async function replayPar() {
    const game = await api.par(tid);
    history.replaceState(null, "", `#/finished/${tid}`);
    show(new ReplayViewer({ ...game, entry_id: "par", player: "the solver (par)" }));
  }

  // `linked`: opened by the address (it stays), else by a button (the address becomes the replay's own;
  // it opens deal 1 of several).
  async function replay(entryId, deal = null, linked = false) {
    games = games || (await api.replays(tid));
    const game = games.find((g) => g.entry_id === entryId && (deal === null || g.deal === deal));
    if (!game) return null;
    if (!linked) history.replaceState(null, "", (deal ?? 1) === 1 ? replayHref(tid, entryId) : `#/finished/${tid}`);
    await show(new ReplayViewer(game, tid, mine.has(entryId)), linked);
    return game;
  }

  async function show(next, instant = false) {
    if (viewer) viewer.destroy();
    viewer = next;
    page.querySelector(".replay")?.remove();
    page.append(viewer.root);
    await viewer.ready;
    const still = instant || document.body.classList.contains("simple");
    viewer.root.scrollIntoView({ behavior: still ? "auto" : "smooth" });
  }

  // Arrow keys step through the replay shown (Home and End jump to its ends); the slider keeps its own keys.
  function onKey(e) {
    if (!viewer || e.ctrlKey || e.metaKey || e.altKey || e.target.closest("input, textarea, select")) return;
    const to = { ArrowRight: viewer.step + 1, ArrowLeft: viewer.step - 1, Home: 0, End: Infinity }[e.key];
    if (to === undefined) return;
    viewer.pause();
    viewer.show(to);
    e.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  load();
  return () => {
    document.removeEventListener("keydown", onKey);
    viewer?.destroy();
  };
}

/** One published game stepped through on a read-only board (`tid`: its tournament, for the analysis
 * line; `mine`: the game is this device's player's, whom its analysis calls "you"). */
export class ReplayViewer {
  constructor(game, tid = null, mine = false) {
    this.game = game;
    this.step = 0;
    this.timer = null;
    const button = (action, label, title, fn) => el("button", { class: "btn", "data-action": action, title, onclick: fn }, label);
    this.slider = el("input", { type: "range", min: 0, max: game.moves.length, value: 0, "aria-label": "move",
      oninput: (e) => this.show(Number(e.target.value)) });
    this.label = el("span", { class: "step-label", "data-field": "step" });
    this.stats = el("span", { class: "muted", "data-field": "stats" });
    this.rescore = el("p", { class: "rescore", "data-field": "rescore" }, "Replaying\u2026");
    this.playBtn = button("play", "\u25b6 Play", "Play", () => this.toggle());
    const boardEl = el("div", { class: "board" });
    this.root = el("div", { class: "replay panel", "data-entry": game.entry_id },
      el("h2", {}, `Replay: ${game.player}`, el("small", { class: "muted" },
        game.entry_id === "par" ? ` ${game.moves.length} moves`
          : ` entry ${game.entry_id}${game.deal ? `, deal ${game.deal}` : ""}, ${game.moves.length} moves`)),
      el("div", { class: "replay-controls row" },
        button("first", "\u00ab First", "The deal", () => this.show(0)),
        button("prev", "\u2039 Back", "Previous move", () => this.show(this.step - 1)),
        this.playBtn,
        button("next", "Next \u203a", "Next move", () => this.show(this.step + 1)),
        button("last", "Last \u00bb", "The end", () => this.show(this.steps.length - 1)),
        this.slider),
      // Where the win was lost (the solver's analysis), under the moves: a real entry's game only.
      (this.analysis = tid === null ? null : new AnalysisLine(tid, game.entry_id, (i) => this.show(i),
        mine ? null : game.player, game.deal ?? null))?.root ?? null,
      el("div", { class: "row" }, this.label, this.stats),
      el("div", { class: "board-wrap felt" }, boardEl),
      this.rescore);
    this.board = new Board(boardEl, { readonly: true, room: () => window.innerHeight * 0.7 });
    this.ready = this.load();
  }

  async load() {
    // The line carries the tournament's settings (reveals_final, deal_variation, ...) and, for a
    // renamed deal, the entry's ordinal (docs/replay.md `entry`): the engine deals that entry's board.
    const result = await replayGame({ ...this.game, entry: this.game.entry ?? this.game.ordinal ?? null });
    this.steps = [{ ...result.initial, ok: true }, ...result.steps];
    const published = this.game.final_score;
    const same = result.final_score === published;
    this.rescore.textContent = `Re-scored in this browser: ${result.final_score ?? "not over"}` +
      ` (published ${published}) ${same ? "\u2713" : "\u2717"}`;
    this.rescore.dataset.score = result.final_score;
    this.rescore.dataset.ok = same;
    this.rescore.classList.add(same ? "ok" : "bad");
    this.show(0);
  }

  show(i) {
    if (!this.steps) return;
    this.step = Math.max(0, Math.min(this.steps.length - 1, i));
    const v = this.steps[this.step];
    const move = this.step ? this.game.moves[this.step - 1] : null;
    this.board.render(v);
    if (move && move.type === "move" && v.ok && this.steps[this.step - 1].sequences === v.sequences) {
      this.board.groupEls(move.to, move.count).forEach((c) => c.classList.add("moved"));
    }
    this.slider.value = this.step;
    this.analysis?.mark(this.step);
    this.board.root.dataset.step = this.step;
    const at = move && move.t !== undefined ? ` at ${clock(move.t)}` : "";
    const counter = this.step ? `Move ${this.step} of ${this.steps.length - 1}: ` : "Start: ";
    // The server closes a game the clock ended with an "end" at the time limit, which the rules
    // refuse as the game is already over: that is the time running out, not a player's mistake.
    const timeUp = !v.ok && v.code === "time_up";
    this.label.textContent = timeUp ? `${counter}out of time${at}`
      : `${counter}${moveText(move)}${at}${v.ok ? "" : ` (refused: ${cardWords(v.error)})`}`;
    this.label.classList.toggle("time-up", timeUp);
    const reveals = VARIANTS[v.variant]?.allUp ? "" : ` \u00b7 reveals ${v.reveals}`;
    this.stats.textContent = ` \u00b7 score ${v.score} \u00b7 sequences ${v.sequences}/${v.sequences_to_win}` +
      `${reveals}${v.over ? ` \u00b7 final ${v.final_score}` : ""}`;
    if (this.step >= this.steps.length - 1) this.pause();
  }

  toggle() {
    if (this.timer) this.pause();
    else {
      if (this.step >= this.steps.length - 1) this.show(0);
      this.timer = setInterval(() => this.show(this.step + 1), 700);
      this.playBtn.textContent = "\u23f8 Pause";
    }
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    this.playBtn.textContent = "\u25b6 Play";
  }

  destroy() {
    this.pause();
    this.analysis?.destroy();
    this.board.destroy();
  }
}
