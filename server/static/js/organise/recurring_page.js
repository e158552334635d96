// Recurring tournaments (#/organise/recurring, a schedule's card at #/organise/recurring/ID): the
// form with the settings each tournament will take, and the organiser's schedules.

import { credentialOrNote, frame } from "./frame.js";
import { schedulesPanel } from "./panels/schedules.js";

export function mount(main, id) {
  const section = frame("Recurring tournaments", { cls: "organise-recurring" });
  main.append(section);
  if (!credentialOrNote(section)) return;
  const panel = schedulesPanel();
  section.append(panel.node);
  panel.node.querySelector(":scope > h2").remove();  // the page's title says it
  panel.refresh().then(() => {
    const card = id ? section.querySelector(`[data-schedule='${id}']`) : null;
    if (!card) return;
    card.classList.add("chosen");
    card.scrollIntoView({ block: "start" });
  });
}
