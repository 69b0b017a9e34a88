// The lobby: compose a table from a preset and/or variants, validate it live, create it; or a
// quick game: the preset table of bots (lobby.quick_game) through the same POST /api/tables.
import { el, postJSON, t } from "./api.js";

const catalog = JSON.parse(document.getElementById("catalog").textContent);
const quick = JSON.parse(document.getElementById("quick").textContent);
const quickButton = document.getElementById("quick-button");
const nicknameInput = document.getElementById("nickname");
const rulesDetails = document.getElementById("rules-details");
const form = document.getElementById("create-form");
const presetSelect = document.getElementById("preset");
const optionsBox = document.getElementById("options");
const validation = document.getElementById("validation");
const createError = document.getElementById("create-error");
const createButton = document.getElementById("create-button");
const seatsInput = document.getElementById("seats");
const diceInput = document.getElementById("dice_per_player");
// The demo's own bounds (the page's min and max); a preset may narrow them.
const tableCaps = {
  seats: [Number(seatsInput.min), Number(seatsInput.max)],
  dice: [Number(diceInput.min), Number(diceInput.max)],
};
const variantsByName = Object.fromEntries(catalog.variants.map((v) => [v.name, v]));
const presetsByName = Object.fromEntries(catalog.presets.map((p) => [p.name, p]));
const edited = {}; // option key -> value the player chose (only these are sent)
let defaults = {}; // option key -> its effective default for the combination (from /api/validate)
let valid = false;
let pending = 0;

// Players read variants and calls by their titles (in the page's language); names are hints.
function variantTitle(name) {
  return variantsByName[name]?.title ?? name;
}

function callTitle(name) {
  return catalog.call_titles?.[name] ?? name;
}

function preset() {
  return presetsByName[presetSelect.value] ?? null;
}

function checkedVariants() {
  return [...form.querySelectorAll("input[name=variant]:checked:not(:disabled)")].map((i) => i.value);
}

function activeVariants() {
  const names = new Set(["standard", ...(preset()?.variants ?? []), ...checkedVariants()]);
  return catalog.variants.filter((v) => names.has(v.name));
}

// What an option is worth unless the player sets it: the server's effective default for this
// combination (a variant may change another's default: wild-sixes turns standard.wild_ones off),
// else the preset's value, else the plugin's own default.
function defaultValue(option) {
  if (option.key in defaults) return defaults[option.key];
  const fromPreset = preset()?.options?.[option.key];
  return fromPreset === undefined ? option.default : fromPreset;
}

function currentValue(option) {
  return option.key in edited ? edited[option.key] : defaultValue(option);
}

function optionInput(option) {
  const value = currentValue(option);
  const onchange = (event) => {
    const input = event.target;
    let chosen;
    if (option.type === "bool") chosen = input.checked;
    else if (option.type === "int") chosen = input.value === "" ? defaultValue(option) : Number(input.value);
    else chosen = input.value;
    if (chosen === defaultValue(option)) delete edited[option.key]; // back to the default
    else edited[option.key] = chosen;
    refresh();
  };
  const label = option.label ?? option.key;
  if (option.choices) {
    // One radio button a choice, not a select: a choice's words wrap on a phone, where a closed
    // select would cut them off.
    const choices = option.choices.map((c) => {
      const radio = el("input", { type: "radio", name: `option-${option.key}`, value: c, checked: c === value, onchange });
      radio.dataset.key = option.key;
      return el("label", { class: "choice", title: c }, radio, " ", option.choice_labels?.[c] ?? c);
    });
    return el("div", { class: "option", role: "radiogroup", "aria-label": label, title: option.key },
      el("span", { class: "option-label" }, label), el("span", { class: "choices" }, choices));
  }
  let input;
  if (option.type === "bool") {
    input = el("input", { type: "checkbox", checked: value === true, onchange });
  } else if (option.type === "int") {
    input = el("input", { type: "number", value, min: option.minimum, max: option.maximum, onchange });
  } else {
    input = el("input", { value, onchange });
  }
  input.dataset.key = option.key;
  // Players read the label; the key (what the API takes) is only a hint on hover.
  return el("label", { class: "option", title: option.key }, el("span", { class: "option-label" }, label), " ", input);
}

// A preset may be for some tables only (seed 004's perudo: 2 to 6 players, 5 dice each): the
// seats and dice inputs take its bounds within the demo's own, and a value outside moves in.
function fitInput(input, [capLow, capHigh], [low, high] = [capLow, null]) {
  input.min = Math.max(capLow, low);
  input.max = Math.min(capHigh, high ?? capHigh);
  const value = Number(input.value);
  if (input.value !== "" && value < Number(input.min)) input.value = input.min;
  if (input.value !== "" && value > Number(input.max)) input.value = input.max;
}

function applyTableSize() {
  const p = preset();
  fitInput(seatsInput, tableCaps.seats, p?.players);
  fitInput(diceInput, tableCaps.dice, p?.dice);
}

function renderOptions() {
  const p = preset();
  const table = p?.table_line ? ` ${p.table_line}` : "";
  document.getElementById("preset-summary").textContent = p ? p.summary + table : "";
  for (const box of form.querySelectorAll("input[name=variant]")) {
    const inPreset = p?.variants.includes(box.value) ?? false;
    if (inPreset) box.checked = true;
    else if (box.disabled) box.checked = false;
    box.disabled = inPreset;
  }
  optionsBox.replaceChildren(
    ...activeVariants()
      .filter((v) => v.options.length)
      .map((v) => el("div", { class: "option-group" }, el("b", {}, v.title), v.options.map(optionInput))),
  );
}

// Only the options the player changed are sent: the others take the combination's defaults on
// the server, so choosing wild-sixes needs no standard.wild_ones=false by hand.
function composition() {
  const options = {};
  for (const v of activeVariants()) for (const o of v.options) if (o.key in edited) options[o.key] = edited[o.key];
  return { preset: presetSelect.value || null, variants: checkedVariants(), options };
}

// The table's size, checked with the combination: a preset may not take it (an empty input is
// left to the server's default).
function tableSize() {
  const number = (input) => (input.value === "" ? null : Number(input.value));
  return { seats: number(seatsInput), dice_per_player: number(diceInput) };
}

async function validate() {
  const ticket = ++pending;
  validation.textContent = t("checking");
  validation.className = "validation";
  const answer = await postJSON("/api/validate", { ...composition(), ...tableSize() });
  if (ticket !== pending) return;
  if (answer.defaults && JSON.stringify(answer.defaults) !== JSON.stringify(defaults)) {
    defaults = answer.defaults;
    renderOptions(); // show the combination's effective defaults
  }
  valid = answer.ok;
  createButton.disabled = !valid;
  validation.className = valid ? "validation ok" : "validation error";
  validation.textContent = valid
    ? t("valid", { variants: answer.variants.map(variantTitle).join(" + "), calls: answer.calls.map(callTitle).join(", ") })
    : t("invalid", { error: answer.error });
}

function refresh() {
  renderOptions();
  validate();
}

// A preset is a whole rule set: choosing one resets the variants and options to its own.
presetSelect.addEventListener("change", () => {
  for (const key of Object.keys(edited)) delete edited[key];
  for (const box of form.querySelectorAll("input[name=variant]")) box.checked = false;
  if (!presetSelect.value) rulesDetails.open = true; // no preset: the variants are the rules
  applyTableSize();
  refresh();
});
for (const box of form.querySelectorAll("input[name=variant]")) box.addEventListener("change", refresh);
for (const input of [seatsInput, diceInput]) input.addEventListener("input", validate);

// Create the table ``body`` describes and go to it (or show why not).
async function create(body, button) {
  createError.textContent = "";
  button.disabled = true;
  const answer = await postJSON("/api/tables", { ...body, nickname: nicknameInput.value });
  if (answer.ok) {
    window.location.assign(`/t/${answer.code}`);
  } else {
    createError.textContent = answer.error;
    button.disabled = false;
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  create(
    {
      ...composition(),
      ...tableSize(),
      bot_kind: document.getElementById("bot_kind").value,
      turn_seconds: Number(document.getElementById("turn_seconds").value),
      rated: document.getElementById("rated").checked,
      public: document.getElementById("public").checked,
    },
    createButton,
  );
});

// One click: the quick game's preset, seats and bots, dealt at once (the form is left as it is).
quickButton.addEventListener("click", () => {
  if (!nicknameInput.reportValidity()) return;
  const { preset, seats, bot_kind, forgive_first_timeout } = quick;
  create({ preset, seats, bot_kind, forgive_first_timeout, start: true }, quickButton);
});

// A table page's "New table" link fills the form in with that table's settings:
// ?preset=&variants=a,b&options={json}&seats=&bot_kind=&turn_seconds=&dice_per_player=&rated=1&public=1
function prefill(query) {
  if (query.has("preset") && (query.get("preset") === "" || query.get("preset") in presetsByName)) {
    presetSelect.value = query.get("preset");
  }
  if (query.has("variants")) {
    const variants = new Set(query.get("variants").split(",").filter(Boolean));
    for (const box of form.querySelectorAll("input[name=variant]")) box.checked = variants.has(box.value);
  }
  try {
    const options = JSON.parse(query.get("options") ?? "{}");
    if (options && typeof options === "object" && !Array.isArray(options)) Object.assign(edited, options);
  } catch {
    // not JSON: the combination's defaults
  }
  for (const field of ["seats", "turn_seconds", "dice_per_player"]) {
    if (query.get(field)) document.getElementById(field).value = query.get(field);
  }
  const botKind = document.getElementById("bot_kind");
  if ([...botKind.options].some((o) => o.value === query.get("bot_kind"))) botKind.value = query.get("bot_kind");
  for (const field of ["rated", "public"]) {
    if (query.has(field)) document.getElementById(field).checked = query.get(field) === "1";
  }
}

prefill(new URLSearchParams(window.location.search));
// Rules that are not a preset's own are shown, not folded away.
if (!presetSelect.value || checkedVariants().length || Object.keys(edited).length) rulesDetails.open = true;
applyTableSize();
refresh();
