"use strict";
// The table: the board (SVG drawn by the game's renderer on the server), live over a WebSocket.
// The browser decides nothing and knows no game: it shows what the server sent this viewer (the game's own prompt,
// labels and groups), offers the legal actions and asks the server why others are not.
const gameId = location.pathname.split("/").filter(Boolean).pop();
// A token from an invite link is tried first but kept only once the server has taken it: a bogus or foreign link
// never replaces the seat this browser already holds.
const offered = new URLSearchParams(location.hash.slice(1)).get("t");
if (offered) history.replaceState(null, "", location.pathname);
const stored = (Skald.joined()[gameId] || {}).token || null;
let token = offered || stored;
const $ = (id) => document.getElementById(id);
let socket = null;
let stopped = false;  // nothing to reconnect to: the game is not here
let claiming = false;  // this seat's token in the rematch is being asked for
let refusal = null;
let replacing = false;  // this page asked for a new token for its seat  // why the server refused the token this page came with, said beside "spectator"
let you = null;
let game = null;
let view = null;
// The board as the pieces of SVG text the server sent (an update sends only those that changed), and their whole.
let boardParts = [];
let boardText = "";
let pending = false;
let refs = 0;
let retry = 500;
const reasons = new Map();
let hovered = null;

function send(data) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(data));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${gameId}`);
  socket.onopen = () => {
    if ($("conn").textContent === "reconnecting…") announce("Connection back.");
    $("conn").textContent = "live";
    $("conn").className = "pill live";
    send({ type: "hello", token, svg: true, full: true });
  };
  socket.onclose = (event) => {
    if (stopped || event.code === 4404) {
      stopped = true;
      $("conn").textContent = "no such game";
      $("conn").className = "pill";
      return;
    }
    if ($("conn").textContent === "live") announce("Connection lost; reconnecting…");
    $("conn").textContent = "reconnecting…";
    $("conn").className = "pill";
    // A refused token was just dropped: come back at once without it; otherwise wait longer each time (with some
    // jitter, so a restarted server is not met by every browser in the same instant), up to half a minute.
    const now = event.code === 4403;  // a token refused: straight back without it
    const wait = now ? 0 : retry * (0.75 + Math.random() / 2);
    if (!now) retry = Math.min(retry * 2, 30000);
    setTimeout(connect, wait);
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
}

// The server refused `token`: never send it again. An invite link's token gives way to the one this browser had;
// a token this browser had kept is forgotten.
function refused() {
  const which = token === offered && offered !== stored ? "that invite link is not valid" : "your saved seat is not valid here";
  if (token === stored) Skald.remember(gameId, { token: null, seat: null });
  token = token === offered && offered !== stored ? stored : null;
  refusal = which;
  $("error").textContent = `The server refused the seat token: ${which}.`;
  $("who").textContent = token ? "reconnecting with your seat…" : `spectator (${which})`;
}

function receive(msg) {
  if (msg.type === "welcome") {
    retry = 500;
    caughtUp = false;
    boardParts = [];  // a new connection: the server sends the whole board again
    you = msg.you;
    game = msg.game;
    $("log").replaceChildren();
    $("title").textContent = `${game.title} · ${game.players} players`;
    document.title = `Skald — ${game.title}`;
    Skald.icon(false);
    $("who").textContent = you !== null ? `you: ${game.seats[you].name}` : refusal ? `spectator (${refusal})` : "spectator";
    $("new-link-button").hidden = you === null || !token;  // a seat taken by account alone has no link to replace
    drawKeepSeat();
    // The chat is the seats' own, unless the creator opened it to spectators; a (re)connection brings its history.
    $("chat").hidden = you === null && !game.chat_spectators;
    $("chat-log").replaceChildren();
    chatSeen = 0;
    if (you !== null) Skald.remember(gameId, { title: game.title, seat: you, token });
    else if (!Skald.joined()[gameId]) Skald.remember(gameId, { title: game.title });
  } else if (msg.type === "update") {
    pending = false;
    reasons.clear();
    view = msg;
    if (msg.board) {
      if (boardParts.length !== msg.board.size) boardParts = new Array(msg.board.size).fill("");
      for (const [i, text] of msg.board.parts) boardParts[i] = text;
      boardText = boardParts.join("");
    }
    view.svg = boardText;
    const fresh = caughtUp && !msg.reveal;  // new moves, not the log a (re)connection brings
    caughtUp = true;
    if (msg.reveal) $("log").replaceChildren();  // the game is over: the whole log replaces what this seat saw
    addLog(msg.log);
    if (fresh) announceMoves(msg.log);
    draw();
  } else if (msg.type === "chat") {
    addChat(msg.messages, msg.history);
  } else if (msg.type === "error" && typeof msg.ref === "string" && msg.ref.startsWith("chat")) {
    $("chat-error").textContent = msg.message;
  } else if (msg.type === "error") {
    pending = false;
    if (window.skaldState) window.skaldState.pending = false;
    if (msg.code === "why_forbidden") { hideTip(); return; }  // the turn moved on while the pointer rested
    $("error").textContent = msg.message;
    if (msg.code === "forged_token") refused();
    if (msg.code === "revoked") {
      if (replacing) { $("error").textContent = ""; return; }  // this page asked for it: it has the new token
      token = null;  // replaced from elsewhere: whoever did it holds the seat now
      Skald.remember(gameId, { token: null, seat: null });
    }
    if (msg.code === "not_found") { stopped = true; $("title").textContent = "No such game here"; }
  } else if (msg.type === "why") {
    const key = JSON.stringify(sortKeys(msg.action));
    reasons.set(key, msg.reason || "allowed");
    if (hovered && hovered.key === key) showTip(hovered.x, hovered.y, reasons.get(key));
  } else if (msg.type === "rematch") {
    if (you !== null && token) claimRematch(); else showRematch(msg.id);
  }
}

function sortKeys(obj) {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) return obj;
  const out = {};
  for (const k of Object.keys(obj).sort()) out[k] = sortKeys(obj[k]);
  return out;
}

// -- announcements ------------------------------------------------------------------------------------------
// One polite live region says, in order: each move by another seat ("Bot (greedy): buy 5 …"), then the prompt when
// its text changes, and the connection lost or back. The board and the prompt are not live themselves: the board is
// redrawn on every move, and "Bot to move…" would be said again and again.
let lastPrompt = "";
let caughtUp = false;  // this connection's first update (the log so far) has come

function announce(text) {
  const region = $("announcer");
  region.append(Skald.el("p", {}, text));
  while (region.children.length > 20) region.firstElementChild.remove();  // said already: kept only a while
}

function announceMoves(entries) {
  for (const entry of entries) {
    if (entry.seat === null || entry.seat === you) continue;
    announce(`${entry.name}: ${entry.notation}`);
  }
}

function announcePrompt() {
  const text = $("prompt").textContent;
  if (text && text !== lastPrompt) announce(text);
  lastPrompt = text;
}

// The log's new entries, added at once and scrolled to once: the update that ends a game (or a hello late in one)
// brings thousands, and scrolling after each would lay the page out again for every one.
function addLog(entries) {
  const log = $("log");
  const items = document.createDocumentFragment();
  for (const entry of entries) {
    const who = entry.seat === null ? "chance" : entry.name;
    items.append(Skald.el("li", { class: entry.seat === null ? "chance" : "seat-" + entry.seat, value: entry.ply + 1 },
      Skald.el("span", { class: "who" }, who), " ", entry.notation));
  }
  log.append(items);
  markLastMove(log);
  log.scrollTop = log.scrollHeight;
}

// Chat messages, each once (by number), as text: whatever a message holds, it is never read as HTML. Others' new
// messages are read out by the announcer; this seat's own clears the box it was typed in.
let chatSeen = 0;
let chatSent = 0;
function addChat(messages, history) {
  const list = $("chat-log");
  for (const message of messages) {
    if (message.seq <= chatSeen) continue;
    chatSeen = message.seq;
    const at = new Date(message.at);
    list.append(Skald.el("li", { class: message.seat === null ? "spectator" : "seat-" + message.seat },
      Skald.el("span", { class: "who", title: at.toLocaleString() }, message.name), ": ", message.text));
    if (history) continue;
    if (message.seat === you && $("chat-text").value.trim() === message.text) $("chat-text").value = "";
    else announce(`${message.name} says: ${message.text}`);
  }
  list.scrollTop = list.scrollHeight;
}

function sendChat(event) {
  event.preventDefault();
  const text = $("chat-text").value.trim();
  $("chat-error").textContent = "";
  if (!text) return;
  chatSent += 1;
  send({ type: "chat", text, ref: `chat-${chatSent}` });
}

// The last move made by a seat, and the draws that followed it, stand out in the log: someone who looked away sees
// at once what changed.
function markLastMove(log) {
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

function legalKeys() {
  return new Map(view.legal.map((l) => [l.key, l]));
}

function mode() {
  const checked = document.querySelector('input[name="mode"]:checked');
  return checked ? checked.value : "primary";
}

// A board target may name two actions (`data-action`, and `data-alt`); when both are legal somewhere, a toggle
// headed by their groups' headings (the game's words) says which one a click means.
function drawMode(legal) {
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
function ringLastMove(container, marks) {
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

// -- the seats' panels ------------------------------------------------------------------------------------
// One panel a seat: its name, whether it is to move, and the game's words on its standing (`seat_lines`). A tap opens
// the seat's part of the drawn board (the game marks it `data-seat`) beneath the panels at its own size, so that an
// opponent's board far down the page or fitted small (on a phone) is one tap away, legible.
let openSeat = null;

function drawSeatPanels() {
  const box = $("seat-panels");
  const held = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.seat : null;
  const lines = view.seat_lines || [];
  box.replaceChildren(...game.seats.map((seat, index) => {
    const tags = [index === you ? "you" : null, index === view.to_move ? "to move" : null].filter(Boolean);
    const panel = Skald.el("button", { type: "button", class: "seat-panel" + (index === view.to_move ? " to-move" : ""),
      "data-seat": index, "aria-expanded": String(openSeat === index), "aria-controls": "seat-close-up" },
    Skald.el("b", {}, seat.name + (tags.length ? ` (${tags.join(", ")})` : "")),
    Skald.el("span", { class: "summary" }, lines[index] || ""));
    panel.addEventListener("click", () => { openSeat = openSeat === index ? null : index; drawSeatPanels(); });
    return panel;
  }));
  if (held !== null && held !== undefined) box.querySelector(`[data-seat="${held}"]`).focus();  // kept across redrawing
  drawSeatCloseUp();
}

function drawSeatCloseUp() {
  const close = $("seat-close-up");
  const part = openSeat === null ? null : $("board").querySelector(`svg [data-seat="${openSeat}"]`);
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
  svg.setAttribute("aria-label", `${game.seats[openSeat].name}'s part of the board`);
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

function draw() {
  const focused = focusWasOnChoices();  // before the board and the choices are drawn again
  Skald.showSvg($("board"), view.svg);
  if (typeof view.text === "string") $("text-board").textContent = view.text;
  ringLastMove($("board"), view.last_move);
  drawSeatPanels();
  boardZoom.apply();
  const legal = legalKeys();
  drawMode(legal);
  const mine = you !== null && view.to_move === you;
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
      node.addEventListener("mousemove", (e) => { if (hovered) { hovered.x = e.clientX; hovered.y = e.clientY; moveTip(e); } });
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
  window.skaldState = { version: view.version, status: view.status, mine, pending: false, you };
  drawActions(mine);
  drawPrompt(mine);
  drawTurnAlert(mine);
  announcePrompt();
  keyboardBoard(legal, mine);
  if (focused) keepFocus(mine);
  drawScorings();
  drawEnd();
  drawFair();
}

// -- keyboard and focus ----------------------------------------------------------------------------------------
// The board is a group of buttons for the keyboard and screen readers: each target takes the focus in turn (one Tab
// stop, arrows move between targets, Enter or Space acts) and is named by the game's words for it — its notation and
// label, and the drawing's own title for the thing (a square, a Group on the wheel). Forbidden targets are in the
// round too and say why when focused. A focusable part of the drawing that holds targets of its own (a Vikingdoms
// stack whose Vikings may move) opens them: Enter, Space or ↓ goes to its first target, Esc comes back.
function keyboardBoard(legal, mine) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.setAttribute("role", "group");  // not an image: its targets must be reachable inside it
  if (!mine) return;
  const openers = [...svg.querySelectorAll("[tabindex]:not([data-action])")].filter((node) => node.querySelector("[data-action]"));
  for (const opener of openers) {
    const title = opener.querySelector(":scope > title");
    opener.setAttribute("role", "button");
    opener.setAttribute("aria-haspopup", "true");
    if (title) opener.setAttribute("aria-label", `${title.textContent} (Enter: choose where)`);
    opener.addEventListener("keydown", (event) => {
      if (event.target !== opener || !["Enter", " ", "ArrowDown"].includes(event.key)) return;
      const first = shownTargets(opener)[0];
      if (first) first.focus();
      event.preventDefault();
    });
  }
  const targets = [...svg.querySelectorAll("[data-action].legal"), ...svg.querySelectorAll("[data-action].forbidden")];
  let stop = false;
  for (const node of targets) {
    const entry = legal.get(node.getAttribute("data-chosen"));
    const title = node.querySelector("title");
    const words = [entry ? entry.notation : "", entry && entry.label ? entry.label : "", title ? title.textContent : ""];
    const opener = openers.find((candidate) => candidate.contains(node));
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", !stop && !opener ? "0" : "-1");  // the board's one Tab stop: its first target
    if (!opener) stop = true;
    node.setAttribute("aria-label", words.filter(Boolean).join(" — "));
    if (!entry) {
      node.setAttribute("aria-disabled", "true");
      node.setAttribute("aria-describedby", "tooltip");
    }
    node.addEventListener("keydown", (event) => {
      if (event.target !== node) return;
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      if (step) {
        const ring = shownTargets(opener || svg).filter((other) => (openers.find((o) => o.contains(other)) || null) === (opener || null));
        const next = ring[(ring.indexOf(node) + step + ring.length) % ring.length];
        if (!opener) {
          node.setAttribute("tabindex", "-1");
          next.setAttribute("tabindex", "0");
        }
        next.focus();
      } else if (event.key === "Enter" || event.key === " ") {
        if (entry) play(entry);
      } else if (event.key === "Escape") {
        hideTip();
        if (opener) opener.focus();
      } else return;
      event.preventDefault();
      event.stopPropagation();
    });
  }
}

// The board's targets within `scope` that are drawn now (a target inside a closed opener is not).
function shownTargets(scope) {
  return [...scope.querySelectorAll("[data-action].legal, [data-action].forbidden")].filter((node) => node.getClientRects().length > 0);
}

// Whether the person is choosing by keyboard as the choices are about to be drawn again: the last input was a key,
// and the focus is on a choice or a board target (the one pressed is still there until they are replaced). After a
// tap or a click the focus is left alone: moving it could open a phone's keyboard over the board.
const CHOOSING = "#actions, #board, #mode, #actions-card";
let keyboardLast = false;
document.addEventListener("keydown", () => { keyboardLast = true; }, true);
document.addEventListener("pointerdown", () => { keyboardLast = false; }, true);

function focusWasOnChoices() {
  const active = document.activeElement;
  return keyboardLast && Boolean(active && active !== document.body && active.closest(CHOOSING));
}

// After a move the pressed button is gone: the focus goes to the first new choice, or to the choices' heading when
// it is not this seat's turn, never to the page itself.
function keepFocus(mine) {
  const first = mine ? $("actions").querySelector("button.act, .amount input, .amount button.confirm") : null;
  (first || $("choices-heading")).focus({ preventScroll: true });
}

function drawActions(mine) {
  const box = $("actions");
  box.replaceChildren();
  drawStanding(box, mine);
  if (!mine) {
    const idle = view.status === "over" ? "The game is over." : you === null ? "You are watching." : "Waiting for the others…";
    box.append(Skald.el("p", { class: "muted" }, idle));
    return;
  }
  // The choices in the game's groups and order, each as the terminal lists it: notation, then the game's words. A
  // run of amounts within a group is one stepper, drawn where its first amount stood.
  const runs = amountRuns(view.legal, boardKeys());
  let group = null;
  let row = null;
  for (const legal of view.legal) {
    if (row === null || legal.group !== group) {
      group = legal.group;
      if (group) box.append(Skald.el("h4", { class: "group" }, group));
      row = Skald.el("div", { class: "group-choices" });
      box.append(row);
    }
    const run = runs.get(legal.key);
    if (run) {
      if (run.entries[0] === legal) row.append(stepper(run));
      continue;
    }
    const words = [Skald.el("b", {}, legal.notation)];
    if (legal.label) words.push(" ", Skald.el("span", { class: "label" }, legal.label));
    row.append(Skald.el("button", { type: "button", class: "act", "data-key": legal.key, title: legal.label || legal.notation,
      onclick: () => play(legal) }, ...words));
  }
}

// -- amounts ------------------------------------------------------------------------------------------
// The fewest legal values drawn as a stepper rather than as buttons (fewer read best as buttons, each with its
// consequence in the game's words), and the fewest that also get a slider.
const RUN_MIN = 5;
const SLIDER_MIN = 10;
let stepperCount = 0;

// The keys of the choices the drawn board offers as targets: a thing on the board, never an amount.
function boardKeys() {
  const keys = new Set();
  for (const node of $("board").querySelectorAll("[data-action]")) {
    keys.add(node.getAttribute("data-action"));
    if (node.hasAttribute("data-alt")) keys.add(node.getAttribute("data-alt"));
  }
  return keys;
}

// Runs of amounts, found from the actions' JSON forms alone (the client knows no game): at least RUN_MIN choices of
// one group that differ only in one whole-number field, each naming its own number in its notation (so a seat
// index, which notation names from 1, or a board target is never taken for an amount). Longest runs first; each
// choice joins one run. Returns a map from each member's key to its run ({ field, entries, values }), values rising.
function amountRuns(legal, onBoard) {
  const buckets = new Map();
  for (const entry of legal) {
    if (onBoard.has(entry.key)) continue;
    const action = entry.action;
    if (action === null || typeof action !== "object" || Array.isArray(action)) continue;
    for (const [field, value] of Object.entries(action)) {
      if (!Number.isInteger(value) || !new RegExp(`(^|[^0-9.])${value}([^0-9.]|$)`).test(entry.notation)) continue;
      const rest = { ...action };
      delete rest[field];
      const signature = JSON.stringify([entry.group || "", field, sortKeys(rest)]);
      if (!buckets.has(signature)) buckets.set(signature, { field, entries: [] });
      buckets.get(signature).entries.push(entry);
    }
  }
  const runs = new Map();
  const candidates = [...buckets.values()].sort((a, b) => b.entries.length - a.entries.length);
  for (const bucket of candidates) {
    const free = bucket.entries.filter((entry) => !runs.has(entry.key));
    const values = new Set(free.map((entry) => entry.action[bucket.field]));
    if (free.length < RUN_MIN || values.size !== free.length) continue;
    const run = { field: bucket.field, entries: free, sorted: [...free].sort((a, b) => a.action[bucket.field] - b.action[bucket.field]) };
    run.values = run.sorted.map((entry) => entry.action[bucket.field]);
    for (const entry of free) runs.set(entry.key, run);
  }
  return runs;
}

// One run of amounts as a control: a labelled number field between − and + buttons (and a slider when the run is
// long) that move through the legal values only, the game's words for the amount chosen, and a Confirm that sends
// exactly that legal action. Arrows (and Page Up/Down, Home/End) move it; Enter confirms.
function stepper(run) {
  const id = `amount-${++stepperCount}`;
  const values = run.values;
  const min = values[0];
  const max = values[values.length - 1];
  const gaps = max - min + 1 !== values.length;
  let index = 0;
  const input = Skald.el("input", { type: "number", id, class: "amount-value", min, max, value: min, inputmode: "numeric",
    "aria-describedby": `${id}-says`, ...(gaps ? {} : { step: 1 }) });
  const says = Skald.el("p", { class: "amount-says", id: `${id}-says`, "aria-live": "polite" });
  const less = Skald.el("button", { type: "button", class: "step", "aria-label": "less", "aria-controls": id }, "−");
  const more = Skald.el("button", { type: "button", class: "step", "aria-label": "more", "aria-controls": id }, "+");
  const confirm = Skald.el("button", { type: "button", class: "confirm", "aria-describedby": `${id}-says` }, "Confirm");
  const slider = values.length >= SLIDER_MIN
    ? Skald.el("input", { type: "range", class: "amount-slider", min: 0, max: values.length - 1, value: 0, step: 1,
      "aria-label": `${run.entries[0].group || "Amount"} (slider)` })
    : null;
  const show = (next) => {
    index = Math.max(0, Math.min(values.length - 1, next));
    const entry = run.sorted[index];
    input.value = String(values[index]);
    input.setAttribute("aria-valuetext", `${values[index]}: ${entry.label || entry.notation}`);
    if (slider) {
      slider.value = String(index);
      slider.setAttribute("aria-valuetext", entry.label || entry.notation);
    }
    less.disabled = index === 0;
    more.disabled = index === values.length - 1;
    says.replaceChildren(Skald.el("b", {}, entry.notation), ...(entry.label ? [" ", Skald.el("span", { class: "label" }, entry.label)] : []));
    confirm.setAttribute("data-key", entry.key);
  };
  // A typed number lands on the nearest legal value (the higher of two as near).
  const typed = () => {
    const wanted = Number(input.value);
    if (!Number.isFinite(wanted)) { show(index); return; }
    let best = 0;
    values.forEach((value, i) => { if (Math.abs(value - wanted) <= Math.abs(values[best] - wanted)) best = i; });
    show(best);
  };
  const keys = (event) => {
    const moves = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1, PageUp: 10, PageDown: -10 };
    if (event.key in moves) show(index + moves[event.key]);
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(values.length - 1);
    else if (event.key === "Enter") { if (event.target === input) typed(); play(run.sorted[index]); }
    else return;
    event.preventDefault();
  };
  input.addEventListener("keydown", keys);
  input.addEventListener("change", typed);
  input.addEventListener("input", () => {  // while typing, the words follow a legal amount as soon as it is one
    const at = values.indexOf(Number(input.value));
    if (input.value !== "" && at >= 0 && at !== index) show(at);
  });
  input.addEventListener("wheel", (event) => event.preventDefault(), { passive: false });  // no silent change
  less.addEventListener("click", () => show(index - 1));
  more.addEventListener("click", () => show(index + 1));
  confirm.addEventListener("click", () => play(run.sorted[index]));
  if (slider) {
    slider.addEventListener("input", () => show(Number(slider.value)));
    slider.addEventListener("keydown", keys);
  }
  const heading = run.entries[0].group || "Amount";
  const label = Skald.el("label", { for: id, class: "amount-name" }, `${heading}: `,
    Skald.el("span", { class: "amount-range" }, gaps ? `${values.length} amounts from ${min} to ${max}` : `${min} to ${max}`));
  const box = Skald.el("div", { class: "amount", role: "group", "aria-label": heading, "data-field": run.field,
    "data-keys": JSON.stringify(run.sorted.map((entry) => entry.key)) },
  label, Skald.el("div", { class: "amount-row" }, less, input, more, confirm), ...(slider ? [slider] : []), says);
  show(0);
  return box;
}

// A game's phrase as a sentence: ended by a full stop, and capitalised if it stands alone.
function sentence(text, alone) {
  const words = alone ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  return /[.!?]$/.test(words) ? words : `${words}.`;
}

function drawPrompt(mine) {
  const prompt = $("prompt");
  if (view.status === "over") {
    prompt.textContent = "The game is over.";
  } else if (mine) {
    // The game's words for this step: what to do, then how to do it on the drawn board if the game says.
    prompt.replaceChildren(`Your turn — ${sentence(view.prompt || "choose a move", false)}`);
    if (view.click_hint) prompt.append(" ", Skald.el("span", { class: "hint" }, sentence(view.click_hint, true)));
  } else if (view.to_move === null) {
    prompt.textContent = "Chance to move…";
  } else {
    // Whose move it is and, in the game's words for everyone at the table, what that seat is doing.
    const step = view.step ? ` — ${sentence(view.step, false)}` : "…";
    prompt.textContent = `${game.seats[view.to_move].name} to move${step}`;
  }
  prompt.className = mine ? "prompt yours" : "prompt";
}

// Your turn, told to a player who is not looking: the tab's title and icon say so while the move is awaited, and if
// the player asked for it (and the browser allows), a notification comes when the turn arrives while this tab is in
// the background. It says no more than the seat's own prompt, and only to the seat.
const NOTIFY_KEY = "skald.notify";
let wasYours = null;  // whether the last view drawn awaited this seat's move (null: none drawn yet)

function notifying() {
  return "Notification" in window && Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "on";
}

function drawNotifyButton() {
  const button = $("notify-button");
  button.hidden = you === null || !("Notification" in window) || (view && view.status === "over");
  const blocked = "Notification" in window && Notification.permission === "denied";
  button.disabled = blocked;
  button.setAttribute("aria-pressed", notifying() ? "true" : "false");
  button.title = blocked ? "Notifications are blocked for this site in your browser's settings"
    : "A notification when it becomes your turn while this tab is in the background";
}

function drawTurnAlert(mine) {
  const yours = mine && view.status !== "over";
  document.title = `${yours ? "● Your turn · " : ""}Skald — ${game.title}`;
  Skald.icon(yours);
  if (yours && wasYours === false && document.visibilityState === "hidden" && notifying()) {
    const note = new Notification(`Your turn — ${game.title}`, {
      body: sentence(view.prompt || "choose a move", true), tag: `skald-${gameId}`,
    });
    note.onclick = () => { window.focus(); note.close(); };
  }
  wasYours = yours;
  drawNotifyButton();
}

$("notify-button").addEventListener("click", async () => {
  if (notifying()) {
    localStorage.setItem(NOTIFY_KEY, "off");
  } else {
    const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    localStorage.setItem(NOTIFY_KEY, answer === "granted" ? "on" : "off");
    if (answer !== "granted") $("error").textContent = "The browser did not allow notifications for this site.";
  }
  drawNotifyButton();
});

// A scoring report as a disclosure: its title, then each line with its seat and what it gained, in the game's words.
function scoringReport(report, open) {
  const lines = report.lines.map((line) => {
    // Every number a line carries beside its seat is a gain in what the game counts, named by its key.
    const gain = [];
    for (const [key, value] of Object.entries(line)) {
      if (key === "seat" || typeof value !== "number" || !value) continue;
      gain.push(`${value > 0 ? "+" : ""}${value} ${key.replaceAll("_", " ")}`);
    }
    return Skald.el("li", {}, Skald.el("span", { class: "who" }, game.seats[line.seat].name), ` ${line.text} `,
      Skald.el("b", {}, gain.join(" ")));
  });
  const title = report.when === "end" ? "End-game scoring"
    : report.round === undefined ? `${report.when} scoring` : `Round ${report.round}: ${report.when} scoring`;
  return Skald.el("details", open ? { open: "" } : {},
    Skald.el("summary", {}, title), Skald.el("ul", { class: "lines" }, ...(lines.length ? lines : [Skald.el("li", {}, "nothing scored")])));
}

function drawScorings() {
  const box = $("scorings");
  box.replaceChildren();
  const newest = view.scorings[view.scorings.length - 1];
  for (const report of [...view.scorings].reverse()) box.append(scoringReport(report, report === newest));
}

function drawEnd() {
  const result = view.result;
  $("end").hidden = !result;
  if (!result) return;
  const heading = (text) => Skald.el("th", {}, text);
  document.querySelector("#standings thead tr").replaceChildren(
    heading("#"), heading("Player"), ...result.columns.map((column) => heading(column.label)));
  const body = document.querySelector("#standings tbody");
  body.replaceChildren();
  for (const row of result.standings) {
    const cells = [row.place, row.name, ...result.columns.map((column) => row[column.key] ?? "")];
    body.append(Skald.el("tr", { class: result.winners.includes(row.seat) ? "winner" : "" },
      ...cells.map((cell) => Skald.el("td", {}, cell))));
  }
  // The tie-break is told only when the best score was shared: then it decided, or the victory is shared.
  const winners = result.winners.map((s) => game.seats[s].name).join(", ");
  $("tie-break").textContent = `${result.winners.length > 1 ? "Winners" : "Winner"}: ${winners}.`
    + (result.tied ? ` A tie on the score: ${result.tie_break}` : "");
  // The game's last scoring, itemised, beside the standings it settled (every scoring stays below, under Scorings).
  const last = view.scorings[view.scorings.length - 1];
  $("final-scoring").replaceChildren(...(last ? [scoringReport(last, true)] : []));
  $("rematch-button").hidden = you === null || !token || Boolean(view.rematch);
  if (!reviewChecked) {  // a review asked for earlier (here or by another viewer) is shown at once
    reviewChecked = true;
    Skald.api("GET", `/api/games/${gameId}/review`).then((found) => {
      if (found.status === "ready" || found.status === "computing") reviewArrived(found);
    }).catch(() => {});
  }
  if (!view.rematch) return;
  const claimed = (Skald.joined()[view.rematch] || {}).token;
  if (you !== null && token && !claimed && !claiming) { claiming = true; claimRematch(); } else showRematch(view.rematch);
}

// Fair draws: the SHA-256 of the game's secret chance seed, published from the start; at the end, how anyone can
// check every draw against it (the record reveals the seed). Built again only when the game ends.
function drawFair() {
  const fair = game && game.fair;
  const over = view.status === "over";
  let card = $("fair");
  if (!fair || (card && card.dataset.over === String(over))) return;
  if (!card) {
    card = Skald.el("section", { class: "card", id: "fair" });
    $("end").after(card);
  }
  card.dataset.over = String(over);
  const hash = Skald.el("input", { id: "fair-hash", class: "fair-hash", readonly: "", value: fair.commitment, "aria-label": "SHA-256 of the chance seed" });
  card.replaceChildren(Skald.el("h3", {}, over ? "Fair draws: verify" : "Fair draws"), Skald.el("p", { class: "muted" }, over
    ? "Every draw came from a secret seed fixed before the first one, whose SHA-256 was shown here from the start. "
      + "The record reveals the seed: run skald verify RECORD.json to check it and draw every outcome again from it."
    : "Every draw comes from a secret seed fixed before the first one. Its SHA-256 (the seed is revealed at the end):"), hash);
  if (over) card.append(Skald.el("p", {}, Skald.el("a", { id: "fair-record", href: `/api/games/${gameId}/record`, download: "" }, "Download the record (JSON)")));
}

function showRematch(id) {
  const card = $("end");
  if (!card.querySelector(".rematch-link")) {
    card.append(Skald.el("p", { class: "rematch-link" }, Skald.el("a", { href: `/table/${id}` }, "Rematch started — go to the new table")));
  }
  $("rematch-button").hidden = true;
}

// A standing answer (the game's offer, such as passing in every card window until your next decision): offered at
// a decision the game says it answers, and while kept, said with a button to stop it. The server gives it.
function drawStanding(box, mine) {
  if (view.status === "over") return;
  if (view.standing) {
    box.append(Skald.el("p", { class: "standing" }, Skald.el("span", {}, `Kept: ${sentence(view.standing.label, true)} `),
      Skald.el("button", { type: "button", id: "standing-stop", onclick: () => send({ type: "standing", name: null, ref: ++refs }) }, "Stop")));
  } else if (mine && view.standing_offer) {
    const offer = view.standing_offer;
    box.append(Skald.el("button", { type: "button", class: "act standing-offer", id: "standing-offer",
      onclick: () => keepStanding(offer.name) }, offer.label));
  }
}

function keepStanding(name) {
  if (pending) return;
  pending = true;
  window.skaldState.pending = true;
  $("error").textContent = "";
  send({ type: "standing", version: view.version, name, ref: ++refs });
}

function play(legal) {
  if (pending) return;
  pending = true;
  window.skaldState.pending = true;
  $("error").textContent = "";
  hideTip();
  send({ type: "move", version: view.version, action: legal.action, ref: ++refs });
}

function ask(key, event) {
  hovered = { key, x: event.clientX, y: event.clientY };
  if (reasons.has(key)) showTip(event.clientX, event.clientY, reasons.get(key));
  else send({ type: "why", action: JSON.parse(key), ref: ++refs });
}

function showTip(x, y, text) {
  const tip = $("tooltip");
  tip.textContent = text;
  tip.hidden = false;
  moveTip({ clientX: x, clientY: y });
}

function moveTip(e) {
  const tip = $("tooltip");
  tip.style.left = `${e.clientX + 14}px`;
  tip.style.top = `${e.clientY + 14}px`;
}

function hideTip() {
  hovered = null;
  $("tooltip").hidden = true;
}

// -- zoom and pan ------------------------------------------------------------------------------------------
// A board is first drawn whole, fitted to its frame's width. A board wider than that (the Vikingatid map is 1504
// units wide: fitted to a phone, its 12-unit words and its legend come out 3 px high) can be zoomed up to
// ZOOM_MAX times its natural size with − and + (or a pinch on a touch screen, or Ctrl + wheel), and is then panned
// inside its frame by dragging or scrolling (the browser's own scrolling, so every edge of it can be reached: the
// zoom grows the drawing's width, never a transform that would leave its left and top out of reach).
const ZOOM_MAX = 1.5;
const ZOOM_STEP = 1.6;

class Zoom {
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

const boardZoom = new Zoom($("board"), $("board-zoom"));
const replayZoom = new Zoom($("rp-board"), $("rp-zoom"));
window.addEventListener("resize", () => { boardZoom.apply(); replayZoom.apply(); });

// -- replay ------------------------------------------------------------------------------------------
// The bot's review of the finished game, asked for on the end screen: made by the server's bot workers (it may take
// a minute), then kept. Its marked moves open the replay at the position where each was chosen, and the replay
// shows the bot's estimates and choice at every position reviewed.
let review = null;
let reviewPolling = null;
let reviewChecked = false;
const percent = (value) => `${Math.round(value * 100)}%`;

async function askReview() {
  $("review-button").disabled = true;
  try {
    reviewArrived(await Skald.api("POST", `/api/games/${gameId}/review`, {}));
  } catch (e) {
    $("review-status").textContent = e.message;
    $("review-button").disabled = false;
  }
}

function reviewArrived(found) {
  clearTimeout(reviewPolling);
  if (found.status === "computing") {
    $("review-status").textContent = "The bot is reviewing the game, move by move (this can take a minute)…";
    reviewPolling = setTimeout(async () => {
      try { reviewArrived(await Skald.api("GET", `/api/games/${gameId}/review`)); }
      catch (e) { reviewArrived({ status: "computing" }); }  // asked again a little later
    }, 2000);
    return;
  }
  if (found.status !== "ready") {
    $("review-status").textContent = found.message || "No review yet.";
    $("review-button").disabled = false;
    return;
  }
  review = { seats: found.seats, byPly: new Map(found.review.moves.map((move) => [move.ply, move])) };
  const marked = found.review.moves.filter((move) => move.marked);
  $("review-button").hidden = true;
  $("review-status").textContent = marked.length
    ? `The bot reviewed ${found.review.moves.length} decisions. The moves after which the mover's chances fell most:`
    : `The bot reviewed ${found.review.moves.length} decisions and found no move that cost the mover much.`;
  $("review-marks").replaceChildren(...marked.map((move) => {
    const who = found.seats[move.seat];
    const words = `Move ${move.ply + 1} · ${who}: ${move.played} — the bot preferred ${move.best}; `
      + `${who}'s chances ${percent(move.chances[move.seat])} → ${percent(move.after)}`;
    return Skald.el("li", {}, Skald.el("button", { type: "button", class: "link", onclick: () => openReplayAt(move.ply) }, words));
  }));
  const shown = Number($("rp-slider").value);
  if (!$("replay").hidden) drawReviewLine(shown);
}

function drawReviewLine(ply) {
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

function openReplayAt(ply) {
  $("replay").hidden = false;
  $("live-board").hidden = true;
  showPly(ply);
}

async function showPly(ply) {
  // As this viewer saw the game (its token names the seat): another seat's hidden cards stay hidden.
  const data = await Skald.api("GET", `/api/games/${gameId}/replay/${ply}`, undefined, token);
  Skald.showSvg($("rp-board"), data.svg);
  ringLastMove($("rp-board"), data.last_move);
  replayZoom.apply();
  $("rp-slider").max = data.version;
  $("rp-slider").value = ply;
  const last = data.log[data.log.length - 1];
  $("rp-label").textContent = `${ply} / ${data.version}` + (last ? ` · ${last.name}: ${last.notation}` : " · start");
  drawReviewLine(ply);
  followInLog(ply);
}

// The log follows the replay: the entry of the move just replayed is marked and scrolled into view (none at the
// start); leaving the replay unmarks it and goes back to the newest entry.
function followInLog(ply) {
  for (const item of $("log").querySelectorAll("li.replayed")) item.classList.remove("replayed");
  const item = ply > 0 ? $("log").querySelector(`li[value="${ply}"]`) : null;
  if (item) {
    item.classList.add("replayed");
    item.scrollIntoView({ block: "nearest" });
  }
}

function replayStep(delta) {
  const slider = $("rp-slider");
  const ply = Math.min(Math.max(Number(slider.value) + delta, 0), Number(slider.max));
  if (ply !== Number(slider.value)) showPly(ply);
}

function openReplay() {
  $("replay").hidden = false;
  $("live-board").hidden = true;
  showPly(view ? view.version : 0);
}

$("replay-button").addEventListener("click", openReplay);
function closeReplay() {
  $("replay").hidden = true;
  $("live-board").hidden = false;
  boardZoom.apply();
  followInLog(0);
  $("log").scrollTop = $("log").scrollHeight;
  $("replay-button").focus();
}

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
for (const radio of document.querySelectorAll('input[name="mode"]')) radio.addEventListener("change", () => view && draw());
// Downloads as this viewer may have them: a seat's goes with its token (the record: the seat's own view during
// play, the whole game once it is over); a spectator's plain link is the spectator's.
function downloadLink(id, path, errorBox) {
  $(id).href = path;
  $(id).addEventListener("click", async (event) => {
    if (!token) return;
    event.preventDefault();
    try {
      const response = await fetch(path, { headers: { Authorization: "Bearer " + token } });
      if (!response.ok) throw new Error(((await response.json()).error || {}).message || response.statusText);
      const disposition = response.headers.get("content-disposition") || "";
      const name = (disposition.match(/filename="([^"]+)"/) || [null, `skald-${gameId}.json`])[1];
      const link = Skald.el("a", { href: URL.createObjectURL(await response.blob()), download: name });
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (e) { $(errorBox).textContent = e.message; }
  });
}
downloadLink("record-link", `/api/games/${gameId}/record`, "error");
downloadLink("chat-link", `/api/games/${gameId}/chat`, "chat-error");
$("chat-form").addEventListener("submit", sendChat);
$("chat-text").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) sendChat(event);  // Shift+Enter: a new line
});
// The rematch (made now, or already made by another seat) and this seat's fresh token in it, kept for the link.
async function claimRematch() {
  try {
    const next = await Skald.api("POST", `/api/games/${gameId}/rematch`, {}, token);
    if (next.token) Skald.remember(next.id, { token: next.token, seat: you, title: game.title });
    showRematch(next.id);
  } catch (e) { $("error").textContent = e.message; }
}
$("rematch-button").addEventListener("click", claimRematch);
// A signed-in person who holds this seat's link may keep the seat in his account (done at once if it is kept).
function drawKeepSeat() {
  $("keep-seat-button").hidden = !(Skald.account && you !== null && token);
}
$("keep-seat-button").addEventListener("click", async () => {
  try {
    await Skald.api("POST", `/api/games/${gameId}/claim`, {}, token);
    $("keep-seat-button").textContent = `Seat kept in ${Skald.account.name}'s account`;
    $("keep-seat-button").disabled = true;
  } catch (e) { $("error").textContent = e.message; }
});
Skald.session().then(drawKeepSeat);
$("review-button").addEventListener("click", askReview);
// A leaked invite link is revoked by replacing it: this browser keeps the new token, every other holder is shut out.
$("new-link-button").addEventListener("click", async () => {
  replacing = true;
  try {
    const next = await Skald.api("POST", `/api/games/${gameId}/token`, {}, token);
    token = next.token;
    Skald.remember(gameId, { token, seat: you });
    $("new-link-url").value = next.url;
    $("new-link").hidden = false;
  } catch (e) { $("error").textContent = e.message; }
});
connect();
