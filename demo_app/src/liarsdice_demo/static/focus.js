// Where keyboard focus goes on the table page: to the bid controls when your turn starts, back
// onto the same control when the page rebuilds it, and to the turn line (never <body>) when the
// control it was on is gone. Focus never scrolls the page: what sighted players see stays put.

const $ = (id) => document.getElementById(id);

const shown = (node) => node?.isConnected && !node.disabled && node.checkVisibility({ visibilityProperty: true });

function land(node) {
  node?.focus({ preventScroll: true });
}

/**
 * Run `build` (which replaces `container`'s children); if focus was on a child carrying
 * `attribute`, put it back on the new child with the same value of it.
 */
export function rebuilding(container, attribute, build) {
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.closest(`[${attribute}]`)?.getAttribute(attribute) : null;
  build();
  if (key === null || key === undefined) return;
  land([...container.querySelectorAll(`[${attribute}]`)].find((node) => node.getAttribute(attribute) === key));
}

/** The first control of your turn: the bid's quantity, or when no bid is legal the first call. */
export function turnControl() {
  const quantity = $("bid-quantity");
  if (shown(quantity) && quantity.options.length) return quantity;
  return [...$("calls").querySelectorAll("button")].find(shown) ?? null;
}

/** Where focus lands when its control is gone: the turn line, else the winner's banner after
 * the game, else the bar around them (never an empty box). */
function landing() {
  if (!$("turn").hidden && $("turn").textContent.trim()) return $("turn");
  return $("banner").hidden ? $("turn-bar") : $("banner");
}

/** Whether focus is on a control of the page now (not on <body>): call before a render. */
export function focusHeld() {
  const active = document.activeElement;
  return Boolean(active && active !== document.body && active !== document.documentElement);
}

/**
 * After a render: on `turnStarted` focus your turn's first control; otherwise, when focus was
 * on a control (`held`, from focusHeld() before the render) that is now gone, hidden or
 * disabled, put it on the turn line (or the winner's banner).
 */
export function settleFocus({ held, turnStarted }) {
  if (turnStarted) {
    const control = turnControl();
    if (control) {
      land(control);
      return;
    }
  }
  if (held && !(focusHeld() && shown(document.activeElement))) land(landing());
}
