// The table's WebSocket: the hello with this page's token, the pill that says whether the table is live, and coming
// back after a lost connection.
import { $ } from "./common.js";
import { announce } from "./announce.js";
import { gameId, store } from "./store.js";

let retry = 500;  // the next wait before reconnecting, in ms

/** Send `data` to the server, if the connection is open. */
export function send(data) {
  if (store.socket && store.socket.readyState === WebSocket.OPEN) store.socket.send(JSON.stringify(data));
}

/** The connection was welcomed: the next loss waits only a little before reconnecting. */
export function welcomed() {
  retry = 500;
}

/** Open the connection to this game's table, handing every message the server sends to `receive`. */
export function connect(receive) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${gameId}`);
  store.socket = socket;
  socket.onopen = () => {
    if ($("conn").textContent === "reconnecting…") announce("Connection back.");
    $("conn").textContent = "live";
    $("conn").className = "pill live";
    send({ type: "hello", token: store.token, svg: true, full: true });
  };
  socket.onclose = (event) => {
    if (store.stopped || event.code === 4404) {
      store.stopped = true;
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
    setTimeout(() => connect(receive), wait);
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
}
