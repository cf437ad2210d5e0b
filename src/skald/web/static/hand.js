// The seat's own cards, each whole as the game gives it (`view.hand_cards`: title, name, text, when it may be played,
// what it needs, copies held, whether it may be played now), and the way to the whole deck's list (the game's rules
// page, in the rules panel). Only this seat is sent its hand; the browser adds no words about any card.
import { $, el } from "./common.js";
import { showRules } from "./rules.js";
import { store } from "./store.js";

/** Wire the button that opens the whole deck's list. */
export function wireHand() {
  $("deck-button").addEventListener("click", async () => {
    await showRules(true);
    const deck = $("game-rules").querySelector("#deck-list");
    if (deck) deck.scrollIntoView({ block: "start" });
  });
}

/** Draw this seat's hand as cards, or hide it where the view brings none. */
export function drawHand() {
  const hand = (store.view && store.view.hand_cards) || [];
  $("hand-card").hidden = hand.length === 0;
  $("hand").replaceChildren(...hand.map(face));
}

function face(card) {
  const head = [el("b", { class: "card-title" }, card.title)];
  if (card.name) head.push(" ", el("span", { class: "card-name" }, card.name));
  if (card.count > 1) head.push(" ", el("span", { class: "muted" }, `×${card.count}`));
  return el("li", { class: "card-face" + (card.playable_now ? " playable" : "") },
    el("p", { class: "card-head" }, ...head),
    el("p", { class: "card-text" }, card.text),
    el("p", { class: "card-when" }, `When: ${card.when}.`),
    el("p", { class: "card-needs" }, `Needs: ${card.needs}.`),
    ...(card.playable_now ? [el("p", { class: "card-now" }, "You may play it now.")] : []));
}
