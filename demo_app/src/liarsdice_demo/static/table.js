// The table page: one WebSocket, the server's state rendered, intents sent back.
import { PAGE_LANGUAGE, PIPS, el, faceUp, faceWord, bidText, levelName, listing, postJSON, t, tn } from "./api.js";
import { renderNow } from "./now.js";
import { makePlayer, wake } from "./sound.js";

const boot = JSON.parse(document.getElementById("boot").textContent);
const $ = (id) => document.getElementById(id);
let seatToken = boot.seat_token;
let socket = null;
let state = null; // the last "state" message
let deadline = null; // performance.now() at which the turn clock runs out
let nextId = 1;
let retry = 0;
let closedForGood = false;
let busyWait = 0; // ms before retrying after "try again later" (1013); grows, reset on welcome
let marked = new Set(); // indices into own_dice the player picked to show with the bid (bluff)
let markedFor = null; // the round and dice those marks belong to
let myTurn = false; // whether the last state offered this seat a move
const baseTitle = document.title;
const MUTE_KEY = "liarsdice.muted"; // localStorage: "1" when the sounds are off
const play = makePlayer(() => $("mute").checked);
let shownReveal = null; // the key of the reveal already animated (it plays once)
let shownRound = null; // the key of the roll already animated
let outBefore = new Set(); // the players out at the last render

// Text this script writes for players comes translated from the server (api.js: t, tn); the
// rest of the page's text is in table.html.
// A bot's seat: "Boris · bot, hard" (its name without "(bot)", then its level, or its kind).
const botName = (name) => name.replace(/\s*\(bot\)/i, "");
// A player's name where it stands alone: a bot's "(bot)" in the page's language.
const shownName = (name) => (/\s*\(bot\)$/i.test(name ?? "") ? t("botName", { name: botName(name) }) : name);
// Calls by their titles in the page's language (from the plugins that make them).
const callTitle = (kind) => boot.config.call_titles?.[kind] ?? `${kind[0].toUpperCase()}${kind.slice(1)}`;
// WebSocket close codes the server uses (docs/protocol.md).
const GONE = 4404; // no live table has this code: stop
const KICKED = 4403; // the host removed this seat: stop
const REPLACED = 4409; // this seat was opened in a newer tab, which keeps it: stop
const BUSY = 1013; // the server (or this client's socket cap) is full: retry later, slower
const BUSY_FIRST = 2000;
const BUSY_MAX = 60000;
// Calls whose ruling counts the dice matching the bid (a doubt is about the passer's dice).
const countsTheBid = (call) => call !== "doubt";

function send(type, fields = {}) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify({ v: 1, type, id: nextId++, ...fields }));
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
    else if (message.type === "error") $("action-error").textContent = message.error;
    else if (message.type === "kicked") stop(message.reason ?? t("kicked"));
    else if (message.type === "welcome") {
      busyWait = 0;
      $("connection").textContent = message.seat === null
        ? t("watching") : t("connectedAs", { name: message.name });
    }
  });
  socket.addEventListener("close", (event) => {
    if (closedForGood || event.target !== socket) return; // a socket replaced by reconnect()
    if (event.code === GONE || event.code === KICKED || event.code === REPLACED) {
      stop(event.reason || t("noLongerConnected"));
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

/** Stop reconnecting for good and say why, with a way back to the lobby. */
function stop(reason) {
  closedForGood = true;
  setOnline(true); // no banner: the line says why the page stopped
  seatToken = null;
  $("connection").replaceChildren(t("disconnected", { reason }), el("a", { href: "/" }, t("backToLobby")));
  $("connection").className = "hint stopped";
  $("sit-form").hidden = true;
  $("start").hidden = true;
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

// `up[i]` marks dice that are face up on the table (seen by everyone).
function dice(values, matching = null, hiddenCount = 0, up = []) {
  const shown = (values ?? []).map((v, i) =>
    el("span", {
      class: `die${matching && matching.includes(v) ? " match" : ""}${up[i] ? " up" : ""}`,
      title: up[i] ? t("faceUp", { value: v }) : String(v),
    }, PIPS[v] ?? v),
  );
  const hidden = Array.from({ length: hiddenCount }, () => el("span", { class: "die hidden", title: t("underCup") }, "■"));
  return [...shown, ...hidden];
}

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

// Your dice, big: face-up ones outlined; on your turn, when a bid may show dice (bluff), the
// hidden ones are buttons that mark them to go face up with the bid.
function renderMine(message) {
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
    mine = view.own_dice.map((v, i) => {
      if (up[i] || !picking) return dice([v], null, 0, [up[i]])[0];
      const isMarked = marked.has(i);
      return el("button", {
        type: "button",
        class: `die pick${isMarked ? " marked" : ""}`,
        title: isMarked ? t("pickShown", { value: v }) : t("pickHidden", { value: v }),
        "aria-pressed": isMarked ? "true" : "false",
        "data-index": i,
        onclick: () => {
          if (marked.has(i)) marked.delete(i);
          else marked.add(i);
          renderMine(state);
        },
      }, PIPS[v] ?? v);
    });
    if (up.some(Boolean)) mine.push(el("small", { class: "up-note" }, t("upNote")));
  } else mine = [el("span", { class: "hint" }, "—")];
  $("my-dice").replaceChildren(...mine);
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

// Payloads offered by plugins the page has no special control for: a menu per plugin.
function payloadPickers(action, offers) {
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
  if (action === "bid" && marked.size && state?.view?.own_dice) payload.bluff = { show: markedFaces(state.view) };
  return payload;
}

function withPayload(fields, action) {
  const payload = payloadFor(action);
  return Object.keys(payload).length ? { ...fields, payload } : fields;
}

function render(message) {
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
  renderWaiting(message);
  renderSeats(message, freshReveal);
  const turn = view?.turn;
  const mine = message.seat !== null && view && turn === view.viewer;
  $("turn").textContent = table.status === "playing"
    ? turn ? (mine ? t("yourTurn") : t("theirTurn", { name: shownName(turn) })) : t("cupsLifted")
    : "";
  $("turn").className = mine ? "turn mine" : "turn";
  deadline = table.remaining === null ? null : performance.now() + table.remaining * 1000;
  renderActions(message.legal);
  renderMine(message);
  if (freshRoll) {
    for (const die of $("my-dice").querySelectorAll(".die")) die.classList.add("rolling");
    play("roll");
  }
  const sounds = renderNow($("now"), message, { chambers: boot.config.options["revolver.chambers"], fresh: freshReveal, nameOf: shownName });
  sounds.forEach((name, i) => setTimeout(() => play(name), i * 700));
  document.body.classList.toggle("revealing", Boolean(reveal));
  $("bids").replaceChildren(...(view?.bids ?? []).map((b) => el("li", {}, `${shownName(b.player)}: ${bidText(b.bid)}`)));
  renderReveal(reveal);
  // Newest first, numbered so that the newest line has the highest number.
  $("log").replaceChildren(...message.log.map((line, i) => el("li", { value: i + 1 }, line)).reverse());
  renderBanner(message);
  $("rematch").hidden = !(table.status === "over" && message.seat !== null);
  const me = message.seat !== null ? table.seats[message.seat] : null;
  $("rematch").disabled = Boolean(me?.rematch);
  $("rematch").textContent = me?.rematch ? t("waitingRematch") : t("rematch");
  const myInfo = view?.seats.find((s) => s.name === view.viewer);
  const out = message.seat !== null && table.status === "playing" && myInfo && !myInfo.alive;
  $("after").hidden = !(out || table.status === "over" || table.status === "stopped");
  noteTurn(Boolean(mine && message.legal));
}

// --- your turn: a mark in the tab's title and a short beep -----------------------------------

function noteTurn(now) {
  if (now && !myTurn) play("turn");
  myTurn = now;
  document.title = now ? t("yourTurnTitle", { title: baseTitle }) : baseTitle;
  document.body.classList.toggle("my-turn", now);
}

function mutedBefore() {
  try {
    return localStorage.getItem(MUTE_KEY) === "1";
  } catch {
    return false; // storage refused (private mode): the sound is on
  }
}

let copiedTimer = null;

/** Copy the share link; say "Copied" for a moment, or, when the clipboard is refused, select
 * the link and ask the player to copy it themselves. */
async function copyLink() {
  const note = $("copied");
  let text = t("copied");
  try {
    if (!navigator.clipboard) throw new Error("no clipboard");
    await navigator.clipboard.writeText($("share").value);
  } catch {
    $("share").select();
    text = t("copyYourself");
  }
  note.textContent = text;
  note.hidden = false;
  clearTimeout(copiedTimer);
  copiedTimer = setTimeout(() => { note.hidden = true; }, 2500);
}

/** The lobby's address with this table's settings filled in (see lobby.js). */
function newTableLink() {
  const config = boot.config;
  const query = new URLSearchParams({
    preset: config.preset ?? "",
    variants: config.variants.join(","),
    options: JSON.stringify(config.options ?? {}),
    seats: config.seats,
    bot_kind: config.bot_kind ?? "none",
    turn_seconds: config.turn_seconds,
    dice_per_player: config.dice_per_player,
    rated: config.rated ? "1" : "",
    public: boot.public ? "1" : "",
  });
  return `/?${query}`;
}

function renderWaiting(message) {
  const table = message.table;
  const waiting = table.status === "waiting";
  $("waiting").hidden = !waiting;
  if (!waiting) return;
  const taken = table.seats.filter(Boolean).length;
  // "hard" (in the page's language), or a kind without a level
  const bots = boot.config.bot_level ? levelName(boot.config.bot_level) : boot.config.bot_kind;
  $("waiting-text").textContent = t("waiting", { taken, seats: table.seats.length }) +
    (bots ? t("emptyBots", { level: bots }) : t("emptyDropped"));
  const mayAsk = boot.public || boot.key; // a private table needs the share link's key
  $("sit-form").hidden = closedForGood || message.seat !== null || taken >= table.seats.length || !mayAsk;
  if (!mayAsk && message.seat === null && !closedForGood) {
    $("waiting-text").textContent += t("privateAsk");
  }
  const me = message.seat !== null ? table.seats[message.seat] : null;
  $("start").hidden = closedForGood || !(me && me.host);
}

/** The host's "remove" button for seat `index` before the start (others get nothing). */
function kickButton(message, seat, index) {
  const me = message.seat !== null ? message.table.seats[message.seat] : null;
  if (!me?.host || message.table.status !== "waiting" || index === message.seat || seat.kind !== "human") return null;
  return el("button", {
    type: "button", class: "kick", "data-kick": index, title: t("removeTitle", { name: seat.name }),
    onclick: () => send("kick", { seat: index }),
  }, t("remove"));
}

/** The seats; `freshReveal`: this reveal is new, so the cups lift and the newly out fall. */
function renderSeats(message, freshReveal = false) {
  const table = message.table;
  const view = message.view;
  const reveal = message.reveal;
  const chambers = boot.config.options["revolver.chambers"];
  const cards = table.seats.map((seat, index) => {
    if (!seat) return el("div", { class: "seat empty" }, el("div", { class: "name" }, t("seat", { number: index + 1 })), el("div", { class: "hint" }, t("empty")));
    const info = view?.seats.find((s) => s.name === seat.name);
    const alive = info ? info.alive : true;
    const classes = ["seat"];
    if (view?.turn === seat.name) classes.push("on-turn");
    if (!alive) classes.push("out");
    if (message.seat === index) classes.push("me");
    if (view?.winners.includes(seat.name)) classes.push("winner");
    if (!alive && freshReveal && !outBefore.has(seat.name) && reveal.losers.includes(seat.name)) classes.push("falling");
    let diceRow = [];
    // Once the cups are lifted every die that was under them is shown, a player's whom the call
    // put out of the game included: the count is of all of them.
    const revealed = reveal?.rolls?.[seat.name];
    if (info && revealed) {
      const matching = countsTheBid(reveal.call) ? reveal.matching_faces : null;
      diceRow = dice(revealed, matching, 0, faceUp(revealed, info.shown ?? []));
      if (freshReveal) diceRow.forEach((die) => die.classList.add("lifted"));
    } else if (info && alive) {
      const shown = info.shown ?? [];
      const seen = message.seat === index ? view.own_dice : view.seen?.[seat.name];
      if (seen) diceRow = dice(seen, null, 0, faceUp(seen, shown));
      else diceRow = dice(shown, null, Math.max(0, info.dice - shown.length), shown.map(() => true));
    }
    const facts = [];
    if (info && revealed && revealed.length !== info.dice) {
      facts.push(tn("diceNow", revealed.length, { after: alive ? info.dice : t("out") })); // "5 dice → 4"
    } else if (info) facts.push(tn("dice", info.dice));
    if (info?.public?.bullets !== undefined) {
      facts.push(el("span", { class: "revolver", title: t("bulletsTitle") }, tn("bullets", info.public.bullets, { chambers: chambers ?? "?" })));
    }
    if (info?.public?.team !== undefined) facts.push(t("team", { number: info.public.team }));
    for (const [key, value] of Object.entries(info?.public ?? {})) if (key !== "bullets" && key !== "team") facts.push(`${key}: ${value}`);
    return el("div", { class: classes.join(" "), "data-seat": index },
      el("div", { class: "name" }, seat.kind === "bot" ? botName(seat.name) : seat.name, seat.host ? " ★" : "",
        seat.kind === "bot" ? el("small", { title: seat.bot_kind }, t("botSeat", { level: (seat.bot_kind === boot.config.bot_kind && boot.config.bot_level && levelName(boot.config.bot_level)) || seat.bot_kind })) : null,
        kickButton(message, seat, index)),
      el("div", { class: "status" }, !alive ? t("out") : seat.connected ? "" : seat.stand_in ? t("standIn") : t("away")),
      el("div", { class: "dice" }, diceRow),
      el("div", { class: "facts" }, facts.flatMap((f, i) => (i ? [" · ", f] : [f]))),
    );
  });
  $("seats").replaceChildren(...cards);
  outBefore = new Set((view?.seats ?? []).filter((s) => !s.alive).map((s) => s.name));
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
  $("bid-button").disabled = legal.bids.length === 0;
  const offers = legal.payloads ?? {};
  $("bid-extras").replaceChildren(...payloadPickers("bid", offers.bid));
  const help = boot.config.call_help ?? {};
  $("calls").replaceChildren(...legal.calls.map((kind) => {
    const button = el("button", {
      type: "button", class: `call ${kind}`, "data-call": kind, title: help[kind],
      onclick: () => send("call", withPayload({ kind }, kind)),
    }, callTitle(kind));
    const pickers = payloadPickers(kind, offers[kind]);
    return pickers.length ? el("span", { class: "call-group" }, button, ...pickers) : button;
  }));
}

function fillFaces(legal, preferred) {
  const q = Number($("bid-quantity").value);
  const faces = legal.bids.filter(([quantity]) => quantity === q).map(([, face]) => face);
  $("bid-face").replaceChildren(...faces.map((f) => el("option", { value: f, selected: f === preferred }, `${PIPS[f]} ${faceWord(f, q)}`)));
}

function renderReveal(reveal) {
  const box = $("reveal");
  box.hidden = !reveal;
  box.dataset.count = reveal?.count ?? "";
  if (!reveal) return;
  const counted = reveal.matching_faces && countsTheBid(reveal.call)
    ? t("counted", { faces: reveal.matching_faces.map((f) => PIPS[f]).join(" ") }) : "";
  box.replaceChildren(el("p", { class: "ruling" }, reveal.explanation), counted ? el("p", { class: "hint" }, counted) : "");
}

function renderBanner(message) {
  const banner = $("banner");
  const winners = (message.view?.winners ?? []).map(shownName);
  const stopped = message.table.status === "stopped" && message.table.stopped;
  banner.hidden = !(message.table.status === "over" && winners.length) && !stopped;
  if (banner.hidden) return;
  if (stopped) {
    banner.replaceChildren(el("strong", { id: "stopped" }, message.table.stopped));
    return;
  }
  const won = winners.length === 1 ? t("wins", { name: winners[0] }) : t("winTogether", { names: listing(winners) });
  const parts = [el("strong", { id: "winner" }, won)];
  const ratings = message.table.ratings;
  if (ratings) {
    parts.push(el("span", {}, t("ratings", { list: Object.entries(ratings)
      .map(([name, r]) => `${name} ${r.after} (${r.delta >= 0 ? "+" : ""}${r.delta})`).join(", ") })));
  }
  if (message.table.game_id) parts.push(" ", el("a", { href: `/games/${message.table.game_id}` }, t("replayGame")));
  banner.replaceChildren(...parts);
}

// The turn clock's seconds as the page's language writes them: "12 s" (as in "60 s per turn"),
// "12 с" in Ukrainian and Russian.
const SECONDS = document.documentElement.lang === "en" ? null
  : new Intl.NumberFormat(document.documentElement.lang, { style: "unit", unit: "second", unitDisplay: "short" });
const seconds = (n) => (SECONDS ? SECONDS.format(n) : `${n} s`);

function tick() {
  const bar = $("clock-bar");
  if (deadline === null || !state) {
    bar.style.width = "0";
    $("turn").dataset.left = "";
  } else {
    const left = Math.max(0, deadline - performance.now()) / 1000;
    bar.style.width = `${(100 * left) / state.table.turn_seconds}%`;
    bar.className = left < 10 ? "low" : "";
    const turn = $("turn");
    const base = turn.textContent.replace(/ · \d+\s?\S+$/, "");
    turn.textContent = `${base} · ${seconds(Math.ceil(left))}`;
  }
  requestAnimationFrame(tick);
}

// --- wiring ------------------------------------------------------------------------------------

$("bid-quantity").addEventListener("change", () => state?.legal && fillFaces(state.legal, Number($("bid-face").value)));
$("actions").addEventListener("submit", (event) => {
  event.preventDefault();
  send("bid", withPayload({ quantity: Number($("bid-quantity").value), face: Number($("bid-face").value) }, "bid"));
});
$("start").addEventListener("click", () => send("start"));
$("new-table").href = newTableLink();
$("mute").checked = mutedBefore();
$("mute").addEventListener("change", () => {
  try {
    localStorage.setItem(MUTE_KEY, $("mute").checked ? "1" : "0");
  } catch {
    // storage refused: the switch lasts as long as the page
  }
});
$("rematch").addEventListener("click", () => send("rematch"));
$("copy").addEventListener("click", copyLink);
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
requestAnimationFrame(tick);
