// What this seat decides, sent to the server: a move, or a standing answer kept. One at a time: the next waits for
// the server's answer to the last.
import { $ } from "./common.js";
import { send } from "./connection.js";
import { store } from "./store.js";
import { held } from "./takeback.js";
import { hideTip } from "./tooltip.js";

/** Play the legal choice `legal` ({ action, … }) in the view shown; one that cannot be taken back once sent is held
 * as a draft first, and sent from there. */
export function play(legal) {
  if (store.pending || held(legal)) return;
  store.draft = null;
  store.pending = true;
  window.skaldState.pending = true;
  $("error").textContent = "";
  hideTip();
  send({ type: "move", version: store.view.version, action: legal.action, ref: ++store.refs });
}

/** Keep the game's standing answer `name` (the offer shown at this decision). */
export function keepStanding(name) {
  if (store.pending) return;
  store.pending = true;
  window.skaldState.pending = true;
  $("error").textContent = "";
  send({ type: "standing", version: store.view.version, name, ref: ++store.refs });
}

/** Stop the standing answer kept. */
export function stopStanding() {
  send({ type: "standing", name: null, ref: ++store.refs });
}
