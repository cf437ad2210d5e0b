// The live board: the SVG the game's renderer drew for this viewer, its click targets (the game marks them
// `data-action`, and `data-alt` for a second action), the toggle between a target's two actions, the rings round
// what the last move changed, and its zoom.
import { $, showSvg } from "./common.js";
import { play } from "./play.js";
import { store } from "./store.js";
import { ask, hideTip, moveTip } from "./tooltip.js";
import { Zoom, unionBox } from "./zoom.js";

// What the decision is about, for the zoom to centre on: the legal targets, else this seat's own part of the board
// (the game marks it `data-seat`), else what the last move changed.
function decisionBox(frame) {
  const own = store.you === null ? [] : frame.querySelectorAll(`svg [data-seat="${store.you}"]`);
  return unionBox(frame.querySelectorAll("svg .legal")) || unionBox(own)
    || unionBox(frame.querySelectorAll("svg .last-move-ring"));
}

/** The live board's zoom. */
export const boardZoom = new Zoom($("board"), $("board-zoom"), decisionBox, () => store.you);

// On a phone the prompt is kept at the top of the screen, the zoom's bar just under it (placed by the prompt's height,
// `--prompt-height`, measured whenever it changes) and the choices at its foot: each is a `.stuck-bar`, which the
// zoom leaves out of the board's part in view.
$("actions-card").classList.add("stuck-bar");
const promptRow = document.querySelector(".prompt-row");
if (promptRow && typeof ResizeObserver === "function") {
  new ResizeObserver(() => document.documentElement.style.setProperty("--prompt-height", `${promptRow.offsetHeight}px`))
    .observe(promptRow);
}

/** Draw the board of the view shown, ringing what the last move changed. */
export function drawBoard() {
  showSvg($("board"), store.view.svg);
  if (typeof store.view.text === "string") $("text-board").textContent = store.view.text;
  ringLastMove($("board"), store.view.last_move);
}

/** Which of a target's two actions a click means: "primary" or "alt". */
export function mode() {
  const checked = document.querySelector('input[name="mode"]:checked');
  return checked ? checked.value : "primary";
}

// A board target may name two actions (`data-action`, and `data-alt`); when both are legal somewhere, a toggle
// headed by their groups' headings (the game's words) says which one a click means.
/** Show the toggle between a target's two actions if some target has both legal (`legal`: the legal by key). */
export function drawMode(legal) {
  let pair = null;
  for (const node of $("board").querySelectorAll("[data-alt]")) {
    const primary = legal.get(node.getAttribute("data-action"));
    const alt = legal.get(node.getAttribute("data-alt"));
    if (primary && alt) { pair = [primary, alt]; break; }
  }
  $("mode").hidden = !pair;
  if (pair) {
    $("mode-primary").textContent = pair[0].group || "first choice";
    $("mode-alt").textContent = pair[1].group || "other choice";
  }
}

// Rings the parts of a drawn board that the last move changed (the game names them: `data-at` in its SVG), so that
// someone who looked away sees what changed. A ring is drawn last, over everything, around the part's box taken to
// the board's own coordinates, and takes no clicks.
/** Ring the parts named `marks` of the board drawn in `container`. */
export function ringLastMove(container, marks) {
  const svg = container.querySelector("svg");
  if (!svg || !marks) return;
  for (const name of marks) {
    const part = svg.querySelector(`[data-at="${CSS.escape(name)}"]`);
    if (!part || typeof part.getBBox !== "function") continue;
    const [board, own] = [svg.getScreenCTM(), part.getScreenCTM()];
    if (!board || !own) continue;  // not laid out (the board is hidden while a replay is shown)
    const box = part.getBBox();
    const toBoard = board.inverse().multiply(own);
    const corners = [[box.x, box.y], [box.x + box.width, box.y + box.height]].map(([x, y]) => {
      const point = new DOMPoint(x, y).matrixTransform(toBoard);
      return [point.x, point.y];
    });
    const [[left, top], [right, bottom]] = corners;
    const ring = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    const place = { x: Math.min(left, right) - 3, y: Math.min(top, bottom) - 3, width: Math.abs(right - left) + 6,
      height: Math.abs(bottom - top) + 6, rx: 6 };
    for (const [key, value] of Object.entries(place)) ring.setAttribute(key, String(value));
    ring.setAttribute("class", "last-move-ring");
    ring.setAttribute("aria-hidden", "true");
    svg.append(ring);
  }
}

let followed = null;  // the version whose decision the zoom last followed

// A legal target plays the action it stands for (by the toggle, when it has two); on this seat's turn a forbidden
// one asks why, when the pointer rests on it or it is focused.
/** Make the board's targets playable for this seat (`mine`), from the legal choices by key (`legal`). */
export function wireTargets(legal, mine) {
  for (const node of $("board").querySelectorAll("[data-action]")) {
    const primary = node.getAttribute("data-action");
    const alt = node.getAttribute("data-alt");
    let chosen = null;
    if (alt && legal.has(alt) && (mode() === "alt" || !legal.has(primary))) chosen = alt;
    else if (legal.has(primary)) chosen = primary;
    if (chosen && mine) {
      node.classList.add("legal");
      node.setAttribute("data-chosen", chosen);
      node.addEventListener("click", () => play(legal.get(chosen)));
    } else if (mine) {
      node.classList.add("forbidden");
      const key = primary;
      node.addEventListener("mouseenter", (e) => ask(key, e));
      node.addEventListener("mousemove", (e) => {
        if (store.hovered) { store.hovered.x = e.clientX; store.hovered.y = e.clientY; moveTip(e); }
      });
      node.addEventListener("mouseleave", hideTip);
      // By keyboard: focused (arrows reach it), it shows why in the same tip, which Esc or leaving it dismisses.
      // Asked once the focus rests (arrows held down would otherwise ask for every target passed).
      let resting = null;
      node.addEventListener("focus", () => {
        resting = setTimeout(() => {
          const box = node.getBoundingClientRect();
          ask(key, { clientX: box.left + box.width / 2, clientY: box.bottom });
        }, 250);
      });
      node.addEventListener("blur", () => { clearTimeout(resting); hideTip(); });
    }
  }
  if (mine && store.view.version !== followed) { followed = store.view.version; boardZoom.follow(); }
}

/** The keys of the choices the drawn board offers as targets: a thing on the board, never an amount. */
export function boardKeys() {
  const keys = new Set();
  for (const node of $("board").querySelectorAll("[data-action]")) {
    keys.add(node.getAttribute("data-action"));
    if (node.hasAttribute("data-alt")) keys.add(node.getAttribute("data-alt"));
  }
  return keys;
}
