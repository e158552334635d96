// A player's public profile (#/player/<id>): name, @handle, the rating of every game it was rated
// in (the number shown, "provisional" while few games are rated, and the games rated), a small
// graph of each game's rating over its rated games, and its latest results with each one's change,
// each linked to the tournament's final standings.

import { api, player } from "../lib/api.js";
import { el, explain, fill, VARIANT_NAMES, when } from "../lib/ui.js";
import { ratingGraph } from "./rating_graph.js";
import { changeMark, provisionalMark, ratingNumber } from "./rating_words.js";

/** "spider78/2" as "Spider 78, 2 suits". */
export function gameName(game) {
  const [variant, suits] = game.split("/");
  return `${VARIANT_NAMES[variant] || variant}, ${suits} suit${suits === "1" ? "" : "s"}`;
}

export function mount(main, id) {
  const page = el("section", { class: "page narrow-page profile-page", "data-player": id });
  main.append(page);
  let alive = true;

  function ratingsTable(ratings) {
    const games = Object.keys(ratings).sort();
    if (!games.length) return el("p", { class: "muted", "data-field": "ratings" }, "Not rated yet: ratings come from finished rated tournaments.");
    return el("div", { class: "table-wrap" }, el("table", { class: "standings ratings", "data-field": "ratings" },
      el("thead", {}, el("tr", {}, el("th", {}, "Game"), el("th", { class: "num" }, "Rating"), el("th", { class: "num" }, "Games"))),
      el("tbody", {}, games.map((g) => el("tr", { "data-game": g },
        el("td", {}, gameName(g)),
        el("td", { class: "num score", "data-field": "rating" }, ratingNumber(ratings[g].rating),
          ratings[g].provisional ? [" ", provisionalMark()] : null),
        el("td", { class: "num", "data-field": "games" }, ratings[g].games))))));
  }

  function resultsTable(recent) {
    if (!recent.length) return el("p", { class: "muted", "data-field": "recent" }, "No finished tournament yet.");
    return el("div", { class: "table-wrap" }, el("table", { class: "standings results", "data-field": "recent" },
      el("thead", {}, el("tr", {}, ...["Tournament", "Rank", "Score", "Rating"].map((h) => el("th", {}, h)))),
      el("tbody", {}, recent.map((r) => el("tr", { "data-tournament": r.tournament_id },
        el("td", {}, el("a", { href: r.match_id ? `#/match/${r.match_id}`
          : r.bracket_id ? `#/bracket/${r.bracket_id}` : `#/finished/${r.tournament_id}` }, r.tournament),
          el("div", { class: "muted small" }, `${gameName(r.game)} \u00b7 ${when(r.finished_at)}`)),
        el("td", { class: "num", "data-field": "rank", "data-label": "rank" }, `${r.rank}/${r.entrants}`),
        el("td", { class: "num score", "data-field": "score", "data-label": "score" }, r.final_score),
        el("td", { class: "num", "data-field": "rating", "data-label": "rating" }, r.shown === null || r.shown === undefined
          ? "unrated" : [ratingNumber(r.shown), " ", changeMark(r.change)]))))));
  }

  /** A small graph per game of the rating over its rated games; nothing when none is readable. */
  async function graphs(box) {
    try {
      const { history } = await api.ratingHistory(id);
      const games = Object.keys(history).sort().filter((g) => history[g].length);
      if (!alive || !games.length) return;
      box.replaceChildren(...games.map((g) => ratingGraph(g, history[g], `${gameName(g)} rating`)));
    } catch {
      /* the table above says the ratings */
    }
  }

  /** On the player's own profile: who may read it, and a button to change that. */
  function visibility(profile) {
    const line = el("p", { class: "muted", "data-field": "visibility" });
    const show = (open) => line.replaceChildren(
      open ? "Your public profile. " : "Your profile is private: only you and your clubs see it. ",
      el("button", { class: "btn small ghost", type: "button", "data-action": "profile-visibility", onclick: async () => {
        try {
          show((await api.showProfile(!open)).public);
        } catch (err) {
          line.append(el("span", { class: "error" }, ` ${explain(err)}`));
        }
      } }, open ? "Make it private" : "Make it public"),
      " ", el("a", { href: "#/me" }, "My page"));
    show(profile.public);
    return line;
  }

  async function load() {
    let profile;
    try {
      profile = await api.profile(id);
    } catch (err) {
      if (alive) fill(page, el("h1", {}, "Player"), el("p", { class: "error", "data-field": "error" }, explain(err)));
      return;
    }
    if (!alive) return;
    document.title = `${profile.name} \u2013 spidertour`;
    const me = player();
    const progress = el("div", { class: "rating-graphs", "data-field": "rating-graphs" });
    fill(page,
      el("h1", {}, el("span", { "data-field": "name" }, profile.name),
        profile.handle ? el("small", { class: "muted handle", "data-field": "handle" }, ` @${profile.handle}`) : null),
      me && me.id === profile.id ? visibility(profile) : null,
      el("h2", {}, "Ratings"), ratingsTable(profile.ratings), progress,
      el("p", { class: "muted small" }, "A new player starts at 1,000; the rating rises as results confirm it. ",
        "It is provisional until 5 rated games in that game."),
      el("h2", {}, "Latest results"), resultsTable(profile.recent));
    graphs(progress);
  }

  page.append(el("h1", {}, "Player"), el("p", { class: "muted" }, "Loading\u2026"));
  load();
  return () => {
    alive = false;
  };
}
