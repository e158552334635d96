// Sound effects: short WebAudio beeps, no files. Off unless the settings turn them on.

import { settings } from "./prefs.js";

let ctx = null;

const TUNES = {
  move: [[660, 0.05]],
  deal: [[440, 0.05], [550, 0.05]],
  error: [[180, 0.15]],
  sequence: [[523, 0.08], [659, 0.08], [784, 0.08], [1047, 0.16]],
  over: [[784, 0.12], [659, 0.12], [523, 0.24]],
  start: [[587, 0.1], [880, 0.2]], // a game that starts by itself (everyone together)
};

export function beep(kind) {
  if (!settings().sound) return;
  try {
    ctx = ctx || new AudioContext();
    if (ctx.state === "suspended") ctx.resume();
    let at = ctx.currentTime;
    for (const [freq, length] of TUNES[kind] || TUNES.move) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = kind === "error" ? "square" : "triangle";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.12, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + length);
      at += length;
    }
  } catch {
    /* no audio here */
  }
}
