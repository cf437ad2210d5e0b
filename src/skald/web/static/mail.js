// The account panel's e-mail reminders: the address, whether to be reminded, and whether this server sends mail.
import { api } from "./common.js";

const byId = (id) => document.getElementById(id);

function minutes(count) {
  if (count >= 60 && count % 60 === 0) return count === 60 ? "an hour" : `${count / 60} hours`;
  return count === 1 ? "a minute" : `${count} minutes`;
}

function show(found) {
  byId("mail-address").value = found.address || "";
  byId("mail-reminders").checked = found.address ? found.reminders : true; // an address is given to be reminded
  byId("mail-untimed").checked = found.untimed;
  byId("mail-remove").hidden = !found.address;
  byId("mail-relay").textContent = found.relay
    ? `When your turn has waited ${minutes(found.after_minutes)}, one e-mail tells you so, with a link to the table and one to stop the reminders.`
    : "This server sends no e-mail (no mail relay is set up), so no reminders are sent; you may still keep an address here.";
}

/** Show the panel to a signed-in person, filled from the server; hide it otherwise. */
export async function drawMail(account) {
  byId("account-mail").hidden = !account;
  if (!account) return;
  const found = await api("GET", "/api/account/mail").catch(() => null);
  if (found) show(found);
}

async function save(remove) {
  const error = byId("account-error");
  const done = byId("account-done");
  error.textContent = done.textContent = "";
  const body = remove
    ? { address: null, reminders: false, untimed: false }
    : { address: byId("mail-address").value, reminders: byId("mail-reminders").checked, untimed: byId("mail-untimed").checked };
  try {
    const found = await api("POST", "/api/account/mail", body);
    show(found);
    done.textContent = !found.address ? "E-mail address removed: no reminders will be sent."
      : found.reminders ? `Reminders will be sent to ${found.address}.` : `Address kept; reminders are off.`;
  } catch (e) { error.textContent = e.message; }
}

/** Wire the panel's buttons. */
export function startMail() {
  byId("mail-form").addEventListener("submit", (event) => { event.preventDefault(); save(false); });
  byId("mail-remove").addEventListener("click", () => save(true));
}
