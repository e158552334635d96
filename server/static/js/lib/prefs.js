// The player's display settings, kept in localStorage, and applied as classes on <body>.

const KEY = "spidertour.settings";
// faces "auto": the bold four-colour faces for a game of four suits (far easier to tell apart), the
// classic red and black otherwise.
export const DEFAULTS = { simple: false, faces: "auto", portrait: "auto", sound: false, notify: false };
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
  const bold = s.faces === "bold" || (s.faces === "auto" && body.dataset.suits === "4");
  body.classList.toggle("faces-classic", !bold);
  body.classList.toggle("faces-bold", bold);
  const portrait = s.portrait === "on" || (s.portrait === "auto" && narrow.matches);
  body.classList.toggle("portrait", portrait);
  window.dispatchEvent(new Event("spidertour:layout"));
}
narrow.addEventListener("change", apply);

/** The suits of the game on screen (null: none), for the faces of "auto". */
export function gameSuits(suits) {
  if (suits) document.body.dataset.suits = String(suits);
  else delete document.body.dataset.suits;
  apply();
}
