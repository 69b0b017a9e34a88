// Small helpers shared by the pages' modules.

// What the scripts write for players, translated on the server (liarsdice_demo/i18n.py:
// client_text) and embedded in each page as JSON: a string with {name} fields, or for a count
// its forms by plural category.
const TEXT = JSON.parse(document.getElementById("text")?.textContent ?? "{}");
const LANG = TEXT.lang ?? document.documentElement.lang ?? "en";
/** The page's language: a socket asks for it (a browser may send another on the handshake). */
export const PAGE_LANGUAGE = LANG;
const PLURALS = new Intl.PluralRules(LANG);
const ORDINALS = new Intl.PluralRules(LANG, { type: "ordinal" });
const LISTS = new Intl.ListFormat(LANG, { type: "conjunction" });

function fill(template, fields) {
  return String(template).replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

function pick(forms, n) {
  if (typeof forms === "string") return forms;
  return forms[PLURALS.select(n)] ?? forms.other ?? forms.many ?? Object.values(forms)[0] ?? "";
}

/** The text `key` with its `{fields}` filled in. */
export function t(key, fields = {}) {
  return fill(TEXT[key] ?? key, fields);
}

/** The text `key` in its plural form for `n` (also its `{n}` field), other fields filled in. */
export function tn(key, n, fields = {}) {
  return fill(pick(TEXT[key] ?? key, n), { n, ...fields });
}

/** The text `key` in its ordinal form for `n` ("2nd place"; `TEXT[key]` by ordinal category). */
export function tOrdinal(key, n) {
  const forms = TEXT[key] ?? key;
  const form = typeof forms === "string" ? forms : forms[ORDINALS.select(n)] ?? forms.other;
  return fill(form, { n });
}

/** Names as a list in the page's language: "Ann", "Ann and Cid", "Ann, Ben and Cid". */
export function listing(names) {
  return LISTS.format(names);
}

/** What players call bot `kind` in the page's language ("hard bot"), never its name alone. */
export function botWords(kind) {
  return TEXT.bots?.[kind] ?? kind;
}

/** Each bot kind a host may seat with its title in the page's language ("Medium bot"), easiest
 * first. */
export function botTitles() {
  return TEXT.botTitles ?? {};
}

/** POST JSON to `url`; resolves to the parsed JSON body (refusals included). */
export async function postJSON(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  try {
    return await response.json();
  } catch {
    return { ok: false, error: t("serverError", { status: response.status }) };
  }
}

/** Create an element with attributes and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const PIPS = { 0: "?", 1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅" };

/** The name of `face` after the number `n`: "five" (1), "fives" (3). */
export function faceWord(face, n) {
  const forms = TEXT.faces?.[face];
  return forms ? pick(forms, n) : `face-${face}`;
}

/** A die's accessible name: its face in words ("four"; a die under the cup: "hidden"), then
 * "face up" and "counts" when `up` or `counts`. */
export function dieName(face, { up = false, counts = false } = {}) {
  const name = face === null ? t("dieHidden") : faceWord(face, 1);
  return [name, up ? t("dieUp") : null, counts ? t("dieCounts") : null].filter(Boolean).join(", ");
}

/** Text for screen readers only (the class `visually-hidden` in style.css). */
export function unseen(text) {
  return el("span", { class: "visually-hidden" }, text);
}

/** "3 fives" / "1 five"; a bid of one number (face 0) "a total of 23". */
export function bidText(bid) {
  if (!bid) return "";
  if (bid.face === 0) return t("bidTotal", { total: bid.quantity }); // one number: a total
  return `${bid.quantity} ${faceWord(bid.face, bid.quantity)}`;
}

/** Which dice of `roll` are face up, given the faces `shown` (one die per face listed). */
export function faceUp(roll, shown) {
  const left = [...(shown ?? [])];
  return (roll ?? []).map((v) => {
    const at = left.indexOf(v);
    if (at < 0) return false;
    left.splice(at, 1);
    return true;
  });
}
