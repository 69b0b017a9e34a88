// The summary of a finished game in the banner (tables/summary.py sends it as table.summary):
// every player's place, with the rating and its change at a rated table, the rounds played, and
// the best call.
import { PAGE_LANGUAGE, el, t, tOrdinal, tn } from "./api.js";

const NUMBER = new Intl.NumberFormat(PAGE_LANGUAGE, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** A rating's change as players read it: "+1.5", "−0.8" (a minus sign), "±0". */
export function signed(delta) {
  if (!delta) return "±0";
  return `${delta > 0 ? "+" : "\u2212"}${NUMBER.format(Math.abs(delta))}`;
}

/** "rating 1.5 (+1.5)" for a rating change `{after, delta}`, its title saying what it is. */
function ratingWords(change) {
  return el("span", { class: "rating", title: t("ratingTitle") },
    t("rating", { after: NUMBER.format(change.after), delta: signed(change.delta) }));
}

/**
 * The summary's elements for `table` (a state's `table`, status `over`): an ordered list of the
 * places ("2nd place Knox · rating 1.5 (+1.5)"), then the rounds and the best call; `nameOf`
 * shows a name. Nothing when the table sent no summary.
 */
export function summaryParts(table, nameOf) {
  const summary = table.summary;
  if (!summary) return [];
  const ratings = table.ratings ?? {};
  const places = el("ol", { class: "places", id: "places", "aria-label": t("places") },
    ...summary.places.map(({ place, name }) => el("li", { class: place === 1 ? "first" : "" },
      el("span", { class: "place" }, tOrdinal("place", place)), " ",
      el("b", {}, nameOf(name)),
      ratings[name] ? [" · ", ratingWords(ratings[name])] : null)));
  const facts = [tn("rounds", summary.rounds)];
  const best = summary.best_call;
  if (best) facts.push(t("bestCall", { round: best.round, ruling: best.text }));
  return [places, el("p", { class: "game-facts", id: "game-facts" }, facts.join(" · "))];
}
