// Leaving a game before its end: resigning (confirmed first: it cannot be taken back) and a draw offered, accepted
// or declined between the two people of a game. The server decides; the page shows what it was told.
import { $, el } from "./common.js";
import { send } from "./connection.js";
import { store } from "./store.js";

function button(id, label, onclick, extra = {}) {
  return el("button", { type: "button", id, onclick, ...extra }, label);
}

function askToResign() {
  store.confirmResign = true;
  drawDeparting();
  $("resign-confirm").focus();
}

function resign() {
  store.confirmResign = false;
  send({ type: "resign" });
}

function keepPlaying() {
  store.confirmResign = false;
  drawDeparting();
  $("resign-button").focus();
}

// A draw is for a game of two people, neither resigned: offered, it stands until the other answers or a move is made.
function drawControls(view, seats, you) {
  const offer = view.draw_offer;
  if (offer === null || offer === undefined) {
    return [button("draw-offer-button", "Offer a draw", () => send({ type: "draw", act: "offer" }))];
  }
  if (offer === you) {
    return [el("span", { id: "draw-offered" }, "You offered a draw. "),
      button("draw-withdraw", "Withdraw", () => send({ type: "draw", act: "decline" }))];
  }
  return [el("p", { id: "draw-offer", role: "alert" }, `${seats[offer].name} offers a draw: you would share the victory.`),
    button("draw-accept", "Accept the draw", () => send({ type: "draw", act: "accept" })),
    button("draw-decline", "Decline", () => send({ type: "draw", act: "decline" }))];
}

/** The seats that resigned, first to resign first: `{seat, name, ply}` each. */
export function resignedSeats() {
  return (store.view && store.view.resigned) || [];
}

/** Draw the resign and draw controls of this viewer's seat while it is in the game. */
export function drawDeparting() {
  const view = store.view;
  const box = $("departing");
  const you = store.you;
  const resigned = resignedSeats().map((entry) => entry.seat);
  const playing = view.status === "playing" && you !== null && !resigned.includes(you);
  box.hidden = !playing;
  if (!playing) {
    store.confirmResign = false;
    box.replaceChildren();
    return;
  }
  const parts = store.confirmResign
    ? [el("p", { id: "resign-question", role: "alert" },
      "Resign this game? You will be ranked last and it counts as a loss; if two or more seats are left, a bot plays yours."),
    button("resign-confirm", "Yes, resign", resign, { class: "danger" }),
    button("resign-cancel", "Keep playing", keepPlaying)]
    : [button("resign-button", "Resign…", askToResign)];
  const seats = store.game.seats;
  if (seats.length === 2 && seats.every((seat) => seat.kind === "human") && !resigned.length) {
    parts.push(...drawControls(view, seats, you));
  }
  box.replaceChildren(...parts);
}
