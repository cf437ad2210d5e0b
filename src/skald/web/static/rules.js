// The rules one click from the prompt: this step's rule in the game's words (the server sends it to the seat to
// act) and the game in brief, taken from the game's own rules page (`/rules/<game>`), fetched once when first
// opened. The browser adds no words of its own about any game.
import { $, el } from "./common.js";
import { store } from "./store.js";

let fetched = null;

/** Wire the Rules button and the panel's close button. */
export function wireRules() {
  $("rules-button").addEventListener("click", () => showRules($("rules-panel").hidden));
  $("rules-close").addEventListener("click", () => { showRules(false); $("rules-button").focus(); });
}

/** Open (`open`) or close the rules panel; resolves once the game's rules are in it. */
export async function showRules(open) {
  $("rules-panel").hidden = !open;
  $("rules-button").setAttribute("aria-expanded", String(open));
  if (!open || !store.game) return;
  drawStepRules();
  $("rules-page-link").href = `/rules/${store.game.game}`;
  if (!fetched) fetched = loadGameRules(store.game.game);
  $("rules-heading").focus();
  await fetched;
}

/** The step's own rule, as the game words it, when this seat is to act; redrawn with each view while open. */
export function drawStepRules() {
  const box = $("step-rules");
  if ($("rules-panel").hidden) return;
  const view = store.view;
  const text = view && view.rules;
  box.replaceChildren(...(text ? [el("h3", {}, "This step"), el("p", { class: "step-rule" }, text)] : []));
}

// The first part of the rules page (the game in brief, how it begins), its headings one level down.
async function loadGameRules(game) {
  const box = $("game-rules");
  try {
    const response = await fetch(`/rules/${encodeURIComponent(game)}`);
    if (!response.ok) throw new Error(`the rules page answered ${response.status}`);
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const first = page.querySelector("main section.card");
    if (!first) throw new Error("the rules page has no summary");
    const parts = [...first.children].map((node) => document.importNode(node, true));
    const deck = page.getElementById("deck");  // the whole deck's list, for a game with cards
    if (deck) parts.push(el("div", { id: "deck-list" }, ...[...deck.children].map((n) => document.importNode(n, true))));
    box.replaceChildren(...parts);
  } catch (err) {
    fetched = null;
    box.replaceChildren(el("p", { class: "error" }, `The rules could not be loaded: ${err.message}.`));
  }
}
