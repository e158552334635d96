// The podium of a finished tournament: its first three places, each with its medal, player, score,
// time left and share of the par, above the standings. An entry that never played stands on none.
// The three cards are of one width, their places on one line; a long name is cut short ("…"),
// whole in its title, and leads to the player's profile.

import { clock, el, number, ordinal } from "../lib/ui.js";
import { playerName } from "./names.js";

/** A score as a share of the par ("87% of par"), or "" when there is no par score to compare with. */
export function ofPar(score, par) {
  const pct = percentOfPar(score, par);
  return pct === null ? "" : `${pct}% of par`;
}

/** Whether scores can be shown as a share of this par: a won line that fits the time limit. A line cut
 * at the limit reaches a score without the win's bonus, and a share of it (300%, say) would mislead:
 * the par's panel says what that line reaches instead. */
export function sharesPar(par) {
  return !!par && par.outcome === "won" && par.final_score > 0 && par.in_time !== false;
}

/** The share of the par in whole percent, or null. */
function percentOfPar(score, par) {
  if (!sharesPar(par) || score === null || score === undefined) return null;
  return Math.round((100 * score) / par.final_score);
}

/** The share of the par in a table cell: "87%", its words " of par" left out where the column is narrow. */
export function ofParCell(score, par) {
  const pct = percentOfPar(score, par);
  return pct === null ? "" : [`${pct}%`, el("span", { class: "par-words" }, " of par")];
}

/** The podium of `standings` (in rank order), `par` the tournament's (null: no share shown). */
export function podium(standings, par, byPoints = false) {
  const first = standings.filter((s) => s.rank <= 3 && s.status !== "absent");
  if (!first.length) return null;
  return el("ol", { class: "podium", "data-field": "podium", "aria-label": "The podium" },
    first.map((s) => {
      const share = ofPar(s.score, par);
      return el("li", { class: "step", "data-place": s.rank, "data-entry": s.entry_id },
        el("span", { class: "medal", "data-medal": s.rank, "aria-hidden": "true" }),
        el("span", { class: "place", "data-field": "place" }, ordinal(s.rank)),
        el("b", { class: "podium-name", "data-field": "player", title: s.player }, playerName(s)),
        el("span", { class: "score", "data-field": "score" },
          byPoints && s.matchpoints !== undefined ? `${s.matchpoints} mp \u00b7 ${number(s.score)}` : number(s.score)),
        el("span", { class: "muted small", "data-field": "time" },
          s.time_left === null || s.time_left === undefined ? "" : `${clock(s.time_left)} left`),
        share ? el("span", { class: "muted small", "data-field": "of-par" }, share) : null);
    }));
}
