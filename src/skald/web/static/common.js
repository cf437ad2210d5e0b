// Shared by the lobby, the ratings page and the table: the games this browser has joined (kept in localStorage),
// building elements, the server's drawings under the pages' style policy, the tab's icon, and the API.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** The games this browser has joined, by id: { title, token, seat, at }. */
export function joined() {
  try { return JSON.parse(localStorage.getItem("skald.games") || "{}"); } catch (e) { return {}; }
}

/** Merge `entry` into what this browser keeps for game `id`. */
export function remember(id, entry) {
  const all = joined();
  all[id] = Object.assign(all[id] || {}, entry, { at: Date.now() });
  localStorage.setItem("skald.games", JSON.stringify(all));
}

/** An element with attributes (`class`, `on…` listeners, the rest as attributes) and children (text is text). */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

// The game's board, drawn by the server, put on the page under a style policy that forbids inline styles: the
// SVG's <style> sheets become constructed style sheets and its style attributes are set through the CSSOM.
const sheets = new Map();

/** Show the server's SVG `text` in `container`, its styles adopted rather than inline. */
export function showSvg(container, text) {
  // Renamed before parsing, so that not even the parser applies (and the policy reports) an inline style.
  const renamed = (text || "<svg xmlns='http://www.w3.org/2000/svg'/>")
    .replace(/(\s)style=/g, "$1data-skald-style=")
    .replace(/<(\/?)style(?=[\s>])/g, "<$1skald-style");
  const root = new DOMParser().parseFromString(renamed, "image/svg+xml").documentElement;
  if (root.nodeName !== "svg") { container.replaceChildren(); return; }
  for (const sheet of [...root.getElementsByTagName("skald-style")]) { adoptSheet(sheet.textContent); sheet.remove(); }
  for (const node of [...root.querySelectorAll("script, foreignObject")]) node.remove();
  const svg = document.importNode(root, true);
  for (const node of svg.querySelectorAll("[data-skald-style]")) {
    node.style.cssText = node.getAttribute("data-skald-style");
    node.removeAttribute("data-skald-style");
  }
  container.replaceChildren(svg);
}

/** Add the style sheet `text` to the document, once. */
export function adoptSheet(text) {
  if (sheets.has(text)) return;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(text);
  sheets.set(text, sheet);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

/** Draw the tab's icon (a data: URL the pages' policy allows): a round shield with a sail, and a red dot on it
 * while a move of yours is awaited (`waiting`), so that a tab among many says so. */
export function icon(waiting) {
  const link = document.getElementById("favicon") ||
    document.head.appendChild(el("link", { rel: "icon", id: "favicon", type: "image/svg+xml" }));
  const dot = waiting ? "<circle cx='24' cy='8' r='7' fill='%23d32f2f' stroke='white' stroke-width='2'/>" : "";
  link.href = "data:image/svg+xml," + "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'>" +
    "<circle cx='16' cy='17' r='14' fill='%236b4a2b'/><path d='M9 20h14l-3 5h-8z M15 7v12l-6-2z' fill='%23f3e6c8'/>" +
    dot + "</svg>";
  link.dataset.waiting = waiting ? "yes" : "no";
}

/** The signed-in account ({name}) and its session's CSRF token, which every write carries (kept in memory only:
 * the session cookie itself is out of the page's reach). */
export const session = { account: null, csrf: null };

/** Ask the server who is signed in; fills `session` and returns the account (or null). */
export async function loadSession() {
  const found = await api("GET", "/api/session").catch(() => ({ account: null, csrf: null }));
  session.account = found.account;
  session.csrf = found.csrf;
  return found.account;
}

/** Call the API: JSON in and out, a seat `token` as the bearer, the CSRF token on writes; throws the server's
 * message on an error. */
export async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  if (session.csrf && method !== "GET") headers["X-CSRF-Token"] = session.csrf;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error((data.error && data.error.message) || response.statusText);
  return data;
}
