// A human pace: the updates that bring other seats' moves and chance's draws are shown one at a time, each held in
// view for the viewer's chosen pause before the next is drawn, and an update of several seats' moves frame by frame
// (one frame a move, each held in turn: `skald.web.frames`). Purely a matter of display: every update is taken in
// as it comes (the board's pieces, the log) and only its drawing waits, so the server sends exactly what and when it
// always does. The viewer's own prompt waits for nothing but the moves queued before it (under a live clock, not
// even for them), and "Show all now" skips the wait at once.
import { $ } from "./common.js";
import { store } from "./store.js";

/** The paces offered, by name: the pause after each update that brings other seats' moves or draws, in ms. */
export const PACES = { slow: 1600, human: 800, fast: 0 };
/** The pace of a browser that never chose one: every other seat's move stays in view for 0.8 s. */
export const DEFAULT_PACE = "human";
const KEY = "skald.pace";

const queue = [];  // the updates taken in and not yet drawn, oldest first
let holdUntil = 0;  // performance.now() before which the next update waits
let timer = null;

/** The pace this browser chose (kept in localStorage), else the default. */
export function paceName() {
  let name = null;
  try { name = localStorage.getItem(KEY); } catch (e) { name = null; }
  return Object.hasOwn(PACES, name) ? name : DEFAULT_PACE;
}

// Whether log entries bring something to watch: a move by another seat than this viewer's, or a draw.
function watched(entries) {
  return entries.some((entry) => entry.seat === null || entry.seat !== store.you);
}

// For whoever drives the page (the browser tests): when each update, or frame of one, was drawn, and what it brought
// (`frame`: the frame's index, absent for the update's own view; `log`: the plies of the entries it added).
const record = { shown: [] };
window.skaldPace = record;

// Each item waiting is one drawing: an update's frame (`frame` its index) or the update's own view, drawn whole.
function showNext(show) {
  timer = null;
  while (queue.length) {
    const wait = holdUntil - performance.now();
    if (wait > 0) { timer = setTimeout(() => showNext(show), wait); break; }
    const { msg, frame } = queue.shift();
    const from = msg.logShown || 0;
    show(msg, frame);
    const now = performance.now();
    const entries = msg.log.slice(from, msg.logShown);
    record.shown.push({ version: msg.version, frame, at: now, seats: entries.map((entry) => entry.seat),
      plies: entries.map((entry) => entry.ply), others: entries.some((entry) => entry.seat !== null && entry.seat !== store.you),
      marks: (store.view.last_move || []).length, rings: document.querySelectorAll("#board .last-move-ring").length,
      logged: document.querySelectorAll("#log li[value]").length });
    if (PACES[paceName()] && watched(entries) && msg.paced) holdUntil = now + PACES[paceName()];
  }
  drawSkip();
}

/** Draw the update `msg` through `show`: at once when nothing waits and no pause holds, else after those queued; at
 * a pace with a pause, an update that brings several seats' moves (`msg.frames`) frame by frame, each held in turn.
 * `paced`: whether it may hold the next one (not the log a connection brings). */
export function pace(msg, paced, show) {
  msg.paced = paced;
  if (paced && PACES[paceName()]) (msg.frames || []).forEach((_, frame) => queue.push({ msg, frame }));
  queue.push({ msg });
  flush = () => {
    holdUntil = 0;
    clearTimeout(timer);
    // Shown at once: an update's frames are passed over for its own view.
    for (let i = queue.length - 1; i >= 0; i -= 1) if (queue[i].frame !== undefined) queue.splice(i, 1);
    showNext(show);
  };
  // Under a live clock the seat's time runs from the server's commit: its prompt is drawn at once, with all before it.
  const clock = store.game && store.game.clock;
  if (clock && clock.kind === "live" && (msg.legal || []).length) flush();
  else if (!timer) showNext(show);
  else drawSkip();
}

let flush = () => {};

/** Forget the updates waiting (a new connection sends the whole table again). */
export function resetPace() {
  queue.length = 0;
  holdUntil = 0;
  clearTimeout(timer);
  timer = null;
}

function drawSkip() {
  const button = $("pace-skip");
  if (!button) return;
  button.hidden = queue.length === 0;
  button.textContent = `Show all now (${queue.length} waiting)`;
}

/** The pace setting in the table's bar and the button that shows every update waiting at once. */
export function wirePace() {
  const select = $("pace-select");
  select.value = paceName();
  select.addEventListener("change", () => {
    try { localStorage.setItem(KEY, select.value); } catch (e) { /* a browser that keeps nothing: this page only */ }
    if (!PACES[select.value]) flush();
  });
  $("pace-skip").addEventListener("click", () => flush());
}
