import { $, api, el } from "./common.js";

// The ratings page: every account's rating at a game, best first, the bots' fixed ones among them; a name opens the
// account's history of rated games. The game in view is kept in the address (#game).

async function drawTable() {
  const game = $("ratings-game").value;
  history.replaceState(null, "", `#${game}`);
  const found = await api("GET", `/api/ratings/${encodeURIComponent(game)}`);
  $("ratings-table").querySelector("tbody").replaceChildren(...found.players.map((player, index) => {
    const name = player.bot
      ? el("span", { class: "bot" }, `${player.name} (bot)`)
      : el("button", { type: "button", class: "link", onclick: () => drawHistory(game, player.name) }, player.name);
    return el("tr", { class: player.bot ? "bot-row" : "" }, el("td", {}, index + 1), el("td", {}, name),
      el("td", {}, player.rating.toFixed(1)), el("td", {}, player.games ?? "—"));
  }));
  $("history-card").hidden = true;
}

async function drawHistory(game, name) {
  const found = await api("GET", `/api/ratings/${encodeURIComponent(game)}/${encodeURIComponent(name)}`);
  $("history-heading").textContent = `${name}'s rated games`;
  $("history-table").querySelector("tbody").replaceChildren(...found.games.map((entry) => el("tr", {},
    el("td", {}, el("a", { href: `/table/${entry.id}` }, new Date(entry.at).toLocaleString())),
    el("td", {}, `${entry.place} of ${entry.players}`),
    el("td", {}, entry.before.toFixed(1)), el("td", {}, entry.after.toFixed(1)))));
  $("history-card").hidden = false;
}

async function start() {
  const catalogue = await api("GET", "/api/catalogue");
  for (const g of catalogue.games) $("ratings-game").append(el("option", { value: g.name }, g.title));
  const asked = decodeURIComponent(location.hash.slice(1));
  $("ratings-game").value = catalogue.games.some((g) => g.name === asked) ? asked : catalogue.default;
  $("ratings-game").addEventListener("change", drawTable);
  drawTable();
}
start();
