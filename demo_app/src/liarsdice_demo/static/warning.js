// The warning after a forgiven first timeout (tables/forgiving.py): in the banner of the player
// whose clock ran out, and said aloud once, until they put it away or the game ends.
import { announce } from "./announce.js";
import { el, t } from "./api.js";

let warning = null; // the warning's element while it is up
let dismissed = false; // put away in this game (a new game forgives again, and warns again)

/**
 * The warning for state `message` (an element to show in the banner), or null: shown while this
 * page's seat has `forgiven` set in a game being played, unless put away ("Got it").
 */
export function forgivenWarning(message) {
  const table = message.table;
  const me = message.seat !== null ? table.seats[message.seat] : null;
  if (!me?.forgiven) dismissed = false;
  if (!me?.forgiven || dismissed || table.status !== "playing") {
    warning = null;
    return null;
  }
  if (!warning) {
    const text = t("forgivenWarning");
    warning = el("p", { id: "forgiven", class: "warning" }, el("strong", {}, text), " ",
      el("button", { type: "button", onclick: putAway }, t("gotIt")));
    announce(text);
  }
  return warning;
}

function putAway() {
  dismissed = true;
  warning = null;
  const banner = document.getElementById("banner");
  banner.replaceChildren();
  banner.hidden = true;
  document.getElementById("turn-bar").focus({ preventScroll: true }); // not lost on <body>
}
