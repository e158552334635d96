// A sitting as its organiser runs it (#/organise/tournament/ID): its status and the countdown to its
// start or its close, the link to share, the entrants in plain words polled every few seconds with a
// Disqualify button on each, and the tournament's actions (edit, close, cancel, fair play, results).

import { tournamentState } from "../../lib/state.js";
import { api } from "../../lib/api.js";
import { countdown, el, explain, fill } from "../../lib/ui.js";
import { credentialOrNote, frame } from "../frame.js";
import { pupilsList } from "./pupils.js";
import { loadSeries } from "../panels/series.js";
import { shareLine } from "../create/share.js";
import { tournamentCard } from "./tournament_card.js";

const POLL_MS = 4000;
const CLOSED = ["closing", "finished", "cancelled"];

/** Where the sitting stands, with a live countdown to what comes next. */
function standing(t) {
  const together = t.start === "together";
  const badge = el("span", { class: `badge st-${t.status}`, "data-field": "status" }, tournamentState(t));
  let what;
  if (t.status === "scheduled") {
    what = together ? countdown(t.opens_at, "everyone starts in", "starting\u2026")
      : countdown(t.opens_at, "opens in", "opening\u2026");
  } else if (t.status === "open") {
    what = together ? ["started together; ", countdown(t.closes_at, "ends in", "ending\u2026")]
      : countdown(t.closes_at, "entries close in", "entries close now");
  } else if (t.status === "closing") {
    what = "entries closed: the games under way finish";
  } else if (t.status === "finished") {
    what = ["finished: ", el("a", { href: `#/finished/${t.id}`, "data-action": "results" }, "the results")];
  } else {
    what = "cancelled: nothing is ranked";
  }
  return el("p", { class: "live-status" }, badge, " ", el("span", { "data-field": "when" }, what));
}

export function mount(main, id) {
  const tid = Number(id);
  const section = frame(`Tournament ${tid}`, { cls: "live-page" });
  main.append(section);
  if (!credentialOrNote(section)) return null;
  const title = section.querySelector("h1");
  const head = el("div", { class: "live-head" });
  const share = el("div", {});
  const card = el("ul", { class: "card-list live-card" });
  const pupils = pupilsList(tid, () => poll());
  const error = el("p", { class: "error", "data-field": "live-error", role: "alert", hidden: true });
  section.append(head, share, error,
    el("section", { class: "live-entrants" }, el("h2", {}, "Entrants"), pupils.node),
    el("section", { class: "live-actions" }, el("h2", {}, "Details and actions"), card));
  const seriesKnown = loadSeries();  // the card offers to add the tournament to one of them
  let shownStatus = null;
  let timer = null;
  let stopped = false;

  async function poll() {
    try {
      const [t, entries] = await Promise.all([api.admin("GET", `/api/tournaments/${tid}`),
        api.admin("GET", `/api/tournaments/${tid}/entries?limit=500`)]);
      await seriesKnown;
      if (stopped) return;
      error.hidden = true;
      const key = `${t.status}|${t.name}|${t.opens_at}|${t.closes_at}|${t.series}|${t.commitment}`;
      if (key !== shownStatus) {
        shownStatus = key;
        title.textContent = t.name;
        document.title = `${t.name} \u00b7 organising \u00b7 spidertour`;
        fill(head, standing(t));
        fill(share, ["finished", "cancelled"].includes(t.status) ? null : shareLine(t));
        fill(card, tournamentCard(t, () => poll(), { live: true }));
      }
      pupils.show(entries, CLOSED.includes(t.status));
    } catch (err) {
      if (stopped) return;
      error.textContent = err.status === 403 ? "This tournament is not one of yours." : explain(err);
      error.hidden = false;
    }
  }
  poll();
  timer = setInterval(poll, POLL_MS);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
