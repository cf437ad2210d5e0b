// Taking back, and holding back. The server says when this seat may take back its last step (`undo` in its view:
// its own steps since another seat acted or something hidden or random was revealed); the page then shows "Undo".
// A choice that could not be taken back once sent (the server marks it `final`: it shows what was hidden, such as
// a card played from the hand) is held as a draft first, with "Send" and "Cancel": a slip of the mouse costs nothing.
import { $, el } from "./common.js";
import { send } from "./connection.js";
import { store } from "./store.js";

let sendChoice = null;  // how a choice is sent (play.js's play), given by the last draw

/** Hold `legal` as this seat's draft instead of sending it, if it is final and not the draft already; true if held. */
export function held(legal) {
  const view = store.view;
  if (!legal.final || (store.draft && store.draft.key === legal.key && store.draft.version === view.version)) return false;
  store.draft = { ...legal, version: view.version };
  drawTakeBack(sendChoice, true);
  $("draft-send").focus();
  return true;
}

/** Forget the draft held (Cancel, or Esc). */
export function cancelDraft() {
  if (!store.draft) return;
  store.draft = null;
  drawTakeBack(sendChoice, true);
}

document.addEventListener("keydown", (event) => { if (event.key === "Escape" && store.draft) cancelDraft(); });

function takeBack() {
  if (store.pending) return;
  store.pending = true;
  if (window.skaldState) window.skaldState.pending = true;
  $("error").textContent = "";
  send({ type: "undo", version: store.view.version, ref: ++store.refs });
}

function sendDraft() {
  if (store.draft && sendChoice) sendChoice(store.draft);
}

/** Draw the draft held (with Send and Cancel) or the Undo the server offers; `send` sends a choice. */
export function drawTakeBack(send, mine) {
  sendChoice = send;
  const view = store.view;
  const box = $("takeback");
  if (store.draft && (store.draft.version !== view.version || !mine)) store.draft = null;
  const draft = store.draft;
  box.replaceChildren();
  if (draft) {
    box.append(
      el("p", { id: "draft", role: "status" }, "Your choice: ", el("b", {}, draft.notation),
        draft.label ? ` — ${draft.label.replace(/[.!?]$/, "")}` : "", ". Once sent it cannot be taken back: it shows what was hidden."),
      el("button", { type: "button", id: "draft-send", class: "act", onclick: sendDraft }, "Send"),
      el("button", { type: "button", id: "draft-cancel", onclick: cancelDraft }, "Cancel"));
  } else if (view.undo && view.status === "playing") {
    const steps = view.undo.steps;
    box.append(el("button", { type: "button", id: "undo-button",
      title: steps > 1 ? `Takes back your last step and the ${steps - 1} the table gave for you after it`
        : "Takes back your last step",
      onclick: takeBack }, "Undo"));
  }
  box.hidden = !box.childElementCount;
  for (const node of document.querySelectorAll(".drafted")) node.classList.remove("drafted");
  if (!draft) return;
  const key = CSS.escape(draft.key);
  for (const node of document.querySelectorAll(`[data-key="${key}"], [data-chosen="${key}"]`)) node.classList.add("drafted");
}

// A step back is no move of the game: it stands in the log after the last move that was kept, in the order taken.
/** Show each step back (`{seat, name, ply, steps}`) in the log: "Ann took back 2 steps". */
export function showUndos(undos) {
  const log = $("log");
  for (const item of log.querySelectorAll("li.undo")) item.remove();
  for (const entry of [...undos].reverse()) {
    const item = el("li", { class: "undo seat-" + entry.seat }, el("span", { class: "who" }, entry.name),
      ` took back ${entry.steps === 1 ? "1 step" : `${entry.steps} steps`}`);
    const before = entry.ply > 0 ? log.querySelector(`li[value="${entry.ply}"]`) : null;
    if (before) before.after(item); else if (entry.ply > 0) log.append(item); else log.prepend(item);
  }
}
