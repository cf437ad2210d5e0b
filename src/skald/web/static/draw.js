// One view of the table drawn whole, each time the server sends one: the board and its targets, the seats, the
// choices and the prompt, the turn's alerts, the scorings and the end.
import { legalKeys } from "./actions.js";
import { drawTurnAlert } from "./alerts.js";
import { announcePrompt } from "./announce.js";
import { boardZoom, drawBoard, drawMode, wireTargets } from "./board.js";
import { drawActions, drawPrompt } from "./choices.js";
import { drawClocks } from "./clocks.js";
import { drawDeparting } from "./departing.js";
import { drawEnd, drawFair, drawScorings } from "./end.js";
import { drawHand } from "./hand.js";
import { focusWasOnChoices, keepFocus, keyboardBoard } from "./keyboard.js";
import { drawStepRules } from "./rules.js";
import { drawSeatPanels } from "./seats.js";
import { play } from "./play.js";
import { drawWaiting } from "./waiting.js";
import { store } from "./store.js";
import { drawTakeBack } from "./takeback.js";
import { drawSince } from "./timeline.js";

/** Draw the view shown (`store.view`). `window.skaldState` then says what was drawn, for whoever drives the page. */
export function draw() {
  const view = store.view;
  const focused = focusWasOnChoices();  // before the board and the choices are drawn again
  drawBoard();
  drawSeatPanels();
  drawClocks();
  boardZoom.apply();
  const legal = legalKeys();
  drawMode(legal);
  // A decision with one answer is never asked: the table gives it, and the prompt says so.
  // A frame of an update being shown move by move asks nobody: its prompt comes with the update's own view.
  const mine = store.you !== null && view.to_move === store.you && !view.given && !view.frame;
  wireTargets(legal, mine);
  boardZoom.label();  // the decision's targets marked: their labels first
  window.skaldState = { version: view.version, status: view.status, mine, pending: false, you: store.you };
  drawActions(mine);
  drawTakeBack(play, mine);
  drawDeparting();
  drawWaiting();
  drawPrompt(mine);
  drawSince(mine);
  drawStepRules();
  drawHand();
  drawTurnAlert(mine);
  announcePrompt();
  keyboardBoard(legal, mine);
  if (focused) keepFocus(mine);
  drawScorings();
  drawEnd();
  drawFair();
}
