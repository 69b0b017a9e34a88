// Small helpers shared by the pages' modules.

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
    return { ok: false, error: `server error ${response.status}` };
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

export const FACE_NAMES = { 1: "ones", 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes" };
export const FACE_NAME = { 1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six" };
export const PIPS = { 0: "?", 1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅" };

/** "3 fives" / "1 five". */
export function bidText(bid) {
  if (!bid) return "";
  const names = bid.quantity === 1 ? FACE_NAME : FACE_NAMES;
  return `${bid.quantity} ${names[bid.face] ?? `face-${bid.face}`}`;
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
