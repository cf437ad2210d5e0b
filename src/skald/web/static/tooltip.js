// Why a board target is forbidden, asked of the server when the pointer or the focus rests on it, and shown in a tip
// beside it (the browser decides nothing: the game's rules say why).
import { $ } from "./common.js";
import { send } from "./connection.js";
import { store } from "./store.js";

/** Show why the target `key` is forbidden near the pointer of `event`, asking the server once. */
export function ask(key, event) {
  store.hovered = { key, x: event.clientX, y: event.clientY };
  if (store.reasons.has(key)) showTip(event.clientX, event.clientY, store.reasons.get(key));
  else send({ type: "why", action: JSON.parse(key), ref: ++store.refs });
}

/** Show the tip saying `text` near the screen point (x, y). */
export function showTip(x, y, text) {
  const tip = $("tooltip");
  tip.textContent = text;
  tip.hidden = false;
  moveTip({ clientX: x, clientY: y });
}

/** Move the tip to follow the pointer of `e`. */
export function moveTip(e) {
  const tip = $("tooltip");
  tip.style.left = `${e.clientX + 14}px`;
  tip.style.top = `${e.clientY + 14}px`;
}

/** Hide the tip; no target is rested on. */
export function hideTip() {
  store.hovered = null;
  $("tooltip").hidden = true;
}
