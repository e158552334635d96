// The Play page (#/matches): the formats the server offers, with how many matches wait for players
// or are being played in each; one tap seats the player (a guest is registered first when this
// device has none) and opens the game; and the player's own matches, the newest first.

import { api, player } from "../lib/api.js";
import { el, explain, fill, notify, when } from "../lib/ui.js";
import { askAndPlay, entryOfMatch, gameTitle, matchRules, matchStatus, ratingChange, rememberSeats, seatsText }
  from "./common.js";

const REFRESH_SECONDS = 10;

export function mount(main) {
  const page = el("section", { class: "page play-now-page" });
  const you = el("div", { class: "play-you" });
  const formats = el("div", { class: "formats", "data-field": "formats" }, el("p", { class: "muted" }, "Loading\u2026"));
  const mine = el("section", { class: "my-matches", "data-field": "my-matches" });
  page.append(
    el("header", { class: "page-head" }, el("h1", {}, "Play now")),
    el("p", { class: "intro" }, "Pick a game and play at once. You are seated with players of your level; everyone ",
      "in a match plays the same deal against the same clock, and the higher final score wins. Your opponents ",
      "need not be here now: they may play before or after you, and the result comes when every seat has played."),
    you, formats, mine);
  main.append(page);
  let alive = true;
  let busy = false;
  const name = el("input", { name: "name", "data-field": "guest-name", maxlength: 40, autocomplete: "nickname",
    placeholder: "Your display name (optional)", "aria-label": "Your display name" });

  function drawYou() {
    const me = player();
    if (me) {
      fill(you, el("p", { class: "muted" }, "Playing as ", el("b", { "data-field": "player-name" }, me.handle ? `@${me.handle}` : me.name)));
      return;
    }
    fill(you, el("div", { class: "panel stack guest" },
      el("label", {}, "Play as a guest: a name others will see", name),
      el("p", { class: "muted small" }, "No password, no e-mail: this device keeps your token. Have an account? ",
        el("a", { href: "#/account", "data-action": "sign-in" }, "Sign in"), " first.")));
  }

  async function ask(format, button) {
    if (busy) return;
    busy = true;
    button.disabled = true;
    button.textContent = "Seating\u2026";
    try {
      await askAndPlay(format.name, name.value);
    } catch (err) {
      notify(explain(err), "error", 7000);
      button.disabled = false;
      button.textContent = "Play";
    } finally {
      busy = false;
    }
  }

  function formatCard(f) {
    const button = el("button", { class: "btn primary big", "data-action": "ask", "data-format": f.name,
      onclick: () => ask(f, button) }, "Play");
    return el("article", { class: "format panel", "data-format": f.name },
      el("header", {}, el("h2", {}, gameTitle(f.settings)), el("span", { class: "badge" }, seatsText(f.seats)),
        f.rated === false ? el("span", { class: "badge", "data-field": "unrated" }, "unrated") : null),
      el("p", { class: "rules muted", "data-field": "rules" }, matchRules(f)),
      el("p", { class: "counts", "data-field": "counts" },
        el("span", { "data-field": "waiting", "data-count": f.waiting ?? 0 }, `${f.waiting ?? 0} waiting`),
        " \u00b7 ",
        el("span", { "data-field": "playing", "data-count": f.playing ?? 0 }, `${f.playing ?? 0} playing`)),
      button);
  }

  function matchItem(m) {
    const me = player();
    const seat = (m.players || []).find((p) => me && p.player_id === me.id);
    const entryId = seat?.entry_id ?? entryOfMatch(m.id);
    const unplayed = seat && (seat.status === "joined" || seat.status === "waiting" || seat.status === "playing");
    const over = m.status === "over";
    const others = (m.players || []).filter((p) => p !== seat).map((p) => p.player);
    const shared = seat && m.players.some((p) => p !== seat && p.rank === seat.rank);
    const place = !seat ? "" : shared && seat.rank === 1 ? "draw" : seat.rank === 1 ? "won"
      : `${seat.rank}${shared ? "=" : ""} of ${m.players.length}`;
    const result = over && seat ? [el("b", { "data-field": "rank" }, place), " ", ratingChange(seat)] : null;
    return el("li", { "data-match": m.id, class: `st-${m.status}` },
      el("div", {}, el("b", {}, gameTitle(m.settings)), " ", el("span", { class: `badge st-${m.status}` }, matchStatus(m.status))),
      el("div", { class: "muted small" }, others.length ? `against ${others.join(", ")}` : "no opponent yet",
        m.created_at ? ` \u00b7 ${when(m.created_at)}` : ""),
      el("div", { class: "row" }, result,
        unplayed && entryId ? el("a", { class: "btn primary", href: `#/play/${entryId}`, "data-action": "play" },
          seat.status === "playing" ? "Resume" : "Start") : null,
        el("a", { class: "btn", href: `#/match/${m.id}`, "data-action": "match" }, over ? "Result" : "Follow")));
  }

  async function refresh() {
    let list;
    try {
      list = await api.matchFormats();
    } catch (err) {
      if (alive) fill(formats, el("p", { class: "error" }, `Could not load the games: ${explain(err)}`));
      return;
    }
    if (!alive) return;
    // A refresh while the player is tapping would move the button under the finger: only the counts change.
    if (formats.querySelector("[data-format]") && list.every((f) => formats.querySelector(`[data-format="${f.name}"]`))) {
      for (const f of list) {
        const card = formats.querySelector(`article[data-format="${f.name}"]`);
        card.querySelector("[data-field=counts]").replaceWith(formatCard(f).querySelector("[data-field=counts]"));
      }
    } else {
      fill(formats, list.length ? list.map(formatCard) : el("p", { class: "muted" }, "This server offers no match right now."));
    }
    drawMine();
  }

  async function drawMine() {
    if (!player()) {
      fill(mine);
      return;
    }
    let list;
    try {
      list = await api.myMatches();
    } catch {
      return; // kept as it was: the next refresh tries again
    }
    if (!alive) return;
    rememberSeats(list.flatMap((m) => m.players.filter((p) => p.entry_id && p.player_id === player()?.id)
      .map((p) => [p.entry_id, m.id])));
    fill(mine, el("h2", {}, "My matches"),
      list.length ? el("ul", { class: "match-list" }, list.map(matchItem))
        : el("p", { class: "muted" }, "None yet: pick a game above."));
  }

  drawYou();
  refresh();
  const timer = setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_SECONDS * 1000);
  return () => {
    alive = false;
    clearInterval(timer);
  };
}
