// The legal actions as the client reads them: by the canonical key the server gives each one.
import { store } from "./store.js";

/** An action's JSON form with its keys sorted, as the server's canonical key writes it. */
export function sortKeys(obj) {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) return obj;
  const out = {};
  for (const k of Object.keys(obj).sort()) out[k] = sortKeys(obj[k]);
  return out;
}

/** The legal actions of the view shown, by key. */
export function legalKeys() {
  return new Map(store.view.legal.map((l) => [l.key, l]));
}
