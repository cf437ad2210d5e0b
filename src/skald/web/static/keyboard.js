// The board and the choices by keyboard. The board is a group of buttons for the keyboard and screen readers: each
// target takes the focus in turn (one Tab stop, arrows move between targets, Enter or Space acts) and is named by the
// game's words for it — its notation and label, and the drawing's own title for the thing (a square, a Group on the
// wheel). Forbidden targets are in the round too and say why when focused. A focusable part of the drawing that holds
// targets of its own (a Vikingdoms stack whose Vikings may move) opens them: Enter, Space or ↓ goes to its first
// target, Esc comes back.
import { $ } from "./common.js";
import { play } from "./play.js";
import { hideTip } from "./tooltip.js";

/** Make the drawn board's targets a keyboard's buttons on this seat's turn (`mine`; `legal`: the legal by key). */
export function keyboardBoard(legal, mine) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.setAttribute("role", "group");  // not an image: its targets must be reachable inside it
  if (!mine) return;
  const openers = [...svg.querySelectorAll("[tabindex]:not([data-action])")].filter((node) => node.querySelector("[data-action]"));
  for (const opener of openers) {
    const title = opener.querySelector(":scope > title");
    opener.setAttribute("role", "button");
    opener.setAttribute("aria-haspopup", "true");
    if (title) opener.setAttribute("aria-label", `${title.textContent} (Enter: choose where)`);
    opener.addEventListener("keydown", (event) => {
      if (event.target !== opener || !["Enter", " ", "ArrowDown"].includes(event.key)) return;
      const first = shownTargets(opener)[0];
      if (first) first.focus();
      event.preventDefault();
    });
  }
  const targets = [...svg.querySelectorAll("[data-action].legal"), ...svg.querySelectorAll("[data-action].forbidden")];
  let stop = false;
  for (const node of targets) {
    const entry = legal.get(node.getAttribute("data-chosen"));
    const title = node.querySelector("title");
    const words = [entry ? entry.notation : "", entry && entry.label ? entry.label : "", title ? title.textContent : ""];
    const opener = openers.find((candidate) => candidate.contains(node));
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", !stop && !opener ? "0" : "-1");  // the board's one Tab stop: its first target
    if (!opener) stop = true;
    node.setAttribute("aria-label", words.filter(Boolean).join(" — "));
    if (!entry) {
      node.setAttribute("aria-disabled", "true");
      node.setAttribute("aria-describedby", "tooltip");
    }
    node.addEventListener("keydown", (event) => {
      if (event.target !== node) return;
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      if (step) {
        const ring = shownTargets(opener || svg).filter((other) => (openers.find((o) => o.contains(other)) || null) === (opener || null));
        const next = ring[(ring.indexOf(node) + step + ring.length) % ring.length];
        if (!opener) {
          node.setAttribute("tabindex", "-1");
          next.setAttribute("tabindex", "0");
        }
        next.focus();
      } else if (event.key === "Enter" || event.key === " ") {
        if (entry) play(entry);
      } else if (event.key === "Escape") {
        hideTip();
        if (opener) opener.focus();
      } else return;
      event.preventDefault();
      event.stopPropagation();
    });
  }
}

// The board's targets within `scope` that are drawn now (a target inside a closed opener is not).
function shownTargets(scope) {
  return [...scope.querySelectorAll("[data-action].legal, [data-action].forbidden")].filter((node) => node.getClientRects().length > 0);
}

// Whether the person is choosing by keyboard as the choices are about to be drawn again: the last input was a key,
// and the focus is on a choice or a board target (the one pressed is still there until they are replaced). After a
// tap or a click the focus is left alone: moving it could open a phone's keyboard over the board.
const CHOOSING = "#actions, #board, #mode, #actions-card";
let keyboardLast = false;

/** Follow whether the last input was a key or a pointer. */
export function watchInput() {
  document.addEventListener("keydown", () => { keyboardLast = true; }, true);
  document.addEventListener("pointerdown", () => { keyboardLast = false; }, true);
}

/** Whether the focus is to be kept on the choices when they are drawn again. */
export function focusWasOnChoices() {
  const active = document.activeElement;
  return keyboardLast && Boolean(active && active !== document.body && active.closest(CHOOSING));
}

// After a move the pressed button is gone: the focus goes to the first new choice, or to the choices' heading when
// it is not this seat's turn, never to the page itself.
/** Put the focus back on the choices drawn again, for this seat's turn (`mine`) or not. */
export function keepFocus(mine) {
  const first = mine ? $("actions").querySelector("button.act, .amount input, .amount button.confirm") : null;
  (first || $("choices-heading")).focus({ preventScroll: true });
}
