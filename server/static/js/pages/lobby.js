// The lobby (#/lobby): who you are (register, or paste a token), your entries, and every
// tournament by status with its game, settings, time limit, entrants, when it opens or closes
// (relatively, "closes in 5 min") and, once finished, its winner; its commitment is on its own page.

import { api, forgetPlayer, player, setPlayer } from "../lib/api.js";
import { accessNote } from "./join.js";
import { teamSelect, teamsNote } from "../lib/teams.js";
import { practiseButton } from "../competitions/practice.js";
import { replayLink } from "../competitions/replay_link.js";
import { signInThenReturn } from "./account.js";
import { certifiedBadge, clock, copyText, countdown, describeSettings, el, explain, notify, showWho, statusName, when } from "../lib/ui.js";
import { timeSpan } from "../lib/time.js";
import { checkCode, checkName } from "../lib/checks.js";
import { cardTime, winnerLine } from "../standings/cards.js";
import { gameTitle, matchesByEntry, matchStatus } from "../matches/common.js";
import { bracketLabel, bracketsOf, bracketStatus } from "../brackets/common.js";
import { tournamentState } from "../lib/state.js";
import { glossary } from "../lib/glossary.js";

const SECTIONS = [
  ["open", "Open now", "Join, then start whenever you are ready."],
  ["running", "Under way", "Started together: entries are closed; follow the leaderboard."],
  ["scheduled", "Upcoming", "Entries open at the time shown; a tournament that starts together takes them until then."],
  ["closing", "Closing", "No new entries: games in progress are finishing."],
  ["finished", "Finished", "Seeds revealed, replays published."],
  ["cancelled", "Cancelled", "Called off by the organiser: nobody ranked; seeds revealed, replays published."],
];

/** The lobby's section of a tournament: a together sitting under way is no longer open to join. */
const sectionOf = (t) => (t.start === "together" && t.status === "open" ? "running" : t.status);

/** What a together tournament's card says of its start. */
function togetherLine(t) {
  if (t.status === "scheduled") return ["Everyone starts together: ", countdown(t.opens_at)];
  if (t.status === "cancelled" && (!t.cancelled_at || new Date(t.cancelled_at) < new Date(t.opens_at))) {
    return [`Was to start together ${when(t.opens_at)}; cancelled before the start`];
  }
  return ["Everyone started together ", timeSpan(t.opens_at)];
}

/** A newcomer's way in: a short unranked game with hints (js/pages/first.js), and the lobby's words explained. */
function firstGameCard() {
  return el("div", { class: "panel first-game-card", "data-panel": "first-game" },
    el("h2", {}, "New to Spider?"),
    el("a", { class: "btn big", href: "#/play/first", "data-action": "first-game" }, "Try a first game"),
    el("p", { class: "muted small" }, "A short, easy deal with hints: no account, no tournament, ranked nowhere."),
    glossary());
}

export function mount(main, focus = null) {
  const page = el("section", { class: "page lobby-page" });
  const you = el("div", { class: "panel you", id: "you" });
  const lists = el("div", { class: "tournaments" });
  // Matches first: something to play at once, with no tournament open (js/matches/play.js).
  const playNow = el("div", { class: "panel play-now-card" },
    el("a", { class: "btn primary big", href: "#/matches", "data-action": "play-now" }, "Play now"),
    el("p", { class: "muted small" }, "A match at once against players of your level: same deal, higher score wins."));
  // A newcomer (no player on this device) finds the first game at the top; a player, under its entries.
  const first = firstGameCard();
  const side = el("div", { class: "lobby-side" }, playNow, you, player() ? first : null);
  page.append(...[el("h1", { class: "sr-only" }, "Lobby"), player() ? null : first, side, lists].filter(Boolean));
  main.append(page);
  let entries = [];
  let tournaments = [];
  let seats = new Map(); // the entries that are seats in matches: entry id -> match
  let brackets = []; // the listed brackets (and the player's clubs' ones)
  let myBrackets = new Map(); // the brackets of the player's entries: bracket id -> bracket
  let alive = true;
  const typed = {}; // entry codes being typed, kept across refreshes
  const teamsChosen = {}; // the team chosen for each team battle, kept across refreshes
  let freshToken = null; // shown until the player says it is kept

  async function refresh() {
    try {
      [tournaments, brackets] = await Promise.all([api.tournaments(), api.brackets().catch(() => [])]);
    } catch (err) {
      lists.replaceChildren(el("p", { class: "error" }, `Could not load the tournaments: ${explain(err)}`));
      return;
    }
    if (player()) {
      try {
        [entries, seats] = await Promise.all([api.myEntries(), matchesByEntry()]);
        myBrackets = await bracketsOf(entries.filter((e) => !brackets.some((b) => b.id === e.bracket_id)));
        for (const b of brackets) myBrackets.set(b.id, b);
      } catch (err) {
        entries = [];
        if (err.status === 401) {
          notify("This device's token is not known to the server: register again.", "error");
          forgetPlayer();
        }
      }
    }
    if (!alive) return;
    drawYou();
    drawLists();
    if (focus === "open") { // #/lobby/open: the open tournaments, once, when they are first shown
      focus = null;
      lists.querySelector("[data-status=open]")?.scrollIntoView({ block: "start" });
    }
  }

  function drawYou() {
    const newToken = freshToken;
    const me = player();
    showWho();
    if (!me) {
      // Kept as it is when it is already there: a refresh must not wipe a name being typed.
      if (you.querySelector("[data-form=register]")) return;
      const name = el("input", { name: "name", maxlength: 40, required: true, placeholder: "Your display name",
        autocomplete: "nickname" });
      const pasted = el("input", { name: "token", placeholder: "Paste your token", autocomplete: "off" });
      you.replaceChildren(
        el("h2", {}, "Play"),
        el("p", { class: "intro" }, "Timed Spider solitaire tournaments: every entrant gets the same deal and the same ",
          "clock. Pick a name to get your player token; no password, no e-mail. Have an account? ",
          el("a", { href: "#/account", "data-action": "sign-in" }, "Sign in"), "."),
        el("form", { class: "stack", "data-form": "register", novalidate: true,
          onsubmit: (e) => { e.preventDefault(); register(name.value); } },
          el("label", {}, "Display name", name),
          el("p", { class: "error", "data-field": "error", role: "alert", hidden: true }),
          el("button", { class: "btn primary", type: "submit" }, "Register")),
        el("details", { class: "have-token" }, el("summary", {}, "I already have a token"),
          el("form", { class: "stack", onsubmit: (e) => { e.preventDefault(); useToken(pasted.value.trim()); } },
            pasted, el("button", { class: "btn", type: "submit" }, "Use this token"))));
      return;
    }
    const parts = [el("h2", {}, "Playing as ", el("span", { "data-field": "player-name" }, me.name),
      me.handle ? el("a", { class: "handle", href: "#/me", "data-field": "player-handle" }, ` @${me.handle}`) : null)];
    if (newToken) {
      const code = el("code", { class: "token", "data-field": "token" }, newToken);
      parts.push(el("div", { class: "token-box", role: "alert" },
        el("p", {}, el("b", {}, "Your token, shown this once. "),
          "It is kept on this device; copy it to play from another one. The server cannot show it again."),
        code,
        el("div", { class: "row" },
          el("button", { class: "btn", "data-action": "copy-token", onclick: async (e) => {
            const ok = await copyText(newToken);
            e.target.textContent = ok ? "Copied" : "Select and copy it";
          } }, "Copy"),
          el("button", { class: "btn ghost", "data-action": "kept", onclick: () => { freshToken = null; drawYou(); } },
            "I have kept it"))));
    }
    parts.push(el("h3", {}, "My entries"));
    if (!entries.length) parts.push(el("p", { class: "muted" }, "None yet: join an open tournament."));
    else parts.push(el("ul", { class: "my-entries" }, entries.map(entryItem)));
    parts.push(el("button", { class: "btn ghost small", onclick: () => {
      if (confirm("Forget this player on this device? Without the token you cannot play its entries.")) {
        forgetPlayer();
        entries = [];
        drawYou();
        drawLists();
      }
    } }, "Forget me on this device"));
    you.replaceChildren(...parts);
  }

  function entryItem(e) {
    const t = tournaments.find((x) => x.id === e.tournament_id);
    const playing = e.status === "joined" || e.status === "playing";
    const label = e.status === "joined" ? "Start" : e.status === "playing" ? "Resume" : "View";
    const m = seats.get(e.id);
    if (m) {
      return el("li", { "data-entry": e.id, "data-match": m.id },
        el("div", {}, el("b", {}, `Match: ${gameTitle(m.settings)}`),
          el("span", { class: `badge st-${m.status}` }, matchStatus(m.status))),
        el("div", { class: "row" },
          playing ? el("a", { class: "btn small primary", href: `#/play/${e.id}`, "data-action": "play" }, label) : null,
          el("a", { class: "btn small ghost", href: `#/match/${m.id}`, "data-action": "match" },
            m.status === "over" ? "Result" : "The match")));
    }
    if (e.bracket_id) {
      // A bracket's: the entry that joined it, or a round's game; both lead to the bracket's page.
      const b = myBrackets.get(e.bracket_id);
      const game = Boolean(e.round) && playing;
      return el("li", { "data-entry": e.id, "data-bracket": e.bracket_id },
        el("div", {}, el("b", {}, bracketLabel(e, b)),
          el("span", { class: `badge st-${e.round ? e.status : b?.status ?? "scheduled"}` },
            e.round ? statusName(e.status) : bracketStatus(b?.status ?? "scheduled"))),
        el("div", { class: "row" },
          game ? el("a", { class: "btn small primary", href: `#/play/${e.id}`, "data-action": "play" },
            e.status === "playing" ? "Resume" : "My game") : null,
          el("a", { class: `btn small${game ? " ghost" : ""}`, href: `#/bracket/${e.bracket_id}`, "data-action": "bracket" },
            "The bracket")));
    }
    return el("li", { "data-entry": e.id },
      el("div", {}, el("b", {}, t ? t.name : `Tournament ${e.tournament_id}`),
        el("span", { class: `badge st-${e.status}` }, statusName(e.status))),
      el("div", { class: "row" },
        el("span", { class: "muted" }, `score ${e.final_score ?? e.score}`),
        el("a", { class: `btn small${playing ? " primary" : ""}`, href: `#/play/${e.id}`, "data-action": "play" }, label),
        el("a", { class: "btn small ghost", href: `#/board/${e.tournament_id}` }, "Leaderboard")));
  }

  async function register(text) {
    const said = you.querySelector("[data-form=register] [data-field=error]");
    const say = (problem) => {
      said.textContent = problem;
      said.hidden = false;
    };
    const problem = checkName(text);
    if (problem) return say(problem);
    try {
      const created = await api.register(text.trim());
      setPlayer({ id: created.id, name: created.name, token: created.token });
      entries = [];
      freshToken = created.token;
      drawYou();
      drawLists();
    } catch (err) {
      say(explain(err));
    }
  }

  async function useToken(token) {
    if (!token) return;
    try {
      const mine = await api.myEntries(token);
      setPlayer({ id: mine[0]?.player_id ?? null, name: mine[0]?.player ?? "you", token });
      entries = mine;
      drawYou();
      drawLists();
    } catch (err) {
      notify(err.status === 401 ? "The server does not know this token: check it, or register a new player." : explain(err), "error");
    }
  }

  async function join(t, code, team) {
    if (t.entry_code_needed && checkCode(code)) return notify(`${t.name}: ${checkCode(code)}`, "error");
    try {
      const entry = await api.join(t.id, code, team);
      await api.myEntries();
      location.hash = `#/play/${entry.id}`;
    } catch (err) {
      notify(explain(err), "error");
      refresh();
    }
  }

  function tournamentCard(t) {
    const mine = entries.find((e) => e.tournament_id === t.id);
    const s = t.settings;
    const actions = [];
    const together = t.start === "together";
    if (!mine && (together ? t.status === "scheduled" : t.status === "open")) {
      const code = t.entry_code_needed ? el("input", { class: "entry-code", "data-field": "entry-code", maxlength: 64,
        placeholder: "entry code", "aria-label": `Entry code of ${t.name}`, autocomplete: "off", value: typed[t.id] || "",
        oninput: (ev) => { typed[t.id] = ev.target.value; } }) : null;
      const team = t.teams && player() && player().handle ? teamSelect(t, teamsChosen) : null;
      // Not able to join yet: a call to act (register, or sign in for a club's or a team battle's),
      // never a greyed-out word.
      if (!player()) {
        actions.push(el("button", { class: "btn primary", type: "button", "data-action": "register-to-join",
          onclick: () => {
            const name = you.querySelector("[data-form=register] input[name=name]");
            name?.scrollIntoView({ block: "center", behavior: "auto" });
            name?.focus();
          } }, "Register to join"));
      } else if ((t.club || t.teams) && !player().handle) {
        actions.push(el("button", { class: "btn primary", type: "button", "data-action": "sign-in-to-join",
          onclick: () => signInThenReturn("#/lobby") }, "Sign in to join"));
      } else {
        actions.push(code, team, el("button", { class: "btn primary", "data-action": "join",
          onclick: () => join(t, code ? code.value.trim() : undefined, team ? team.value : undefined) }, "Join"));
      }
    }
    if (mine) {
      // A together entry waits for everyone's start: its page counts down, nothing to start by hand.
      const waiting = together && t.status === "scheduled" && mine.status === "joined";
      const label = waiting ? "Waiting room" : mine.status === "joined" ? "Start" : mine.status === "playing" ? "Resume"
        : "My game";
      actions.push(el("a", { class: "btn primary", href: `#/play/${mine.id}`, "data-action": "play" }, label));
    }
    if (t.status === "finished") {
      actions.push(el("a", { class: "btn", href: `#/finished/${t.id}`, "data-action": "results" }, "Results & replays"),
        mine && !["joined", "absent"].includes(mine.status) ? replayLink(t.id, mine.id, s.deals, "btn") : null,
        practiseButton(t));
    } else {
      actions.push(el("a", { class: "btn ghost", href: `#/board/${t.id}`, "data-action": "leaderboard" }, "Leaderboard"));
    }
    return el("article", { class: `tournament st-${t.status}`, "data-tournament": t.id },
      el("header", {}, el("h3", {}, t.name), el("span", { class: `badge st-${t.status}` }, tournamentState(t)),
        certifiedBadge(t)),
      el("p", { class: "rules", "data-field": "rules" }, describeSettings(s)),
      accessNote(t),
      teamsNote(t),
      together ? el("p", { class: "together", "data-field": "start" }, ...togetherLine(t)) : null,
      el("dl", { class: "facts" },
        el("div", {}, el("dt", {}, "Time limit"), el("dd", { "data-field": "time-limit" }, clock(s.time_limit))),
        el("div", {}, el("dt", {}, "Entrants"), el("dd", { "data-field": "entrants" }, t.entrants))),
      cardTime(t),
      winnerLine(t),
      el("div", { class: "row actions" }, actions));
  }

  /** A bracket in the lobby: its game, status, entrants and opening; everything is on its page. */
  function bracketCard(b) {
    const joined = entries.some((e) => e.bracket_id === b.id && !e.round);
    const champion = b.status === "finished" && b.champion;
    return el("article", { class: `tournament bracket-card st-${b.status === "running" ? "open" : b.status}`, "data-bracket": b.id },
      el("header", {}, el("h3", {}, b.name), el("span", { class: `badge st-${b.status}` }, bracketStatus(b.status))),
      el("p", { class: "rules", "data-field": "rules" }, "Knockout \u00b7 ", describeSettings(b.settings)),
      accessNote(b),
      el("dl", { class: "facts" },
        el("div", {}, el("dt", {}, "Time limit"), el("dd", {}, clock(b.settings.time_limit))),
        el("div", {}, el("dt", {}, "Entrants"), el("dd", { "data-field": "entrants" }, b.entrants))),
      b.status === "scheduled" ? el("p", { class: "together", "data-field": "start" }, "Round 1 for everyone: ",
        countdown(b.opens_at)) : null,
      champion ? el("p", { class: "winner", "data-field": "champion" }, "Champion: ", el("b", {}, champion.player)) : null,
      el("div", { class: "row actions" },
        el("a", { class: `btn${b.status === "scheduled" && !joined || b.status === "running" ? " primary" : ""}`,
          href: `#/bracket/${b.id}`, "data-action": "bracket" },
        b.status === "scheduled" ? (joined ? "You are in: the bracket" : "Join") : b.status === "running" ? "Follow the bracket"
          : "The bracket")));
  }

  function drawLists() {
    const parts = [];
    const shownBrackets = brackets.filter((b) => b.status !== "cancelled").slice(0, 12);
    if (shownBrackets.length) {
      parts.push(el("section", { class: "tournament-list list-brackets", "data-status": "brackets" },
        el("h2", {}, "Knockout brackets", el("small", { class: "muted" }, " Rounds of head-to-head games to one champion.")),
        el("div", { class: "grid" }, shownBrackets.map(bracketCard))));
    }
    for (const [status, heading, hint] of SECTIONS) {
      const list = tournaments.filter((t) => sectionOf(t) === status);
      if (!list.length && status !== "open") continue;
      parts.push(el("section", { class: `tournament-list list-${status}`, "data-status": status },
        el("h2", {}, heading, el("small", { class: "muted" }, ` ${hint}`)),
        list.length ? el("div", { class: "grid" }, list.map(tournamentCard))
          : el("p", { class: "muted" }, "No tournament is open right now.")));
    }
    lists.replaceChildren(...parts);
  }

  drawYou();
  refresh();
  const timer = setInterval(refresh, 15000);
  return () => {
    alive = false;
    clearInterval(timer);
  };
}
