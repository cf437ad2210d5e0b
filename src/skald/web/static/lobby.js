import { api, el, icon, joined, loadSession, remember, session } from "./common.js";
import { drawMail, startMail } from "./mail.js";
import { listOpen, wireOpen } from "./open_tables.js";

// The lobby: create a game (seats, bots, rule options), hand out invite links, list this browser's games.
let catalogue = null;

function seatRow(index, game, players) {
  // The learned bot only where a model is shipped for this game and player count.
  const offered = catalogue.bots.filter((b) => b !== "learned" || game.learned.includes(players));
  const bots = offered.map((b) => el("option", { value: b }, b));
  const kind = el("select", { class: "seat-kind", "data-seat": index, "aria-label": `Seat ${index + 1}: who plays` },
    el("option", { value: "human" }, "Person"), el("option", { value: "bot" }, "Bot"),
    el("option", { value: "open" }, "Open seat (anyone may join)"));
  const level = el("select", { class: "seat-bot", "aria-label": `Seat ${index + 1}: which bot` }, ...bots);
  level.value = "mcts:normal";
  const name = el("input", { class: "seat-name", maxlength: "40", placeholder: `Player ${index + 1}`,
    "aria-label": `Seat ${index + 1}: name` });
  if (index > 0) kind.value = "bot";
  const sync = () => {
    level.hidden = kind.value !== "bot";
    name.hidden = kind.value === "open";  // whoever takes the seat names himself
    name.placeholder = kind.value === "bot" ? "Bot" : `Player ${index + 1}`;
  };
  kind.addEventListener("change", sync);
  sync();
  return el("div", { class: "seat" }, el("span", { class: "seat-no" }, `Seat ${index + 1}`), kind, level, name);
}

function drawSeats() {
  const box = document.getElementById("seats");
  box.replaceChildren();
  const n = Number(document.getElementById("players").value);
  const game = catalogue.games.find((g) => g.name === document.getElementById("game").value);
  for (let i = 0; i < n; i++) box.append(seatRow(i, game, n));
}

function drawGame() {
  const game = catalogue.games.find((g) => g.name === document.getElementById("game").value);
  const players = document.getElementById("players");
  players.replaceChildren();
  for (let n = game.min_players; n <= game.max_players; n++) players.append(el("option", { value: n }, n));
  const rules = document.getElementById("rules-link");
  rules.href = game.rules;
  rules.textContent = `Rules of ${game.title}`;
  // The options that change the game most stand in view; the rest wait in the disclosure.
  const primary = document.getElementById("primary-options");
  const options = document.getElementById("options");
  primary.replaceChildren();
  options.replaceChildren();
  for (const option of game.options) (option.primary ? primary : options).append(optionRow(option));
  document.getElementById("more-options").hidden = options.children.length === 0;
  drawSeats();
}

// A rule option in words: its title, a select showing each choice's label (the values sent stay the option's own),
// and its one-line summary; the whole reasoning is the tooltip, and on the rules page.
function optionRow(option) {
  const id = `option-${option.name}`;
  const select = el("select", { id, "data-option": option.name });
  option.choices.forEach((choice, i) => {
    select.append(el("option", { value: JSON.stringify(choice) }, option.labels[i] ?? String(choice)));
  });
  select.value = JSON.stringify(option.default);
  return el("div", { class: "option", title: option.doc },
    el("label", { for: id }, option.title), select, el("small", {}, option.summary));
}

async function create(event) {
  event.preventDefault();
  const error = document.getElementById("create-error");
  error.textContent = "";
  const seats = [...document.querySelectorAll("#seats .seat")].map((row) => {
    const kind = row.querySelector(".seat-kind").value;
    if (kind === "open") return { kind };
    const seat = { kind, name: row.querySelector(".seat-name").value };
    if (kind === "bot") seat.bot = row.querySelector(".seat-bot").value;
    return seat;
  });
  const options = {};
  for (const select of document.querySelectorAll("#create-form select[data-option]")) {
    options[select.dataset.option] = JSON.parse(select.value);
  }
  try {
    const game = await api("POST", "/api/games", {
      game: document.getElementById("game").value, seats, options,
      chat_spectators: document.getElementById("chat-spectators").checked,
      clock: clockChosen(),
    });
    showCreated(game);
  } catch (e) {
    error.textContent = e.message;
  }
}

// The clock chosen, with the table's rule for a seat whose clock runs out (asked only with a clock).
function clockChosen() {
  const clock = JSON.parse(document.getElementById("clock").value);
  if (clock.kind === "none") return clock;
  return { ...clock, timeout: document.getElementById("timeout").value, stand_in: document.getElementById("stand-in").value };
}

function drawTimeout() {
  const none = JSON.parse(document.getElementById("clock").value).kind === "none";
  document.getElementById("timeout-row").hidden = none;
  document.getElementById("stand-in-row").hidden = document.getElementById("timeout").value === "expel";
}

// The creator takes the first person's seat at once and goes to the table, where the invite links wait to be
// shared (kept for this tab only: they are the other seats' secrets). A game of bots alone is watched.
function showCreated(game) {
  const first = game.invites[0];
  const links = { invites: game.invites.map(({ seat, name, url }) => ({ seat, name, url })), spectator: game.spectator_url };
  sessionStorage.setItem(`skald.invites.${game.id}`, JSON.stringify(links));
  if (first) remember(game.id, { token: first.token, seat: first.seat, title: game.title });
  else remember(game.id, { title: game.title });
  location.assign(first ? first.url : game.spectator_url);
}

// The games this browser holds a seat in (or watches), the ones awaiting your move first, then those running, then
// those over, each group newest first. The tab's title and icon count the games awaiting your move.
const ORDER = { yours: 0, running: 1, over: 2, gone: 3 };

// The account's games join those this browser holds: a seat kept in the account is found from any browser.
async function accountGames() {
  if (!session.account) return [];
  const found = await api("GET", "/api/account/games").catch(() => ({ games: [] }));
  return found.games;
}

// Who else sits at the table (bots by their names) and the day the game was made, in the reader's own words.
function drawFacts(row, game) {
  const others = game.seats.filter((seat) => seat.seat !== game.you).map((seat) => seat.name);
  row.querySelector(".opponents").textContent = others.join(", ");
  const made = new Date(game.created_at);
  const started = row.querySelector(".started");
  started.replaceChildren(el("time", { datetime: game.created_at }, made.toLocaleDateString(undefined,
    { year: "numeric", month: "short", day: "numeric" })));
}

async function listMine() {
  const body = document.querySelector("#mine-table tbody");
  const held = Object.entries(joined()).sort((a, b) => b[1].at - a[1].at).slice(0, 30);
  for (const game of await accountGames()) {
    if (!held.some(([id]) => id === game.id)) held.push([game.id, { title: null, token: null, at: 0 }]);
  }
  document.getElementById("mine-empty").hidden = held.length > 0;
  document.getElementById("mine-table").hidden = held.length === 0;
  const rows = held.map(([id, entry]) => el("tr", {},
    el("td", {}, el("a", { href: `/table/${id}` }, entry.title || id)), el("td", { class: "opponents" }, ""),
    el("td", { class: "started" }, ""), el("td", { class: "turn" }, "…")));
  const order = held.map(() => ORDER.running);
  body.replaceChildren(...rows);
  await Promise.all(held.map(([id, entry], index) => {
    const cell = rows[index].querySelector(".turn");
    return api("GET", `/api/games/${id}`, undefined, entry.token).then((game) => {
      rows[index].querySelector("a").textContent = entry.title || game.title;
      drawFacts(rows[index], game);
      if (game.status === "over") {
        const winners = game.result.winners.map((s) => game.seats[s].name).join(", ");
        cell.textContent = `over — won by ${winners}`;
        order[index] = ORDER.over;
      } else if (game.waiting) {
        cell.textContent = `waiting for ${game.waiting} player${game.waiting === 1 ? "" : "s"}`;
      } else if (game.to_move !== null && game.to_move === game.you) {
        cell.textContent = "your turn";
        cell.className = "turn yours";
        order[index] = ORDER.yours;
      } else {
        cell.textContent = game.to_move_name ? `${game.to_move_name} to move` : "drawing…";
      }
    }).catch(() => { cell.textContent = "gone"; order[index] = ORDER.gone; });
  }));
  // Stable: within a group, the newest first as listed.
  const places = rows.map((_, index) => index).sort((a, b) => order[a] - order[b] || a - b);
  body.replaceChildren(...places.map((index) => rows[index]));
  const waiting = order.filter((group) => group === ORDER.yours).length;
  document.title = `${waiting ? `(${waiting}) ` : ""}Skald — Viking board games`;
  icon(waiting > 0);
}

// Signing in, up and out: the page then lists the account's games too.
function drawAccount() {
  document.getElementById("account-in").hidden = !session.account;
  document.getElementById("account-manage").hidden = !session.account;
  document.getElementById("account-form").hidden = Boolean(session.account);
  document.getElementById("account-name").textContent = session.account ? session.account.name : "";
  drawMail(session.account);
}

async function signIn(path) {
  const error = document.getElementById("account-error");
  error.textContent = "";
  const name = document.getElementById("account-user").value;
  const password = document.getElementById("account-password").value;
  try {
    const found = await api("POST", path, { name, password });
    session.account = found.account;
    session.csrf = found.csrf;
    document.getElementById("account-password").value = "";
    drawAccount();
    listMine();
    listOpen();
  } catch (e) { error.textContent = e.message; }
}

async function signOut() {
  try { await api("DELETE", "/api/session", {}); } catch (e) { /* signed out already */ }
  session.account = null;
  session.csrf = null;
  drawAccount();
  listMine();
  listOpen();
}

// Changing the password or deleting the account: both take the current password.
async function manageAccount(change) {
  const error = document.getElementById("account-error");
  const done = document.getElementById("account-done");
  error.textContent = done.textContent = "";
  const current = document.getElementById("account-current");
  const fresh = document.getElementById("account-new");
  if (!current.value) { error.textContent = "password: type your current password first"; return; }
  if (!change && !window.confirm("Delete your account? Your games stay; the seats it kept are then held by their links alone.")) return;
  try {
    const found = change
      ? await api("POST", "/api/account/password", { password: current.value, new_password: fresh.value })
      : await api("DELETE", "/api/account", { password: current.value });
    session.account = found.account;
    session.csrf = found.csrf;
    current.value = fresh.value = "";
    done.textContent = change ? "Password changed; every other browser is signed out." : "Account deleted.";
    drawAccount();
    listMine();
  } catch (e) { error.textContent = e.message; }
}

async function start() {
  document.getElementById("account-form").addEventListener("submit", (event) => { event.preventDefault(); signIn("/api/session"); });
  document.getElementById("sign-up").addEventListener("click", () => signIn("/api/accounts"));
  document.getElementById("sign-out").addEventListener("click", signOut);
  document.getElementById("password-form").addEventListener("submit", (event) => { event.preventDefault(); manageAccount(true); });
  document.getElementById("delete-account").addEventListener("click", () => manageAccount(false));
  startMail();
  await loadSession();
  drawAccount();
  catalogue = await api("GET", "/api/catalogue");
  const game = document.getElementById("game");
  for (const g of catalogue.games) game.append(el("option", { value: g.name }, g.title));
  if (catalogue.games.some((g) => g.name === catalogue.default)) game.value = catalogue.default; // as in the API
  game.addEventListener("change", drawGame);
  document.getElementById("players").addEventListener("change", drawSeats);
  document.getElementById("create-form").addEventListener("submit", create);
  const standIn = document.getElementById("stand-in");
  for (const level of catalogue.bots) standIn.append(el("option", { value: level }, level));
  standIn.value = "greedy";
  document.getElementById("clock").addEventListener("change", drawTimeout);
  document.getElementById("timeout").addEventListener("change", drawTimeout);
  drawTimeout();
  drawGame();
  listMine();
  wireOpen();
}
start();
