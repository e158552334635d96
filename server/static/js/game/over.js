// The result panel at a game's end: the outcome, the place, the score in its parts, a practice game's
// would-be rank and par, several deals' total, and the ways on (next deal, leaderboard, lobby).

import { api, player } from "../lib/api.js";
import { VARIANTS } from "../engine/index.js";
import { countdown, el, fill, ordinal } from "../lib/ui.js";
import { matchLinks } from "../matches/ingame.js";
import { watchMatch } from "../matches/told.js";
import { bracketLinks } from "../brackets/ingame.js";
import { AnalysisLine } from "../competitions/practice.js";
import { resultAnalysisLine } from "../competitions/replay_link.js";
import { pointsByTournament, ratingLine } from "../competitions/rating_words.js";

const RECHECK_MS = 15000; // once the tournament is over, its ratings are looked for this often
const RATING_TRIES = 8; // and this many times (an unrated tournament leaves none)

// The place is asked again every PLACE_SECONDS for the first PLACE_SOON_SECONDS after the game, then
// every PLACE_LATER_SECONDS: a big tournament's finished players left on this panel would otherwise
// each ask every 5 s until it closes.
const PLACE_SECONDS = 5;
const PLACE_SOON_SECONDS = 60;
const PLACE_LATER_SECONDS = 30;
const OUTCOMES = { won: "You won!", ended: "Game ended", timed_out: "Out of time" };
export const OUTCOMES_SHORT = { won: "won", ended: "ended", timed_out: "out of time" };

/** A game dealt all face up (Curds and Whey) has nothing to reveal. */
export const hasReveals = (v) => !VARIANTS[v.variant]?.allUp;

/** What became of the free column's bonus: lost for good once a card went there, won or not. */
export function freeColumnHint(v, o) {
  if (v.free_column === null || v.free_column === undefined) return "no free column in this game";
  if (v.free_column_used) return "lost: the free column was used";
  return o.outcome === "won" ? "won without the free column" : "+100 only for a win without the free column";
}

/**
 * Fill the panel for the over message `o`. `view`: the last view; `state`: the entry's state;
 * `startNext()`: start the next deal; `close()`: hide the panel to see the table; `matchId`: the match
 * of a match's seat (its links instead of the leaderboard's); `bracket`: a bracket's game ({bracket_id, round}).
 */
export function fillOver(panel, o, { view, state, matchId, bracket, startNext, close, onPlace }) {
  const v = view || {};
  const reveals = v.reveals ?? 0;
  const sequences = v.sequences ?? 0;
  const toWin = v.sequences_to_win ?? 1;
  const row = (label, how, part, value) => el("tr", {}, el("td", {}, label), el("td", { class: "muted" }, how),
    el("td", { class: "num", "data-part": part }, value));
  panel.hidden = false;
  panel.dataset.outcome = o.outcome;
  const place = el("p", { class: "place", "data-field": "rank" }, "Your place: \u2026");
  const next = nextDeal(state, startNext);
  const deals = dealsPart(o, state);  // null for a game of one deal: fill() leaves it out (replaceChildren wrote "null")
  fill(panel,
    el("button", { class: "btn ghost close", "data-action": "close-result", "aria-label": "Close", title: "Close (Esc)",
      onclick: close }, "\u00d7"),
    el("h2", { id: "over-title", tabindex: -1 }, OUTCOMES[o.outcome] || "Game over"),
    place,
    el("table", { class: "score-parts" }, el("tbody", {},
      hasReveals(v) ? row("Reveals", `${reveals} \u00d7 25`, "reveals", reveals * 25) : null,
      row("Sequences", `${sequences} \u00d7 100`, "sequences", sequences * 100),
      row("Free-column bonus", freeColumnHint(v, o), "free_column_bonus", o.free_column_bonus),
      row("Time bonus", `${o.time_left} s \u00d7 ${sequences}/${toWin}`, "time_bonus", o.time_bonus),
      el("tr", { class: "total" }, el("td", {}, "Final score"), el("td"),
        el("td", { class: "num", "data-part": "final_score" }, o.final_score)))),
    ...(state?.practice ? practiceLines(o) : []),
    analysisPart(panel, o, state, matchId || bracket),
    ...(deals ? [deals] : []),
    matchId ? matchLinks(matchId, close) : bracket ? bracketLinks(bracket.bracket_id, close) : el("div", { class: "over-links" },
      next,
      state?.practice ? el("a", { class: "btn primary", href: `#/finished/${state.tournament_id}` }, "Results & replays")
        : state ? el("a", { class: next ? "btn" : "btn primary", href: `#/board/${state.tournament_id}` },
          "Leaderboard") : null,
      el("a", { class: "btn", href: "#/lobby" }, "Lobby"),
      el("button", { class: "btn ghost", "data-action": "see-table", onclick: close }, "See the table")));
  if (matchId) {
    const waiting = el("p", { class: "place match-waiting", "data-field": "match-waiting" },
      "Your game is in. The result comes when every seat of the match has played.");
    place.replaceWith(waiting);
    watchMatch(matchId, waiting);
  } else if (bracket) place.replaceWith(el("p", { class: "place match-waiting", "data-field": "bracket-waiting" },
    `Your round ${bracket.round ?? ""} game is in. The winner goes through once both games are over: `,
    "the bracket shows it."));
  else if (state?.practice) place.textContent = "Practice: this game is ranked nowhere.";
  else showPlace(place, state, onPlace);
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

/**
 * Where the win was lost: a practice game's (its tournament is over) drawn here, position by position;
 * a tournament's game of one deal: a link to its replay and analysis, which open once it is over.
 */
function analysisPart(panel, o, s, elsewhere) {
  panel.analysis?.destroy();
  panel.analysis = null;
  if (!s || elsewhere || ((s.deals ?? 1) > 1 && !s.practice)) return null;  // a practice game: one deal
  if (!s.practice) {
    const finished = api.tournament(s.tournament_id).then((t) => t.status === "finished", () => false);
    return resultAnalysisLine(s.tournament_id, s.entry_id, finished);
  }
  panel.analysis = new AnalysisLine(s.tournament_id, s.entry_id, () => {});
  return el("div", { class: "over-analysis" }, el("p", { class: "small" }, el("b", {}, "Where the win was lost")),
    panel.analysis.root);
}

/** Several deals: the total so far, and what comes next (a practice game: which deal it played). */
function dealsPart(o, s) {
  if (!s || (s.deals ?? 1) <= 1) return null;
  if (s.practice) return el("p", { class: "deals-total", "data-field": "practice-deal" }, `Deal ${s.deal} of ${s.deals}.`);
  const total = o.total ?? s.total;
  const last = s.deal >= s.deals;
  return el("p", { class: "deals-total", "data-field": "deals-total" },
    `Deal ${s.deal} of ${s.deals}. Total so far: `, el("b", { "data-field": "total" }, total),
    last ? ": that was the last deal." : ".",
    !last && s.starts_at ? [" ", countdown(s.starts_at, `Deal ${s.deal + 1} starts for everyone in`,
      `Deal ${s.deal + 1} is starting\u2026`)] : null);
}

/** The "Next deal" button, while a deal is left and the player starts it (start "own"). */
function nextDeal(s, startNext) {
  if (!s || s.practice || (s.deals ?? 1) <= 1 || s.deal >= s.deals || s.starts_at) return null;
  const button = el("button", { class: "btn primary", "data-action": "next-deal",
    onclick: () => { button.disabled = true; startNext(); } }, `Next deal (${s.deal + 1} of ${s.deals})`);
  return button;
}

/** The entry's place on the leaderboard, once its final score is in; asked again (PLACE_SECONDS, then PLACE_LATER_SECONDS)
 * while the tournament runs and the panel is shown, and handed to `onPlace(finished, rank, of)`; once
 * the tournament is over, the rating it left ("rating 1,240 (+32)"), looked for while the panel stays open. */
async function showPlace(node, state, onPlace, since = Date.now()) {
  if (!state || !node.isConnected) return;
  let finished = false;
  try {
    const around = await api.around(state.tournament_id, state.entry_id, 0);
    if (!node.isConnected) return; // redrawn, or another page: its own place is asked for there
    const mine = around.rows.find((r) => r.entry_id === state.entry_id);
    if (!mine) throw new Error("not ranked");
    const still = around.status !== "finished" ? " so far: others may still be playing" : "";
    node.replaceChildren("Your place: ", el("b", {}, `${mine.rank}`), ` of ${around.entrants}${still}`);
    node.dataset.rank = mine.rank;
    finished = around.status === "finished";
    onPlace?.(finished, mine.rank, around.entrants);
  } catch {
    node.textContent = "Your place is on the leaderboard.";
  }
  if (!finished) {
    const wait = Date.now() - since < PLACE_SOON_SECONDS * 1000 ? PLACE_SECONDS : PLACE_LATER_SECONDS;
    setTimeout(() => { if (node.isConnected) showPlace(node, state, onPlace, since); }, wait * 1000);
    return;
  }
  showRating(node, state, 0);
}

/** The rating the finished tournament left, once the server has it (asked again every RECHECK_MS a few times). */
async function showRating(node, state, tries) {
  if (!node.isConnected) return;
  const me = player();
  let point = null;
  try {
    point = me ? (await pointsByTournament(me.id)).get(state.tournament_id) : null;
  } catch {
    return; // the server did not answer: the rating is on the profile
  }
  if (point && node.isConnected) {
    node.after(el("p", { class: "place-rating", "data-field": "over-rating" }, "Your ", ratingLine(point)));
  } else if (!point && tries < RATING_TRIES) {
    setTimeout(() => showRating(node, state, tries + 1), RECHECK_MS);
  }
}
