// A class's progress (#/club/<id>/progress), for its organisers: per pupil the games played, the best
// and last score in each game, the rating and its change over 30 days, and when last seen; sorted by
// a tap on a column's heading; as CSV too. On a phone each pupil is a card, not a wide table.

import { api } from "../lib/api.js";
import { relative } from "../lib/time.js";
import { VARIANT_NAMES, downloadCsv, el, explain, fill, number } from "../lib/ui.js";
import { clubMenu } from "./access.js";
import { changeText, provisionalMark, ratingNumber } from "../competitions/rating_words.js";

/** "spider78/2" as "Spider 78, 2 suits". */
export function gameName(game) {
  const [variant, suits] = String(game).split("/");
  const named = VARIANT_NAMES[variant] || variant.replace(/_/g, " ");
  return suits ? `${named}, ${suits} suit${suits === "1" ? "" : "s"}` : named;
}

/** The rating as shown ("1,240"), marked provisional while it is. */
const rating = (g) => (g.shown === null || g.shown === undefined ? "not rated yet"
  : [ratingNumber(g.shown), ...(g.provisional ? [" ", provisionalMark()] : [])]);
/** The change over 30 days with its sign; "new" for a game never rated. */
function change(g) {
  if (g.shown === null || g.shown === undefined || g.shown_change === null || g.shown_change === undefined) return "new";
  return changeText(g.shown_change);
}
const seen = (iso) => {
  if (!iso) return "never";
  const rel = relative(iso);
  return rel === "now" ? "just now" : rel;
};

const best = (m) => Math.max(-Infinity, ...m.games.map((g) => g.best));
const topRating = (m) => Math.max(-Infinity, ...m.games.map((g) => g.rating ?? -Infinity));
const KEYS = {
  name: (m) => m.name.toLowerCase(),
  played: (m) => m.played,
  best,
  rating: topRating,
  seen: (m) => (m.last_seen ? new Date(m.last_seen).getTime() : -Infinity),
};

/** A pupil's rows: one a game (several: each named), or one saying it has played none. */
function pupilRows(m, several) {
  const name = (rows) => el("td", { class: "pupil", "data-label": "", rowspan: rows },
    el("b", { "data-field": "name" }, m.name), m.handle ? el("span", { class: "muted handle-tag" }, ` @${m.handle}`) : null);
  const lastSeen = (rows) => el("td", { "data-label": "Last seen", "data-field": "last-seen", rowspan: rows }, seen(m.last_seen));
  if (!m.games.length) {
    return [el("tr", { "data-member": m.player_id }, name(1),
      el("td", { class: "none", colspan: several ? 6 : 5, "data-field": "no-games" }, "No games yet"), lastSeen(1))];
  }
  return m.games.map((g, i) => el("tr", { "data-member": m.player_id, "data-game": g.game, class: i ? "more" : null },
    i === 0 ? name(m.games.length) : null,
    several ? el("td", { "data-label": "", class: "game", "data-field": "game" }, gameName(g.game)) : null,
    el("td", { class: "num", "data-label": "Games", "data-field": "played" }, number(g.played)),
    el("td", { class: "num", "data-label": "Best", "data-field": "best" }, number(g.best)),
    el("td", { class: "num", "data-label": "Last", "data-field": "last" }, number(g.last)),
    el("td", { class: "num", "data-label": "Rating", "data-field": "rating" }, rating(g)),
    el("td", { class: `num change${g.shown_change > 0 ? " up" : g.shown_change < 0 ? " down" : ""}`,
      "data-label": "30 days", "data-field": "rating-change" }, change(g)),
    i === 0 ? lastSeen(m.games.length) : null));
}

function progressTable(members, several) {
  let by = "name";
  let down = false;
  const body = el("div", { class: "table-wrap" });
  const head = (key, label, cls = null) => el("th", { class: cls, "aria-sort": "none" },
    key ? el("button", { type: "button", class: "sort", "data-sort": key, onclick: () => {
      down = by === key ? !down : key !== "name";
      by = key;
      draw();
    } }, label) : label);
  function draw() {
    const key = KEYS[by];
    const sorted = [...members].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return (x < y ? -1 : x > y ? 1 : 0) * (down ? -1 : 1) || a.name.localeCompare(b.name);
    });
    const heads = [head("name", "Pupil"), several ? head(null, "Game") : null, head("played", "Games", "num"),
      head("best", "Best", "num"), head(null, "Last", "num"), head("rating", "Rating", "num"),
      head(null, "30 days", "num"), head("seen", "Last seen")];
    for (const th of heads) {
      const b = th && th.querySelector("button");
      if (b && b.dataset.sort === by) th.setAttribute("aria-sort", down ? "descending" : "ascending");
    }
    fill(body, el("table", { class: "standings progress", "data-field": "progress" },
      el("thead", {}, el("tr", {}, heads)),
      sorted.map((m) => el("tbody", { class: "pupil-rows", "data-member": m.player_id }, pupilRows(m, several)))));
  }
  draw();
  return body;
}

export function progressPage(main, id) {
  const page = el("section", { class: "page club-sub progress-page", "data-club": id });
  const title = el("span", { "data-field": "club-name" }, `Club ${id}`);
  const content = el("div", {}, el("p", { class: "muted" }, "Loading\u2026"));
  main.append(page);
  page.append(el("h1", {}, title, ": progress"), clubMenu(id, "progress"), content);

  async function load() {
    api.club(id).then((c) => { title.textContent = c.name; }, () => {});
    let progress;
    try {
      progress = await api.admin("GET", `/api/clubs/${id}/progress`);
    } catch (err) {
      const words = err.status === 401 || err.status === 403
        ? "The class's progress is for the club's organisers: sign in with your organiser's account."
        : explain(err);
      fill(content, el("p", { class: "error", "data-field": "error" }, words));
      return;
    }
    const members = progress.members;
    const games = new Set(members.flatMap((m) => m.games.map((g) => g.game)));
    const several = games.size > 1;
    const csv = el("button", { class: "btn", type: "button", "data-action": "progress-csv",
      onclick: () => downloadCsv(`/api/clubs/${id}/progress?format=csv`, `club-${id}-progress.csv`) }, "Download CSV");
    if (!members.length) {
      fill(content, el("p", { class: "empty", "data-field": "empty" }, "No pupils yet: import the class on ",
        el("a", { href: `#/club/${id}` }, "the club's page"), ", and their games show here once they play."));
      return;
    }
    fill(content,
      el("p", { class: "row progress-tools" }, csv,
        el("span", { class: "muted" }, several ? "Scores and ratings per game. " : games.size ? `All games: ${gameName([...games][0])}. ` : "",
          "Rating change over the last 30 days.")),
      games.size ? null : el("p", { class: "empty", "data-field": "empty" },
        "No games yet: once your pupils play in a tournament or a match, their games, best scores and ratings show here."),
      progressTable(members, several));
  }

  load();
  return null;
}
