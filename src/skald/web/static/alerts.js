// Your turn, told to a player who is not looking: the tab's title and icon say so while the move is awaited, and if
// the player asked for it (and the browser allows), a notification comes when the turn arrives while this tab is in
// the background. It says no more than the seat's own prompt, and only to the seat.
import { $, icon } from "./common.js";
import { sentence } from "./choices.js";
import { gameId, store } from "./store.js";

const NOTIFY_KEY = "skald.notify";
let wasYours = null;  // whether the last view drawn awaited this seat's move (null: none drawn yet)

function notifying() {
  return "Notification" in window && Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "on";
}

function drawNotifyButton() {
  const button = $("notify-button");
  button.hidden = store.you === null || !("Notification" in window) || (store.view && store.view.status === "over");
  const blocked = "Notification" in window && Notification.permission === "denied";
  button.disabled = blocked;
  button.setAttribute("aria-pressed", notifying() ? "true" : "false");
  button.title = blocked ? "Notifications are blocked for this site in your browser's settings"
    : "A notification when it becomes your turn while this tab is in the background";
}

/** Tell the tab (and, if asked for, a notification) whether this seat's move is awaited (`mine`). */
export function drawTurnAlert(mine) {
  const view = store.view;
  const game = store.game;
  const yours = mine && view.status !== "over";
  document.title = `${yours ? "● Your turn · " : ""}Skald — ${game.title}`;
  icon(yours);
  if (yours && wasYours === false && document.visibilityState === "hidden" && notifying()) {
    const note = new Notification(`Your turn — ${game.title}`, {
      body: sentence(view.prompt || "choose a move", true), tag: `skald-${gameId}`,
    });
    note.onclick = () => { window.focus(); note.close(); };
  }
  wasYours = yours;
  drawNotifyButton();
}

/** The button that turns the notifications on and off (asking the browser's permission). */
export function wireNotifyButton() {
  $("notify-button").addEventListener("click", async () => {
    if (notifying()) {
      localStorage.setItem(NOTIFY_KEY, "off");
    } else {
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      localStorage.setItem(NOTIFY_KEY, answer === "granted" ? "on" : "off");
      if (answer !== "granted") $("error").textContent = "The browser did not allow notifications for this site.";
    }
    drawNotifyButton();
  });
}
