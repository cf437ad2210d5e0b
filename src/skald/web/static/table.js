// The table: the board (SVG drawn by the game's renderer on the server), live over a WebSocket.
// The browser decides nothing and knows no game: it shows what the server sent this viewer (the game's own prompt,
// labels and groups), offers the legal actions and asks the server why others are not.
// This module wires the table's parts together and opens the connection.
import { $, loadSession } from "./common.js";
import { wireNotifyButton } from "./alerts.js";
import { amountRuns, stepper } from "./amounts.js";
import { wireChat } from "./chat.js";
import { connect, send } from "./connection.js";
import { draw } from "./draw.js";
import { wireRematch } from "./end.js";
import { wireHand } from "./hand.js";
import { watchInput } from "./keyboard.js";
import { wireInvites } from "./invites.js";
import { drawKeepSeat, wireDownloads, wireSeatButtons } from "./links.js";
import { receive } from "./messages.js";
import { applyZooms, openReplayAt, wireReplay } from "./replay.js";
import { wireReview } from "./review.js";
import { wireRules } from "./rules.js";
import { wirePace } from "./pace.js";
import { store } from "./store.js";
import { wireJumps } from "./timeline.js";

watchInput();
wireNotifyButton();
window.addEventListener("resize", applyZooms);
wireReplay();
wireJumps(openReplayAt);
wirePace();
for (const radio of document.querySelectorAll('input[name="mode"]')) radio.addEventListener("change", () => store.view && draw());
wireDownloads();
wireChat();
wireRematch();
wireSeatButtons();
loadSession().then(drawKeepSeat);
wireReview();
wireRules();
wireHand();
wireInvites();
// For whoever drives the page (the browser tests): the shared state, and the table's own sending, drawing and
// reading of amounts. `window.skaldState` (set at every drawing) says what was drawn.
window.skald = { store, send, draw, amountRuns, stepper };
connect(receive);
