// The link that joins a tournament, its entry code filled in, with a button that copies it: what an
// organiser hands to its players.

import { copyText, el } from "../../lib/ui.js";

export const joinUrl = (t) =>
  `${location.origin}/#/join/${t.id}${t.entry_code ? `/${encodeURIComponent(t.entry_code)}` : ""}`;

/** The join link of a tournament with a Copy button (and its entry code said, when it takes one). */
export function shareLine(t) {
  const url = joinUrl(t);
  const link = el("input", { readonly: true, value: url, "data-field": "join-link", "aria-label": "Link to join" });
  link.addEventListener("focus", () => link.select());
  return el("div", { class: "share-line" },
    el("span", { class: "share-label" }, t.entry_code ? `Entry code ${t.entry_code}. Link to join:` : "Link to join:"),
    el("div", { class: "copy-line" }, link, el("button", { class: "btn", type: "button", "data-action": "copy-link",
      onclick: async (e) => {
        e.target.textContent = (await copyText(url)) ? "Copied" : "Select and copy it";
      } }, "Copy")));
}
