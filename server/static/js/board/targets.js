// Large tap targets for narrow columns. Huge Spider's 20 columns on a phone are 15 px wide, a
// third of a fingertip: tapping the right one is luck. Rather than shrink the game into two rows
// (each row half the height, so long columns no longer fit) or a zoom (one more gesture, and the
// table half out of view), a picked group gets a tray of big buttons over the reserve row, one for
// each column the rules let it go to, labelled with the card it would go onto, as good phone
// solitaire apps highlight the legal places. Few columns take a group (rarely more than four), so
// every button stays at least 44 px square; a tap on a column itself still works too.

import { el } from "../lib/ui.js";
import { cardWords } from "./cards.js";

export const TAP = 44; // the smallest comfortable target, in CSS px

/** Whether the columns are too narrow to aim at with a finger: column and gap under TAP px. */
export function narrowColumns(root) {
  const cw = parseFloat(root.style.getPropertyValue("--cw")) || 80;
  const gap = parseFloat(root.style.getPropertyValue("--gap")) || 8;
  return cw + gap < TAP;
}

/**
 * The tray for a picked group: a button per legal destination (data-target = its column), and one
 * to put the cards back (data-target = "cancel"). dests: [{col, top}] with top the card it goes
 * onto ("" for an empty column).
 */
export function targetsEl(dests) {
  const tray = el("div", { class: "targets", role: "group", "aria-label": "where the picked cards can go" });
  if (!dests.length) tray.append(el("span", { class: "targets-none" }, "No column takes these cards"));
  for (const { col, top } of dests) {
    const suit = top ? ` suit-${top[1]}` : "";
    tray.append(el("button", {
      type: "button", class: `target${suit}`, "data-target": col,
      title: top ? `Onto ${cardWords(top)} in column ${col + 1}` : `Into the empty column ${col + 1}`,
    }, el("b", {}, top ? cardWords(top) : "empty"), el("small", {}, `col ${col + 1}`)));
  }
  tray.append(el("button", { type: "button", class: "target cancel", "data-target": "cancel", title: "Put the cards back" },
    "\u00d7"));
  return tray;
}
