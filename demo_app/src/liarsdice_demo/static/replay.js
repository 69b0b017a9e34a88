// The replay page: step through a finished game's states (every die shown: the game is over).
import { PIPS, bidText, dieName, el, faceUp, t, tn } from "./api.js";

const frames = JSON.parse(document.getElementById("frames").textContent);
const $ = (id) => document.getElementById(id);
const slider = $("step");
slider.max = String(Math.max(0, frames.length - 1));
let index = 0;
let timer = null;

function show(i) {
  index = Math.max(0, Math.min(frames.length - 1, i));
  slider.value = String(index);
  const frame = frames[index];
  if (!frame) return;
  const state = frame.state;
  $("line").textContent = frame.text;
  $("counter").textContent = `${index + 1} / ${frames.length}`;
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
  $("bids").replaceChildren(...(round?.bids ?? []).map((b) => el("li", {}, `${b.player}: ${bidText(b.bid)}`)));
}

$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(index - 1));
$("next").addEventListener("click", () => show(index + 1));
$("last").addEventListener("click", () => show(frames.length - 1));
slider.addEventListener("input", () => show(Number(slider.value)));
$("play").addEventListener("click", () => {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = t("play"); return; }
  $("play").textContent = t("pause");
  timer = setInterval(() => { if (index >= frames.length - 1) $("play").click(); else show(index + 1); }, 900);
});
show(0);
