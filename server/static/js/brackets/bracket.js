// A knockout bracket (#/bracket/ID): its game, status and commitment; before the opening, who joined
// so far, Join and the countdown to the seeding; then the tree, round by round (columns on a wide
// screen, one round under another on a phone), filled as rounds end: each pairing's two players with
// their seeds, the scores once the round is over, the winner marked, byes said as such, the champion
// at the end. The signed-in player is led to its next game ("Your round 2 game starts in 0:42") or
// told where it went out. The page asks the server again every few seconds, so it fills by itself.
// Once finished: the seed checked here against the commitment, and every game to replay.

import { api, player } from "../lib/api.js";
import { commitment } from "../engine/index.js";
import { gameSuits } from "../lib/prefs.js";
import { clock, countdown, describeSettings, el, explain, fill, notify, number, when } from "../lib/ui.js";
import { timeSpan } from "../lib/time.js";
import { accessNote } from "../pages/join.js";
import { signInThenReturn } from "../pages/account.js";
import { ReplayViewer } from "../pages/finished.js";
import { ensurePlayer } from "../matches/common.js";
import { bracketStatus, myPairing, roundCount, roundName } from "./common.js";

const POLL_SECONDS = 3;
const FINAL = new Set(["finished", "cancelled"]);
const OVER = new Set(["won", "ended", "timed_out", "absent"]);

const scoreText = (p) => (p.final_score === null || p.final_score === undefined ? "" : number(p.final_score));
const breakText = (s) => (s === 0 ? "the next round starts as soon as a round is over"
  : `${clock(s)} between rounds`);

export function mount(main, idText) {
  const id = Number(idText);
  const page = el("section", { class: "page bracket-page", "data-bracket": id });
  const head = el("div", { class: "bracket-head" });
  const you = el("div", { class: "bracket-you" });
  const champion = el("div", { class: "bracket-champion-box" });
  const tree = el("div", { class: "bracket-tree-box" });
  const games = el("div", { class: "bracket-games" });
  const about = el("div", { class: "bracket-about" });
  const fair = el("div", { class: "bracket-fair" });
  page.append(head, you, champion, tree, about, games, fair);
  main.append(page);
  let alive = true;
  let timer = null;
  let viewer = null;
  let code = ""; // an entry code being typed, kept across redraws
  let guestName = "";
  const drawn = {}; // each part's signature as drawn last: a part is drawn again only when it changes

  async function load() {
    let b;
    let entries = [];
    try {
      b = await api.bracket(id);
      if (player() && !FINAL.has(b.status)) entries = await api.myEntries().catch(() => []);
    } catch (err) {
      if (err.status === 404) {
        fill(page, el("h1", {}, "No such bracket"), el("p", {}, el("a", { class: "btn primary", href: "#/lobby" }, "Lobby")));
        return;
      }
      if (!head.childElementCount) fill(head, el("p", { class: "error" }, `Could not load the bracket: ${explain(err)}`));
      schedule();
      return;
    }
    if (!alive) return;
    draw(b, entries.filter((e) => e.bracket_id === id));
    if (!FINAL.has(b.status)) schedule();
  }

  function schedule() {
    clearTimeout(timer);
    if (alive) timer = setTimeout(load, POLL_SECONDS * 1000);
  }

  /** Fill `node` with `make()` when `key` differs from what it shows. */
  function part(name, node, key, make) {
    const sig = JSON.stringify(key);
    if (drawn[name] === sig) return;
    drawn[name] = sig;
    fill(node, make());
  }

  function draw(b, mine) {
    document.title = `${b.name} \u00b7 spidertour`;
    gameSuits(b.settings.suits);
    page.dataset.status = b.status;
    const now = Date.now();
    const started = b.rounds.map((r) => new Date(r.starts_at).getTime() <= now);
    const me = player();
    part("head", head, [b.name, b.status, b.settings, b.club], () => header(b));
    part("about", about, [b.entrants, b.break_seconds, b.size, b.disqualified, b.opens_at, b.status], () => facts(b));
    part("you", you, [b, mine, started, me?.id ?? null, me?.handle ?? null], () => yourPanel(b, mine));
    part("champion", champion, [b.champion, b.status], () => championPanel(b));
    part("tree", tree, [b.rounds, b.size, b.status, me?.id ?? null], () => treePanel(b));
    part("games", games, [b.status], () => (b.status === "finished" || b.status === "cancelled") ? gamesPanel(b) : null);
    part("fair", fair, [b.commitment, b.seed], () => fairness(b));
  }

  function header(b) {
    return [
      el("header", { class: "page-head" }, el("h1", { "data-field": "name" }, b.name),
        el("span", { class: `badge st-${b.status}`, "data-field": "status" }, bracketStatus(b.status))),
      el("p", { class: "rules", "data-field": "rules" }, "Knockout \u00b7 ", describeSettings(b.settings), " \u00b7 ",
        clock(b.settings.time_limit), " a game"),
      accessNote(b),
    ];
  }

  /** The bracket's numbers and how it is played, under the tree. */
  function facts(b) {
    const rounds = roundCount(b);
    return [
      el("dl", { class: "facts bracket-facts" },
        el("div", {}, el("dt", {}, "Entrants"), el("dd", { "data-field": "entrants" }, b.entrants)),
        rounds ? el("div", {}, el("dt", {}, "Rounds"), el("dd", { "data-field": "rounds" }, rounds)) : null,
        el("div", {}, el("dt", {}, b.status === "scheduled" ? "Opens" : "Opened"),
          el("dd", {}, timeSpan(b.opens_at, "", { "data-field": "opens" }))),
        el("div", {}, el("dt", {}, "Rated"), el("dd", { "data-field": "rated" }, b.rated ? "each game" : "no"))),
      el("p", { class: "muted small", "data-field": "how" },
        "Every pairing of a round plays the same deal and starts together: the higher final score goes through ",
        "(then more time left, then the higher seed; a player who does not play scores 0). ",
        `${breakText(b.break_seconds)[0].toUpperCase()}${breakText(b.break_seconds).slice(1)}.`,
        b.organiser ? ` Run by ${b.organiser.name}.` : "", b.club ? ` ${b.club.name}.` : "",
        b.disqualified ? ` ${b.disqualified} disqualified.` : ""),
    ];
  }

  /** Where the signed-in player stands: join, wait for the opening, its next game, or where it went out. */
  function yourPanel(b, mine) {
    const me = player();
    const joined = mine.find((e) => !e.round) || null;
    if (b.status === "scheduled") return joinPanel(b, joined);
    if (b.status === "cancelled") {
      return el("div", { class: "panel", "data-field": "cancelled" }, el("h2", {}, "This bracket was cancelled"),
        el("p", {}, "Fewer than two players joined by the opening, or its organiser called it off: nothing more is played. ",
          "Its seed and the games played so far are published below."));
    }
    const at = myPairing(b, me?.id);
    if (!at) {
      return b.status === "running" ? el("p", { class: "muted", "data-field": "watching" },
        "The bracket is under way: it fills as rounds end.") : null;
    }
    const rounds = roundCount(b);
    const { round, pairing, side } = at;
    const n = round.round;
    if (b.status === "finished") {
      if (b.champion && b.champion.player_id === me.id) {
        return yourBox("champion", "You are the champion!", `You won all ${rounds} rounds.`);
      }
      if (pairing.winner !== null && pairing.winner !== me.id) {
        return yourBox("out", n === rounds ? "You reached the final" : `You were knocked out in round ${n}`,
          n === rounds ? "Runner-up: second place." : `${roundName(n, rounds)}: thanks for playing.`);
      }
      return null;
    }
    if (pairing.winner !== null && pairing.winner !== me.id) {
      return yourBox("out", `You were knocked out in round ${n}`,
        `${roundName(n, rounds)}. The bracket goes on: follow it here to the champion.`);
    }
    if (pairing.winner === me.id) {
      const bye = pairing.players.length === 1;
      return yourBox("through", bye ? `A bye in round ${n}: you go through` : `You won round ${n}!`,
        `Round ${n + 1} starts ${b.break_seconds ? `${clock(b.break_seconds)} after` : "as soon as"} `,
        "the last game of this round is over; its countdown shows here.");
    }
    // A game to play (or being played) in this round.
    const entry = mine.find((e) => e.id === side.entry_id);
    const status = entry ? entry.status : "joined";
    const play = (label) => el("a", { class: "btn primary big", href: `#/play/${side.entry_id}`, "data-action": "play" }, label);
    const opp = at.opponent;
    const against = opp ? [" against ", el("b", {}, opp.player), ` (seed ${opp.seed})`] : [];
    if (OVER.has(status)) {
      return yourBox("waiting", `Your round ${n} game is in`,
        "The round is over when every game of it is; the winners show here then.");
    }
    if (new Date(round.starts_at).getTime() > Date.now()) {
      return el("div", { class: "panel bracket-you-panel next", "data-field": "you", "data-you": "next", "data-round": n },
        el("h2", {}, countdown(round.starts_at, `Your round ${n} game starts in`, `Your round ${n} game is starting\u2026`)),
        el("p", {}, `${roundName(n, rounds)}`, ...against, ". Everyone's game starts at the same moment, on the server, ",
          "whether or not your page is open: be at the table."),
        play("Go to your game"));
    }
    return el("div", { class: "panel bracket-you-panel now", "data-field": "you", "data-you": "playing", "data-round": n },
      el("h2", {}, `Your round ${n} game is on`),
      el("p", {}, `${roundName(n, rounds)}`, ...against, ". Your clock is running."),
      play(status === "playing" ? "Resume your game" : "Play your game"));
  }

  function yourBox(kind, title, ...text) {
    return el("div", { class: `panel bracket-you-panel ${kind}`, "data-field": "you", "data-you": kind },
      el("h2", {}, title), el("p", {}, ...text));
  }

  function joinPanel(b, joined) {
    const opening = el("p", { class: "big-countdown", "data-field": "opening" },
      countdown(b.opens_at, "Seeding and round 1 in", "Seeding\u2026"));
    const count = el("p", { class: "muted", "data-field": "joined-count" },
      b.entrants === 1 ? "1 player in so far." : `${b.entrants} players in so far.`);
    if (joined) {
      return el("div", { class: "panel bracket-you-panel joined", "data-field": "you", "data-you": "joined" },
        el("h2", {}, "You are in"), opening, count,
        el("p", {}, "At the opening the bracket is seeded by rating and round 1 starts for everyone at once. ",
          "Stay on this page: it leads you to your game."));
    }
    const me = player();
    const box = el("div", { class: "panel bracket-join", "data-field": "join" }, el("h2", {}, "Join this bracket"), opening, count);
    const codeField = b.entry_code_needed ? el("label", { class: "field" }, el("span", {}, "Entry code"),
      el("input", { "data-field": "entry-code", maxlength: 64, autocomplete: "off", autocapitalize: "none",
        spellcheck: "false", value: code, oninput: (e) => { code = e.target.value; } })) : null;
    if (b.club && !me?.handle) {
      box.append(el("p", {}, `Members of ${b.club.name} only: sign in with your account to join.`),
        el("button", { class: "btn primary", type: "button", "data-action": "sign-in-to-join",
          onclick: () => signInThenReturn(location.hash) }, "Sign in to join"));
      return box;
    }
    const nameField = !me ? el("label", { class: "field" }, el("span", {}, "Your display name"),
      el("input", { "data-field": "guest-name", maxlength: 40, autocomplete: "nickname", placeholder: "Guest",
        value: guestName, oninput: (e) => { guestName = e.target.value; } })) : null;
    const button = el("button", { class: "btn primary big", type: "submit", "data-action": "join" },
      me ? `Join as ${me.handle ? `@${me.handle}` : me.name}` : "Join as a guest");
    const form = el("form", { class: "stack", "data-form": "join" }, nameField, codeField, button);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      button.disabled = true;
      try {
        await ensurePlayer(guestName);
        await api.joinBracket(id, b.entry_code_needed ? code.trim() : undefined);
        notify("You joined the bracket", "ok");
        drawn.you = null;
        await load();
      } catch (err) {
        notify(explain(err), "error", 7000);
        button.disabled = false;
      }
    });
    box.append(form);
    if (!me) box.append(el("p", { class: "muted small" }, "Have an account? ",
      el("a", { href: "#/account", "data-action": "sign-in", onclick: (e) => { e.preventDefault(); signInThenReturn(location.hash); } },
        "Sign in"), " first."));
    return box;
  }

  function championPanel(b) {
    if (b.status !== "finished" || !b.champion) return null;
    return el("div", { class: "panel bracket-champion", "data-field": "champion" },
      el("span", { class: "trophy", "aria-hidden": "true" }, "\u2605"),
      el("div", {}, el("small", {}, "Champion"),
        el("b", {}, el("a", { href: `#/player/${b.champion.player_id}`, "data-field": "champion-name" }, b.champion.player))));
  }

  /** The rounds as columns (a phone: one under another); the rounds not opened yet drawn empty, each
   * slot with the winner of its two pairings before once that one is known. */
  function treePanel(b) {
    if (b.status === "scheduled" || (!b.size && b.status === "cancelled")) {
      return b.status === "scheduled" ? el("p", { class: "muted", "data-field": "tree-later" },
        "The tree is drawn at the opening: players are seeded by their rating in this game (the highest first) ",
        "into the smallest power of two that holds them; the top seeds get the byes.") : null;
    }
    const me = player();
    const rounds = roundCount(b) || b.rounds.length;
    const columns = [];
    let before = null;
    for (let r = 1; r <= rounds; r++) {
      const round = b.rounds.find((x) => x.round === r);
      const pairings = round ? round.pairings : placeholders(before, b.size / 2 ** r);
      const over = round && round.pairings.every((p) => p.winner !== null || p.players.length < 2);
      columns.push(el("section", { class: `bracket-round${round ? "" : " later"}`, "data-round": r },
        el("h3", {}, roundName(r, rounds), el("small", { class: "muted" }, round
          ? (new Date(round.starts_at).getTime() > Date.now() ? [" \u00b7 ", timeSpan(round.starts_at, "starts")]
            : over ? " \u00b7 over" : " \u00b7 playing") : " \u00b7 to come")),
        el("ol", { class: "pairings" }, pairings.map((p, i) => pairingItem(p, i, r === rounds, me)))));
      before = pairings;
    }
    return el("div", { class: "bracket-tree", "data-field": "tree", style: `--rounds: ${rounds}` }, columns);
  }

  /** The pairings of a round not opened yet: each side the winner of a pairing before, once decided. */
  function placeholders(before, count) {
    return Array.from({ length: Math.max(1, count) }, (_, k) => {
      const from = before ? [before[2 * k], before[2 * k + 1]] : [];
      const players = from.map((p) => p && p.winner !== null ? p.players.find((x) => x.player_id === p.winner) : null)
        .filter(Boolean).map((x) => ({ ...x, final_score: null, time_left: null, entry_id: null }));
      return { players, winner: null, later: true };
    });
  }

  function pairingItem(p, i, final, me) {
    const bye = !p.later && p.players.length === 1;
    const rows = p.players.map((x) => {
      const won = p.winner !== null && p.winner === x.player_id;
      const lost = p.winner !== null && !won;
      return el("li", { class: `side${won ? " winner" : ""}${lost ? " loser" : ""}${me && x.player_id === me.id ? " mine" : ""}`,
        "data-player": x.player_id, "data-seed": x.seed },
      el("span", { class: "seed", title: "seed" }, x.seed),
      el("span", { class: "pname" }, x.player, me && x.player_id === me.id ? el("span", { class: "you-tag" }, "you") : null),
      el("span", { class: "score", "data-field": "score",
        title: x.time_left === null || x.time_left === undefined ? "" : `${clock(x.time_left)} left` },
      bye ? "bye" : scoreText(x)),
      won ? el("span", { class: "mark", "aria-label": "winner" }, "\u2713") : el("span", { class: "mark" }));
    });
    while (!bye && rows.length < 2) rows.push(el("li", { class: "side empty" }, el("span", { class: "seed" }),
      el("span", { class: "pname muted" }, p.later ? "to be decided" : "nobody"), el("span", { class: "score" }), el("span", { class: "mark" })));
    if (bye) rows.push(el("li", { class: "side empty bye-note" }, el("span", { class: "seed" }),
      el("span", { class: "pname muted" }, "a bye: through to the next round"), el("span", { class: "score" }), el("span", { class: "mark" })));
    const champ = final && p.winner !== null;
    return el("li", { class: `pairing${bye ? " bye" : ""}${champ ? " champion" : ""}${p.later ? " later" : ""}`,
      "data-pairing": i + 1, "data-decided": p.winner !== null ? "true" : "false" }, el("ol", { class: "sides" }, rows));
  }

  /** Once finished: every game, round by round, to replay (re-scored in the browser). */
  function gamesPanel(b) {
    const rounds = roundCount(b) || b.rounds.length;
    const played = b.rounds.flatMap((r) => r.pairings.filter((p) => p.players.length === 2 && p.players.some((x) => x.entry_id))
      .map((p) => ({ round: r.round, p })));
    if (!played.length) return null;
    return el("details", { class: "panel bracket-replays", "data-field": "replays", open: b.status === "finished" },
      el("summary", {}, el("b", {}, "Replays"), el("span", { class: "muted" }, ` every game, ${played.length} in all`)),
      el("ul", { class: "replay-list" }, played.map(({ round, p }) => el("li", { "data-round": round },
        el("span", { class: "muted" }, roundName(round, rounds)), " ",
        el("span", {}, p.players.map((x) => x.player).join(" v ")),
        el("span", { class: "row" }, p.players.map((x) => el("button", { class: "btn small", type: "button",
          "data-action": "replay", "data-entry": x.entry_id, onclick: () => replay(x) }, x.player)))))));
  }

  async function replay(x) {
    try {
      const lines = await api.bracketReplays(id);
      const game = lines.find((g) => g.entry_id === x.entry_id);
      if (!game) return notify("No replay of this game: it was not played.", "info");
      viewer?.destroy();
      page.querySelector(".replay")?.remove();
      viewer = new ReplayViewer(game);
      games.append(viewer.root);
      await viewer.ready;
      viewer.root.scrollIntoView({ behavior: "auto" });
    } catch (err) {
      notify(explain(err), "error", 7000);
    }
    return null;
  }

  /** The commitment published at the creation; once finished, the seed checked here against it. */
  function fairness(b) {
    const check = el("span", { class: "check", "data-check": "commitment" },
      b.seed ? "checking\u2026" : "the seed is secret until the bracket is finished");
    if (b.seed) {
      commitment(b.seed, b.settings, b.salt).then((hash) => {
        const ok = hash === b.commitment;
        check.textContent = ok ? "\u2713 the salt, seed and settings match the commitment" : "\u2717 mismatch";
        check.classList.add(ok ? "ok" : "bad");
        check.dataset.ok = ok;
      });
    }
    return el("details", { class: "panel fairness", "data-field": "fairness" },
      el("summary", {}, el("b", {}, "Fair play: "), check),
      el("p", { class: "muted small" }, "Round r plays the deal of the seed followed by \u201c/r\u201d; ",
        "the commitment covers the one seed."),
      el("dl", {},
        el("dt", {}, "Commitment"), el("dd", {}, el("code", { "data-field": "commitment" }, b.commitment)),
        b.seed ? [el("dt", {}, "Seed"), el("dd", {}, el("code", { "data-field": "seed" }, b.seed))] : null,
        b.salt ? [el("dt", {}, "Salt"), el("dd", {}, el("code", {}, b.salt))] : null,
        b.finished_at ? [el("dt", {}, "Finished"), el("dd", {}, when(b.finished_at))] : null));
  }

  load();
  return () => {
    alive = false;
    clearTimeout(timer);
    viewer?.destroy();
  };
}
