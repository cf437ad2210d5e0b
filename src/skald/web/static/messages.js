// What the server says to this viewer over the WebSocket, each message taken in: the welcome (who this viewer is),
// an update (a view of the table, the log's new entries), chat, an error, why a choice is forbidden, a rematch.
// The browser decides nothing: it shows what the server sent.
import { $, icon, joined, remember } from "./common.js";
import { sortKeys } from "./actions.js";
import { announceMoves } from "./announce.js";
import { addChat } from "./chat.js";
import { welcomed } from "./connection.js";
import { draw } from "./draw.js";
import { claimRematch, showRematch } from "./end.js";
import { drawInvites } from "./invites.js";
import { drawKeepSeat } from "./links.js";
import { addLog, showDepartures } from "./log.js";
import { pace, resetPace } from "./pace.js";
import { gameId, offered, store, stored } from "./store.js";
import { showUndos } from "./takeback.js";
import { hideTip, showTip } from "./tooltip.js";

// The server refused the token: never send it again. An invite link's token gives way to the one this browser had;
// a token this browser had kept is forgotten.
function refused() {
  const fromLink = store.token === offered && offered !== stored;
  const which = fromLink ? "that invite link is not valid" : "your saved seat is not valid here";
  if (store.token === stored) remember(gameId, { token: null, seat: null });
  store.token = fromLink ? stored : null;
  store.refusal = which;
  $("error").textContent = `The server refused the seat token: ${which}.`;
  $("who").textContent = store.token ? "reconnecting with your seat…" : `spectator (${which})`;
}

function welcome(msg) {
  welcomed();
  resetPace();  // a new connection brings the whole log again: what waited is in it
  store.caughtUp = false;
  store.boardParts = [];  // a new connection: the server sends the whole board again
  store.you = msg.you;
  store.game = msg.game;
  const { game, you } = store;
  $("log").replaceChildren();
  $("title").textContent = `${game.title} · ${game.players} players`;
  document.title = `Skald — ${game.title}`;
  icon(false);
  $("who").textContent = you !== null ? `you: ${game.seats[you].name}` : store.refusal ? `spectator (${store.refusal})` : "spectator";
  $("new-link-button").hidden = you === null || !store.token;  // a seat taken by account alone has no link to replace
  drawKeepSeat();
  drawInvites(you);
  // The chat is the seats' own, unless the creator opened it to spectators; a (re)connection brings its history.
  $("chat").hidden = you === null && !game.chat_spectators;
  $("chat-log").replaceChildren();
  store.chatSeen = 0;
  if (you !== null) remember(gameId, { title: game.title, seat: you, token: store.token });
  else if (!joined()[gameId]) remember(gameId, { title: game.title });
}

// The board's pieces that `patch` brings, taken in: the whole board after it, as SVG text.
function patched(patch) {
  if (patch) {
    if (store.boardParts.length !== patch.size) store.boardParts = new Array(patch.size).fill("");
    for (const [i, text] of patch.parts) store.boardParts[i] = text;
    store.boardText = store.boardParts.join("");
  }
  return store.boardText;
}

// An update is taken in at once (the board's pieces it patches, its frames' first: the board after each seat's
// move but the last, when it brings several), and drawn at the viewer's pace (`pace.js`).
function update(msg) {
  for (const frame of msg.frames || []) frame.svg = patched(frame.board);
  msg.svg = patched(msg.board);
  const fresh = store.caughtUp && !msg.reveal && !msg.rewound;  // new moves, not the log a (re)connection brings
  store.caughtUp = true;
  pace(msg, fresh, showUpdate);
}

// An update is drawn whole, or (at a human pace) frame by frame: `frame` is the index of one of its frames, drawn
// as the view before it with that frame's board, rings, mover and seats' panels and the log up to its move, asking
// nobody anything; `msg.logShown` counts the entries of its log drawn so far.
function showUpdate(msg, frame) {
  const step = frame === undefined ? null : msg.frames[frame];
  const from = msg.logShown || 0;
  const entries = msg.log.slice(from, step ? step.log : msg.log.length);
  msg.logShown = from + entries.length;
  store.pending = false;
  store.reasons.clear();
  if (step) {
    const shown = store.view || msg;
    store.view = { ...shown, svg: step.svg, last_move: step.last_move, seat_lines: step.seat_lines,
      to_move: step.to_move, step: step.step, legal: [], given: null, undo: null, standing_offer: null,
      prompt: null, text: null, frame: true };
  } else {
    store.view = msg;
  }
  // The game is over (the whole log replaces what this seat saw), or steps were taken back (the log as it is now).
  if (!from && (msg.reveal || msg.rewound)) $("log").replaceChildren();
  addLog(entries);
  if (!step) {
    showDepartures(msg.resigned || [], msg.result);
    showUndos(msg.undos || []);
  }
  if (msg.paced) announceMoves(entries);
  draw();
}

function error(msg) {
  store.pending = false;
  if (window.skaldState) window.skaldState.pending = false;
  if (msg.code === "why_forbidden") { hideTip(); return; }  // the turn moved on while the pointer rested
  $("error").textContent = msg.message;
  if (msg.code === "forged_token") refused();
  if (msg.code === "revoked") {
    if (store.replacing) { $("error").textContent = ""; return; }  // this page asked for it: it has the new token
    store.token = null;  // replaced from elsewhere: whoever did it holds the seat now
    remember(gameId, { token: null, seat: null });
  }
  if (msg.code === "not_found") { store.stopped = true; $("title").textContent = "No such game here"; }
}

/** Take in one message from the server. */
export function receive(msg) {
  if (msg.type === "welcome") {
    welcome(msg);
  } else if (msg.type === "update") {
    update(msg);
  } else if (msg.type === "chat") {
    addChat(msg.messages, msg.history);
  } else if (msg.type === "error" && typeof msg.ref === "string" && msg.ref.startsWith("chat")) {
    $("chat-error").textContent = msg.message;
  } else if (msg.type === "error") {
    error(msg);
  } else if (msg.type === "why") {
    const key = JSON.stringify(sortKeys(msg.action));
    store.reasons.set(key, msg.reason || "allowed");
    if (store.hovered && store.hovered.key === key) showTip(store.hovered.x, store.hovered.y, store.reasons.get(key));
  } else if (msg.type === "seats") {
    store.game = msg.game;  // a seat was taken, or the open ones given to bots: names and kinds changed
    if (store.view) draw();
  } else if (msg.type === "rematch") {
    if (store.you !== null && store.token) claimRematch(); else showRematch(msg.id);
  }
}
