// The player's page (#/me): name, @handle, clubs, and every result (from /api/me/entries), each
// with its rank, score and outcome, and links to the leaderboard and, once finished, the game's own
// replay with its analysis (#/finished/TID/ENTRY).

import { api, player } from "../lib/api.js";
import { el, explain, statusName, when, fill } from "../lib/ui.js";
import { gameTitle, matchesByEntry } from "../matches/common.js";
import { bracketLabel, bracketsOf } from "../brackets/common.js";
import { practiceSection } from "../competitions/practice_list.js";
import { replayHref } from "../competitions/replay_link.js";
import { pointsByTournament, ratingLine } from "../competitions/rating_words.js";

const RANKED = 30; // ranks looked up for the newest entries only: one request each

export function mount(main) {
  const page = el("section", { class: "page narrow-page me-page" });
  main.append(page);
  let alive = true;

  if (!player()) {
    page.append(el("h1", {}, "My page"), el("div", { class: "panel" },
      el("p", {}, "Nobody is signed in on this device."),
      el("p", { class: "row" }, el("a", { class: "btn primary", href: "#/account", "data-action": "sign-in" }, "Sign in"),
        el("a", { class: "btn ghost", href: "#/lobby" }, "Play as a guest"))));
    return () => {};
  }

  async function rankOf(entry) {
    try {
      const around = await api.around(entry.tournament_id, entry.id, 0);
      const row = around.rows.find((r) => r.entry_id === entry.id);
      return row ? row.rank : null;
    } catch {
      return null;
    }
  }

  let rated = new Map(); // tournament id -> the rating's change there (rating_words)
  const ratedLine = (e) => (rated.has(e.tournament_id) ? [" ", ratingLine(rated.get(e.tournament_id))] : null);

  function resultRow(e, rank, finished, m, b) {  // finished: the tournament once finished, else null
    if (e.bracket_id) return bracketRow(e, b);
    const over = !["joined", "playing"].includes(e.status);
    const score = e.final_score ?? e.score;
    if (m) rank = m.players.find((p) => p.entry_id === e.id)?.rank ?? null; // a match's rank, once it is over
    const links = m ? el("a", { class: "btn small ghost", href: `#/match/${m.id}`, "data-action": "match" }, "Match") : [
      el("a", { class: "btn small ghost", href: `#/board/${e.tournament_id}`, "data-action": "board" }, "Board"),
      !finished ? null : e.status === "absent"  // never played: the results, no replay of its own
        ? el("a", { class: "btn small ghost", href: `#/finished/${e.tournament_id}`, "data-action": "results" }, "Results")
        : el("a", { class: "btn small ghost", href: replayHref(e.tournament_id, e.id), "data-action": "replay" },
          (finished.settings?.deals ?? 1) > 1 ? "Replay" : "Replay & analysis")];
    return el("tr", { "data-entry": e.id, "data-tournament": e.tournament_id },
      el("td", {}, el("b", {}, m ? `Match: ${gameTitle(m.settings)}` : e.tournament),
        el("div", { class: "muted small" }, when(e.started_at))),
      el("td", { class: "num", "data-field": "rank", "data-label": "rank" }, rank ?? "–"),
      el("td", { class: "num score", "data-field": "score", "data-label": "score" }, score),
      el("td", { "data-field": "outcome" }, el("span", { class: `badge st-${e.status}` }, statusName(e.status)), ratedLine(e)),
      el("td", { class: "links" },
        over ? null : el("a", { class: "btn small primary", href: `#/play/${e.id}` }, e.status === "joined" ? "Start" : "Resume"),
        links));
  }

  /** A bracket's entry (its joining, or a round's game): named as the bracket's, leading to its page. */
  function bracketRow(e, b) {
    const game = Boolean(e.round) && ["joined", "playing"].includes(e.status);
    const joining = !e.round;
    return el("tr", { "data-entry": e.id, "data-bracket": e.bracket_id },
      el("td", {}, el("b", {}, bracketLabel(e, b)), el("div", { class: "muted small" }, when(e.started_at))),
      el("td", { class: "num", "data-field": "rank", "data-label": "rank" }, "\u2013"),
      el("td", { class: "num score", "data-field": "score", "data-label": "score" }, joining ? "\u2013" : e.final_score ?? e.score),
      el("td", { "data-field": "outcome" }, joining ? null : [el("span", { class: `badge st-${e.status}` }, statusName(e.status)),
        ...(ratedLine(e) || [])]),
      el("td", { class: "links" },
        game ? el("a", { class: "btn small primary", href: `#/play/${e.id}` }, e.status === "joined" ? "My game" : "Resume") : null,
        el("a", { class: "btn small ghost", href: `#/bracket/${e.bracket_id}`, "data-action": "bracket" }, "Bracket")));
  }

  async function load() {
    let me;
    let entries;
    let seats;
    try {
      [me, entries, seats, rated] = await Promise.all([api.me(), api.myEntries(), matchesByEntry(),
        pointsByTournament(player().id)]);
    } catch (err) {
      page.replaceChildren(el("h1", {}, "My page"), el("p", { class: "error", "data-field": "error" }, explain(err)),
        el("a", { class: "btn primary", href: "#/account" }, "Sign in"));
      return;
    }
    const tournaments = new Map();
    const plain = entries.filter((e) => !seats.has(e.id) && !e.bracket_id); // a match's tournament is read as the match
    const brackets = await bracketsOf(entries);
    await Promise.all([...new Set(plain.map((e) => e.tournament_id))].slice(0, RANKED).map(async (id) => {
      try {
        tournaments.set(id, await api.tournament(id));
      } catch {
        /* left out */
      }
    }));
    const ranks = await Promise.all(entries.map((e, i) => (i < RANKED && !seats.has(e.id) && !e.bracket_id ? rankOf(e) : null)));
    if (!alive) return;
    const clubs = me.clubs.length
      ? el("ul", { class: "clubs", "data-field": "clubs" }, me.clubs.map((c) =>
        el("li", { "data-club": c.id }, el("a", { href: `#/club/${c.id}` }, c.name))))
      : el("p", { class: "muted", "data-field": "clubs" }, "No club yet: an organiser's invite link makes you a member.");
    const ifFinished = (t) => (t?.status === "finished" ? t : null);
    const rows = entries.map((e, i) => resultRow(e, ranks[i], ifFinished(tournaments.get(e.tournament_id)),
      seats.get(e.id), brackets.get(e.bracket_id)));
    fill(page, 
      el("h1", {}, el("span", { "data-field": "name" }, me.name),
        me.handle ? el("small", { class: "muted handle", "data-field": "handle" }, ` @${me.handle}`) : null),
      me.handle ? null : el("p", { class: "muted" }, "A guest on this device. ",
        el("a", { href: "#/account" }, "Make it an account"), " to keep it and play from anywhere."),
      el("h2", {}, "Clubs"), clubs,
      el("h2", {}, "Results"),
      rows.length
        ? el("div", { class: "table-wrap" }, el("table", { class: "standings results", "data-field": "results" },
          el("thead", {}, el("tr", {}, ...["Tournament", "Rank", "Score", "Outcome"].map((h) => el("th", {}, h)),
            el("th", {}, el("span", { class: "sr-only" }, "Links")))),
          el("tbody", {}, rows)))
        : el("p", { class: "muted", "data-field": "results" }, "No entries yet: join a tournament in the ",
          el("a", { href: "#/lobby" }, "lobby"), "."),
      practiceSection(),
      el("p", { class: "row" }, el("a", { class: "btn ghost", href: `#/player/${me.id}`, "data-action": "profile" },
        "My public profile and ratings"), el("a", { class: "btn ghost", href: "#/account" }, "Account and signing out")));
  }

  page.append(el("h1", {}, "My page"), el("p", { class: "muted" }, "Loading\u2026"));
  load();
  return () => {
    alive = false;
  };
}
