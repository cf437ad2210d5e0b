// The seats' clocks in their panels: the seconds each seat has left as the server last told them, counted down
// here for the seat whose clock runs (the server keeps the time; this only shows it). A clock under its warning
// turns red, and its player hears once a turn that it is nearly out.
import { $ } from "./common.js";
import { announce } from "./announce.js";
import { store } from "./store.js";

let told = { at: 0, version: -1 };
let warned = -1;

function shown(seconds) {
  const left = Math.max(0, seconds);
  if (left >= 86400) return `${Math.floor(left / 86400)}d ${Math.floor((left % 86400) / 3600)}h`;
  if (left >= 3600) return `${Math.floor(left / 3600)}h ${String(Math.floor((left % 3600) / 60)).padStart(2, "0")}m`;
  const minutes = Math.floor(left / 60);
  const rest = left - minutes * 60;
  return left < 10 ? `${minutes}:${rest.toFixed(1).padStart(4, "0")}` : `${minutes}:${String(Math.floor(rest)).padStart(2, "0")}`;
}

function tick() {
  const clocks = store.view && store.view.clocks;
  if (!clocks) return;
  const running = store.view.status === "playing" ? clocks.running : null;
  for (const [seat, left] of clocks.left.entries()) {
    const cell = $("seat-panels").querySelector(`.clock[data-clock="${seat}"]`);
    if (!cell || left === null) continue;
    const now = seat === running ? left - (performance.now() - told.at) / 1000 : left;
    cell.textContent = shown(now);
    const low = seat === running && now < clocks.warning;
    cell.classList.toggle("low", low);
    cell.classList.toggle("running", seat === running);
    if (low && seat === store.you && warned !== store.view.version) {
      warned = store.view.version;
      announce("Your clock is nearly out.");
    }
  }
}

/** The view just drawn carries the clocks as the server counted them now: count down from here. */
export function drawClocks() {
  if (store.view && store.view.version !== told.version) told = { at: performance.now(), version: store.view.version };
  tick();
}

setInterval(tick, 200);
