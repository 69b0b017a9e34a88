// Your own dice, big, and what your moves carry: on your turn, when a bid may show dice (bluff),
// your hidden dice are toggle buttons that mark them to go face up with the bid; other plugins'
// payloads get a menu each.
import { PIPS, dieName, el, faceUp, t } from "./api.js";
import { rebuilding } from "./focus.js";
import { dice } from "./seats.js";

const $ = (id) => document.getElementById(id);
let current = null; // the last state message rendered
let marked = new Set(); // indices into own_dice the player picked to show with the bid (bluff)
let markedFor = null; // the round and dice those marks belong to

/** The dice a bid may show (bluff), or null when no bluff is on offer. */
function bluffChoices(legal) {
  return legal?.payloads?.bid?.bluff ?? null;
}

function markedFaces(view) {
  return [...marked].map((i) => view.own_dice[i]).sort((a, b) => a - b);
}

function markedAllowed(legal, view) {
  if (!marked.size) return true;
  const want = JSON.stringify(markedFaces(view));
  return (bluffChoices(legal) ?? []).some((c) => JSON.stringify([...c.show].sort((a, b) => a - b)) === want);
}

function pickButton(v, i) {
  const isMarked = marked.has(i);
  const word = dieName(v);
  return el("button", {
    type: "button",
    class: `die pick${isMarked ? " marked" : ""}`,
    title: isMarked ? t("pickShown", { value: v }) : t("pickHidden", { value: v }),
    "aria-label": isMarked ? t("pickShown", { value: word }) : t("pickHidden", { value: word }),
    "aria-pressed": isMarked ? "true" : "false",
    "data-index": i,
    onclick: () => {
      if (marked.has(i)) marked.delete(i);
      else marked.add(i);
      renderMine(current);
    },
  }, PIPS[v] ?? v);
}

/** Fill `#my-dice` with your dice from state `message` (and the bluff hint under the bid). */
export function renderMine(message) {
  current = message;
  const view = message.view;
  const myInfo = view?.seats.find((s) => s.name === view.viewer);
  let mine;
  if (message.seat === null) mine = [el("span", { class: "hint" }, t("youWatch"))];
  else if (myInfo && !myInfo.alive) mine = [el("span", { class: "hint" }, t("youAreOut"))];
  else if (view?.round && !view.revealed && !view.own_dice && myInfo?.dice) {
    // The rules hide your dice from you (forehead): they stay under the cup for you.
    const shown = myInfo.shown ?? [];
    mine = [...dice(shown, null, myInfo.dice - shown.length, shown.map(() => true)), el("span", { class: "hint" }, t("ownHidden"))];
  } else if (view?.own_dice) {
    const up = faceUp(view.own_dice, myInfo?.shown);
    const key = JSON.stringify([view.round, view.own_dice, myInfo?.shown]);
    const picking = Boolean(bluffChoices(message.legal));
    if (!picking || key !== markedFor) marked = new Set();
    markedFor = key;
    mine = view.own_dice.map((v, i) => (up[i] || !picking ? dice([v], null, 0, [up[i]])[0] : pickButton(v, i)));
    if (up.some(Boolean)) mine.push(el("small", { class: "up-note" }, t("upNote")));
  } else mine = [el("span", { class: "hint" }, "—")];
  rebuilding($("my-dice"), "data-index", () => $("my-dice").replaceChildren(...mine));
  renderBluff(message);
}

function renderBluff(message) {
  const hint = $("bluff-hint");
  const legal = message.legal;
  const offered = bluffChoices(legal);
  hint.hidden = !offered;
  $("bid-button").textContent = t("bid");
  if (!offered || !legal) return;
  const faces = markedFaces(message.view);
  const ok = markedAllowed(legal, message.view);
  $("bid-button").disabled = legal.bids.length === 0 || !ok;
  if (!faces.length) {
    hint.textContent = t("bluffHint");
  } else if (ok) {
    $("bid-button").textContent = t("bidShow", { faces: faces.map((f) => PIPS[f]).join("") });
    hint.textContent = t("bluffShow", { faces: faces.join(" ") });
  } else {
    hint.textContent = t("bluffRefused");
  }
}

/** Payloads offered by plugins the page has no special control for: a menu per plugin. */
export function payloadPickers(action, offers) {
  return Object.entries(offers ?? {})
    .filter(([plugin]) => !(action === "bid" && plugin === "bluff"))
    .map(([plugin, choices]) => el("select", { class: "payload", "data-action": action, "data-plugin": plugin, "aria-label": `${plugin} (${action})` },
      el("option", { value: "" }, `${plugin}: —`),
      choices.map((choice) => el("option", { value: JSON.stringify(choice) }, `${plugin}: ${JSON.stringify(choice)}`))));
}

function payloadFor(action) {
  const payload = {};
  for (const select of $("actions").querySelectorAll("select.payload")) {
    if (select.dataset.action === action && select.value) payload[select.dataset.plugin] = JSON.parse(select.value);
  }
  if (action === "bid" && marked.size && current?.view?.own_dice) payload.bluff = { show: markedFaces(current.view) };
  return payload;
}

/** The intent's `fields` with the payload chosen for `action`, if any. */
export function withPayload(fields, action) {
  const payload = payloadFor(action);
  return Object.keys(payload).length ? { ...fields, payload } : fields;
}
