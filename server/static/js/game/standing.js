// The line under the score while a game runs: the player's place in the tournament ("3rd of 7"),
// when the tournament ends or closes if that matters to this game, and the free column's bonus.
//
// The place is asked for every STANDING_SECONDS (the leaderboard's "around me", one cheap read that
// adds nothing to a move's path), not pushed: a watch socket per player would cost the server a
// message per move per player.

import { api } from "../lib/api.js";
import { el, ordinal } from "../lib/ui.js";
import { until } from "../lib/time.js";

export const STANDING_SECONDS = 12;

export class Standing {
  constructor(entryId) {
    this.entryId = entryId;
    this.rank = el("span", { class: "standing-rank", "data-field": "standing", hidden: true });
    this.ends = el("span", { class: "standing-ends", "data-field": "ends-in", hidden: true });
    this.free = el("span", { class: "standing-free", "data-field": "free-bonus", hidden: true });
    this.node = el("div", { class: "hud-line", "data-field": "hud-line", hidden: true }, this.rank, this.ends, this.free);
    this.tournament = null;
    this.tournamentId = null;
    this.skew = 0; // the server's clock minus this browser's, in ms
    this.practice = false;
    this.playing = false;
    this.timer = null;
  }

  /** The tournament, once loaded: its closing time and how it starts. */
  setTournament(t) {
    this.tournament = t;
    this.draw();
  }

  /** The entry's state: whether it is playing, and the server's clock (from its deadline and time left). */
  setState(s) {
    this.practice = Boolean(s.practice);
    this.tournamentId = s.tournament_id;
    if (s.deadline && s.time_left !== null && s.time_left !== undefined) {
      this.skew = new Date(s.deadline).getTime() - s.time_left * 1000 - Date.now();
    }
    this.setPlaying(s.status === "playing" && Boolean(s.view) && !s.view.over);
  }

  /** A new view: the free column's bonus, and no more place or countdown once the game is over. */
  setView(v) {
    const hasFree = v.free_column !== null && v.free_column !== undefined;
    this.free.hidden = !hasFree || v.over;
    if (hasFree) {
      this.free.dataset.used = String(Boolean(v.free_column_used));
      // On a phone upright the line shares the title's row: the words in .long give way to those in .short.
      this.free.replaceChildren(el("span", { class: "long" }, "Free column: "), el("span", { class: "short" }, "free col. "),
        el("b", {}, v.free_column_used ? "bonus gone" : ["+100", el("span", { class: "long" }, " if unused")]));
      this.free.title = v.free_column_used
        ? "A card went to the free column: a win no longer earns its +100"
        : "A win without ever using the free column earns +100";
    }
    if (v.over) this.setPlaying(false);
    this.draw();
  }

  setPlaying(playing) {
    if (playing === this.playing) return;
    this.playing = playing;
    clearInterval(this.timer);
    this.timer = null;
    if (playing && !this.practice) {
      this.refresh();
      this.timer = setInterval(() => { if (!document.hidden) this.refresh(); }, STANDING_SECONDS * 1000);
    }
    this.draw();
  }

  /** Ask for the place now (also when the page comes back into view). */
  async refresh() {
    const t = this.tournament;
    const tid = t?.id ?? this.tournamentId;
    if (!this.playing || this.practice || !tid) return;
    try {
      const around = await api.around(tid, this.entryId, 0);
      const mine = around.rows.find((r) => r.entry_id === this.entryId);
      if (!mine || !this.playing) return;
      this.rank.dataset.rank = mine.rank;
      this.rank.dataset.of = around.entrants;
      this.rank.replaceChildren(el("span", { class: "long" }, "Place "), el("b", {}, `${ordinal(mine.rank)} of ${around.entrants}`));
      this.rank.title = "Your place in the tournament now, by score (games still running count no time left)";
    } catch {
      /* the place is a nicety: the next ask may answer */
    }
    this.draw();
  }

  /** Every tick of the game's clock, with the player's own seconds left: the countdown to the end. */
  tick(timeLeft) {
    const t = this.tournament;
    let text = "";
    if (t && this.playing && !this.practice) {
      const left = (new Date(t.closes_at).getTime() - this.skew - Date.now()) / 1000;
      if (left > 0 && t.start === "together") {
        text = `ends in ${until(left)}`;
        this.ends.title = "Everyone's game ends together then";
      } else if (left > 0 && timeLeft !== null && left < timeLeft - 1) {
        text = `closes in ${until(left)}`;
        this.ends.title = "The tournament closes before your clock runs out: no new game starts after that; "
          + "yours runs on to its own clock";
      }
    }
    if (this.ends.textContent !== text) this.ends.textContent = text;
    this.ends.hidden = !text;
    this.draw();
  }

  draw() {
    this.rank.hidden = !this.playing || this.practice || !this.rank.dataset.rank;
    this.node.hidden = this.rank.hidden && this.ends.hidden && this.free.hidden;
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
  }
}
