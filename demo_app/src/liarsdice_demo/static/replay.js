// The replay page: step through a finished game's states (every die shown: the game is over).
// The steps come a page at a time from the server (liarsdice_demo/text/replay.py: GET
// /games/<id>/steps?from=N), each state as what changed since the step before; a page's states
// are rebuilt here when it arrives. #seats carries the step shown in data-step once drawn.
import { PIPS, bidText, dieName, el, faceUp, t, tn } from "./api.js";

const source = JSON.parse(document.getElementById("replay").textContent).steps;
const $ = (id) => document.getElementById(id);
const slider = $("step");
const pages = new Map(); // a page's first step -> the page (a promise while it loads)
let total = 0;
let pageSize = 1;
let index = 0;
let timer = null;

/** The state `patch` makes of `before`: changed keys replaced, the round patched the same way,
 * its bids as the first `keep` bids before and then `add`. */
function patched(before, patch) {
  const state = { ...before, ...patch };
  if (patch.round) {
    const old = before.round ?? {};
    const { keep, add } = patch.round.bids;
    state.round = { ...old, ...patch.round, bids: (old.bids ?? []).slice(0, keep).concat(add) };
  }
  return state;
}

async function load(first) {
  const response = await fetch(`${source}&from=${first}`, { credentials: "same-origin" });
  if (!response.ok) throw new Error(t("serverError", { status: response.status }));
  const page = await response.json();
  total = page.total;
  pageSize = page.page;
  let state = {};
  const steps = page.steps.map(({ text, matching, state: patch }) => {
    state = patched(state, patch);
    return { text, matching, state };
  });
  return { first: page.from, next: page.next, steps };
}

/** Step `i`, from the page that holds it (loaded once). */
async function stepAt(i) {
  let first = Math.floor(i / pageSize) * pageSize;
  for (;;) {
    if (!pages.has(first)) {
      pages.set(first, load(first).catch((error) => { pages.delete(first); throw error; }));
    }
    const page = await pages.get(first);
    if (page.next === null || i < page.next) return page.steps[i - page.first];
    first = page.next; // the page stopped early (its size cap): the next one starts there
  }
}

function draw(frame) {
  const state = frame.state;
  $("line").textContent = frame.text;
  $("counter").textContent = `${index + 1} / ${total}`;
  slider.setAttribute("aria-valuetext", $("counter").textContent);
  const round = state.round;
  const resolution = round?.resolution;
  $("seats").replaceChildren(...state.players.map((p) => {
    const roll = round?.rolls?.[p.name] ?? [];
    const up = faceUp(roll, round?.shown?.[p.name]);
    const matching = resolution && resolution.count !== null && resolution.call !== "doubt" ? frame.matching ?? [] : [];
    const onTurn = round?.turn === p.name && !resolution;
    const won = state.winners.includes(p.name);
    const classes = ["seat"];
    if (!p.alive) classes.push("out");
    if (onTurn) classes.push("on-turn");
    if (won) classes.push("winner");
    // Whose turn, who is out and who won, in words as well as by the seat's colour.
    const words = [onTurn ? t("onTurn") : null, p.alive ? null : t("out"), won ? t("winnerWord") : null].filter(Boolean);
    return el("li", { class: classes.join(" ") },
      el("div", { class: "name" }, p.name),
      el("div", { class: "status" }, words.join(" · ")),
      el("div", { class: "dice" }, roll.map((v, i) => {
        const counts = matching.includes(v);
        return el("span", {
          class: `die${counts ? " match" : ""}${up[i] ? " up" : ""}`,
          role: "img",
          "aria-label": dieName(v, { up: up[i], counts }),
        }, PIPS[v] ?? v);
      })),
      el("div", { class: "facts" }, tn("dice", p.dice)));
  }));
  $("seats").dataset.step = String(index);
  $("bids").replaceChildren(...(round?.bids ?? []).map((b) => el("li", {}, `${b.player}: ${bidText(b.bid)}`)));
}

async function show(i) {
  index = Math.max(0, Math.min(total - 1, i));
  slider.value = String(index);
  const asked = index;
  try {
    const frame = await stepAt(asked);
    if (asked === index) draw(frame); // a later click may have asked for another step meanwhile
  } catch (error) {
    $("line").textContent = error.message;
  }
}

const ready = stepAt(0).then(() => { slider.max = String(Math.max(0, total - 1)); });
const when = (go) => () => ready.then(go);
$("first").addEventListener("click", when(() => show(0)));
$("prev").addEventListener("click", when(() => show(index - 1)));
$("next").addEventListener("click", when(() => show(index + 1)));
$("last").addEventListener("click", when(() => show(total - 1)));
slider.addEventListener("input", () => show(Number(slider.value)));
$("play").addEventListener("click", () => {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = t("play"); return; }
  $("play").textContent = t("pause");
  timer = setInterval(() => { if (index >= total - 1) $("play").click(); else show(index + 1); }, 900);
});
ready.then(() => show(0), (error) => { $("line").textContent = error.message; });
