// The bot's review of the finished game, asked for on the end screen: made by the server's bot workers (it may take
// a minute), then kept. Its marked moves open the replay at the position where each was chosen, and the replay
// shows the bot's estimates and choice at every position reviewed.
import { $, api, el } from "./common.js";
import { drawReviewLine, openReplayAt, percent } from "./replay.js";
import { gameId, store } from "./store.js";

let reviewPolling = null;

async function askReview() {
  $("review-button").disabled = true;
  try {
    reviewArrived(await api("POST", `/api/games/${gameId}/review`, {}));
  } catch (e) {
    $("review-status").textContent = e.message;
    $("review-button").disabled = false;
  }
}

/** Show the server's answer about the review (`found`): being made (asked again shortly), ready, or none. */
export function reviewArrived(found) {
  clearTimeout(reviewPolling);
  if (found.status === "computing") {
    $("review-status").textContent = "The bot is reviewing the game, move by move (this can take a minute)…";
    reviewPolling = setTimeout(async () => {
      try { reviewArrived(await api("GET", `/api/games/${gameId}/review`)); }
      catch (e) { reviewArrived({ status: "computing" }); }  // asked again a little later
    }, 2000);
    return;
  }
  if (found.status !== "ready") {
    $("review-status").textContent = found.message || "No review yet.";
    $("review-button").disabled = false;
    return;
  }
  store.review = { seats: found.seats, byPly: new Map(found.review.moves.map((move) => [move.ply, move])) };
  const marked = found.review.moves.filter((move) => move.marked);
  $("review-button").hidden = true;
  $("review-status").textContent = marked.length
    ? `The bot reviewed ${found.review.moves.length} decisions. The moves after which the mover's chances fell most:`
    : `The bot reviewed ${found.review.moves.length} decisions and found no move that cost the mover much.`;
  $("review-marks").replaceChildren(...marked.map((move) => {
    const who = found.seats[move.seat];
    const words = `Move ${move.ply + 1} · ${who}: ${move.played} — the bot preferred ${move.best}; `
      + `${who}'s chances ${percent(move.chances[move.seat])} → ${percent(move.after)}`;
    return el("li", {}, el("button", { type: "button", class: "link", onclick: () => openReplayAt(move.ply) }, words));
  }));
  const shown = Number($("rp-slider").value);
  if (!$("replay").hidden) drawReviewLine(shown);
}

/** Show a review asked for earlier (here or by another viewer), once, when the game is over. */
export function checkReview() {
  if (store.reviewChecked) return;
  store.reviewChecked = true;
  api("GET", `/api/games/${gameId}/review`).then((found) => {
    if (found.status === "ready" || found.status === "computing") reviewArrived(found);
  }).catch(() => {});
}

/** The end screen's button that asks the bot for a review. */
export function wireReview() {
  $("review-button").addEventListener("click", askReview);
}
