// Joining by a shared link: a tournament (#/join/<id>/<entry code>, the code pre-filled; a club's
// tournament says whose members may join), and a club by its invite (#/club/<id>/join/<invite>).

import { api, player, setPlayer } from "../lib/api.js";
import { signInThenReturn } from "./account.js";
import { VARIANT_NAMES, certifiedBadge, dealsNote, describeSettings, el, explain, notify, showWho, fill } from "../lib/ui.js";
import { timeSpan } from "../lib/time.js";
import { checkCode, checkName } from "../lib/checks.js";
import { commitmentLine } from "../standings/cards.js";
import { teamSelect, teamsNote } from "../lib/teams.js";
import { tournamentState } from "../lib/state.js";
import { glossary } from "../lib/glossary.js";

const decode = (text) => {
  try {
    return decodeURIComponent(text || "");
  } catch {
    return text || "";
  }
};

/** Who may join: "members of <club> only", "with an entry code", both, or null for anyone. */
export function accessNote(t) {
  if (!t.club && !t.entry_code_needed) return null;
  const parts = [];
  if (t.club) parts.push(`members of ${t.club.name} only`);
  if (t.entry_code_needed) parts.push(t.club ? "with the entry code" : "with an entry code");
  const text = parts.join(", ");
  return el("p", { class: "access", "data-field": "access" }, text[0].toUpperCase() + text.slice(1));
}

/** A game's clock in words: "10 minutes", "90 seconds", "1 h 30 min". */
function timeLimitWords(seconds) {
  const s = Math.round(Number(seconds) || 0);
  if (s % 60) return s < 60 ? `${s} seconds` : `${Math.floor(s / 60)} min ${s % 60} s`;
  const m = s / 60;
  if (m < 60) return m === 1 ? "1 minute" : `${m} minutes`;
  return m % 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m / 60} h`;
}

/** What a shared link leads to, in plain words: the game, its clock, when it opens or closes, how
 * many entered, who runs it, whether it is certified and rated, and its board one tap away. */
export function aboutTournament(t) {
  const s = t.settings;
  const game = `${VARIANT_NAMES[s.variant] || s.variant}, ${s.suits} suit${s.suits === 1 ? "" : "s"}`;
  const together = t.start === "together";
  const times = t.status === "scheduled"
    ? [timeSpan(t.opens_at, together ? "everyone starts" : "opens"), "; ", timeSpan(t.closes_at, "closes")]
    : t.status === "open" ? [timeSpan(t.closes_at, "closes")]
    : t.status === "closing" ? [timeSpan(t.closes_at, "closed")]
    : t.status === "finished" ? [timeSpan(t.finished_at || t.closes_at, "finished")]
    : [timeSpan(t.cancelled_at || t.closes_at, "cancelled")];
  const n = Number(t.entrants) || 0;
  const rated = t.rated === false
    ? "Unrated: playing it leaves your rating as it is."
    : `Rated: the finish updates the ratings of ${game}.`;
  return el("div", { class: "panel about-tournament", "data-panel": "about" },
    el("p", { class: "about-what", "data-field": "what" },
      `A ${together ? "tournament where everyone starts together" : "tournament"} of ${game}, `,
      `${timeLimitWords(s.time_limit)} on the clock: everyone gets the same deal.`),
    el("p", { "data-field": "when" }, "It ", ...times, "."),
    el("p", { "data-field": "entrants" }, n === 0 ? "Nobody has entered yet." : n === 1 ? "1 player has entered."
      : `${n} players have entered.`),
    el("p", { "data-field": "organiser" }, "Run by ", el("b", {}, t.organiser ? t.organiser.name : "this server's owner"),
      t.club ? ` for ${t.club.name}` : "", "."),
    el("p", { "data-field": "rated" }, rated, " ", certifiedBadge(t)),
    el("p", { class: "row" }, el("a", { class: "btn", href: `#/board/${t.id}`, "data-action": "leaderboard" },
      t.status === "finished" ? "Results" : "The leaderboard")));
}

/** A guest, told where it lives and how to keep it: the account page makes it an account. */
export function guestNote(me) {
  return el("div", { class: "panel guest-note", "data-panel": "guest-note" },
    el("p", {}, "You play as ", el("b", {}, me.name), ", a guest: it lives on this device only. Another phone, or this ",
      "browser cleared, cannot play its games."),
    el("p", { class: "row" }, el("a", { class: "btn", href: "#/account", "data-action": "make-account" },
      "Make it an account"), el("span", { class: "muted small" }, "A handle and a password; your entries stay yours.")));
}

function signInFirst(why) {
  const back = location.hash;
  return el("div", { class: "panel", "data-panel": "sign-in-first" }, el("p", {}, why),
    el("p", { class: "row" }, el("button", { class: "btn primary", type: "button", "data-action": "sign-in",
      onclick: () => signInThenReturn(back) }, "Sign in or make an account")));
}

export function mount(main, tidText, codeText) {
  const tid = Number(tidText);
  const page = el("section", { class: "page narrow-page join-page" });
  const error = el("p", { class: "error", "data-field": "error", role: "alert", hidden: true });
  main.append(page);

  function fail(err) {
    error.textContent = typeof err === "string" ? err : explain(err);
    error.hidden = false;
    error.scrollIntoView({ block: "nearest" });
  }

  let codeNeeded = false;
  async function join(code, team) {
    error.hidden = true;
    if (codeNeeded && checkCode(code)) return fail(checkCode(code));
    try {
      const entry = await api.join(tid, code, team);
      await api.myEntries();
      location.hash = `#/play/${entry.id}`;
    } catch (err) {
      if (err.status === 409) {
        const mine = (await api.myEntries().catch(() => [])).find((e) => e.tournament_id === tid);
        if (mine) {
          location.hash = `#/play/${mine.id}`;
          return;
        }
      }
      fail(err);
    }
  }

  function guestForm(t, code) {
    const name = el("input", { name: "name", "data-field": "name", required: true, maxlength: 40, autocomplete: "nickname" });
    const form = el("form", { class: "panel stack", "data-form": "guest", novalidate: true },
      el("label", {}, "Or play as a guest: your display name", name),
      el("p", { class: "muted small", "data-field": "guest-note" }, "A guest lives on this device only: another ",
        "phone or a cleared browser cannot play its games. You can make it an account later, on the Account page."),
      el("button", { class: "btn", type: "submit" }, "Register and join"));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      error.hidden = true;
      const problem = checkName(name.value) || (codeNeeded ? checkCode(code()) : null);
      if (problem) return fail(problem);
      try {
        const made = await api.register(name.value.trim());
        setPlayer({ id: made.id, name: made.name, handle: null, token: made.token });
        showWho();
        notify(`You play as ${made.name}, a guest on this device only: make it an account (Account, at the top) to keep it.`,
          "info", 12000);
        await join(code());
      } catch (err) {
        fail(err);
      }
    });
    return t.club || t.teams ? null : form;
  }

  async function load() {
    let t;
    try {
      t = await api.tournament(tid);
    } catch (err) {
      page.replaceChildren(el("h1", {}, "Join"), el("p", { class: "error" }, explain(err)));
      return;
    }
    const open = t.start === "together" ? t.status === "scheduled" : t.status === "open";
    codeNeeded = Boolean(t.entry_code_needed);
    const code = el("input", { name: "entry_code", "data-field": "entry-code", maxlength: 64, autocapitalize: "none",
      spellcheck: "false", autocomplete: "off", value: decode(codeText) });
    const me = player();
    document.title = `Join: ${t.name} \u00b7 spidertour`;
    const parts = [el("h1", {}, t.name),
      aboutTournament(t),
      el("p", { class: "rules muted" }, describeSettings(t.settings)),
      commitmentLine(t),
      glossary(),
      dealsNote(t.settings),
      accessNote(t), teamsNote(t), error];
    if (!open) {
      parts.push(el("p", { class: "panel", "data-field": "closed" }, `Entries are not open (${tournamentState(t)}). `,
        ...(t.status === "scheduled" ? ["They open at the time above: come back then."]
          : ["Follow it on its ", el("a", { href: `#/board/${t.id}` }, "leaderboard"), "."])));
    } else if (!me || ((t.club || t.teams) && !me.handle)) {
      parts.push(signInFirst(t.club ? `Sign in with your account to join: ${t.club.name}'s members only.`
        : t.teams ? "Sign in with your account to join: each player plays for one of its clubs."
        : "Sign in to join with your account."));
      if (!me) parts.push(guestForm(t, () => code.value.trim()));
      if (t.entry_code_needed) parts.push(el("label", { class: "field" }, el("span", {}, "Entry code"), code));
    } else {
      if (!me.handle) parts.push(guestNote(me));
      const team = t.teams ? teamSelect(t) : null;
      const form = el("form", { class: "panel stack", "data-form": "join", novalidate: true },
        t.entry_code_needed ? el("label", {}, "Entry code", code) : null,
        team ? el("label", {}, "Your team", team) : null,
        el("button", { class: "btn primary", type: "submit", "data-action": "join" }, `Join as ${me.handle ? `@${me.handle}` : me.name}`));
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        join(t.entry_code_needed ? code.value.trim() : undefined, team ? team.value : undefined);
      });
      parts.push(form);
    }
    fill(page, ...parts);
  }

  page.append(el("h1", {}, "Join"));
  load();
}

/** #/club/<id>/join/<invite>: an account becomes a member of the club. */
/** Is the signed-in player a member of this club already? (false when the server cannot say) */
async function isMember(clubId) {
  try {
    return (await api.me()).clubs.some((c) => c.id === clubId);
  } catch {
    return false;
  }
}

export function mountClub(main, clubText, inviteText) {
  const clubId = Number(clubText);
  const invite = decode(inviteText);
  const page = el("section", { class: "page narrow-page join-page" });
  const error = el("p", { class: "error", "data-field": "error", role: "alert", hidden: true });
  main.append(page);

  async function load() {
    let club;
    try {
      club = await api.club(clubId);
    } catch (err) {
      page.replaceChildren(el("h1", {}, "Join a club"), el("p", { class: "error" }, explain(err)));
      return;
    }
    const me = player();
    const parts = [el("h1", {}, "Join ", el("span", { "data-field": "club-name" }, club.name)),
      el("p", { class: "muted" }, `${club.members} member${club.members === 1 ? "" : "s"}; organised by `,
        club.organisers.map((o) => o.name).join(", ") || "the owner", "."), error];
    if (!me || !me.handle) {
      parts.push(signInFirst(me ? "Clubs are for accounts: make this guest an account (it keeps its entries), then join."
        : "Sign in first: clubs are for accounts."));
    } else if (await isMember(clubId)) {
      parts.push(el("div", { class: "panel", "data-field": "already" },
        el("p", {}, `@${me.handle} is a member of ${club.name} already.`),
        el("a", { class: "btn", href: "#/me" }, "My page: clubs and results")));
    } else {
      parts.push(el("div", { class: "panel" }, el("p", {}, `Join as @${me.handle}?`),
        el("button", { class: "btn primary", type: "button", "data-action": "join-club", onclick: async () => {
          error.hidden = true;
          try {
            await api.joinClub(clubId, invite);
            notify(`You are a member of ${club.name}`, "ok");
            location.hash = "#/me";
          } catch (err) {
            error.textContent = explain(err);
            error.hidden = false;
          }
        } }, `Join ${club.name}`)));
    }
    fill(page, ...parts);
  }

  page.append(el("h1", {}, "Join a club"));
  load();
}
