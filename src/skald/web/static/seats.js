// The seats' panels. One panel a seat: its name, whether it is to move, and the store.game's words on its standing
// (`seat_lines`). A tap opens the seat's part of the drawn board (the store.game marks it `data-seat`) beneath the panels
// at its own size, so that an opponent's board far down the page or fitted small (on a phone) is one tap away,
// legible.
import { $, el } from "./common.js";
import { resignedSeats } from "./departing.js";
import { store } from "./store.js";

/** Draw a panel for every seat, and the close-up of the seat opened. */
export function drawSeatPanels() {
  const box = $("seat-panels");
  const held = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.seat : null;
  const lines = store.view.seat_lines || [];
  box.replaceChildren(...store.game.seats.map((seat, index) => {
    const resigned = !resignedSeats().some((entry) => entry.seat === index) ? null
      : store.view.status === "over" ? "resigned" : "resigned: a bot plays";
    const away = (store.view.away || []).find((entry) => entry.seat === index);
    const tags = [index === store.you ? "you" : null, index === store.view.to_move ? "to move" : null, resigned,
      seat.open ? "open seat" : null, away ? `away: a bot (${away.bot}) plays` : null].filter(Boolean);
    const panel = el("button", { type: "button", class: "seat-panel" + (index === store.view.to_move ? " to-move" : ""),
      "data-seat": index, "aria-expanded": String(store.openSeat === index), "aria-controls": "seat-close-up" },
    el("b", {}, seat.name + (tags.length ? ` (${tags.join(", ")})` : "")),
    el("span", { class: "summary" }, lines[index] || ""),
    ...(store.view.clocks && store.view.clocks.left[index] !== null
      ? [el("span", { class: "clock", "data-clock": index, "aria-label": `${seat.name}'s clock` }, "")] : []));
    panel.addEventListener("click", () => { store.openSeat = store.openSeat === index ? null : index; drawSeatPanels(); });
    return panel;
  }));
  if (held !== null && held !== undefined) box.querySelector(`[data-seat="${held}"]`).focus();  // kept across redrawing
  drawSeatCloseUp();
}

function drawSeatCloseUp() {
  const close = $("seat-close-up");
  const part = store.openSeat === null ? null : $("board").querySelector(`svg [data-seat="${store.openSeat}"]`);
  close.hidden = !part;
  if (!part) { close.replaceChildren(); return; }
  const board = $("board").querySelector("svg");
  const [frame, own] = [board.getScreenCTM(), part.getScreenCTM()];
  const box = part.getBBox();
  let [x, y] = [box.x, box.y];
  if (frame && own) {
    const corner = new DOMPoint(box.x, box.y).matrixTransform(frame.inverse().multiply(own));
    [x, y] = [corner.x, corner.y];
  }
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `${x - 4} ${y - 4} ${box.width + 8} ${box.height + 8}`);
  // At the drawing's own size (one unit a CSS pixel: its words legible), panned in its frame where the screen is
  // narrower, as the board is when zoomed in.
  svg.setAttribute("width", String(box.width + 8));
  svg.setAttribute("height", String(box.height + 8));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${store.game.seats[store.openSeat].name}'s part of the board`);
  if (board.getAttribute("class")) svg.setAttribute("class", board.getAttribute("class"));  // the game's styles hang on it
  const copy = part.cloneNode(true);
  for (const node of [copy, ...copy.querySelectorAll("[data-action], [tabindex]")]) {
    node.removeAttribute("data-action");
    node.removeAttribute("data-alt");
    node.removeAttribute("tabindex");
    node.classList.remove("target", "legal", "forbidden");
  }
  if (frame && own) copy.setAttribute("transform", frame.inverse().multiply(own).toString());
  svg.append(copy);
  close.replaceChildren(svg);
}
