// The links of a game this browser has just made, shown at its table: each seat's invite (its secret) and the
// spectators' link, each copied with one press. The lobby keeps them for this tab only (`sessionStorage`): they are
// the other seats' secrets, never stored for long, never sent anywhere.
import { $, el } from "./common.js";
import { gameId } from "./store.js";

const KEY = `skald.invites.${gameId}`;

// Copied through the clipboard where the page may write to it, else by selecting the text and the browser's copy.
async function copy(input, button) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch (e) {
    input.select();
    document.execCommand("copy");
  }
  button.textContent = "Copied";
  $("invites-status").textContent = `Copied: ${input.getAttribute("aria-label")}.`;
  setTimeout(() => { button.textContent = "Copy"; }, 2000);
}

function linkRow(label, url, you) {
  const input = el("input", { readonly: "", value: url, class: "invite", "aria-label": label });
  const button = el("button", { type: "button", class: "copy" }, "Copy");
  button.addEventListener("click", () => copy(input, button));
  input.addEventListener("focus", () => input.select());
  return el("li", {}, el("strong", {}, `${label}${you ? " — your seat, for another device" : ""}: `), input, button);
}

/** Show the links of the game this tab has just made, once the table knows which seat is this viewer's. */
export function drawInvites(you) {
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem(KEY) || "null"); } catch (e) { kept = null; }
  const card = $("created");
  if (!kept) { card.hidden = true; return; }
  const rows = kept.invites.map((invite) =>
    linkRow(`Invite link for ${invite.name} (seat ${invite.seat + 1})`, invite.url, invite.seat === you));
  rows.push(linkRow("Link for spectators", kept.spectator, false));
  $("invites").replaceChildren(...rows);
  card.hidden = false;
}

/** Wire the card's "Done" button: the links are forgotten in this tab and the card closes. */
export function wireInvites() {
  $("invites-done").addEventListener("click", () => {
    sessionStorage.removeItem(KEY);
    $("created").hidden = true;
  });
}
