// The player's display settings, kept in localStorage, and applied as classes on <body>.

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
