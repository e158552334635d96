// The organiser's other pages, one panel each: its clubs (#/organise/clubs), series
// (#/organise/series), knockout brackets (#/organise/brackets) and, for the server's owner, the
// organisers (#/organise/organisers).

import { el } from "../lib/ui.js";
import { bracketsPanel } from "./panels/brackets.js";
import { clubsPanel } from "./panels/clubs.js";
import { credentialOrNote, frame } from "./frame.js";
import { organisersPanel } from "./panels/organisers.js";
import { seriesPanel } from "./panels/series.js";

const PAGES = {
  clubs: ["Clubs", () => clubsPanel(() => {})],
  series: ["Series", () => seriesPanel()],
  brackets: ["Knockout brackets", () => {
    const panel = bracketsPanel();
    panel.show();
    return panel;
  }],
  organisers: ["Organisers", () => {
    const panel = organisersPanel();
    panel.load();
    return panel;
  }],
};

export function mount(main, which) {
  const [title, make] = PAGES[which];
  const section = frame(title, { cls: `organise-${which}` });
  main.append(section);
  if (!credentialOrNote(section)) return;
  const panel = make();
  section.append(panel.node);
  section.querySelectorAll(":scope > section > h2:first-child").forEach((h) => h.remove());  // the page's title says it
  if (!panel.node.children.length) section.append(el("p", { class: "muted" }, "Nothing here."));
}
