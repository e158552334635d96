// A series (#/series/<id>): a season or a league. Its table (worked out by the server from the
// final standings of its finished tournaments), the points rule in words, its tournaments with
// links, and the table as CSV.

import { adminToken, api, player } from "../lib/api.js";
import { el, explain, fill, ordinal, when } from "../lib/ui.js";
import { tournamentState } from "../lib/state.js";
import { playerName } from "../standings/names.js";

/** The points rule and best-of, in words. */
export function ruleText(series) {
  const points = series.points === "field"
    ? "Points by the size of the field: in each finished tournament the last ranked entrant scores 1 point, " +
      "the one above 2, and so on up to the winner, who scores as many points as there were ranked entrants."
    : `Points by place: ${series.points.map((p, i) => `${ordinal(i + 1)} ${p}`).join(", ")}; ` +
      `${series.points.length === 1 ? "every other place" : "places below"} score 0.`;
  const best = series.best_of === null
    ? "Every result counts."
    : `Only each player's best ${series.best_of} result${series.best_of === 1 ? "" : "s"} count${series.best_of === 1 ? "s" : ""}.`;
  return `${points} ${best} A disqualified entry scores 0; a cancelled tournament counts for nothing; a tournament ` +
    "still running counts once it is finished. Ties: the better best rank, then more tournaments played.";
}

/** Each row's place: equal points share the first of their places, marked "=" ("=2", "=2", "4"). */
function places(rows) {
  const out = [];
  rows.forEach((r, i) => {
    const first = i > 0 && rows[i - 1].points === r.points ? out[i - 1].first : i + 1;
    out.push({ first, tied: (i > 0 && rows[i - 1].points === r.points) || rows[i + 1]?.points === r.points });
  });
  return out;
}

function standingsTable(rows) {
  const place = places(rows);
  const body = rows.map((r, i) => el("tr", { "data-player": r.player_id, "data-tie": place[i].tied ? "" : null },
    el("td", { class: "num", "data-field": "position", title: place[i].tied ? "equal points" : null },
      `${place[i].tied ? "=" : ""}${place[i].first}`),
    el("td", { "data-field": "player" },
      playerName(r), r.handle ? el("span", { class: "muted" }, ` @${r.handle}`) : null),
    el("td", { class: "num score", "data-field": "points" }, r.points),
    el("td", { class: "num opt", "data-field": "counted" }, r.counted),
    el("td", { class: "num", "data-field": "played" }, r.played),
    el("td", { class: "num", "data-field": "best-rank" }, r.best_rank === null ? "–" : r.best_rank)));
  return el("div", { class: "table-wrap" }, el("table", { class: "standings series-standings row-cards", "data-field": "standings" },
    el("thead", {}, el("tr", {}, el("th", { class: "num" }, "#"), el("th", {}, "Player"), el("th", { class: "num" }, "Points"),
      el("th", { class: "num opt" }, "Counted"), el("th", { class: "num" }, "Played"), el("th", { class: "num", title: "Best rank" }, "Best"))),
    el("tbody", {}, body.length ? body : el("tr", {}, el("td", { colspan: 6 }, "No finished tournament yet.")))));
}

function tournamentList(tours) {
  if (!tours.length) return el("p", { class: "muted", "data-field": "tournaments" }, "No tournament in this series yet.");
  return el("ul", { class: "series-tournaments", "data-field": "tournaments" }, tours.map((t) => {
    const href = t.status === "finished" || t.status === "cancelled" ? `#/finished/${t.id}` : `#/board/${t.id}`;
    // Its state and the time that goes with it: when it opens, closes, finished or was cancelled.
    const [label, iso] = t.status === "scheduled" ? ["opens", t.opens_at]
      : t.status === "open" ? [t.start === "together" ? "ends" : "closes", t.closes_at]
      : t.status === "closing" ? ["closed", t.closes_at]
      : t.status === "cancelled" ? ["cancelled", t.cancelled_at || t.finished_at]
      : ["finished", t.finished_at];
    return el("li", { "data-tournament": t.id }, el("a", { href }, t.name),
      el("span", { class: "muted", "data-field": "when" },
        label === tournamentState(t) ? "" : ` · ${tournamentState(t)}`, iso ? ` · ${label} ${when(iso)}` : ""));
  }));
}

/** The caller's token, so that its organisers and its club's members see the series' unlisted tournaments. */
function caller() {
  const tok = adminToken() || (player() || {}).token;
  return tok ? { authorization: `Bearer ${tok}` } : {};
}

export function mount(main, idText) {
  const id = Number(idText);
  const page = el("section", { class: "page narrow-page series-page", "data-series": id });
  main.append(page);
  page.append(el("h1", {}, "Series"));
  (async () => {
    let series;
    let rows;
    try {
      [series, rows] = await Promise.all([
        fetch(`/api/series/${id}`, { headers: caller() }).then(answer), fetch(`/api/series/${id}/standings`).then(answer)]);
    } catch (err) {
      fill(page, el("h1", {}, "Series"), el("p", { class: "error", "data-field": "error" }, explain(err)));
      return;
    }
    document.title = `${series.name} · spidertour`;
    const tours = (await Promise.all(series.tournaments.slice(-100).map((t) => api.tournament(t).catch(() => null))))
      .filter(Boolean);
    const by = [series.club ? `${series.club.name}'s tournaments` : null,
      `run by ${series.organiser ? series.organiser.name : "the owner"}`].filter(Boolean).join(" · ");
    fill(page,
      el("h1", {}, el("span", { "data-field": "series-name" }, series.name)),
      el("p", { class: "muted" }, by),
      el("p", { class: "series-rule", "data-field": "rule" }, ruleText(series)),
      el("h2", {}, "Standings"),
      standingsTable(rows),
      el("p", { class: "row" }, el("a", { class: "btn", href: `/api/series/${id}/standings.csv`,
        download: `series-${id}-standings.csv`, "data-action": "series-csv" }, "Download the standings (CSV)")),
      el("h2", {}, "Tournaments"),
      tournamentList(tours));
  })();
  return null;
}

async function answer(response) {
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw { status: response.status, detail: body.detail || `${response.status} ${response.statusText}` };
  return body;
}
