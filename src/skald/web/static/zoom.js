// Zoom and pan for a drawn board. A board is first drawn whole: fitted to its frame's width, or, where the page's
// layout gives the frame a height of its own (a wide screen: style.css sets `--fit: contain` on the frame), to the
// frame's whole box, so the drawing and everything under it (Vikingatid's year track) is in view without scrolling —
// unless that would draw it at under half the frame's width (Vikings' tall board), when it fills the width and pans.
// A board larger than that (the Vikingatid map is 1504 units wide: fitted to a phone, its 12-unit words and its
// legend come out 3 px high) can be zoomed up to ZOOM_MAX times its natural size (more where its smallest target
// needs it to reach TARGET px) with − and + (or a pinch on a touch screen, or Ctrl + wheel), and is then panned
// inside its frame by dragging or scrolling (the browser's own scrolling, so every edge of it can be reached: the
// zoom grows the drawing's width, never a transform that would leave its left and top out of reach). From the whole board, + goes at once to where the board's words are
// legible (LEGIBLE px) and centres on what the decision is about (`focus`: the legal targets, say); a new decision
// whose targets are all out of the zoomed view brings them into it. What an area holds is said in legible words
// beside it, whatever the zoom (area_info.js).
import { watchAreaInfo } from "./area_info.js";
import { placeLabels, watchLabels } from "./labels.js";

const ZOOM_MAX = 1.5;
const ZOOM_STEP = 1.6;
/** The side (CSS px, a hair over 24) every board target reaches at the largest zoom, which goes up to REACH_MAX times
 * the drawing's size for it. */
const TARGET = 24.5;
const REACH_MAX = 3;
/** The size (CSS px) at which the board's common words are legible: the first + reaches it. */
const LEGIBLE = 12;

/** The screen boxes of `nodes` joined into one ({left, top, right, bottom}), or null when none is laid out. */
export function unionBox(nodes) {
  let box = null;
  for (const node of nodes) {
    const r = node.getBoundingClientRect();
    if (r.width <= 0 && r.height <= 0) continue;
    box = box ? { left: Math.min(box.left, r.left), top: Math.min(box.top, r.top), right: Math.max(box.right, r.right),
      bottom: Math.max(box.bottom, r.bottom) } : { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  }
  return box;
}

// What a zoom centres on when no one says: the board's legal targets, else the last move's rings.
const ownFocus = (frame) => unionBox(frame.querySelectorAll("svg .legal"))
  || unionBox(frame.querySelectorAll("svg .last-move-ring"));

/** The zoom of the board drawn in `frame`, worked by the buttons in `bar`; `focus(frame)` gives the screen box a
 * zoom from the whole board centres on (null: the middle); `viewer()` the viewer's seat, whose areas' labels come
 * first (labels.js). */
export class Zoom {
  constructor(frame, bar, focus = ownFocus, viewer = () => null) {
    this.frame = frame;
    this.bar = bar;
    this.focus = focus;
    this.viewer = viewer;
    this.named = watchLabels(frame, () => this.label());
    this.described = watchAreaInfo(frame, () => this.view());
    this.level = 1;  // times the fitted width
    this.pinch = null;
    bar.querySelector(".zoom-in").addEventListener("click", () => this.zoomIn());
    bar.querySelector(".zoom-out").addEventListener("click", () => this.set(this.level / ZOOM_STEP));
    bar.querySelector(".zoom-fit").addEventListener("click", () => this.set(1));
    frame.addEventListener("touchstart", (e) => this.touchStart(e), { passive: true });
    frame.addEventListener("touchmove", (e) => this.touchMove(e), { passive: false });
    frame.addEventListener("touchend", (e) => { if (e.touches.length < 2) this.pinch = null; });
    frame.addEventListener("touchcancel", () => { this.pinch = null; });
    frame.addEventListener("wheel", (e) => {
      if (!e.ctrlKey) return;  // a plain wheel scrolls (pans); Ctrl + wheel (a touchpad's pinch) zooms
      e.preventDefault();
      this.set(this.level * Math.exp(-e.deltaY / 300), e.clientX, e.clientY);
    }, { passive: false });
    // The frame's box follows the page's layout (a wide screen's grid, the rules panel opened above it): refit.
    if (typeof ResizeObserver === "function") {
      let seen = "";
      new ResizeObserver(() => {
        const size = `${frame.clientWidth}x${frame.classList.contains("zoomed") ? 0 : frame.clientHeight}`;
        if (size !== seen) { seen = size; this.apply(); }
      }).observe(frame);
    }
  }

  svg() { return this.frame.querySelector("svg"); }

  // The drawing's natural size: its width and height attributes, else its viewBox's.
  size() {
    const svg = this.svg();
    if (!svg) return [0, 0];
    const box = (svg.getAttribute("viewBox") || "").split(/[\s,]+/).map(Number);
    const [w, h] = box.length === 4 && box[2] > 0 && box[3] > 0 ? [box[2], box[3]] : [0, 0];
    const width = Number.parseFloat(svg.getAttribute("width")) || w;
    const height = Number.parseFloat(svg.getAttribute("height")) || (w > 0 ? (width * h) / w : 0);
    return [width, height];
  }

  natural() { return this.size()[0]; }

  // The drawing's width when whole: the frame's width, or its whole box where the layout bounds its height.
  fit() {
    const width = this.frame.clientWidth;
    const [w, h] = this.size();
    if (getComputedStyle(this.frame).getPropertyValue("--fit").trim() !== "contain" || !(w > 0 && h > 0)) return width;
    const contained = (this.frame.clientHeight * w) / h;
    return contained >= width / 2 ? Math.min(width, contained) : width;
  }

  // The largest zoom: ZOOM_MAX times the natural size, or more where a target needs it to be TARGET px each way, as
  // times the fitted width (1: no zoom to offer).
  max() {
    const fit = this.fit();
    return fit > 0 ? Math.max(1, (this.natural() * Math.max(ZOOM_MAX, this.reach())) / fit) : 1;
  }

  // The zoom (times the natural size) at which the board's smallest target is TARGET px each way (Vikingatid's ship
  // chips are 11 units), at most REACH_MAX; 0 without targets.
  reach() {
    const svg = this.svg();
    const width = svg ? svg.getBoundingClientRect().width : 0;
    if (!(width > 0 && this.natural() > 0)) return 0;
    const perUnit = width / this.natural();
    let least = Infinity;
    for (const node of svg.querySelectorAll("[data-action]")) {
      const box = node.getBoundingClientRect();
      const side = Math.min(box.width, box.height) / perUnit;
      if (side > 0) least = Math.min(least, side);
    }
    return least < Infinity ? Math.min(TARGET / least, REACH_MAX) : 0;
  }

  // The zoom at which the board's common words (the median size of its texts) are LEGIBLE px high.
  legible() {
    const svg = this.svg();
    const sizes = svg ? [...svg.querySelectorAll("text")].filter((node) => node.textContent.trim())
      .map((node) => Number.parseFloat(getComputedStyle(node).fontSize)).filter((size) => size > 0)
      .sort((a, b) => a - b) : [];
    if (!sizes.length || !(this.natural() > 0)) return 1;
    const perUnit = this.fit() / this.natural();  // CSS px per unit of the drawing, whole
    return (LEGIBLE * 1.01) / (sizes[Math.floor(sizes.length / 2)] * perUnit);  // a hair over, against rounding
  }

  // Draws the board at the current zoom (after every new drawing of it, and when the frame changes size).
  apply() {
    const svg = this.svg();
    const max = this.max();
    this.level = Math.min(Math.max(this.level, 1), max);
    this.bar.hidden = !svg || max <= 1.05;
    this.frame.classList.toggle("zoomed", this.level > 1);
    if (!svg) return;
    const fit = this.fit();
    svg.style.width = this.level > 1 || fit < this.frame.clientWidth - 0.5 ? `${fit * this.level}px` : "";
    this.bar.querySelector(".zoom-in").disabled = this.level >= max - 1e-6;
    this.bar.querySelector(".zoom-out").disabled = this.level <= 1;
    this.bar.querySelector(".zoom-fit").disabled = this.level <= 1;
    this.bar.querySelector(".zoom-level").textContent = this.level > 1 ? `×${this.level.toFixed(1)}` : "whole board";
    this.label();
  }

  // The board's labels sized and placed for the zoom, and for what the decision and the viewer make them matter
  // (after every drawing, once its targets are marked); the area described (area_info.js) said as drawn now.
  label() {
    placeLabels(this.svg(), this.viewer(), this.named());
    this.described();
  }

  // The frame's part in view (screen px): its client box, cut by the window and by the bars kept in view over the
  // page (`.stuck-bar` while stuck: a phone's prompt above, its choices below).
  view() {
    const box = this.frame.getBoundingClientRect();
    const left = box.left + this.frame.clientLeft;
    let top = box.top + this.frame.clientTop;
    let bottom = Math.min(top + this.frame.clientHeight, window.innerHeight);
    for (const bar of document.querySelectorAll(".stuck-bar")) {
      if (bar.contains(this.frame) || getComputedStyle(bar).position !== "sticky") continue;
      const r = bar.getBoundingClientRect();
      if (r.height <= 0 || r.right <= left || r.left >= left + this.frame.clientWidth) continue;
      if (r.top + r.bottom < window.innerHeight) top = Math.max(top, r.bottom);
      else bottom = Math.min(bottom, r.top);
    }
    return { left, top, right: left + this.frame.clientWidth, bottom: Math.max(bottom, top) };
  }

  // Zoom to `level`, keeping the point of the board under the screen point (x, y) where it is (the frame's middle
  // when no point is given).
  set(level, x, y) {
    const box = this.frame.getBoundingClientRect();
    const px = x === undefined ? box.width / 2 : x - box.left;
    const py = y === undefined ? Math.min(box.height, window.innerHeight) / 2 : y - box.top;
    const before = this.level;
    const u = (this.frame.scrollLeft + px) / before;
    const v = (this.frame.scrollTop + py) / before;
    this.level = level;
    this.apply();
    const scale = this.level;
    this.frame.scrollLeft = u * scale - px;
    this.frame.scrollTop = v * scale - py;
  }

  // + : one step in; from the whole board, to where its words are legible, centred on the decision's focus.
  zoomIn() {
    if (this.level > 1.001) { this.set(this.level * ZOOM_STEP); return; }
    this.set(Math.max(ZOOM_STEP, Math.min(this.legible(), this.max())));
    const view = this.view();
    if (view.bottom - view.top < Math.min(this.frame.clientHeight, 200)) this.frame.scrollIntoView({ block: "start" });
    this.centre();
  }

  // Scroll the frame so that the focus box's middle is in the middle of the frame's part in view.
  // What the frame cannot scroll to (the drawing's top, under a phone's kept prompt) the page scrolls to.
  centre() {
    for (const scroller of [this.frame, null]) {
      const target = this.focus(this.frame);
      if (!target) return;
      const view = this.view();
      const dx = (target.left + target.right) / 2 - (view.left + view.right) / 2;
      const dy = (target.top + target.bottom) / 2 - (view.top + view.bottom) / 2;
      if (scroller) { scroller.scrollLeft += dx; scroller.scrollTop += dy; } else if (Math.abs(dy) > 1) window.scrollBy(0, dy);
    }
  }

  // A new decision: where the board is zoomed and none of its legal targets is in view, bring them into view (a
  // decision without targets on the board leaves the view where the person put it).
  follow() {
    if (this.level <= 1) return;
    const target = unionBox(this.frame.querySelectorAll("svg .legal"));
    const view = this.view();
    const seen = target && target.left < view.right && target.right > view.left && target.top < view.bottom
      && target.bottom > view.top;
    if (target && !seen) this.centre();
  }

  touchStart(e) {
    if (e.touches.length !== 2) return;
    this.pinch = { distance: spread(e.touches), level: this.level };
  }

  touchMove(e) {
    if (!this.pinch || e.touches.length !== 2) return;
    e.preventDefault();  // the pinch zooms the board, not the page
    const [a, b] = [e.touches[0], e.touches[1]];
    this.set(this.pinch.level * (spread(e.touches) / this.pinch.distance), (a.clientX + b.clientX) / 2, (a.clientY + b.clientY) / 2);
  }
}

// The distance between two fingers.
function spread(touches) {
  return Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);
}
