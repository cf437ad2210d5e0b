"use strict";
// Shared by the lobby and the table: the games this browser has joined, kept in localStorage.
const Skald = {
  joined() {
    try { return JSON.parse(localStorage.getItem("skald.games") || "{}"); } catch (e) { return {}; }
  },
  remember(id, entry) {
    const all = Skald.joined();
    all[id] = Object.assign(all[id] || {}, entry, { at: Date.now() });
    localStorage.setItem("skald.games", JSON.stringify(all));
  },
  el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v; else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    return node;
  },
  async api(method, path, body, token) {
    const headers = { "Content-Type": "application/json" };
    if (token) headers.Authorization = "Bearer " + token;
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error((data.error && data.error.message) || response.statusText);
    return data;
  },
};
