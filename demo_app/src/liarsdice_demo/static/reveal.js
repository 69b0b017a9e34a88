// The reveal box under the bids: the faces that counted (the ruling itself is beside the actions,
// now.js) and, while the player keeps it up ("Keep the reveal up", `#keep-reveal`), the last
// ruling with every roll after the next round has started, until they uncheck the box, press
// "Hide the ruling" or make their move.
import { PIPS, dieName, el, t } from "./api.js";
import { countsTheBid, dice } from "./seats.js";

const $ = (id) => document.getElementById(id);
const KEEP_KEY = "liarsdice.keepReveal"; // localStorage: "1" while the reveal is kept up
let held = null; // the reveal kept up, and how to name its players: { reveal, nameOf }
let live = null; // the reveal the server shows now (null between reveals)

/** "Counted faces: ⚀ ⚄" with each face an image named in words. */
function countedLine(faces) {
  const [before, after = ""] = t("counted").split("{faces}");
  const pips = faces.flatMap((f, i) => [i ? " " : "", el("span", { class: "pips", role: "img", "aria-label": dieName(f) }, PIPS[f] ?? f)]);
  return el("p", { class: "hint" }, before, ...pips, after);
}

function fill(reveal, nameOf, kept) {
  const box = $("reveal");
  box.dataset.count = reveal.count ?? "";
  box.classList.toggle("held", kept);
  const counts = reveal.matching_faces && countsTheBid(reveal.call);
  // Live, the ruling is beside the actions (now.js); kept up, the round there has moved on.
  const parts = kept ? [el("p", { class: "ruling" }, reveal.explanation)] : [];
  if (counts) parts.push(countedLine(reveal.matching_faces));
  if (kept) {
    parts.push(el("ul", { class: "held-rolls" }, Object.entries(reveal.rolls ?? {}).map(([name, roll]) =>
      el("li", {}, `${nameOf(name)}: `, el("span", { class: "dice" }, dice(roll, counts ? reveal.matching_faces : null))))));
    parts.push(el("button", { type: "button", id: "reveal-done", onclick: release }, t("hideRuling")));
  }
  box.hidden = !parts.length; // a timeout counts nothing: the box has nothing to add
  box.replaceChildren(...parts);
}

function draw() {
  const box = $("reveal");
  if (live) fill(live.reveal, live.nameOf, false);
  else if (held) fill(held.reveal, held.nameOf, true);
  else {
    box.hidden = true;
    box.dataset.count = "";
    box.classList.remove("held");
    box.replaceChildren();
  }
}

/** Stop keeping the last reveal up (the player read it, or made their move). */
export function release() {
  const had = $("reveal").contains(document.activeElement);
  held = null;
  draw();
  if (had) $("turn").focus({ preventScroll: true });
}

/** Show state's `reveal` (null: none now); a reveal shown is kept while the box is checked. */
export function renderReveal(reveal, nameOf) {
  live = reveal ? { reveal, nameOf } : null;
  if (reveal) held = $("keep-reveal").checked ? live : null;
  draw();
}

function remembered() {
  try {
    return localStorage.getItem(KEEP_KEY) === "1";
  } catch {
    return false; // storage refused: the reveal clears as the table moves on
  }
}

/** Wire the "Keep the reveal up" switch (remembered on this browser). */
export function wireKeepReveal() {
  const keep = $("keep-reveal");
  keep.checked = remembered();
  keep.addEventListener("change", () => {
    try {
      localStorage.setItem(KEEP_KEY, keep.checked ? "1" : "0");
    } catch {
      // storage refused: the switch lasts as long as the page
    }
    if (!keep.checked) release();
    else if (live) held = live;
  });
}
