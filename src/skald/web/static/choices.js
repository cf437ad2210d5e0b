// The seat's choices beside the board: the prompt in the game's words, the legal actions as buttons in the game's
// groups and order (a run of amounts as one stepper), and the game's standing answer offered or kept.
import { $, el } from "./common.js";
import { amountRuns, stepper } from "./amounts.js";
import { boardKeys } from "./board.js";
import { keepStanding, play, stopStanding } from "./play.js";
import { store } from "./store.js";

/** Draw the choices of the view shown: this seat's (`mine`), or what the others are doing. */
export function drawActions(mine) {
  const view = store.view;
  const box = $("actions");
  box.replaceChildren();
  drawStanding(box, mine);
  if (!mine) {
    const idle = view.status === "over" ? "The game is over." : store.you === null ? "You are watching." : "Waiting for the others…";
    box.append(el("p", { class: "muted" }, idle));
    return;
  }
  // The choices in the game's groups and order, each as the terminal lists it: notation, then the game's words. A
  // run of amounts within a group is one stepper, drawn where its first amount stood.
  const runs = amountRuns(view.legal, boardKeys());
  let group = null;
  let row = null;
  for (const legal of view.legal) {
    if (row === null || legal.group !== group) {
      group = legal.group;
      if (group) box.append(el("h4", { class: "group" }, group));
      row = el("div", { class: "group-choices" });
      box.append(row);
    }
    const run = runs.get(legal.key);
    if (run) {
      if (run.entries[0] === legal) row.append(stepper(run));
      continue;
    }
    const words = [el("b", {}, legal.notation)];
    if (legal.label) words.push(" ", el("span", { class: "label" }, legal.label));
    row.append(el("button", { type: "button", class: "act", "data-key": legal.key, title: legal.label || legal.notation,
      onclick: () => play(legal) }, ...words));
  }
}

// A standing answer (the game's offer, such as passing in every card window until your next decision): offered at
// a decision the game says it answers, and while kept, said with a button to stop it. The server gives it.
function drawStanding(box, mine) {
  const view = store.view;
  if (view.status === "over") return;
  if (view.standing) {
    box.append(el("p", { class: "standing" }, el("span", {}, `Kept: ${sentence(view.standing.label, true)} `),
      el("button", { type: "button", id: "standing-stop", onclick: stopStanding }, "Stop")));
  } else if (mine && view.standing_offer) {
    const offer = view.standing_offer;
    box.append(el("button", { type: "button", class: "act standing-offer", id: "standing-offer",
      onclick: () => keepStanding(offer.name) }, offer.label));
  }
}

/** A game's phrase as a sentence: ended by a full stop, and capitalised if it stands `alone`. */
export function sentence(text, alone) {
  const words = alone ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  return /[.!?]$/.test(words) ? words : `${words}.`;
}

/** Say whose move it is and, in the game's words, what to do (`mine`: this seat's turn). */
export function drawPrompt(mine) {
  const view = store.view;
  const prompt = $("prompt");
  if (view.status === "over") {
    prompt.textContent = "The game is over.";
  } else if (view.waiting) {
    prompt.textContent = `Waiting for ${view.waiting} more player${view.waiting === 1 ? "" : "s"} to take a seat…`;
  } else if (mine) {
    // The game's words for this step: what to do, then how to do it on the drawn board if the game says.
    prompt.replaceChildren(`Your turn — ${sentence(view.prompt || "choose a move", false)}`);
    if (view.click_hint) prompt.append(" ", el("span", { class: "hint" }, sentence(view.click_hint, true)));
  } else if (view.given) {
    prompt.textContent = `Your answer here is given for you: ${view.given}…`;
  } else if (view.to_move === null) {
    prompt.textContent = "Chance to move…";
  } else {
    // Whose move it is and, in the game's words for everyone at the table, what that seat is doing.
    const step = view.step ? ` — ${sentence(view.step, false)}` : "…";
    prompt.textContent = `${store.game.seats[view.to_move].name} to move${step}`;
  }
  prompt.className = mine ? "prompt yours" : "prompt";
}
