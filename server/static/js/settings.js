// The player's display settings, kept in localStorage, and the page that changes them.

import { el } from "./ui.js";

const KEY = "spidertour.settings";
export const DEFAULTS = { simple: false, faces: "classic", portrait: "auto", sound: false };
const narrow = window.matchMedia("(max-width: 700px), (max-aspect-ratio: 4/5)");

export function settings() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

export function save(changes) {
  const next = { ...settings(), ...changes };
  localStorage.setItem(KEY, JSON.stringify(next));
  apply();
  return next;
}

/** The settings as classes on <body>: simple, faces-*, portrait. */
export function apply() {
  const s = settings();
  const body = document.body;
  body.classList.toggle("simple", s.simple);
  body.classList.toggle("faces-classic", s.faces === "classic");
  body.classList.toggle("faces-bold", s.faces === "bold");
  const portrait = s.portrait === "on" || (s.portrait === "auto" && narrow.matches);
  body.classList.toggle("portrait", portrait);
  window.dispatchEvent(new Event("spidertour:layout"));
}
narrow.addEventListener("change", apply);

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
      toggle("sound", "Sound effects", "Short beeps for moves, deals, errors and sequences.", s.sound),
      choice("faces", "Card faces", [["classic", "Classic (red and black)"], ["bold", "Bold four-colour"]], s.faces),
      choice("portrait", "Portrait layout", [["auto", "On narrow screens"], ["on", "Always"], ["off", "Never"]],
        s.portrait),
      el("div", { class: "preview felt" }, el("span", { class: "muted" }, "Preview"),
        el("div", { class: "preview-cards", id: "face-preview" })))));
  import("./cards.js").then(({ cardEl }) => {
    const box = document.getElementById("face-preview");
    if (box) box.append(...["AS", "QH", "7D", "TC"].map((t) => cardEl(t)));
  });
}
