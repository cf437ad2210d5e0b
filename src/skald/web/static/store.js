// What the table's parts share: the game in the address, the seat token this page acts with, and what the server
// last told this viewer. One object, so that every part reads and writes the same values.
import { joined } from "./common.js";

/** The game this page shows, from its address (/table/ID). */
export const gameId = location.pathname.split("/").filter(Boolean).pop();

// A token from an invite link is tried first but kept only once the server has taken it: a bogus or foreign link
// never replaces the seat this browser already holds.
/** The seat token of the invite link this page was opened with (taken out of the address), or null. */
export const offered = new URLSearchParams(location.hash.slice(1)).get("t");
if (offered) history.replaceState(null, "", location.pathname);
/** The seat token this browser kept for the game, or null. */
export const stored = (joined()[gameId] || {}).token || null;

/** The table's shared client state. */
export const store = {
  token: offered || stored,  // the seat token sent with the hello, the API calls and the downloads
  socket: null,  // the live WebSocket (null before the first)
  stopped: false,  // nothing to reconnect to: the game is not here
  refusal: null,  // why the server refused the token this page came with, said beside "spectator"
  replacing: false,  // this page asked for a new token for its seat
  claiming: false,  // this seat's token in the rematch is being asked for
  you: null,  // this viewer's seat, or null for a spectator
  game: null,  // the welcome's description of the game: title, players, seats, chat, fair draws
  view: null,  // the last update: the legal choices, the prompt, the board (`svg`), scorings, the result
  boardParts: [],  // the board as the pieces of SVG text the server sent (an update sends only those that changed)
  boardText: "",  // and their whole
  caughtUp: false,  // this connection's first update (the log so far) has come
  pending: false,  // a move, a standing answer or an undo was sent and its answer has not come
  draft: null,  // a choice held before it is sent (one that cannot be taken back once sent), with its version
  refs: 0,  // the last request number sent
  reasons: new Map(),  // why each forbidden board target is forbidden, by key, as the server said for this view
  hovered: null,  // the forbidden target the pointer or focus rests on ({ key, x, y }), whose reason is shown
  openSeat: null,  // the seat whose part of the board is shown close up, or null
  chatSeen: 0,  // the number of the last chat message shown
  review: null,  // the bot's review of the finished game ({ seats, byPly }), once it is ready
  reviewChecked: false,  // whether the server was asked for a review made earlier
};
