// The table page: one WebSocket, the server's state rendered, intents sent back. Its parts:
// seats.js (the seats and dice), mine.js (your dice, your moves' payloads), now.js (the bid or
// ruling beside the actions), reveal.js, frame.js (share link and settings, waiting room, banner,
// the bids' recap at a reveal, the log), announce.js (the live region), focus.js, clock.js (the
// turn clock), panel.js (rules and odds over the table).
import { PAGE_LANGUAGE, PIPS, el, faceWord, bidText, postJSON, t } from "./api.js";
import { announce, tellings } from "./announce.js";
import { setClock, startClock } from "./clock.js";
import { focusHeld, rebuilding, settleFocus } from "./focus.js";
import { newTableLink, renderBanner, renderLog, renderRecap, renderVotes, renderWaiting, wireShare } from "./frame.js";
import { payloadPickers, renderMine, withPayload } from "./mine.js";
import { renderNow } from "./now.js";
import { wirePanel } from "./panel.js";
import { release, renderReveal, wireKeepReveal } from "./reveal.js";
import { botName, seatList } from "./seats.js";
import { makePlayer, wake } from "./sound.js";

const boot = JSON.parse(document.getElementById("boot").textContent);
const quantityLabel = document.getElementById("bid-quantity").getAttribute("aria-label");
const $ = (id) => document.getElementById(id);
let seatToken = boot.seat_token;
let socket = null;
let state = null; // the last "state" message
let nextId = 1;
let retry = 0;
let closedForGood = false;
let busyWait = 0; // ms before retrying after "try again later" (1013); grows, reset on welcome
let myTurn = false; // whether the last state offered this seat a move
let moveSent = false; // a move was sent and no state or error has answered it yet
const baseTitle = document.title;
const MUTE_KEY = "liarsdice.muted"; // localStorage: "1" when the sounds are off
const play = makePlayer(() => $("mute").checked);
let shownReveal = null; // the key of the reveal already animated (it plays once)
let shownRound = null; // the key of the roll already animated

// Text this script writes for players comes translated from the server (api.js: t, tn); the
// rest of the page's text is in table.html.
// A player's name where it stands alone: a bot's "(bot)" in the page's language.
const shownName = (name) => (/\s*\(bot\)$/i.test(name ?? "") ? t("botName", { name: botName(name) }) : name);
// Calls by their titles in the page's language (from the plugins that make them).
const callTitle = (kind) => boot.config.call_titles?.[kind] ?? `${kind[0].toUpperCase()}${kind.slice(1)}`;
// WebSocket close codes the server uses (docs/protocol.md).
const GONE = 4404; // no live table has this code: stop
const KICKED = 4403; // the host removed this seat: stop
const REPLACED = 4409; // this seat was opened in a newer tab, which keeps it: stop
// What each of those says, in the page's language (the close frame's reason is English).
const STOPPED = { [GONE]: "tableClosed", [KICKED]: "kicked", [REPLACED]: "replaced" };
const BUSY = 1013; // the server (or this client's socket cap) is full: retry later, slower
const BUSY_FIRST = 2000;
const BUSY_MAX = 60000;

function send(type, fields = {}) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify({ v: 1, type, id: nextId++, ...fields }));
}

/**
 * Make your move: the reveal kept up is read (see reveal.js). One move until the server answers
 * it (a state, or an error): a double click's second click is dropped, not refused as out of
 * turn. The buttons stay enabled, so that keyboard focus stays on them.
 */
function act(type, fields) {
  if (moveSent) return;
  moveSent = true;
  release();
  send(type, fields);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // The page's own language, not the handshake's Accept-Language: Chromium may send another.
  socket = new WebSocket(`${proto}//${location.host}/ws/${boot.code}?lang=${encodeURIComponent(PAGE_LANGUAGE)}`);
  socket.addEventListener("open", () => {
    retry = 0;
    setOnline(true);
    $("connection").textContent = seatToken ? t("connected") : t("watching");
    send("hello", seatToken ? { seat_token: seatToken } : {});
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.v !== 1) return;
    if (message.type === "state") render(message);
    else if (message.type === "error") {
      moveSent = false; // refused: the state did not change, the player may move again
      $("action-error").textContent = message.error;
    }
    else if (message.type === "kicked") stop(message.reason ?? t("kicked"));
    else if (message.type === "welcome") {
      busyWait = 0;
      $("connection").textContent = message.seat === null
        ? t("watching") : t("connectedAs", { name: message.name });
    }
  });
  socket.addEventListener("close", (event) => {
    if (closedForGood || event.target !== socket) return; // a socket replaced by reconnect()
    if (event.code in STOPPED) {
      stop(t(STOPPED[event.code]), event.code === REPLACED ? t("seatElsewhere") : null);
      return;
    }
    if (event.code === BUSY) {
      busyWait = busyWait ? Math.min(BUSY_MAX, busyWait * 2) : BUSY_FIRST;
      $("connection").textContent = t("busy", { seconds: Math.round(busyWait / 1000) });
      setTimeout(connect, busyWait);
      return;
    }
    $("connection").textContent = t("lost");
    setOnline(false);
    setTimeout(reconnectUnlessGone, Math.min(10000, 500 * 2 ** retry++));
  });
}

// A close code can be lost on the way (a proxy, or a server that writes after the close frame:
// the browser then reports 1006), so before reconnecting ask once whether the table still exists.
async function reconnectUnlessGone() {
  if (closedForGood) return;
  try {
    const response = await fetch(`/api/tables/${boot.code}`, { credentials: "same-origin" });
    if (response.status === 404) {
      const answer = await response.json().catch(() => ({}));
      stop(answer.error ?? t("noTable", { code: boot.code }));
      return;
    }
  } catch {
    // the server is unreachable: keep trying the socket
  }
  connect();
}

/**
 * Show whether the page is connected: while it is not, a banner says so and every control that
 * sends something is disabled (a move sent now would be lost); the next state restores them.
 */
function setOnline(online) {
  $("offline").hidden = online;
  document.body.classList.toggle("offline", !online);
  // Back online, the next state sets the bid and call buttons and the rematch afresh.
  const controls = online ? "#actions select, #start, #sit" : "#actions button, #actions select, #start, #rematch, #sit";
  for (const control of document.querySelectorAll(controls)) control.disabled = !online;
}

/**
 * Stop reconnecting for good and say why, with a way back to the lobby. Nothing of the table is
 * live any more: no turn, no clock, no moves, no rematch. `headline`, when given, is also said in
 * the banner (a seat now played in another tab).
 */
function stop(reason, headline = null) {
  closedForGood = true;
  setOnline(true); // no offline banner: the line says why the page stopped
  seatToken = null;
  $("connection").replaceChildren(t("disconnected", { reason }), el("a", { href: "/" }, t("backToLobby")));
  $("connection").className = "hint stopped";
  $("sit-form").hidden = true;
  $("start").hidden = true;
  setClock(null, 0, null, false);
  $("turn").textContent = "";
  $("turn").hidden = true;
  $("clock").hidden = true;
  $("actions").hidden = true;
  $("rematch").hidden = true;
  $("votes").hidden = true;
  $("phrases").hidden = true;
  $("now").hidden = true;
  document.body.classList.remove("revealing", "game-over");
  if (headline) {
    $("banner").hidden = false;
    $("banner").replaceChildren(el("strong", { id: "elsewhere" }, headline), " ", el("a", { href: "/" }, t("backToLobby")));
  }
  noteTurn(false);
}

function reconnect() {
  if (socket) {
    const old = socket;
    socket = null;
    old.onclose = null;
    old.close();
  }
  connect();
}

// --- rendering -------------------------------------------------------------------------------

const renderSeats = seatList($("seats"), boot.config, send);

function render(message) {
  const before = state;
  const held = focusHeld();
  state = message;
  const table = message.table;
  const view = message.view;
  const reveal = message.reveal;
  const revealKey = reveal ? JSON.stringify([reveal.round, reveal.call, reveal.caller, reveal.losers]) : null;
  const freshReveal = Boolean(reveal) && revealKey !== shownReveal;
  shownReveal = revealKey;
  const rollKey = view?.round && !reveal ? JSON.stringify([table.game_id, view.round, view.own_dice]) : null;
  const freshRoll = Boolean(rollKey) && rollKey !== shownRound && !view.bids?.length;
  if (rollKey) shownRound = rollKey;
  $("action-error").textContent = "";
  moveSent = false;
  renderWaiting(message, boot, closedForGood);
  renderSeats(message, freshReveal);
  const turn = view?.turn;
  const mine = message.seat !== null && view && turn === view.viewer;
  $("turn").textContent = table.status === "playing"
    ? turn ? (mine ? t("yourTurn") : t("theirTurn", { name: shownName(turn) })) : t("cupsLifted")
    : "";
  $("turn").hidden = !$("turn").textContent; // no empty box to focus or to see
  $("turn").className = mine ? "turn mine" : "turn";
  $("clock").hidden = table.status !== "playing";
  const clockKey = JSON.stringify([table.game_id, view?.round, view?.bids?.length, turn, table.status]);
  setClock(table.remaining, table.turn_seconds, clockKey, Boolean(mine && message.legal));
  renderActions(message.legal);
  renderMine(message);
  if (freshRoll) {
    for (const die of $("my-dice").querySelectorAll(".die")) die.classList.add("rolling");
    play("roll");
  }
  const sounds = renderNow($("now"), message, {
    chambers: boot.config.options["revolver.chambers"],
    diceLoss: boot.config.variants.includes("dice-loss"),
    fresh: freshReveal,
    nameOf: shownName,
  });
  sounds.forEach((name, i) => setTimeout(() => play(name), i * 700));
  document.body.classList.toggle("revealing", Boolean(reveal));
  document.body.classList.toggle("game-over", table.status === "over");
  $("bids").replaceChildren(...(view?.bids ?? []).map((b) => el("li", {}, `${shownName(b.player)}: ${bidText(b.bid)}`)));
  renderReveal(reveal, shownName);
  renderRecap(view, reveal, shownName);
  renderLog(message);
  renderBanner(message, shownName);
  $("rematch").hidden = !(table.status === "over" && message.seat !== null);
  const me = message.seat !== null ? table.seats[message.seat] : null;
  $("rematch").disabled = Boolean(me?.rematch);
  $("rematch").textContent = me?.rematch ? t("waitingRematch") : t("rematch");
  renderVotes(message, shownName);
  $("phrases").hidden = message.seat === null || closedForGood; // a spectator says nothing
  const myInfo = view?.seats.find((s) => s.name === view.viewer);
  const out = message.seat !== null && table.status === "playing" && myInfo && !myInfo.alive;
  $("after").hidden = !(out || table.status === "over" || table.status === "stopped");
  const turnStarted = noteTurn(Boolean(mine && message.legal));
  announce(...tellings(before, message, { freshReveal, turnStarted, nameOf: shownName }));
  settleFocus({ held, turnStarted });
}

// --- your turn: a mark in the tab's title and a short beep -----------------------------------

/** Mark whether it is your turn `now`; true when your turn starts with this state. */
function noteTurn(now) {
  const started = now && !myTurn;
  if (started) play("turn");
  myTurn = now;
  document.title = now ? t("yourTurnTitle", { title: baseTitle }) : baseTitle;
  document.body.classList.toggle("my-turn", now);
  return started;
}

function mutedBefore() {
  try {
    return localStorage.getItem(MUTE_KEY) === "1";
  } catch {
    return false; // storage refused (private mode): the sound is on
  }
}

function renderActions(legal) {
  const form = $("actions");
  form.hidden = !legal;
  if (!legal) return;
  // Out of turn only the calls the rules allow there are offered (calza.anyone's exact).
  form.classList.toggle("out-of-turn", Boolean(legal.out_of_turn));
  form.querySelector(".bid-picker").hidden = Boolean(legal.out_of_turn);
  $("out-of-turn-hint").hidden = !legal.out_of_turn;
  $("out-of-turn-hint").textContent = legal.out_of_turn ? t("outOfTurn") : "";
  const quantities = [...new Set(legal.bids.map(([q]) => q))];
  const quantitySelect = $("bid-quantity");
  const min = legal.bids[0];
  quantitySelect.replaceChildren(...quantities.map((q) => el("option", { value: q, selected: min && q === min[0] }, q)));
  fillFaces(legal, min ? min[1] : null);
  // A bid of one number (boot.config.bid_fields: ["total"]) has no face to choose: face 0.
  const oneNumber = (boot.config.bid_fields ?? []).length === 1;
  $("bid-face").hidden = oneNumber;
  quantitySelect.setAttribute("aria-label", oneNumber ? t("bidTotalLabel") : quantityLabel);
  $("bid-button").disabled = legal.bids.length === 0;
  const offers = legal.payloads ?? {};
  $("bid-extras").replaceChildren(...payloadPickers("bid", offers.bid));
  const help = boot.config.call_help ?? {};
  rebuilding($("calls"), "data-call", () => $("calls").replaceChildren(...legal.calls.map((kind) => {
    const button = el("button", {
      type: "button", class: `call ${kind}`, "data-call": kind, title: help[kind],
      onclick: () => act("call", withPayload({ kind }, kind)),
    }, callTitle(kind));
    const pickers = payloadPickers(kind, offers[kind]);
    return pickers.length ? el("span", { class: "call-group" }, button, ...pickers) : button;
  })));
}

function fillFaces(legal, preferred) {
  const q = Number($("bid-quantity").value);
  const faces = legal.bids.filter(([quantity]) => quantity === q).map(([, face]) => face);
  $("bid-face").replaceChildren(...faces.map((f) => el("option", { value: f, selected: f === preferred }, `${PIPS[f]} ${faceWord(f, q)}`)));
}

// --- wiring ------------------------------------------------------------------------------------

$("bid-quantity").addEventListener("change", () => state?.legal && fillFaces(state.legal, Number($("bid-face").value)));
$("actions").addEventListener("submit", (event) => {
  event.preventDefault();
  act("bid", withPayload({ quantity: Number($("bid-quantity").value), face: Number($("bid-face").value) }, "bid"));
});
$("start").addEventListener("click", () => send("start"));
for (const button of document.querySelectorAll("#phrases button")) {
  button.addEventListener("click", () => send("say", { phrase: button.dataset.phrase })); // tables/phrases.py
}
$("new-table").href = newTableLink(boot);
wireKeepReveal();
wirePanel();
$("mute").checked = mutedBefore();
$("mute").addEventListener("change", () => {
  try {
    localStorage.setItem(MUTE_KEY, $("mute").checked ? "1" : "0");
  } catch {
    // storage refused: the switch lasts as long as the page
  }
});
$("rematch").addEventListener("click", () => send("rematch"));
wireShare();
$("sit-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = { nickname: $("sit-nickname").value };
  if (boot.key) body.key = boot.key;
  const answer = await postJSON(`/api/tables/${boot.code}/seat`, body);
  if (!answer.ok) {
    $("sit-error").textContent = answer.error;
    return;
  }
  seatToken = answer.seat_token;
  reconnect();
});
window.addEventListener("beforeunload", () => { closedForGood = true; });
// Browsers let a page play sound once it has had a click or a key: wake the sound up then.
for (const kind of ["pointerdown", "keydown"]) window.addEventListener(kind, wake);

connect();
startClock();
