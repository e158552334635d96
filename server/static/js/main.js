// The single page: hash routes to small page modules, each mounted into <main> and cleaned up
// when the route changes.

import { apply, gameSuits } from "./lib/prefs.js";
import { notify, showWho } from "./lib/ui.js";
import { titleFromHeading } from "./lib/title.js";

const ROUTES = [
  [/^#\/lobby(?:\/(open))?$/, () => import("./pages/lobby.js")],
  [/^#\/play\/first$/, () => import("./pages/first.js")],
  [/^#\/play\/(\d+)$/, () => import("./pages/game.js")],
  [/^#\/board\/(\d+)$/, () => import("./pages/leaderboard.js")],
  [/^#\/finished\/(\d+)(?:\/(\d+))?$/, () => import("./pages/finished.js")],
  [/^#\/organise$/, () => import("./pages/organise.js")],
  [/^#\/organise\/new$/, () => import("./organise/create/new_page.js")],
  [/^#\/organise\/tournament\/(\d+)$/, () => import("./organise/live/live_page.js")],
  [/^#\/organise\/recurring(?:\/(\d+))?$/, () => import("./organise/recurring_page.js")],
  [/^#\/organise\/(clubs|series|brackets|organisers)$/, () => import("./organise/section_page.js")],
  [/^#\/settings$/, () => import("./pages/settings.js")],
  [/^#\/account$/, () => import("./pages/account.js")],
  [/^#\/me$/, () => import("./pages/me.js")],
  [/^#\/player\/(\d+)$/, () => import("./competitions/profile.js")],
  [/^#\/join\/(\d+)(?:\/([^/]+))?$/, () => import("./pages/join.js")],
  [/^#\/club\/(\d+)\/join\/([^/]+)$/, () => import("./pages/join.js").then((m) => ({ mount: m.mountClub }))],
  [/^#\/club\/(\d+)(?:\/(codes|progress))?$/, () => import("./pages/club.js")],
  [/^#\/series\/(\d+)$/, () => import("./competitions/series.js")],
  [/^#\/matches$/, () => import("./matches/play.js")],
  [/^#\/match\/(\d+)$/, () => import("./matches/match.js")],
  [/^#\/bracket\/(\d+)$/, () => import("./brackets/bracket.js")],
];

let cleanup = null;
let routing = 0;

async function route() {
  const hash = location.hash || "#/lobby";
  const found = ROUTES.find(([pattern]) => pattern.test(hash));
  if (!found) {
    location.replace("#/lobby");
    return;
  }
  const turn = ++routing;
  const [pattern, load] = found;
  const module = await load();
  if (turn !== routing) return;
  if (cleanup) cleanup();
  cleanup = null;
  const main = document.getElementById("main");
  main.replaceChildren();
  document.title = "spidertour";
  document.querySelectorAll("nav a").forEach((a) =>
    a.classList.toggle("active", hash.startsWith(a.getAttribute("href"))));
  showWho();
  gameSuits(null);  // the game page and the replays say which game is on screen
  document.body.dataset.route = hash.split("/")[1] || "lobby";
  titleFromHeading(main, document.body.dataset.route);
  cleanup = module.mount(main, ...hash.match(pattern).slice(1)) || null;
  window.scrollTo(0, 0);
}

apply();
window.addEventListener("hashchange", route);
window.addEventListener("spidertour:signed-out", () => {
  showWho();
  notify("You are signed out on this device: sign in again to play.", "error", 7000);
});
route();
