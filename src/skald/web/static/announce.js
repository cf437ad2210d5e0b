// One polite live region says, in order: each move by another seat ("Bot (greedy): buy 5 …"), then the prompt when
// its text changes, and the connection lost or back. The board and the prompt are not live themselves: the board is
// redrawn on every move, and "Bot to move…" would be said again and again.
import { $, el } from "./common.js";
import { store } from "./store.js";

let lastPrompt = "";

/** Say `text` to a screen reader. */
export function announce(text) {
  const region = $("announcer");
  region.append(el("p", {}, text));
  while (region.children.length > 20) region.firstElementChild.remove();  // said already: kept only a while
}

/** Say the moves of the other seats among the log's new `entries`. */
export function announceMoves(entries) {
  for (const entry of entries) {
    if (entry.seat === null || entry.seat === store.you) continue;
    announce(`${entry.name}: ${entry.notation}`);
  }
}

/** Say the prompt if its text changed. */
export function announcePrompt() {
  const text = $("prompt").textContent;
  if (text && text !== lastPrompt) announce(text);
  lastPrompt = text;
}
