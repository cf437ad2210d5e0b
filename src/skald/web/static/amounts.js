// Amounts: a run of choices that differ only in a number, drawn as one stepper rather than as many buttons.
import { el } from "./common.js";
import { sortKeys } from "./actions.js";
import { play } from "./play.js";

// The fewest legal values drawn as a stepper rather than as buttons (fewer read best as buttons, each with its
// consequence in the game's words), and the fewest that also get a slider.
const RUN_MIN = 5;
const SLIDER_MIN = 10;
let stepperCount = 0;

// Runs of amounts, found from the actions' JSON forms alone (the client knows no game): at least RUN_MIN choices of
// one group that differ only in one whole-number field, each naming its own number in its notation (so a seat
// index, which notation names from 1, or a board target is never taken for an amount). Longest runs first; each
// choice joins one run. Returns a map from each member's key to its run ({ field, entries, values }), values rising.
export function amountRuns(legal, onBoard) {
  const buckets = new Map();
  for (const entry of legal) {
    if (onBoard.has(entry.key)) continue;
    const action = entry.action;
    if (action === null || typeof action !== "object" || Array.isArray(action)) continue;
    for (const [field, value] of Object.entries(action)) {
      if (!Number.isInteger(value) || !new RegExp(`(^|[^0-9.])${value}([^0-9.]|$)`).test(entry.notation)) continue;
      const rest = { ...action };
      delete rest[field];
      const signature = JSON.stringify([entry.group || "", field, sortKeys(rest)]);
      if (!buckets.has(signature)) buckets.set(signature, { field, entries: [] });
      buckets.get(signature).entries.push(entry);
    }
  }
  const runs = new Map();
  const candidates = [...buckets.values()].sort((a, b) => b.entries.length - a.entries.length);
  for (const bucket of candidates) {
    const free = bucket.entries.filter((entry) => !runs.has(entry.key));
    const values = new Set(free.map((entry) => entry.action[bucket.field]));
    if (free.length < RUN_MIN || values.size !== free.length) continue;
    const run = { field: bucket.field, entries: free, sorted: [...free].sort((a, b) => a.action[bucket.field] - b.action[bucket.field]) };
    run.values = run.sorted.map((entry) => entry.action[bucket.field]);
    for (const entry of free) runs.set(entry.key, run);
  }
  return runs;
}

// One run of amounts as a control: a labelled number field between − and + buttons (and a slider when the run is
// long) that move through the legal values only, the game's words for the amount chosen, and a Confirm that sends
// exactly that legal action. Arrows (and Page Up/Down, Home/End) move it; Enter confirms.
export function stepper(run) {
  const id = `amount-${++stepperCount}`;
  const values = run.values;
  const min = values[0];
  const max = values[values.length - 1];
  const gaps = max - min + 1 !== values.length;
  let index = 0;
  const input = el("input", { type: "number", id, class: "amount-value", min, max, value: min, inputmode: "numeric",
    "aria-describedby": `${id}-says`, ...(gaps ? {} : { step: 1 }) });
  const says = el("p", { class: "amount-says", id: `${id}-says`, "aria-live": "polite" });
  const less = el("button", { type: "button", class: "step", "aria-label": "less", "aria-controls": id }, "−");
  const more = el("button", { type: "button", class: "step", "aria-label": "more", "aria-controls": id }, "+");
  const confirm = el("button", { type: "button", class: "confirm", "aria-describedby": `${id}-says` }, "Confirm");
  const slider = values.length >= SLIDER_MIN
    ? el("input", { type: "range", class: "amount-slider", min: 0, max: values.length - 1, value: 0, step: 1,
      "aria-label": `${run.entries[0].group || "Amount"} (slider)` })
    : null;
  const show = (next) => {
    index = Math.max(0, Math.min(values.length - 1, next));
    const entry = run.sorted[index];
    input.value = String(values[index]);
    input.setAttribute("aria-valuetext", `${values[index]}: ${entry.label || entry.notation}`);
    if (slider) {
      slider.value = String(index);
      slider.setAttribute("aria-valuetext", entry.label || entry.notation);
    }
    less.disabled = index === 0;
    more.disabled = index === values.length - 1;
    says.replaceChildren(el("b", {}, entry.notation), ...(entry.label ? [" ", el("span", { class: "label" }, entry.label)] : []));
    confirm.setAttribute("data-key", entry.key);
  };
  // A typed number lands on the nearest legal value (the higher of two as near).
  const typed = () => {
    const wanted = Number(input.value);
    if (!Number.isFinite(wanted)) { show(index); return; }
    let best = 0;
    values.forEach((value, i) => { if (Math.abs(value - wanted) <= Math.abs(values[best] - wanted)) best = i; });
    show(best);
  };
  const keys = (event) => {
    const moves = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1, PageUp: 10, PageDown: -10 };
    if (event.key in moves) show(index + moves[event.key]);
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(values.length - 1);
    else if (event.key === "Enter") { if (event.target === input) typed(); play(run.sorted[index]); }
    else return;
    event.preventDefault();
  };
  input.addEventListener("keydown", keys);
  input.addEventListener("change", typed);
  input.addEventListener("input", () => {  // while typing, the words follow a legal amount as soon as it is one
    const at = values.indexOf(Number(input.value));
    if (input.value !== "" && at >= 0 && at !== index) show(at);
  });
  input.addEventListener("wheel", (event) => event.preventDefault(), { passive: false });  // no silent change
  less.addEventListener("click", () => show(index - 1));
  more.addEventListener("click", () => show(index + 1));
  confirm.addEventListener("click", () => play(run.sorted[index]));
  if (slider) {
    slider.addEventListener("input", () => show(Number(slider.value)));
    slider.addEventListener("keydown", keys);
  }
  const heading = run.entries[0].group || "Amount";
  const label = el("label", { for: id, class: "amount-name" }, `${heading}: `,
    el("span", { class: "amount-range" }, gaps ? `${values.length} amounts from ${min} to ${max}` : `${min} to ${max}`));
  const box = el("div", { class: "amount", role: "group", "aria-label": heading, "data-field": run.field,
    "data-keys": JSON.stringify(run.sorted.map((entry) => entry.key)) },
  label, el("div", { class: "amount-row" }, less, input, more, confirm), ...(slider ? [slider] : []), says);
  show(0);
  return box;
}
