// Zoom and pan for a drawn board. A board is first drawn whole, fitted to its frame's width. A board wider than that
// (the Vikingatid map is 1504 units wide: fitted to a phone, its 12-unit words and its legend come out 3 px high) can
// be zoomed up to ZOOM_MAX times its natural size with − and + (or a pinch on a touch screen, or Ctrl + wheel), and
// is then panned inside its frame by dragging or scrolling (the browser's own scrolling, so every edge of it can be
// reached: the zoom grows the drawing's width, never a transform that would leave its left and top out of reach).
const ZOOM_MAX = 1.5;
const ZOOM_STEP = 1.6;

/** The zoom of the board drawn in `frame`, worked by the buttons in `bar`. */
export class Zoom {
  constructor(frame, bar) {
    this.frame = frame;
    this.bar = bar;
    this.level = 1;  // times the fitted width
    this.pinch = null;
    bar.querySelector(".zoom-in").addEventListener("click", () => this.set(this.level * ZOOM_STEP));
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
  }

  svg() { return this.frame.querySelector("svg"); }

  // The drawing's natural width: its width attribute, else its viewBox's.
  natural() {
    const svg = this.svg();
    if (!svg) return 0;
    const width = Number.parseFloat(svg.getAttribute("width"));
    if (width > 0) return width;
    const box = (svg.getAttribute("viewBox") || "").split(/[\s,]+/).map(Number);
    return box.length === 4 && box[2] > 0 ? box[2] : 0;
  }

  // The largest zoom: ZOOM_MAX times the natural size, as times the fitted width (1: no zoom to offer).
  max() {
    const fit = this.frame.clientWidth;
    return fit > 0 ? Math.max(1, (this.natural() * ZOOM_MAX) / fit) : 1;
  }

  // Draws the board at the current zoom (after every new drawing of it, and when the frame changes width).
  apply() {
    const svg = this.svg();
    const max = this.max();
    this.level = Math.min(Math.max(this.level, 1), max);
    this.bar.hidden = !svg || max <= 1.05;
    this.frame.classList.toggle("zoomed", this.level > 1);
    if (!svg) return;
    svg.style.width = this.level > 1 ? `${this.frame.clientWidth * this.level}px` : "";
    this.bar.querySelector(".zoom-in").disabled = this.level >= max - 1e-6;
    this.bar.querySelector(".zoom-out").disabled = this.level <= 1;
    this.bar.querySelector(".zoom-fit").disabled = this.level <= 1;
    this.bar.querySelector(".zoom-level").textContent = this.level > 1 ? `×${this.level.toFixed(1)}` : "whole board";
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
