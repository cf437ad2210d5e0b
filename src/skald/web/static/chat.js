// The table's chat: messages, each once (by number), as text: whatever a message holds, it is never read as HTML.
// Others' new messages are read out by the announcer; this seat's own clears the box it was typed in.
import { $, el } from "./common.js";
import { announce } from "./announce.js";
import { send } from "./connection.js";
import { store } from "./store.js";

let chatSent = 0;  // the last chat message this page sent, by number

/** Show the chat `messages` not shown yet; `history` (what came before this connection) is not read out. */
export function addChat(messages, history) {
  const list = $("chat-log");
  for (const message of messages) {
    if (message.seq <= store.chatSeen) continue;
    store.chatSeen = message.seq;
    const at = new Date(message.at);
    list.append(el("li", { class: message.seat === null ? "spectator" : "seat-" + message.seat },
      el("span", { class: "who", title: at.toLocaleString() }, message.name), ": ", message.text));
    if (history) continue;
    if (message.seat === store.you && $("chat-text").value.trim() === message.text) $("chat-text").value = "";
    else announce(`${message.name} says: ${message.text}`);
  }
  list.scrollTop = list.scrollHeight;
}

function sendChat(event) {
  event.preventDefault();
  const text = $("chat-text").value.trim();
  $("chat-error").textContent = "";
  if (!text) return;
  chatSent += 1;
  send({ type: "chat", text, ref: `chat-${chatSent}` });
}

/** Send what is typed in the chat's box on Send or Enter (Shift+Enter: a new line). */
export function wireChat() {
  $("chat-form").addEventListener("submit", sendChat);
  $("chat-text").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) sendChat(event);  // Shift+Enter: a new line
  });
}
