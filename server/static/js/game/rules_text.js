// The rules in play and the scoring, in plain words, for one tournament's settings (docs/rules.md):
// what the game's help says under "This game" and "Scoring". The engine's rule data decides them.

import { fullSettings, VARIANTS } from "../engine/rules.js";
import { clock, VARIANT_NAMES } from "../lib/ui.js";
import { minutes } from "../lib/time.js";

const SUIT_WORDS = { 1: "all spades", 2: "spades and hearts", 4: "spades, hearts, diamonds and clubs" };

/** "10 min", "1 h 30 min"; "2:30" for a limit that is not whole minutes. */
export function timeWords(seconds) {
  return seconds % 60 === 0 ? minutes(seconds / 60) : clock(seconds);
}

function deckLine(s, rules) {
  const sets = rules.deck / 13;
  const suits = `${s.suits} suit${s.suits === 1 ? "" : "s"} (${SUIT_WORDS[s.suits] || s.suits})`;
  const columns = rules.layout.length;
  const down = rules.allUp ? "every card face up" : "only the last card of each column face up";
  return `${VARIANT_NAMES[s.variant] || s.variant}: ${rules.deck} cards, ${sets} sets of Ace to King in ${suits}, `
    + `dealt into ${columns} columns with ${down}.`;
}

function moveLine(s) {
  if (s.variant === "black_widow") {
    return "Move a card, or a run going down one rank at a time in any suits (9\u2665 8\u2660 7\u2666), onto a card "
      + "one rank higher of any suit, or into an empty column. Only a King-to-Ace run of one suit is removed.";
  }
  if (s.variant === "curds_and_whey") {
    return "Move a card, a run of one suit going down one rank at a time, or cards of one rank (5\u2665 5\u2660), "
      + "onto a card of the same suit one rank higher, or onto a card of the same rank. "
      + "Only a King, or a group headed by a King, goes into an empty column.";
  }
  return "Move a card, or a run of one suit going down one rank at a time (9\u2660 8\u2660 7\u2660), onto a card "
    + "one rank higher of any suit, or into an empty column.";
}

function dealLine(s, rules) {
  if (rules.piles) {
    const order = s.draw_pile_choice ? "You choose which pile to deal, in any order." : "The piles are dealt in order, first to last.";
    const tops = s.draw_pile_tops_up ? "Each waiting pile shows its top card." : "The piles' top cards stay hidden.";
    return `${rules.piles} draw piles of ${rules.layout.length}: a deal puts one pile's cards face up, one on each `
      + `column (never in the free column), even when a column is empty. ${order} ${tops}`;
  }
  if (rules.stock) {
    const deals = (rules.deck - rules.layout.reduce((a, b) => a + b, 0)) / rules.layout.length;
    return `The stock deals ${deals} times, one card face up on each column; it cannot deal while a column is empty.`;
  }
  return "Nothing to deal: every card is on the table from the start.";
}

function undoLine(s) {
  if (!s.undo || s.undo_limit === 0) return "No undo in this tournament: every move stands.";
  const times = s.undo_limit === null ? "as often as you like" : `at most ${s.undo_limit} time${s.undo_limit === 1 ? "" : "s"}`;
  const turned = s.reveals_final
    ? " A card once turned stays turned: a move that turns a card cannot be undone either."
    : "";
  return `Undo takes back your last card move, ${times}. A deal, or a move that completes a sequence, cannot be `
    + `undone, nor anything before it.${turned}`;
}

/** The rules of the game as these settings play it, one plain sentence a line. `start`: "own" or "together". */
export function rulesLines(settingsObj, start = "own") {
  const s = fullSettings(settingsObj);
  const rules = VARIANTS[s.variant];
  const lines = [
    deckLine(s, rules),
    `Build runs from King down to Ace in one suit: a complete run (a sequence) leaves the table at once. `
      + `${rules.toWin} sequences win.`,
    moveLine(s),
    rules.allUp ? null : "A face-down card left at the end of a column turns face up.",
    dealLine(s, rules),
    s.free_column
      ? "A free column waits right of the others: any card or movable run may go there and be played from it."
      : "No free column in this game.",
    undoLine(s),
    `Your clock: ${timeWords(s.time_limit)} on the server, from `
      + `${start === "together" ? "the moment everyone starts" : "the moment you press Start"}, running even when `
      + "this page is closed. The game ends at a win, when you press End, or when the time is up.",
    s.deal_variation ? "Every entrant gets the same deal with its cards renamed: the same game, other names." : null,
  ];
  return lines.filter(Boolean);
}

/** The scoring, one plain sentence a line (docs/rules.md "Time, ending and scoring"). */
export function scoringLines(settingsObj) {
  const s = fullSettings(settingsObj);
  const rules = VARIANTS[s.variant];
  const toWin = rules.toWin;
  const half = Math.floor(toWin / 2);
  const lines = [
    rules.allUp ? null : "+25 for every card turned face up.",
    "+100 for every completed sequence.",
    s.free_column ? "+100 at a win if the free column was never used: put one card there and this bonus is gone." : null,
    `Time bonus at the end: the seconds left \u00d7 the sequences completed \u00f7 ${toWin}, rounded down. `
      + `A win with 2:00 left adds 120; ending with ${half} of ${toWin} sequences and 2:00 left adds `
      + `${Math.floor((120 * half) / toWin)}. No sequence, or no time left, adds nothing.`,
    "Final score: the score plus the bonuses. The higher final score ranks first; on a tie, the game that ended "
      + "with more time left, then the earlier entry.",
  ];
  return lines.filter(Boolean);
}
