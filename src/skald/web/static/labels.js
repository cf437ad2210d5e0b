// A board's labels, legible at every zoom, as map software draws them. A game marks each name it draws on its board
// that a table may leave out where there is no room: `<text data-label="RANK" data-names="ID">`, naming the part of
// the board `[data-area="ID"]` (RANK: the game's own order of importance, higher first). At every zoom a shown
// label is at least LEAST px high on the screen — where the board is drawn small, larger than the game drew it,
// about its own middle and kept inside the map — and no two shown labels overlap: they are placed in order, the
// area under the pointer, focused or last tapped first, then the areas the decision can click, the viewer's own
// pieces' areas (the game lists the seats with pieces in an area as its `data-seats`), the game's rank, and the
// larger areas; a label with no room left is hidden until the zoom makes room. Everything comes from the drawing's
// geometry and what every viewer is sent alike. Each area names itself too by its `<title>` (hover) and its
// targets' names (focus).

/** The least height (CSS px) of a shown label: a hair over 12, against rounding. */
const LEAST = 12.05;
/** The least gap (CSS px) between two shown labels. */
const GAP = 2;

// Per drawing (each is drawn anew): its labels as the game placed them, their areas and the map's bounds.
const measured = new WeakMap();

// The drawing's labels, each with its box and font size as drawn, its area and that area's box (in the drawing's
// units), and the bounds of the map (the areas' boxes joined).
function measure(svg) {
  let found = measured.get(svg);
  if (found) return found;
  const labels = [];
  let bounds = null;
  for (const [order, node] of [...svg.querySelectorAll("text[data-label]")].entries()) {
    const box = node.getBBox();
    const area = svg.querySelector(`[data-area="${CSS.escape(node.getAttribute("data-names") || "")}"]`);
    const room = area && typeof area.getBBox === "function" ? area.getBBox() : box;
    bounds = join(bounds, room);
    labels.push({ node, order, box, area, room, size: Number.parseFloat(getComputedStyle(node).fontSize) || 0,
      rank: Number(node.getAttribute("data-label")) || 0,
      seats: (area && area.getAttribute("data-seats") || "").split(" ").filter(Boolean) });
  }
  found = { labels, bounds };
  measured.set(svg, found);
  return found;
}

// Two boxes ({x, y, width, height}) joined into one.
function join(a, b) {
  if (!a) return { x: b.x, y: b.y, width: b.width, height: b.height };
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  const [right, bottom] = [Math.max(a.x + a.width, b.x + b.width), Math.max(a.y + a.height, b.y + b.height)];
  return { x, y, width: right - x, height: bottom - y };
}

/** Size, place and show or hide the labels of the board `svg` as drawn now: `you` is the viewer's seat (null for a
 * spectator), `pinned` the area (its `data-area`) named first. */
export function placeLabels(svg, you = null, pinned = null) {
  const frame = svg ? svg.getBoundingClientRect() : null;
  const view = svg && svg.viewBox ? svg.viewBox.baseVal : null;
  if (!(frame && frame.width > 0 && view && view.width > 0)) return;  // not laid out: measured once it is
  const { labels, bounds } = measure(svg);
  if (!labels.length) return;
  const scale = frame.width / view.width;  // CSS px per unit of the drawing
  // The middles of the decision's targets, in the drawing's units: an area holding one (its own group, or a chip or
  // piece drawn on it) is one the decision can click.
  const clickable = [...svg.querySelectorAll(".legal")].map((node) => {
    const r = node.getBoundingClientRect();
    return [view.x + (r.left + r.width / 2 - frame.left) / scale, view.y + (r.top + r.height / 2 - frame.top) / scale];
  });
  const mine = you === null || you === undefined ? "" : String(you);
  const first = (label) => [
    label.area !== null && label.area.getAttribute("data-area") === pinned,
    clickable.some(([x, y]) => x >= label.room.x && x <= label.room.x + label.room.width && y >= label.room.y
      && y <= label.room.y + label.room.height),
    mine !== "" && label.seats.includes(mine),
    label.rank,
    label.room.width * label.room.height,
  ].map(Number);
  const ordered = labels.map((label) => ({ label, key: first(label) })).sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return b.key[i] - a.key[i];
    return a.label.order - b.label.order;
  });
  const pad = GAP / 2 / scale;
  const placed = [];
  for (const { label } of ordered) {
    const { node, box } = label;
    const grow = label.size > 0 ? Math.max(1, LEAST / (label.size * scale)) : 1;
    const [width, height] = [box.width * grow, box.height * grow];
    // About the label's own middle, then moved back inside the map where that would leave it.
    const left = Math.max(bounds.x, Math.min(box.x + (box.width - width) / 2, bounds.x + bounds.width - width));
    const top = Math.max(bounds.y, Math.min(box.y + (box.height - height) / 2, bounds.y + bounds.height - height));
    const spot = { left: left - pad, top: top - pad, right: left + width + pad, bottom: top + height + pad };
    const free = !placed.some((other) => spot.left < other.right && spot.right > other.left && spot.top < other.bottom
      && spot.bottom > other.top);
    node.classList.toggle("label-hidden", !free);
    if (!free) continue;
    placed.push(spot);
    if (grow === 1 && left === box.x && top === box.y) node.removeAttribute("transform");
    else node.setAttribute("transform", `translate(${left - box.x * grow} ${top - box.y * grow}) scale(${grow})`);
  }
}

/** Name first the area under the pointer, focused, or last tapped on the board drawn in `frame`, by calling
 * `place(area)` (the area's `data-area`, or null) whenever that changes. */
export function watchLabels(frame, place) {
  let named = null;
  const name = (event) => {
    const area = event && event.target instanceof Element ? event.target.closest("[data-area]") : null;
    const id = area && frame.contains(area) ? area.getAttribute("data-area") : null;
    if (id === named) return;
    named = id;
    place(id);
  };
  frame.addEventListener("pointerover", (event) => { if (event.pointerType === "mouse") name(event); });
  frame.addEventListener("pointerleave", (event) => { if (event.pointerType === "mouse") name(null); });
  frame.addEventListener("pointerdown", (event) => { if (event.pointerType !== "mouse") name(event); });
  frame.addEventListener("focusin", name);
  frame.addEventListener("focusout", () => name(null));
  return () => named;
}
