// A sitting's entrants as the organiser watches them: each in plain words ("not connected yet",
// "playing: 40 moves, score 512"), the counts at the top, and a Disqualify button at hand on each
// row (a reason, then a confirmation). Rows are kept across polls, so a reason being typed stays.

import { api } from "../../lib/api.js";
import { confirmDialog, el, notify, number } from "../../lib/ui.js";
import { act } from "../common.js";
import { count } from "../frame.js";

const ENDED = { won: "won", ended: "ended", timed_out: "out of time" };

/** The entry's state: {key, words}; `closed` says the tournament takes no more starts. */
export function stateOf(e, closed) {
  const score = number(e.final_score ?? e.score ?? 0);
  if (e.disqualified) return { key: "disqualified", words: `disqualified (${e.disqualified})` };
  if (e.status === "playing") {
    return { key: "playing", words: `playing \u2014 ${count(e.moves ?? 0, "move")}, score ${score}` };
  }
  if (ENDED[e.status]) return { key: "finished", words: `finished \u2014 score ${score} (${ENDED[e.status]})` };
  if (e.status === "absent" || closed) return { key: "absent", words: "did not play" };
  if (!e.connected) return { key: "not-connected", words: "not connected yet" };
  return { key: "connected", words: "connected, not started" };
}

const ORDER = [["not-connected", "not connected yet"], ["connected", "connected, not started"], ["playing", "playing"],
  ["finished", "finished"], ["absent", "did not play"], ["disqualified", "disqualified"]];

/** "12 entered · 3 not connected yet · 8 playing · 1 finished" */
export function countsWords(states) {
  const n = Object.fromEntries(ORDER.map(([k]) => [k, 0]));
  for (const s of states) n[s.key] += 1;
  return [`${states.length} entered`, ...ORDER.filter(([k]) => n[k]).map(([k, words]) => `${n[k]} ${words}`)].join(" \u00b7 ");
}

/** One row: {node, update(entry, closed)}. */
function pupilRow(tid, first, refresh) {
  let e = first;
  const state = el("span", { class: "pupil-state", "data-field": "state" });
  const reason = el("input", { type: "text", maxlength: 200, placeholder: "reason, shown to everyone",
    "data-field": "reason", "aria-label": `Reason to disqualify ${e.player}` });
  const confirm = el("button", { class: "btn danger", type: "button", "data-action": "confirm-disqualify" }, "Disqualify");
  const form = el("div", { class: "dq-form", hidden: true }, reason, confirm);
  const open = el("button", { class: "btn small danger", type: "button", "data-action": "disqualify" }, "Disqualify");
  open.addEventListener("click", () => {
    form.hidden = !form.hidden;
    if (!form.hidden) reason.focus();
  });
  confirm.addEventListener("click", async () => {
    const why = reason.value.trim();
    if (!why) return notify("Give a reason: everyone sees it", "error");
    const sure = await confirmDialog(`Disqualify ${e.player}?`,
      `Their game ends now and they leave the ranking. Everyone sees the reason: \u201c${why}\u201d.`, "Disqualify");
    if (!sure) return null;
    if (await act(api.admin("POST", `/api/tournaments/${tid}/entries/${e.id}/disqualify`, { reason: why }),
      `${e.player} disqualified`)) refresh();
    return null;
  });
  const node = el("li", { class: "pupil", "data-entry": e.id },
    el("div", { class: "pupil-line" }, el("div", { class: "pupil-who" },
      el("b", { class: "pupil-name", "data-field": "player" }, e.player), " ", state), open),
    form);
  return {
    node,
    update(next, closed) {
      e = next;
      const s = stateOf(e, closed);
      state.textContent = s.words;
      node.dataset.state = s.key;
      open.hidden = Boolean(e.disqualified);
      if (e.disqualified) form.hidden = true;
      return s;
    },
  };
}

/** The entrants block: {node, show(entries, closed)}; `refresh()` polls again at once. */
export function pupilsList(tid, refresh) {
  const counts = el("p", { class: "pupil-counts", "data-field": "counts" });
  const list = el("ul", { class: "pupils", "data-entries-of": tid });
  const rows = new Map();
  function show(entries, closed) {
    const states = entries.map((e) => {
      if (!rows.has(e.id)) rows.set(e.id, pupilRow(tid, e, refresh));
      return rows.get(e.id).update(e, closed);
    });
    counts.textContent = entries.length ? countsWords(states) : "Nobody has joined yet: share the link.";
    const wanted = entries.map((e) => rows.get(e.id).node);
    if (wanted.some((n, i) => list.children[i] !== n) || list.children.length !== wanted.length) list.replaceChildren(...wanted);
  }
  return { node: el("div", { class: "pupils-block" }, counts, list), show };
}
