// The turn clock: a bar (`role="timer"`) and the seconds after the turn line, counted down
// locally from the server's `remaining`. On your turn it says, once each, "10 seconds left" and,
// on a turn of 30 s or more, the half time. Asked for less motion, the bar moves a step a second.
import { tn } from "./api.js";
import { announce } from "./announce.js";

const $ = (id) => document.getElementById(id);
const LOW = 10; // seconds: the bar turns red, and your turn says so
const HALF_FROM = 30; // turns at least this long also say their half time
const calm = matchMedia("(prefers-reduced-motion: reduce)");

// The turn clock's seconds as the page's language writes them: "12 s" (as in "60 s per turn"),
// "12 с" in Ukrainian and Russian.
const SECONDS = document.documentElement.lang === "en" ? null
  : new Intl.NumberFormat(document.documentElement.lang, { style: "unit", unit: "second", unitDisplay: "short" });
const seconds = (n) => (SECONDS ? SECONDS.format(n) : `${n} s`);

let deadline = null; // performance.now() at which the turn clock runs out
let total = 0; // the turn's length, seconds
let yours = false; // whether the clock is yours
let turnKey = null; // the turn the warnings below belong to
let warnings = []; // seconds-left marks not said yet this turn

/**
 * Set the clock from a state: `remaining` seconds (null: no clock) of `turnSeconds`; `key` names
 * the turn (the warnings are said once per turn); `mine`: it is your turn.
 */
export function setClock(remaining, turnSeconds, key, mine) {
  deadline = remaining === null ? null : performance.now() + remaining * 1000;
  total = turnSeconds;
  yours = mine;
  if (key === turnKey) return;
  turnKey = key;
  const marks = turnSeconds >= HALF_FROM ? [Math.round(turnSeconds / 2), LOW] : [LOW];
  // Only the marks still ahead: a turn rejoined late says nothing of the time already gone.
  warnings = remaining === null ? [] : marks.filter((mark) => mark < remaining - 1);
}

function tick() {
  const bar = $("clock-bar");
  const turn = $("turn");
  if (deadline === null) {
    bar.style.width = "0";
    turn.dataset.left = "";
  } else {
    const left = Math.max(0, deadline - performance.now()) / 1000;
    const shown = calm.matches ? Math.ceil(left) : left;
    bar.style.width = `${Math.min(100, (100 * shown) / total)}%`;
    bar.className = left < LOW ? "low" : "";
    const base = turn.textContent.replace(/ · \d+\s?\S+$/, "");
    turn.textContent = `${base} · ${seconds(Math.ceil(left))}`;
    while (warnings.length && left <= warnings[0]) {
      const mark = warnings.shift();
      if (yours && left > 0) announce(tn("secondsLeft", mark));
    }
  }
  requestAnimationFrame(tick);
}

/** Start counting (once). */
export function startClock() {
  requestAnimationFrame(tick);
}
