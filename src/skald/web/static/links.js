// What this seat's token does besides playing: the downloads as this viewer may have them, keeping the seat in the
// signed-in account, and replacing the seat's invite link.
import { $, api, el, remember, session } from "./common.js";
import { gameId, store } from "./store.js";

// Downloads as this viewer may have them: a seat's goes with its token (the record: the seat's own view during
// play, the whole game once it is over); a spectator's plain link is the spectator's.
function downloadLink(id, path, errorBox) {
  $(id).href = path;
  $(id).addEventListener("click", async (event) => {
    if (!store.token) return;
    event.preventDefault();
    try {
      const response = await fetch(path, { headers: { Authorization: "Bearer " + store.token } });
      if (!response.ok) throw new Error(((await response.json()).error || {}).message || response.statusText);
      const disposition = response.headers.get("content-disposition") || "";
      const name = (disposition.match(/filename="([^"]+)"/) || [null, `skald-${gameId}.json`])[1];
      const link = el("a", { href: URL.createObjectURL(await response.blob()), download: name });
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (e) { $(errorBox).textContent = e.message; }
  });
}

/** The record's and the chat's download links. */
export function wireDownloads() {
  downloadLink("record-link", `/api/games/${gameId}/record`, "error");
  downloadLink("chat-link", `/api/games/${gameId}/chat`, "chat-error");
}

// A signed-in person who holds this seat's link may keep the seat in his account (done at once if it is kept).
/** Show the button that keeps the seat in the account, when there is a seat, its token and an account. */
export function drawKeepSeat() {
  $("keep-seat-button").hidden = !(session.account && store.you !== null && store.token);
}

/** The buttons that keep the seat in the account and replace its invite link. */
export function wireSeatButtons() {
  $("keep-seat-button").addEventListener("click", async () => {
    try {
      await api("POST", `/api/games/${gameId}/claim`, {}, store.token);
      $("keep-seat-button").textContent = `Seat kept in ${session.account.name}'s account`;
      $("keep-seat-button").disabled = true;
    } catch (e) { $("error").textContent = e.message; }
  });
  // A leaked invite link is revoked by replacing it: this browser keeps the new token, every other holder is shut
  // out.
  $("new-link-button").addEventListener("click", async () => {
    store.replacing = true;
    try {
      const next = await api("POST", `/api/games/${gameId}/token`, {}, store.token);
      store.token = next.token;
      remember(gameId, { token: store.token, seat: store.you });
      $("new-link-url").value = next.url;
      $("new-link").hidden = false;
    } catch (e) { $("error").textContent = e.message; }
  });
}
