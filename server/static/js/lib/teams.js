// Team battles: the team table (live on the leaderboard, final on the results), a player's team
// next to its name, and the choice of the team (one of the player's clubs) when joining.

import { api, player } from "./api.js";
import { el } from "./ui.js";

/** "Team battle: each team counts its best N scores", or null for a tournament of no teams. */
export function teamsNote(t) {
  if (!t.teams) return null;
  const n = t.teams.top;
  return el("p", { class: "teams-note", "data-field": "teams-note" },
    `Team battle: each club counts its best ${n === 1 ? "score" : `${n} scores`}.`);
}

/** The small tag of a row's team (null when the entry plays for none). */
export function teamTag(team) {
  return team ? el("span", { class: "team-tag", "data-field": "team" }, team.name) : null;
}

/** A panel with the team standings; `update(rows)` redraws it. `isMine(entryId)`: this device's entry? */
export function teamPanel(top, title, isMine = () => false) {
  const body = el("tbody");
  const node = el("section", { class: "teams-panel", "data-panel": "teams" },
    el("h2", {}, title, el("small", { class: "muted" }, ` best ${top} count`)),
    el("div", { class: "table-wrap" }, el("table", { class: "standings teams" },
      el("thead", {}, el("tr", {}, el("th", { class: "num" }, "#"), el("th", {}, "Team"),
        el("th", { class: "num" }, "Score"), el("th", { class: "num" }, "Counted"))), body)));
  function update(rows) {
    body.replaceChildren(...rows.map((r) => el("tr", {
      "data-team": r.team, class: r.counted.some(isMine) ? "mine" : null },
    el("td", { class: "num", "data-field": "rank" }, r.rank),
    el("td", { "data-field": "name" }, r.name),
    el("td", { class: "num score", "data-field": "score" }, r.score),
    el("td", { class: "num", "data-field": "counted" }, r.counted.length))));
    if (!rows.length) body.append(el("tr", {}, el("td", { colspan: 4, class: "muted" }, "No team yet.")));
  }
  update([]);
  return { node, update };
}

let clubsOnce = { token: null, clubs: null };

/** The signed-in player's clubs, asked once per player: [{id, name}] ([] when it cannot say). */
export function myClubs() {
  const token = (player() || {}).token || null;
  if (clubsOnce.token !== token || !clubsOnce.clubs) {
    clubsOnce = { token, clubs: token ? api.me().then((me) => me.clubs || [], () => []) : Promise.resolve([]) };
  }
  return clubsOnce.clubs;
}

/** A select of the player's clubs, for joining a team battle; `chosen` keeps the choice across redraws. */
export function teamSelect(t, chosen = {}) {
  const select = el("select", { class: "team-select", "data-field": "team", "aria-label": `Your team in ${t.name}`,
    onchange: (ev) => { chosen[t.id] = ev.target.value; } },
  el("option", { value: "" }, "your team\u2026"));
  myClubs().then((clubs) => {
    if (!clubs.length) {
      select.replaceChildren(el("option", { value: "" }, "join a club first"));
      select.disabled = true;
      return;
    }
    select.replaceChildren(...clubs.map((c) => el("option", { value: c.id }, c.name)));
    select.value = chosen[t.id] || String(clubs[0].id);
  });
  return select;
}
