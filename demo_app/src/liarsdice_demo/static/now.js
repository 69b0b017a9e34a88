// "Now" on the table, beside the action bar: the bid being answered (and its bidder) during a
// round, the ruling once the cups are lifted (who lost and why; the revolver's load and pull).
import { PIPS, bidText, el, t } from "./api.js";

/**
 * The revolver's pull for each loser of `reveal`, read from the state that follows it (the reveal
 * message itself does not carry it): the chambers now loaded (the seat's public `bullets`) and
 * whether it fired. A loser still in heard a click. A loser who is out was shot, unless `diceLoss`
 * (dice loss is in play too) may have taken their last die: then, when they held one die at the
 * call, the page cannot tell the pull from the die and `hit` is null. A timeout always fires.
 * Empty when the table has no revolver.
 */
export function pulls(reveal, view, chambers, diceLoss = false) {
  if (!reveal || !view || chambers === undefined) return [];
  return reveal.losers.flatMap((name) => {
    const info = view.seats.find((s) => s.name === name);
    if (info?.public?.bullets === undefined) return [];
    const held = reveal.rolls?.[name]?.length;
    const unsure = diceLoss && reveal.call !== "timeout" && !(held > 1);
    const hit = info.alive ? false : unsure ? null : true;
    return [{ name, loaded: info.public.bullets, chambers, hit }];
  });
}

/**
 * Fill `box` with what the player answers now, and return the moment's sounds in order.
 * `fresh` is true on the first render of this reveal (animations and sounds play once);
 * `nameOf` shows a player's name; `diceLoss`: dice loss is in play (see `pulls`).
 */
export function renderNow(box, message, { chambers, diceLoss, fresh, nameOf }) {
  const view = message.view;
  const reveal = message.reveal;
  box.className = "now";
  if (reveal) {
    box.hidden = false;
    box.classList.add("ruled");
    if (fresh) box.classList.add("fresh");
    if (reveal.call === "exact") box.classList.add("exact");
    const parts = [el("strong", { class: "ruling-line" }, reveal.explanation)];
    const sounds = reveal.call === "timeout" ? [] : ["call"];
    for (const pull of pulls(reveal, view, chambers, diceLoss)) {
      const word = pull.hit === null ? t("goesOut") : pull.hit ? t("pullBang") : t("pullClick");
      parts.push(el("span", { class: `pull ${pull.hit ? "bang" : pull.hit === false ? "click" : ""}` },
        el("span", { class: "cylinder", "aria-hidden": "true" }, "⁂"), " ",
        t("pull", { name: nameOf(pull.name), loaded: pull.loaded, chambers: pull.chambers }), " ",
        el("b", { class: "result" }, word)));
      if (pull.hit !== null) sounds.push(pull.hit ? "bang" : "click");
    }
    box.replaceChildren(...parts);
    return fresh ? sounds : [];
  }
  const last = view?.round && !view.revealed ? view.bids?.at(-1) : null;
  box.hidden = !last;
  if (!last) return [];
  box.classList.add("standing");
  box.replaceChildren(el("span", { class: "standing-bid" },
    t("onTable", { name: nameOf(last.player), bid: bidText(last.bid) }), " ",
    el("span", { class: "pips", "aria-hidden": "true" }, last.bid.face ? PIPS[last.bid.face] : "Σ")));
  return [];
}
