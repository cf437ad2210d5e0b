"use strict";
// The table: the board (SVG drawn by the game's renderer on the server), live over a WebSocket.
// The browser decides nothing and knows no game: it shows what the server sent this viewer (the game's own prompt,
// labels and groups), offers the legal actions and asks the server why others are not.
const gameId = location.pathname.split("/").filter(Boolean).pop();
const hash = new URLSearchParams(location.hash.slice(1));
if (hash.get("t")) {
  Skald.remember(gameId, { token: hash.get("t") });
  history.replaceState(null, "", location.pathname);
}
const token = (Skald.joined()[gameId] || {}).token || null;
const $ = (id) => document.getElementById(id);
let socket = null;
let you = null;
let game = null;
let view = null;
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
    retry = 500;
    $("conn").textContent = "live";
    $("conn").className = "pill live";
    send({ type: "hello", token, svg: true, full: true });
  };
  socket.onclose = () => {
    $("conn").textContent = "reconnecting…";
    $("conn").className = "pill";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
}

function receive(msg) {
  if (msg.type === "welcome") {
    you = msg.you;
    game = msg.game;
    $("log").replaceChildren();
    $("title").textContent = `${game.title} · ${game.players} players`;
    document.title = `Skald — ${game.title}`;
    $("who").textContent = you === null ? "spectator" : `you: ${game.seats[you].name}`;
    if (you !== null || !Skald.joined()[gameId]) Skald.remember(gameId, { title: game.title, seat: you });
  } else if (msg.type === "update") {
    pending = false;
    reasons.clear();
    view = msg;
    if (msg.reveal) $("log").replaceChildren();  // the game is over: the whole log replaces what this seat saw
    for (const entry of msg.log) addLog(entry);
    draw();
  } else if (msg.type === "error") {
    pending = false;
    if (window.skaldState) window.skaldState.pending = false;
    if (msg.code === "why_forbidden") { hideTip(); return; }  // the turn moved on while the pointer rested
    $("error").textContent = msg.message;
    if (msg.code === "forged_token") $("who").textContent = "spectator (that invite link is not valid)";
  } else if (msg.type === "why") {
    const key = JSON.stringify(sortKeys(msg.action));
    reasons.set(key, msg.reason || "allowed");
    if (hovered && hovered.key === key) showTip(hovered.x, hovered.y, reasons.get(key));
  } else if (msg.type === "rematch") {
    showRematch(msg.id);
  }
}

function sortKeys(obj) {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) return obj;
  const out = {};
  for (const k of Object.keys(obj).sort()) out[k] = sortKeys(obj[k]);
  return out;
}

function addLog(entry) {
  const log = $("log");
  const who = entry.seat === null ? "chance" : entry.name;
  const item = Skald.el("li", { class: entry.seat === null ? "chance" : "seat-" + entry.seat, value: entry.ply + 1 },
    Skald.el("span", { class: "who" }, who), " ", entry.notation);
  log.append(item);
  log.scrollTop = log.scrollHeight;
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

function draw() {
  $("board").innerHTML = view.svg || "";
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
      node.addEventListener("click", () => play(legal.get(chosen)));
    } else if (mine) {
      node.classList.add("forbidden");
      const key = primary;
      node.addEventListener("mouseenter", (e) => ask(key, e));
      node.addEventListener("mousemove", (e) => { if (hovered) { hovered.x = e.clientX; hovered.y = e.clientY; moveTip(e); } });
      node.addEventListener("mouseleave", hideTip);
    }
  }
  window.skaldState = { version: view.version, status: view.status, mine, pending: false, you };
  drawActions(mine);
  drawPrompt(mine);
  drawScorings();
  drawEnd();
}

function drawActions(mine) {
  const box = $("actions");
  box.replaceChildren();
  if (!mine) {
    box.append(Skald.el("p", { class: "muted" }, you === null ? "You are watching." : "Waiting for the others…"));
    return;
  }
  // The choices in the game's groups and order, each as the terminal lists it: notation, then the game's words.
  let group = null;
  let row = null;
  for (const legal of view.legal) {
    if (row === null || legal.group !== group) {
      group = legal.group;
      if (group) box.append(Skald.el("h4", { class: "group" }, group));
      row = Skald.el("div", { class: "group-choices" });
      box.append(row);
    }
    const words = [Skald.el("b", {}, legal.notation)];
    if (legal.label) words.push(" ", Skald.el("span", { class: "label" }, legal.label));
    row.append(Skald.el("button", { type: "button", class: "act", "data-key": legal.key, title: legal.label || legal.notation,
      onclick: () => play(legal) }, ...words));
  }
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
  } else {
    const who = view.to_move === null ? "chance" : game.seats[view.to_move].name;
    prompt.textContent = `${who} to move…`;
  }
  prompt.className = mine ? "prompt yours" : "prompt";
}

function drawScorings() {
  const box = $("scorings");
  box.replaceChildren();
  for (const report of [...view.scorings].reverse()) {
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
    box.append(Skald.el("details", report === view.scorings[view.scorings.length - 1] ? { open: "" } : {},
      Skald.el("summary", {}, title), Skald.el("ul", { class: "lines" }, ...(lines.length ? lines : [Skald.el("li", {}, "nothing scored")]))));
  }
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
  $("tie-break").textContent = `Winner: ${result.winners.map((s) => game.seats[s].name).join(", ")}. ${result.tie_break}`;
  $("rematch-button").hidden = you === null || Boolean(view.rematch);
  if (view.rematch) showRematch(view.rematch);
}

function showRematch(id) {
  const card = $("end");
  if (!card.querySelector(".rematch-link")) {
    card.append(Skald.el("p", { class: "rematch-link" }, Skald.el("a", { href: `/table/${id}` }, "Rematch started — go to the new table")));
  }
  if (token) Skald.remember(id, { token, seat: you, title: game.title });
  $("rematch-button").hidden = true;
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

// -- replay ------------------------------------------------------------------------------------------
async function showPly(ply) {
  // As this viewer saw the game (its token names the seat): another seat's hidden cards stay hidden.
  const data = await Skald.api("GET", `/api/games/${gameId}/replay/${ply}`, undefined, token);
  $("rp-board").innerHTML = data.svg;
  $("rp-slider").max = data.version;
  $("rp-slider").value = ply;
  const last = data.log[data.log.length - 1];
  $("rp-label").textContent = `${ply} / ${data.version}` + (last ? ` · ${last.name}: ${last.notation}` : " · start");
}

function openReplay() {
  $("replay").hidden = false;
  $("board").hidden = true;
  showPly(view ? view.version : 0);
}

$("replay-button").addEventListener("click", openReplay);
$("rp-close").addEventListener("click", () => { $("replay").hidden = true; $("board").hidden = false; });
$("rp-slider").addEventListener("change", (e) => showPly(Number(e.target.value)));
$("rp-first").addEventListener("click", () => showPly(0));
$("rp-prev").addEventListener("click", () => showPly(Math.max(0, Number($("rp-slider").value) - 1)));
$("rp-next").addEventListener("click", () => showPly(Math.min(Number($("rp-slider").max), Number($("rp-slider").value) + 1)));
$("rp-last").addEventListener("click", () => showPly(Number($("rp-slider").max)));
for (const radio of document.querySelectorAll('input[name="mode"]')) radio.addEventListener("change", () => view && draw());
// The record as this viewer may have it: the seat's own view during play, the whole game once it is over.
$("record-link").href = `/api/games/${gameId}/record`;
$("record-link").addEventListener("click", async (event) => {
  if (!token) return;  // a spectator's plain download is the spectator's view
  event.preventDefault();
  try {
    const response = await fetch(`/api/games/${gameId}/record`, { headers: { Authorization: "Bearer " + token } });
    if (!response.ok) throw new Error(((await response.json()).error || {}).message || response.statusText);
    const disposition = response.headers.get("content-disposition") || "";
    const name = (disposition.match(/filename="([^"]+)"/) || [null, `skald-${gameId}.json`])[1];
    const link = Skald.el("a", { href: URL.createObjectURL(await response.blob()), download: name });
    link.click();
    URL.revokeObjectURL(link.href);
  } catch (e) { $("error").textContent = e.message; }
});
$("rematch-button").addEventListener("click", async () => {
  try {
    const next = await Skald.api("POST", `/api/games/${gameId}/rematch`, {}, token);
    showRematch(next.id);
  } catch (e) { $("error").textContent = e.message; }
});
connect();
