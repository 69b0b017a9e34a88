// The table page around the game: the share link, the waiting room before the start, and the
// banner after the game (the winner, the summary with the ratings, the replay).
import { botWords, el, listing, t, tn } from "./api.js";
import { summaryParts } from "./summary.js";
import { forgivenWarning } from "./warning.js";

const $ = (id) => document.getElementById(id);
let copiedTimer = null;

/** Copy the share link; say "Copied" for a moment, or, when the clipboard is refused, select
 * the link and ask the player to copy it themselves. */
export async function copyLink() {
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
export function newTableLink(boot) {
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

/** The waiting room of state `message`; `closed`: the page stopped for good. */
export function renderWaiting(message, boot, closed) {
  const table = message.table;
  const waiting = table.status === "waiting";
  $("waiting").hidden = !waiting;
  if (!waiting) return;
  const taken = table.seats.filter(Boolean).length;
  const kind = boot.config.bot_kind; // "hard bot" in the page's language
  $("waiting-text").textContent = t("waiting", { taken, seats: table.seats.length }) +
    (kind ? t("emptyBots", { bot: botWords(kind) }) : t("emptyDropped"));
  const mayAsk = boot.public || boot.key; // a private table needs the share link's key
  $("sit-form").hidden = closed || message.seat !== null || taken >= table.seats.length || !mayAsk;
  if (!mayAsk && message.seat === null && !closed) {
    $("waiting-text").textContent += t("privateAsk");
  }
  const me = message.seat !== null ? table.seats[message.seat] : null;
  $("start").hidden = closed || !(me && me.host);
}

/** The banner of state `message`: the winners (`nameOf` shows a name), why the game stopped,
 * or during a game the warning after your forgiven first timeout (warning.js). */
export function renderBanner(message, nameOf) {
  const banner = $("banner");
  const winners = (message.view?.winners ?? []).map(nameOf);
  const stopped = message.table.status === "stopped" && message.table.stopped;
  const warning = forgivenWarning(message);
  banner.hidden = !(message.table.status === "over" && winners.length) && !stopped && !warning;
  if (banner.hidden) return;
  if (warning) {
    if (banner.firstChild !== warning) banner.replaceChildren(warning); // kept: focus stays on it
    return;
  }
  if (stopped) {
    banner.replaceChildren(el("strong", { id: "stopped" }, message.table.stopped));
    return;
  }
  const won = winners.length === 1 ? t("wins", { name: winners[0] }) : t("winTogether", { names: listing(winners) });
  const parts = [el("strong", { id: "winner" }, won), ...summaryParts(message.table, nameOf)];
  if (message.table.game_id) parts.push(" ", el("a", { href: `/games/${message.table.game_id}` }, t("replayGame")));
  banner.replaceChildren(...parts);
}

/**
 * The rematch vote of state `message` after the game, for everyone at the table: who asked for
 * one (`nameOf` shows a name; the reader is "You", first) and how many of the votes it needs
 * (the humans connected, or every human when none is: as the server counts them).
 */
export function renderVotes(message, nameOf) {
  const table = message.table;
  const box = $("votes");
  const humans = table.seats.filter((s) => s?.kind === "human");
  const counted = humans.some((s) => s.connected) ? humans.filter((s) => s.connected) : humans;
  const voters = counted.filter((s) => s.rematch);
  box.hidden = table.status !== "over" || !voters.length;
  if (box.hidden) {
    box.textContent = "";
    return;
  }
  const mine = voters.some((s) => s.index === message.seat);
  const total = counted.length;
  if (mine && voters.length === 1) {
    box.textContent = t("rematchYou", { n: 1, total });
    return;
  }
  const names = [...(mine ? [t("youFirst")] : []), ...voters.filter((s) => s.index !== message.seat).map((s) => nameOf(s.name))];
  box.textContent = tn("rematchVotes", voters.length, { names: listing(names), total });
}
