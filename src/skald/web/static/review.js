// The bot's review of the finished game, asked for on the end screen: made by the server's bot workers within its
// time budget (a progress bar and the costliest moves so far while it is made), then kept. Its marked moves open the replay at the position where each was chosen, and the replay
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

/** The marked moves of `moves` as buttons that open the replay where each was chosen. */
function drawMarks(moves, seats) {
  const marked = moves.filter((move) => move.marked);
  $("review-marks").replaceChildren(...marked.map((move) => {
    const who = seats[move.seat];
    const words = `Move ${move.ply + 1} · ${who}: ${move.played} — the bot preferred ${move.best}; `
      + `${who}'s chances ${percent(move.chances[move.seat])} → ${percent(move.after)}`;
    return el("li", {}, el("button", { type: "button", class: "link", onclick: () => openReplayAt(move.ply) }, words));
  }));
  return marked;
}

/** Keep `moves` for the replay's review line, and redraw it if the replay is open. */
function keepForReplay(moves, seats) {
  store.review = { seats, byPly: new Map(moves.map((move) => [move.ply, move])) };
  if (!$("replay").hidden) drawReviewLine(Number($("rp-slider").value));
}

/** While the review is being made: its place in the queue or how far it got, and the marked moves so far. */
function showProgress(found) {
  const bar = $("review-progress");
  const progress = found.progress || { done: 0, planned: 0, percent: 0 };
  const budget = found.budget_minutes ? ` It ends within ${found.budget_minutes} minutes.` : "";
  bar.hidden = false;
  bar.value = progress.percent;
  bar.setAttribute("aria-valuetext", `${progress.percent}%`);
  if (found.ahead) {
    $("review-status").textContent = `Your review waits for ${found.ahead} other review${found.ahead > 1 ? "s" : ""}`
      + ` to end first.${budget}`;
  } else {
    const looked = progress.planned ? ` (${progress.done} of ${progress.planned} decisions looked at)` : "";
    $("review-status").textContent = `The bot is reviewing the game: ${progress.percent}% done${looked}.${budget}`
      + (drawMarks(found.partial || [], found.seats).length ? " The costliest moves so far:" : "");
  }
  keepForReplay(found.partial || [], found.seats);
}

/** Show the server's answer about the review (`found`): being made (asked again shortly), ready, or none. */
export function reviewArrived(found) {
  clearTimeout(reviewPolling);
  if (found.status === "computing") {
    showProgress(found);
    reviewPolling = setTimeout(async () => {
      try { reviewArrived(await api("GET", `/api/games/${gameId}/review`)); }
      catch (e) { reviewArrived({ status: "computing", seats: found.seats }); }  // asked again a little later
    }, 2000);
    return;
  }
  $("review-progress").hidden = true;
  if (found.status !== "ready") {
    $("review-status").textContent = found.message || "No review yet.";
    $("review-button").disabled = false;
    return;
  }
  const review = found.review;
  keepForReplay(review.moves, found.seats);
  const marked = drawMarks(review.moves, found.seats);
  $("review-button").hidden = true;
  const spread = review.every > 1 ? ` (every ${review.every}th of the game's ${review.decisions})` : "";
  const cut = review.complete === false ? ` Its time ran out at move ${review.moves.length
    ? review.moves[review.moves.length - 1].ply + 1 : 1}; the rest was not looked at.` : "";
  $("review-status").textContent = `The bot reviewed ${review.moves.length} decisions${spread}.${cut} `
    + (marked.length ? "The moves after which the mover's chances fell most:"
      : "It found no move that cost the mover much.");
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
