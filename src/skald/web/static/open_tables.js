// The lobby's open tables: every table waiting for players (its game, the options it changes, its clock and rule,
// the seats free, who waits, when it was made), each joined with one click — as the signed-in account, or as a
// guest under the name typed above the list. The server judges every join; a refused one says why.
import { $, api, el, remember, session } from "./common.js";
import { clockWords } from "./clockwords.js";

function when(stamp) {
  return el("time", { datetime: stamp }, new Date(stamp).toLocaleString(undefined,
    { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }));
}

async function join(table, button) {
  const error = $("open-error");
  error.textContent = "";
  const name = $("guest-name").value;
  button.disabled = true;
  try {
    const body = session.account ? { account: true } : { name };
    if (!session.account) localStorage.setItem("skald.guestName", name);
    const joined = await api("POST", `/api/games/${table.id}/join`, body);
    remember(table.id, { token: joined.token, seat: joined.seat, title: table.title });
    location.assign(joined.url);
  } catch (e) {
    error.textContent = `${table.title}: ${e.message}`;
    button.disabled = false;
    listOpen();
  }
}

function row(table) {
  const options = table.options.map((o) => `${o.title}: ${o.label}`).join("; ") || "as printed";
  const button = el("button", { type: "button", class: "join", "data-game": table.id },
    session.account ? `Join as ${session.account.name}` : "Join");
  button.addEventListener("click", () => join(table, button));
  return el("tr", { "data-game": table.id },
    el("td", {}, el("a", { href: table.url }, `${table.title} · ${table.players} players`)),
    el("td", {}, options), el("td", {}, clockWords(table.clock)),
    el("td", { class: "free" }, String(table.free)), el("td", { class: "waiting" }, table.waiting.join(", ")),
    el("td", {}, when(table.created_at)), el("td", {}, button));
}

/** List the open tables (called at start, after signing in or out, and every 10 s). */
export async function listOpen() {
  const found = await api("GET", "/api/open-tables").catch(() => ({ tables: [] }));
  $("open-empty").hidden = found.tables.length > 0;
  $("open-list").hidden = found.tables.length === 0;
  $("guest-row").hidden = Boolean(session.account);
  document.querySelector("#open-list tbody").replaceChildren(...found.tables.map(row));
}

/** Fill the guest's name from this browser, and keep the list fresh. */
export function wireOpen() {
  $("guest-name").value = localStorage.getItem("skald.guestName") || "";
  setInterval(() => { if (document.visibilityState === "visible") listOpen(); }, 10000);
  listOpen();
}
