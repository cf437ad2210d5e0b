// What an area of a board holds, in words legible at every zoom: while the mouse rests on an area, a target in it is
// focused, or it is tapped on a touch screen, a panel beside it names the area and says its kind and values, each
// seat's pieces there and its markers — where the board is drawn small, what its own 3–7 px words say. The words are
// the game's own, read from what its drawing sends every viewer alike: the area `[data-area="ID"]`'s `<title>`
// ("name; kind; values…"), each seat's row of pieces there (`[data-holder="SEAT"]`, titled "who in the area:
// holdings"), each marker (`[data-marker]`, titled with its words), and what is drawn apart from the area but
// `data-in` it (fleets, and pieces that are targets of their own). The panel is kept inside the board's part in
// view (beside the area where there is room), so it covers neither the prompt nor the choices, takes no clicks, and
// is announced politely (and tied to a focused target by `aria-describedby`); Escape hides it until another area is
// named. A tap on a target still plays it at once: the panel then says what the area holds after the move.

/** The gap (CSS px) between the panel and the area, and the panel and the edges of the view. */
const GAP = 6;

// The area (its `data-area`) that `target` belongs to on the board drawn in `frame`, or null.
function areaOf(frame, target) {
  if (!(target instanceof Element) || !frame.contains(target)) return null;
  const node = target.closest("[data-area], [data-in]");
  if (!node || !frame.contains(node)) return null;
  return node.getAttribute("data-area") ?? node.getAttribute("data-in");
}

// The drawn colour of a seat's piece or disc in `node`, or "".
function colourOf(node) {
  const shape = node.querySelector("circle[fill], path[fill], rect[fill]");
  const fill = shape ? shape.getAttribute("fill") : "";
  return fill && fill !== "none" && !fill.startsWith("url(") ? fill : "";
}

// A node's own `<title>`'s words, or "".
const titleOf = (node) => {
  const title = node.querySelector(":scope > title");
  return title ? title.textContent.trim() : "";
};

/** What the area `id` of the board `svg` holds, in the game's words: its name, its facts (kind, values, rivers),
 * each holder's words and colour, and the markers' words; null when the board draws no such area. */
export function describeArea(svg, id) {
  const area = svg ? svg.querySelector(`[data-area="${CSS.escape(id)}"]`) : null;
  const words = area ? titleOf(area) : "";
  if (!words) return null;
  const [name, ...facts] = words.split("; ");
  const apart = [...svg.querySelectorAll(`[data-in="${CSS.escape(id)}"][data-holder]`)];
  const holders = [...area.querySelectorAll("[data-holder]"), ...apart].map((node) => {
    const said = titleOf(node);
    // A seat's row says "who in the area: holdings": the area is named above, so "who: holdings".
    const cut = node.closest("[data-area]") === area ? said.lastIndexOf(": ") : -1;
    const who = cut >= 0 ? said.slice(0, cut).replace(/ in [^:]*$/, "") : "";
    return { text: cut >= 0 ? `${who}: ${said.slice(cut + 2)}` : said, colour: colourOf(node) };
  }).filter((holder) => holder.text);
  const markers = [...area.querySelectorAll("[data-marker]")].map(titleOf).filter(Boolean);
  return { name, facts, holders, markers };
}

// The panel's contents for `info` (describeArea's), built of text nodes only (a seat's name is a person's words).
function fill(panel, info) {
  const make = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const parts = [make("strong", "area-info-name", info.name)];
  for (const fact of info.facts) parts.push(make("p", "area-info-fact", fact));
  const pieces = make("ul", "area-info-pieces");
  pieces.setAttribute("aria-label", "Pieces");
  for (const holder of info.holders) {
    const row = make("li");
    if (holder.colour) {
      const swatch = make("span", "area-info-swatch");
      swatch.setAttribute("aria-hidden", "true");
      swatch.style.background = holder.colour;  // the CSSOM, which the page's style policy allows
      row.append(swatch);
    }
    row.append(document.createTextNode(holder.text));
    pieces.append(row);
  }
  if (info.holders.length) parts.push(pieces);
  else parts.push(make("p", "area-info-fact area-info-empty", "No pieces here."));
  if (info.markers.length) {
    const marks = make("ul", "area-info-marks");
    marks.setAttribute("aria-label", "Markers");
    for (const text of info.markers) marks.append(make("li", "", text));
    parts.push(marks);
  }
  panel.replaceChildren(...parts);
}

// Where a `width`×`height` panel goes beside the screen box `near`, inside the box `room` (both {left, top, right,
// bottom}): under it, over it, right of it, left of it, the first that fits; else the corner of `room` farthest
// from it. Then kept inside the window.
function place(near, room, width, height) {
  const inside = (left, top) => left >= room.left + GAP - 0.5 && top >= room.top + GAP - 0.5
    && left + width <= room.right - GAP + 0.5 && top + height <= room.bottom - GAP + 0.5;
  const across = (start) => Math.max(room.left + GAP, Math.min(start, room.right - GAP - width));
  const down = (start) => Math.max(room.top + GAP, Math.min(start, room.bottom - GAP - height));
  const tries = [
    [across(near.left), near.bottom + GAP],
    [across(near.left), near.top - GAP - height],
    [near.right + GAP, down(near.top)],
    [near.left - GAP - width, down(near.top)],
  ];
  let [left, top] = tries.find(([x, y]) => inside(x, y)) || [];
  if (left === undefined) {
    const middle = [(near.left + near.right) / 2, (near.top + near.bottom) / 2];
    left = middle[0] > (room.left + room.right) / 2 ? room.left + GAP : room.right - GAP - width;
    top = middle[1] > (room.top + room.bottom) / 2 ? room.top + GAP : room.bottom - GAP - height;
  }
  left = Math.max(GAP, Math.min(left, window.innerWidth - GAP - width));
  top = Math.max(GAP, Math.min(top, window.innerHeight - GAP - height));
  return [left, top];
}

/** Say what the area under the mouse, focused or tapped holds, for the board drawn in `frame`; `view()` gives the
 * frame's part in view (screen px: {left, top, right, bottom}, less the bars kept over it). Returns `refresh()`,
 * to be called after each drawing and zoom of the board: the panel then says what the area holds as drawn now. */
export function watchAreaInfo(frame, view) {
  const panel = document.createElement("div");
  panel.id = `${frame.id || "board"}-area-info`;
  panel.className = "area-info";
  panel.setAttribute("role", "tooltip");
  panel.setAttribute("aria-live", "polite");
  panel.hidden = true;
  document.body.append(panel);
  let shown = null;  // the area described, or null
  let dismissed = null;  // the area whose panel Escape hid, until another is named
  let described = null;  // the focused target tied to the panel

  const untie = () => {
    if (!described) return;
    const rest = (described.getAttribute("aria-describedby") || "").split(" ").filter((t) => t && t !== panel.id);
    if (rest.length) described.setAttribute("aria-describedby", rest.join(" "));
    else described.removeAttribute("aria-describedby");
    described = null;
  };
  const hide = () => {
    shown = null;
    panel.hidden = true;
    untie();
  };
  const position = () => {
    const svg = frame.querySelector("svg");
    const area = svg && shown !== null ? svg.querySelector(`[data-area="${CSS.escape(shown)}"]`) : null;
    if (!area) { hide(); return; }
    const shape = area.querySelector(".shape") || area;
    const r = shape.getBoundingClientRect();
    const room = view();
    panel.style.maxWidth = `${Math.max(160, Math.min(352, room.right - room.left - 2 * GAP))}px`;
    const [left, top] = place({ left: r.left, top: r.top, right: r.right, bottom: r.bottom }, room,
      panel.offsetWidth, panel.offsetHeight);
    panel.style.left = `${left}px`;
    panel.style.top = `${top}px`;
  };
  const show = (id) => {
    if (id !== dismissed) dismissed = null;
    if (id === null || id === dismissed) { hide(); return; }
    const info = describeArea(frame.querySelector("svg"), id);
    if (!info) { hide(); return; }
    shown = id;
    fill(panel, info);
    panel.hidden = false;
    position();
  };

  frame.addEventListener("pointerover", (event) => { if (event.pointerType === "mouse") show(areaOf(frame, event.target)); });
  frame.addEventListener("pointerleave", (event) => { if (event.pointerType === "mouse") show(null); });
  frame.addEventListener("pointerdown", (event) => { if (event.pointerType !== "mouse") show(areaOf(frame, event.target)); });
  document.addEventListener("pointerdown", (event) => {
    if (shown !== null && !(event.target instanceof Node && frame.contains(event.target))) hide();
  });
  frame.addEventListener("focusin", (event) => {
    untie();
    show(areaOf(frame, event.target));
    if (shown !== null && event.target instanceof Element) {
      described = event.target;
      const tied = (described.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
      described.setAttribute("aria-describedby", [...tied, panel.id].join(" "));
    }
  });
  frame.addEventListener("focusout", hide);
  // Before a target's own keys (which keep Escape to themselves): Escape hides the panel.
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && shown !== null) { dismissed = shown; hide(); }
  }, true);
  const follow = () => { if (shown !== null) position(); };
  frame.addEventListener("scroll", follow, { passive: true });
  window.addEventListener("scroll", follow, { passive: true });
  window.addEventListener("resize", follow);
  return () => { if (shown !== null) show(shown); };
}
