// The table page around the game: the share link and the settings (folded away on a phone), the
// waiting room before the start, the banner after the game (the winner, the summary with the
// ratings, the replay), the round's bids recalled at a reveal, and the log (with a note on the
// lines it no longer holds).
import { bidText, botWords, el, listing, t, tn } from "./api.js";
import { summaryParts } from "./summary.js";
import { forgivenWarning } from "./warning.js";

const $ = (id) => document.getElementById(id);
let copiedTimer = null;
// A phone or a tablet: its share sheet, where the browser has one, sends the link.
const HANDHELD = "(max-width: 600px), (pointer: coarse)";
const RECAP = 4; // the bids recalled at a reveal, the last ones

/** Whether the share button opens the system's share sheet (else it copies the link). */
function sharesBySheet() {
  return typeof navigator.share === "function" && matchMedia(HANDHELD).matches;
}

/** Show or fold the share link and the settings (on a phone they start folded, style.css). */
function showSettings(open) {
  $("settings-toggle").setAttribute("aria-expanded", String(open));
  $("settings-toggle").closest(".table-head").classList.toggle("settings-open", open);
}

/** Say `text` beside the share button for a moment. */
function note(text) {
  const box = $("copied");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(copiedTimer);
  copiedTimer = setTimeout(() => { box.hidden = true; }, 2500);
}

/** Copy the share link; say "Copied" for a moment, or, when the clipboard is refused, show and
 * select the link and ask the player to copy it themselves. */
async function copyLink() {
  try {
    if (!navigator.clipboard) throw new Error("no clipboard");
    await navigator.clipboard.writeText($("share").value);
    note(t("copied"));
  } catch {
    showSettings(true);
    $("share").select();
    note(t("copyYourself"));
  }
}

/** Send the share link: through the share sheet on a phone that has one (closing the sheet
 * sends nothing), else (or when the sheet is refused) by copying it. */
async function shareLink() {
  if (sharesBySheet()) {
    try {
      // The page's heading ("Table ABCD Dudo"), not its title, which may say "● Your turn".
      const title = $("code").closest("h1").textContent.replace(/\s+/g, " ").trim();
      await navigator.share({ title, url: $("share").value });
      return;
    } catch (error) {
      if (error?.name === "AbortError") return; // the player closed the sheet
    }
  }
  await copyLink();
}

/** Wire the share button ("Share" where it opens the share sheet) and the settings' toggle. */
export function wireShare() {
  const button = $("copy");
  if (sharesBySheet()) button.textContent = button.dataset.share;
  button.addEventListener("click", shareLink);
  const toggle = $("settings-toggle");
  toggle.addEventListener("click", () => showSettings(toggle.getAttribute("aria-expanded") !== "true"));
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

/**
 * At a reveal (`reveal` not null), the round's bids in one line beside the ruling ("Bids: Iris
 * 2 fours → Knox 3 fours"; the last RECAP of them): on a phone the ruling is pinned at the bottom
 * of the screen and the list of bids is far below it. `nameOf` shows a name.
 */
export function renderRecap(view, reveal, nameOf) {
  const bids = reveal ? view?.bids ?? [] : [];
  const box = $("recap");
  box.hidden = !bids.length;
  const shown = bids.slice(-RECAP).map((b) => `${nameOf(b.player)} ${bidText(b.bid)}`);
  if (bids.length > RECAP) shown.unshift("…");
  box.textContent = bids.length ? t("recap", { bids: shown.join(" → ") }) : "";
}

/**
 * The table log of state `message`, newest first, each line numbered from the game's first (a
 * line keeps its number once earlier ones are dropped). Below the oldest, when the server no
 * longer holds the earliest lines (`log_dropped`), how many, and the game's replay, which has
 * every move, once the game is saved.
 */
export function renderLog(message) {
  const dropped = message.log_dropped ?? 0;
  $("log-lines").replaceChildren(
    ...message.log.map((line, i) => el("li", { value: dropped + i + 1 }, line)).reverse());
  const more = $("log-more");
  more.hidden = !dropped;
  const game = message.table.game_id;
  more.replaceChildren(...(dropped ? [tn("logDropped", dropped), " ",
    game ? el("a", { href: `/games/${game}` }, t("logReplay")) : t("logReplayLater")] : []));
}
