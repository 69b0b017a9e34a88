// What the table says aloud: one polite live region (`#announce`) that screen readers read, fed
// from the difference between two states (your turn and the bid to answer, each bid or call by
// others, the ruling, who is out, the winner). Every text said is also kept, in order, in
// `window.liarsdiceAnnounced`.
import { bidText, listing, t } from "./api.js";

const GATHER_MS = 150; // what arrives within this time is said as one text (bots are quick)
const region = document.getElementById("announce");
const said = [];
window.liarsdiceAnnounced = said;
let pending = [];
let timer = null;

function flush() {
  timer = null;
  let text = pending.join(" ");
  pending = [];
  // The same text again (the same bid in a later round): changed by a space so it is read again.
  if (text === region.textContent) text += "\u00a0";
  region.textContent = text;
}

/**
 * Say each of `texts` (empty ones skipped): each is recorded in `window.liarsdiceAnnounced`;
 * those arriving within GATHER_MS replace the region's text together, joined by spaces.
 */
export function announce(...texts) {
  const fresh = texts.filter(Boolean);
  if (!fresh.length) return;
  said.push(...fresh);
  pending.push(...fresh);
  timer ??= setTimeout(flush, GATHER_MS);
}

/** The lines of `log` that were not in `before` (a log is the game's last lines: it slides). */
export function newLines(before, log) {
  if (!before?.length) return log;
  for (let shift = 0; shift <= before.length; shift++) {
    const kept = before.slice(shift);
    if (kept.every((line, i) => log[i] === line)) return log.slice(kept.length);
  }
  return log;
}

const stop = (text) => (/[.!?…]$/.test(text) ? text : `${text}.`);
const byName = (seats) => new Map((seats ?? []).map((s) => [s.name, s]));

/**
 * What changed from state `before` to state `message`, as texts to say (in order): others'
 * bids and calls that let the round go on, the ruling (`freshReveal`: its reveal is new), who is
 * out, the winner, and `turnStarted`: your turn with the bid to answer. `before` is null on the
 * page's first state: then only your turn is said. `nameOf` shows a player's name.
 */
export function tellings(before, message, { freshReveal, turnStarted, nameOf }) {
  const out = [];
  const view = message.view;
  const last = view?.round && !view.revealed ? view.bids?.at(-1) : null;
  const viewer = view?.viewer ?? null;
  if (before && view) {
    const old = before.view;
    const sameRound = old?.round === view.round && Boolean(old?.revealed) === Boolean(view.revealed);
    const oldBids = sameRound ? old?.bids ?? [] : [];
    const bids = view.revealed ? [] : (view.bids ?? []).slice(oldBids.length);
    for (const b of bids) {
      if (b.player === viewer || (turnStarted && b === last)) continue; // your turn says it
      out.push(stop(t("onTable", { name: nameOf(b.player), bid: bidText(b.bid) })));
    }
    // A call that lets the round go on (a pass): the turn moved on with no bid and no ruling.
    const called = sameRound && !bids.length && !message.reveal && old?.turn && old.turn !== view.turn && old.turn !== viewer;
    if (called) out.push(...newLines(before.log, message.log).map(stop));
    if (freshReveal) out.push(stop(message.reveal.explanation));
    const was = byName(old?.seats);
    for (const seat of view.seats) {
      if (!seat.alive && was.get(seat.name)?.alive) out.push(t("isOut", { name: nameOf(seat.name) }));
    }
    const winners = view.winners ?? [];
    if (message.table.status === "over" && before.table.status !== "over" && winners.length) {
      out.push(winners.length === 1
        ? t("wonGame", { player: nameOf(winners[0]) })
        : t("wonTogether", { players: listing(winners.map(nameOf)) }));
    }
  }
  if (turnStarted) {
    out.push(`${stop(t("yourTurn"))} ${last ? stop(t("onTable", { name: nameOf(last.player), bid: bidText(last.bid) })) : t("youOpen")}`);
  }
  return out;
}
