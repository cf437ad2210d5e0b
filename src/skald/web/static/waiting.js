// An open table before it starts, and a seat whose clock ran out. While seats are open the table waits: "Waiting for
// N players" with the link to share, a seat to take for whoever watches (as a guest under a name, or signed in),
// and for the creator a start now with bots in the seats still open. A seat the table's rule gave to a bot shows
// its player "I'm back", which gives it back at his next turn. The clock's rule is said beneath. The server decides.
import { $, api, el, remember, session } from "./common.js";
import { send } from "./connection.js";
import { clockWords } from "./clockwords.js";
import { gameId, store } from "./store.js";

const LEVELS = ["random", "greedy", "mcts:easy", "mcts:normal", "mcts:hard", "learned"];

function shareRow() {
  const link = `${location.origin}/table/${gameId}`;
  const input = el("input", { id: "share-link", readonly: "", value: link, class: "invite",
    "aria-label": "Link to this table, for anyone to take a seat" });
  const copy = el("button", { type: "button", id: "share-copy" }, "Copy");
  copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(link); } catch (e) { input.select(); document.execCommand("copy"); }
    copy.textContent = "Copied";
  });
  return el("p", {}, "Share this link: ", input, copy);
}

async function join() {
  const error = $("waiting-error");
  error.textContent = "";
  const name = $("join-name") ? $("join-name").value : "";
  try {
    const body = session.account ? { account: true } : { name };
    if (!session.account) localStorage.setItem("skald.guestName", name);
    const joined = await api("POST", `/api/games/${gameId}/join`, body);
    remember(gameId, { token: joined.token, seat: joined.seat, title: joined.game.title });
    store.token = joined.token;
    store.socket.close();  // back at once with the seat's token
  } catch (e) { error.textContent = e.message; }
}

async function startWithBots() {
  const error = $("waiting-error");
  error.textContent = "";
  try { await api("POST", `/api/games/${gameId}/start`, { bot: $("start-level").value }, store.token); }
  catch (e) { error.textContent = e.message; }
}

function joinRow() {
  if (session.account) {
    return el("p", {}, el("button", { type: "button", id: "join-button", onclick: join }, `Take a seat as ${session.account.name}`));
  }
  const typed = $("join-name");  // kept across redrawing: another seat taken meanwhile must not wipe it
  const name = el("input", { id: "join-name", maxlength: "40", autocomplete: "nickname",
    value: typed ? typed.value : localStorage.getItem("skald.guestName") || "" });
  return el("p", {}, el("label", { for: "join-name" }, "Your name "), name,
    el("button", { type: "button", id: "join-button", onclick: join }, "Take a seat"));
}

function startRow() {
  const level = el("select", { id: "start-level", "aria-label": "Level of the bots" },
    ...LEVELS.map((l) => el("option", { value: l }, l)));
  level.value = "greedy";
  return el("p", {}, el("button", { type: "button", id: "start-button", onclick: startWithBots },
    "Start now with bots in the open seats"), " ", level);
}

function awayRow(view) {
  const mine = (view.away || []).find((entry) => entry.seat === store.you);
  if (!mine || view.status !== "playing") return [];
  if (mine.returning) return [el("p", { id: "away-note", role: "status" }, "Welcome back: your seat is yours again at your next turn.")];
  return [el("p", { id: "away-note", role: "alert" }, `Your clock ran out: a bot (${mine.bot}) plays your seat.`),
    el("button", { type: "button", id: "back-button", onclick: () => send({ type: "back" }) }, "I'm back")];
}

/** Draw the waiting card (an open table not started), the away seat's "I'm back", and the clock's rule. */
export function drawWaiting() {
  const view = store.view;
  const game = store.game;
  const card = $("waiting");
  const waiting = view.waiting || 0;
  const parts = [];
  if (waiting > 0 && view.status === "playing") {
    parts.push(el("h3", { id: "waiting-heading" }, `Waiting for ${waiting} player${waiting === 1 ? "" : "s"}`),
      el("p", { class: "muted" }, "Nobody moves until every seat is taken."), shareRow());
    if (store.you === null) parts.push(joinRow());
    else if (store.you === game.host) parts.push(startRow());
  }
  parts.push(...awayRow(view));
  if (parts.length) parts.push(el("p", { class: "error", id: "waiting-error", role: "alert" }));
  card.replaceChildren(...parts);
  card.hidden = parts.length === 0;
  $("clock-rule").textContent = game.clock ? `Clock: ${clockWords(game.clock)}.` : "";
}
