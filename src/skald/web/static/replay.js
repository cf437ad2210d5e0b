// The replay: any position of the game as this viewer saw it, stepped through by buttons, a slider or the keys, the
// log following it, and the bot's review of each position when there is one.
import { $, api, showSvg } from "./common.js";
import { boardZoom, ringLastMove } from "./board.js";
import { followInLog } from "./log.js";
import { sectionAt } from "./timeline.js";
import { gameId, store } from "./store.js";
import { Zoom } from "./zoom.js";

const replayZoom = new Zoom($("rp-board"), $("rp-zoom"));

/** A chance (0 to 1) in whole percent. */
export const percent = (value) => `${Math.round(value * 100)}%`;

/** Redraw both boards at their zoom (the frames may have changed width). */
export function applyZooms() {
  boardZoom.apply();
  replayZoom.apply();
}

/** Say, under the replayed board, what the bot's review found at position `ply` (nothing if not reviewed). */
export function drawReviewLine(ply) {
  const review = store.review;
  const move = review && review.byPly.get(ply);
  $("rp-review").hidden = !move;
  if (!move) return;
  const who = review.seats[move.seat];
  const chances = move.chances.map((value, seat) => `${review.seats[seat]} ${percent(value)}`).join(" · ");
  $("rp-review").className = move.marked ? "review-line marked" : "review-line";
  $("rp-review").textContent = `The bot's estimate here: ${chances}. ${who} played ${move.played}`
    + (move.best === move.played ? " — the bot's choice too" : `; the bot would play ${move.best}`)
    + `, after which ${who}'s chances were ${percent(move.after)}.`;
}

/** Open the replay at position `ply`. */
export function openReplayAt(ply) {
  $("replay").hidden = false;
  $("live-board").hidden = true;
  showPly(ply);
}

async function showPly(ply) {
  // As this viewer saw the game (its token names the seat): another seat's hidden cards stay hidden.
  const data = await api("GET", `/api/games/${gameId}/replay/${ply}`, undefined, store.token);
  showSvg($("rp-board"), data.svg);
  ringLastMove($("rp-board"), data.last_move);
  replayZoom.apply();
  $("rp-slider").max = data.version;
  $("rp-slider").value = ply;
  const last = data.log[data.log.length - 1];
  const section = sectionAt(ply);
  $("rp-label").textContent = `${ply} / ${data.version}` + (section ? ` · ${section}` : "")
    + (last ? ` · ${last.name}: ${last.says || last.notation}` : " · start");
  drawReviewLine(ply);
  followInLog(ply);
}

function replayStep(delta) {
  const slider = $("rp-slider");
  const ply = Math.min(Math.max(Number(slider.value) + delta, 0), Number(slider.max));
  if (ply !== Number(slider.value)) showPly(ply);
}

function openReplay() {
  $("replay").hidden = false;
  $("live-board").hidden = true;
  showPly(store.view ? store.view.version : 0);
}

function closeReplay() {
  $("replay").hidden = true;
  $("live-board").hidden = false;
  boardZoom.apply();
  followInLog(0);
  $("log").scrollTop = $("log").scrollHeight;
  $("replay-button").focus();
}

/** The replay's controls: the Replay button, the bar's buttons and slider, and the keys. */
export function wireReplay() {
  $("replay-button").addEventListener("click", openReplay);
  $("rp-close").addEventListener("click", closeReplay);
  $("rp-slider").addEventListener("change", (e) => showPly(Number(e.target.value)));
  $("rp-first").addEventListener("click", () => showPly(0));
  $("rp-prev").addEventListener("click", () => replayStep(-1));
  $("rp-next").addEventListener("click", () => replayStep(1));
  $("rp-last").addEventListener("click", () => showPly(Number($("rp-slider").max)));
  // The keyboard steps through the replay wherever the focus is, except in a field that uses the keys itself (the
  // slider moves by the same arrows natively): ← and → a move, Home and End to either end, Escape back to the table.
  document.addEventListener("keydown", (e) => {
    if ($("replay").hidden || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const steps = { ArrowLeft: () => replayStep(-1), ArrowRight: () => replayStep(1),
      Home: () => showPly(0), End: () => showPly(Number($("rp-slider").max)), Escape: closeReplay };
    const step = steps[e.key];
    if (!step) return;
    e.preventDefault();
    step();
  });
}
