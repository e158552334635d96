// My page's practice games (GET /api/me/practice): each finished tournament's deal played again,
// unranked, with its score and outcome, and the ways back to it (the game, the tournament's results).

import { api } from "../lib/api.js";
import { el, statusName, when } from "../lib/ui.js";

const OPEN = ["joined", "playing"];

function practiceRow(e) {
  const open = OPEN.includes(e.status);
  const score = e.final_score ?? e.score;
  return el("tr", { "data-practice": e.id, "data-tournament": e.tournament_id },
    el("td", {}, el("b", {}, e.tournament), e.deal ? el("div", { class: "small", "data-field": "deal" },
      `deal ${e.deal} of ${e.deals}`) : null,
    el("div", { class: "muted small" }, e.started_at ? when(e.started_at) : "not started")),
    el("td", { class: "num score", "data-field": "score", "data-label": "score" }, score ?? "\u2013"),
    el("td", { "data-field": "outcome" }, el("span", { class: `badge st-${e.status}` }, statusName(e.status))),
    el("td", { class: "links" },
      el("a", { class: `btn small ${open ? "primary" : "ghost"}`, href: `#/play/${e.id}`, "data-action": "practice-game" },
        e.status === "joined" ? "Start" : open ? "Resume" : "Result & analysis"),
      el("a", { class: "btn small ghost", href: `#/finished/${e.tournament_id}`, "data-action": "replay" }, "All results")));
}

/** The section: a heading and the list, filled once the server answers (nothing shown if it cannot). */
export function practiceSection() {
  const body = el("p", { class: "muted", "data-field": "practice" }, "Loading\u2026");
  const section = el("div", { class: "practice-games" }, el("h2", {}, "Practice games"), body);
  api.myPractice().then((games) => {
    body.replaceWith(games.length
      ? el("div", { class: "table-wrap" }, el("table", { class: "standings results", "data-field": "practice" },
        el("thead", {}, el("tr", {}, ...["Practice (unranked)", "Score", "Outcome"].map((h) => el("th", {}, h)),
          el("th", {}, el("span", { class: "sr-only" }, "Links")))),
        el("tbody", {}, games.map(practiceRow))))
      : el("p", { class: "muted", "data-field": "practice" },
        "No practice game yet: a finished tournament's page has \u201cPractise this deal\u201d."));
  }, () => section.remove());
  return section;
}
