// The settings page: the player's display settings, kept on this device only (lib/prefs.js).

import { el } from "../lib/ui.js";
import { save, settings } from "../lib/prefs.js";
import { notifyToggle } from "../told/notify_setting.js";

function choice(name, label, options, value) {
  return el("fieldset", { class: "choice" }, el("legend", {}, label),
    options.map(([v, text]) => el("label", {},
      el("input", { type: "radio", name, value: v, checked: v === value, onchange: () => save({ [name]: v }) }),
      text)));
}

function toggle(name, label, hint, value) {
  return el("label", { class: "toggle" },
    el("input", { type: "checkbox", name, checked: value, onchange: (e) => save({ [name]: e.target.checked }) }),
    el("span", {}, el("b", {}, label), el("small", {}, hint)));
}

export function mount(main) {
  const s = settings();
  main.append(el("section", { class: "page narrow-page settings-page" },
    el("h1", {}, "Settings"),
    el("p", { class: "muted" }, "Kept on this device only."),
    el("div", { class: "panel" },
      toggle("simple", "Simple mode", "Plain cards, no animations.", s.simple),
      toggle("sound", "Sound effects", "Short beeps for moves, deals, errors and sequences, and when a game starts by itself.",
        s.sound),
      notifyToggle(s.notify),
      choice("faces", "Card faces", [["auto", "Four-colour for four suits, else classic"],
        ["classic", "Classic (red and black)"], ["bold", "Bold four-colour"]], s.faces),
      choice("portrait", "Portrait layout", [["auto", "On narrow screens"], ["on", "Always"], ["off", "Never"]],
        s.portrait),
      el("div", { class: "preview felt" }, el("span", { class: "muted" }, "Preview"),
        el("div", { class: "preview-cards", id: "face-preview" })))));
  import("../board/cards.js").then(({ cardEl }) => {
    const box = document.getElementById("face-preview");
    if (box) box.append(...["AS", "QH", "7D", "TC"].map((t) => cardEl(t)));
  });
}
