// The log of the game as this viewer may read it: every move and draw, the last move marked, and the move a replay
// shows followed.
import { $, el } from "./common.js";
import { addHeadings, entryText } from "./timeline.js";

// The log's new entries, added at once and scrolled to once: the update that ends a game (or a hello late in one)
// brings thousands, and scrolling after each would lay the page out again for every one.
/** Add the log's new `entries` and scroll to the newest. */
export function addLog(entries) {
  const log = $("log");
  const items = document.createDocumentFragment();
  for (const entry of entries) {
    const who = entry.seat === null ? "chance" : entry.name;
    const attrs = { class: entry.seat === null ? "chance" : "seat-" + entry.seat, value: entry.ply + 1 };
    if (entry.says) attrs.title = entry.notation;
    const item = el("li", attrs, el("span", { class: "who" }, who), " ", entryText(entry));
    addHeadings(log, items, entry, item);
    items.append(item);
  }
  log.append(items);
  markLastMove(log);
  log.scrollTop = log.scrollHeight;
}

// The last move made by a seat, and the draws that followed it, stand out in the log: someone who looked away sees
// at once what changed.
/** Mark the last move by a seat in `log`, and the draws after it. */
export function markLastMove(log) {
  for (const item of log.querySelectorAll("li.last-move")) {
    item.classList.remove("last-move");
    item.removeAttribute("aria-current");
  }
  let move = log.lastElementChild;
  while (move && move.classList.contains("chance")) move = move.previousElementSibling;
  if (!move) return;  // nothing but chance so far
  move.setAttribute("aria-current", "step");
  for (let item = move; item; item = item.nextElementSibling) item.classList.add("last-move");
}

// The log follows the replay: the entry of the move just replayed is marked and scrolled into view (none at the
// start); leaving the replay unmarks it and goes back to the newest entry.
/** Mark and show the log's entry of the move that led to position `ply` (none for 0). */
export function followInLog(ply) {
  for (const item of $("log").querySelectorAll("li.replayed")) item.classList.remove("replayed");
  const item = ply > 0 ? $("log").querySelector(`li[value="${ply}"]`) : null;
  if (item) {
    item.classList.add("replayed");
    item.scrollIntoView({ block: "nearest" });
  }
}

// A resignation is no move of the game: it stands in the log after the last move made before it, and an agreed
// draw at the end.
/** Show each seat's resignation (`{seat, name, ply}`) in the log, and the draw if the game ended by agreement. */
export function showDepartures(resigned, result) {
  const log = $("log");
  for (const item of log.querySelectorAll("li.departure")) item.remove();
  for (const entry of resigned) {
    const item = el("li", { class: "departure seat-" + entry.seat }, el("span", { class: "who" }, entry.name),
      " resigns: ranked last; a bot plays the seat if the game goes on");
    const before = entry.ply > 0 ? log.querySelector(`li[value="${entry.ply}"]`) : null;
    if (before) before.after(item); else if (entry.ply > 0) log.append(item); else log.prepend(item);
  }
  if (result && result.agreed) log.append(el("li", { class: "departure" }, "Drawn by agreement"));
}
