// What the game page tells while the player may be looking elsewhere (told/tell.js): the title counting
// down to a start "together" and a short sound when the game starts by itself; the tournament's
// result in the title (and a notification) once it finishes while the page is open.

import { beep } from "../lib/sound.js";
import { BASE, tellResult, titleCountdown } from "../told/tell.js";
import { ordinal } from "../lib/ui.js";

export class GameTold {
  /** `nameOf()`: the game's name as the page's head says it ("Thursday evening", "Match 12"). */
  constructor(nameOf) {
    this.nameOf = nameOf;
    this.startsAt = null;
    this.stopCountdown = null;
    this.live = false; // the tournament was seen unfinished on this page: its finish is news
    this.told = false;
  }

  /** The entry's state: waiting for a start together (the title counts down), or started. */
  state(s) {
    const waits = s.starts_at && (s.status === "joined" || (s.view?.over && s.deal < s.deals));
    if (waits) this.waiting(s.starts_at);
    else if (s.view && !s.view.over) this.started();
  }

  waiting(startsAt) {
    if (this.stopCountdown && this.startsAt === startsAt) return;
    this.stop();
    this.startsAt = startsAt;
    this.stopCountdown = titleCountdown(startsAt, () => this.nameOf());
  }

  /** The game began by itself: the countdown gives way to the name, with the start sound. */
  started() {
    if (!this.stopCountdown) return;
    this.stop();
    document.title = `${this.nameOf()} \u00b7 ${BASE}`;
    beep("start");
  }

  /** The place read after the game: told once the tournament is finished (notified if it finished
   * while this page was open). */
  place(finished, rank, of) {
    if (!finished) {
      this.live = true;
      return;
    }
    if (this.told) return;
    this.told = true;
    tellResult(`${ordinal(rank)} of ${of}`, `${this.nameOf()} is over: you finished ${ordinal(rank)} of ${of}.`, this.live);
  }

  stop() {
    if (this.stopCountdown) this.stopCountdown();
    this.stopCountdown = null;
  }
}
