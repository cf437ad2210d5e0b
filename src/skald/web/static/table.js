"use strict";
// The table: the board (SVG drawn by the game's renderer on the server), live over a WebSocket.
// The browser decides nothing: it offers the legal actions the server sent and asks the server why others are not.
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
    for (const entry of msg.log) addLog(entry);
    draw();
  } else if (msg.type === "error") {
    pending = false;
    if (window.skaldState) window.skaldState.pending = false;
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
  return checked ? checked.value : "tile";
}

function draw() {
  $("board").innerHTML = view.svg || "";
  const legal = legalKeys();
  const types = new Set(view.legal.map((l) => l.action.type));
  $("mode").hidden = !(types.has("start") && (types.has("island") || types.has("ship")));
  const mine = you !== null && view.to_move === you;
  for (const node of $("board").querySelectorAll("[data-action]")) {
    const primary = node.getAttribute("data-action");
    const alt = node.getAttribute("data-alt");
    let chosen = null;
    if (alt && legal.has(alt) && (mode() === "start" || !legal.has(primary))) chosen = alt;
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
  for (const legal of view.legal) {
    box.append(Skald.el("button", { type: "button", class: "act", "data-key": legal.key, onclick: () => play(legal) }, legal.notation));
  }
}

// What to click in Vikings' steps; any other game's step or phase is named in the observation's own words.
const CLICK_PROMPTS = {
  buy: "click a Group on the wheel to buy it",
  place_tile: "click a highlighted square to place the tile",
  place_viking: "click a highlighted tile for the Viking, or send it to the Head Boatswain",
  ferry: "ferry: click a waiting colour (or use the buttons), or stop",
  land: "click a highlighted tile to land a Viking",
};

function stepWords(observation) {
  const step = String(observation.step ?? observation.phase ?? "");
  return CLICK_PROMPTS[step] || step.replaceAll("_", " ") || "choose a move";
}

function drawPrompt(mine) {
  const prompt = $("prompt");
  if (view.status === "over") {
    prompt.textContent = "The game is over.";
  } else if (mine) {
    prompt.textContent = `Your turn — ${stepWords(view.observation)}.`;
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
      const gain = [];
      if (line.fame) gain.push(`${line.fame > 0 ? "+" : ""}${line.fame} ★`);
      if (line.gold) gain.push(`${line.gold > 0 ? "+" : ""}${line.gold} ●`);
      return Skald.el("li", {}, Skald.el("span", { class: "who" }, game.seats[line.seat].name), ` ${line.text} `,
        Skald.el("b", {}, gain.join(" ")));
    });
    const title = report.when === "end" ? "End-game scoring" : `Round ${report.round}: ${report.when} scoring`;
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
  const data = await Skald.api("GET", `/api/games/${gameId}/replay/${ply}`);
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
$("record-link").href = `/api/games/${gameId}/record`;
$("rematch-button").addEventListener("click", async () => {
  try {
    const next = await Skald.api("POST", `/api/games/${gameId}/rematch`, {}, token);
    showRematch(next.id);
  } catch (e) { $("error").textContent = e.message; }
});
connect();
