// The seats as a list, and dice as text: each die is an image named by its face in words, each
// seat says in words whose turn it is, which seat is yours and who is out.
import { PIPS, botTitles, botWords, dieName, el, faceUp, listing, t, tn } from "./api.js";
import { rebuilding } from "./focus.js";

// A bot's seat: "Boris · bot, hard" (its name without "(bot)", then its level, or its kind).
export const botName = (name) => name.replace(/\s*\(bot\)/i, "");
// Calls whose ruling counts the dice matching the bid (a doubt is about the passer's dice).
export const countsTheBid = (call) => call !== "doubt";

/**
 * Dice as elements: `values` face up to this viewer (`up[i]`: face up on the table, seen by
 * everyone; `matching`: the faces that count at a reveal), then `hiddenCount` dice under the cup.
 * Each is `role="img"` named in words: "four", "four, face up", "four, counts", "hidden".
 */
export function dice(values, matching = null, hiddenCount = 0, up = []) {
  const shown = (values ?? []).map((v, i) => {
    const counts = Boolean(matching?.includes(v));
    return el("span", {
      class: `die${counts ? " match" : ""}${up[i] ? " up" : ""}`,
      role: "img",
      "aria-label": dieName(v, { up: up[i], counts }),
      title: up[i] ? t("faceUp", { value: v }) : String(v),
    }, PIPS[v] ?? v);
  });
  const hidden = Array.from({ length: hiddenCount }, () =>
    el("span", { class: "die hidden", role: "img", "aria-label": dieName(null), title: t("underCup") }, "■"));
  return [...shown, ...hidden];
}

/** The seat of this page's player, if they sit at the table. */
const mySeat = (message) => (message.seat !== null ? message.table.seats[message.seat] : null);

/** Whether this page's player is the host and the game has not started. */
const hostWaiting = (message) => Boolean(mySeat(message)?.host) && message.table.status === "waiting";

/**
 * The host's "remove" button for seat `index` before the start (others get nothing): a player
 * is removed for good (`kick`), a bot is taken away and its seat is empty again (`remove_bot`).
 */
function removeButton(message, seat, index, send) {
  if (!hostWaiting(message) || index === message.seat) return null;
  const bot = seat.kind === "bot";
  return el("button", {
    type: "button", class: "kick", "data-kick": index, "data-control": `remove-${index}`,
    title: bot ? t("removeBotTitle") : t("removeTitle", { name: seat.name }),
    onclick: () => send(bot ? "remove_bot" : "kick", { seat: index }),
  }, t("remove"));
}

/**
 * The controls of empty seat `index` before the start: for the host, a bot's level and "Add"
 * (`add_bot`); for a seated player, "Sit here" (`move_seat`). `kinds`: the bot kinds by level,
 * `chosen()`/`choose(kind)`: the level picked last (kept while the seats are drawn again).
 */
function emptySeatControls(message, index, send, { kinds, chosen, choose }) {
  if (message.table.status !== "waiting" || message.seat === null) return null;
  const number = index + 1;
  const controls = [];
  if (hostWaiting(message) && kinds.length) {
    const picker = el("select", {
      class: "bot-kind", "data-control": `bot-kind-${index}`, "aria-label": t("botFor", { number }),
      onchange: (event) => choose(event.target.value),
    }, ...kinds.map(([kind, title]) => el("option", { value: kind, selected: kind === chosen() }, title)));
    controls.push(picker, el("button", {
      type: "button", class: "add-bot", "data-control": `add-bot-${index}`, title: t("addBotTitle", { number }),
      onclick: () => send("add_bot", { seat: index, kind: picker.value }),
    }, t("addBot")));
  }
  controls.push(el("button", {
    type: "button", class: "sit-here", "data-control": `sit-${index}`, title: t("sitHereTitle", { number }),
    onclick: () => send("move_seat", { seat: index }),
  }, t("sitHere")));
  return el("div", { class: "seat-tools" }, ...controls);
}

/** The host's mark: the word "host" in a small badge (a star is the winner's), its title saying
 * what a host does. */
function hostBadge() {
  return [" ", el("small", { class: "host-badge", title: t("hostTitle") }, t("host"))];
}

/** What a seat's status line says in words: on turn, out, away (or a bot playing for them). */
function statusWords(seat, info, onTurn) {
  const alive = info ? info.alive : true;
  const words = [];
  if (onTurn) words.push(el("span", { class: "on-turn-word" }, t("onTurn")));
  if (!alive) words.push(t("out"));
  else if (!seat.connected) words.push(seat.stand_in ? t("standIn") : t("away"));
  return words.flatMap((w, i) => (i ? [" · ", w] : [w]));
}

function facts(info, revealed, alive, chambers) {
  const list = [];
  if (info && revealed && revealed.length !== info.dice) {
    list.push(tn("diceNow", revealed.length, { after: alive ? info.dice : t("out") })); // "5 dice → 4"
  } else if (info) list.push(tn("dice", info.dice));
  if (info?.public?.bullets !== undefined) {
    list.push(el("span", { class: "revolver", title: t("bulletsTitle") }, tn("bullets", info.public.bullets, { chambers: chambers ?? "?" })));
  }
  if (info?.public?.team !== undefined) list.push(t("team", { number: info.public.team }));
  for (const [key, value] of Object.entries(info?.public ?? {})) if (key !== "bullets" && key !== "team") list.push(`${key}: ${value}`);
  return list.flatMap((f, i) => (i ? [" · ", f] : [f]));
}

/**
 * The watchers line under the seats (`watchers`: the state's `table.watchers`): "3 watching:
 * Mila, Petro and 1 guest", hidden when nobody watches.
 */
function renderWatchers(line, watchers) {
  if (!line) return;
  const count = watchers?.count ?? 0;
  line.hidden = !count;
  if (!count) return;
  const names = watchers.names ?? [];
  const guests = count - names.length;
  line.textContent = names.length
    ? tn("watchersNamed", count, { names: listing([...names, ...(guests > 0 ? [tn("guests", guests)] : [])]) })
    : tn("watchers", count);
}

/**
 * A seat renderer for `box` (the `<ul id="seats">`): `render(message, freshReveal)` fills it
 * with one `<li class="seat">` per seat. `freshReveal`: this reveal is new, so the cups lift and
 * the newly out fall. `config`: the table's (welcome) config; `send(type, fields)` sends an intent.
 */
export function seatList(box, config, send) {
  let outBefore = new Set(); // the players out at the last render
  const chambers = config.options["revolver.chambers"];
  const kinds = Object.entries(botTitles()); // [kind, "Medium bot"], easiest first
  let kind = kinds.some(([k]) => k === config.bot_kind) ? config.bot_kind : kinds[0]?.[0];
  const picking = { kinds, chosen: () => kind, choose: (k) => { kind = k; } };

  function card(message, seat, index, freshReveal) {
    if (!seat) {
      return el("li", { class: "seat empty", "data-seat": index },
        el("div", { class: "name" }, t("seat", { number: index + 1 })), el("div", { class: "hint" }, t("empty")),
        emptySeatControls(message, index, send, picking));
    }
    const { view, reveal } = message;
    const info = view?.seats.find((s) => s.name === seat.name);
    const alive = info ? info.alive : true;
    const onTurn = view?.turn === seat.name;
    const classes = ["seat"];
    if (onTurn) classes.push("on-turn");
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
    return el("li", { class: classes.join(" "), "data-seat": index },
      el("div", { class: "name" }, seat.kind === "bot" ? botName(seat.name) : seat.name,
        seat.host ? hostBadge() : null,
        // the space outside the label: a label that wraps starts its line at the card's edge
        message.seat === index ? [" ", el("small", { class: "you" }, `· ${t("you")}`)] : null,
        seat.kind === "bot" ? [" ", el("small", { title: seat.bot_kind }, t("botSeat", { bot: botWords(seat.bot_kind) }).trimStart())] : null,
        removeButton(message, seat, index, send)),
      el("div", { class: "status" }, statusWords(seat, info, onTurn)),
      el("div", { class: "dice" }, diceRow),
      el("div", { class: "facts" }, facts(info, revealed, alive, chambers)),
    );
  }

  return function render(message, freshReveal = false) {
    const cards = message.table.seats.map((seat, index) => card(message, seat, index, freshReveal));
    rebuilding(box, "data-control", () => box.replaceChildren(...cards));
    renderWatchers(document.getElementById("watchers"), message.table.watchers);
    outBefore = new Set((message.view?.seats ?? []).filter((s) => !s.alive).map((s) => s.name));
  };
}
