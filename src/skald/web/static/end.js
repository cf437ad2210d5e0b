// The scorings and the end of the game: every scoring itemised in the game's words, the final standings with the
// tie-break, the fair draws' seed to check, and the rematch.
import { $, api, el, joined, remember } from "./common.js";
import { checkReview } from "./review.js";
import { gameId, store } from "./store.js";

// Each seat's gains in a report, summed by key ("Astrid +4 points"), for its title at the end.
function totals(report) {
  const sums = new Map();
  for (const line of report.lines) {
    for (const [key, value] of Object.entries(line)) {
      if (key === "seat" || typeof value !== "number" || !value) continue;
      const seat = sums.get(line.seat) || {};
      seat[key] = (seat[key] || 0) + value;
      sums.set(line.seat, seat);
    }
  }
  return [...sums].map(([seat, keys]) => `${store.game.seats[seat].name} ${Object.entries(keys)
    .map(([key, value]) => `${value > 0 ? "+" : ""}${value} ${key.replaceAll("_", " ")}`).join(" ")}`).join(" · ");
}

// A scoring report as a disclosure: its title, then each line with its seat and what it gained, in the game's words.
function scoringReport(report, open, summed) {
  const lines = report.lines.map((line) => {
    // Every number a line carries beside its seat is a gain in what the game counts, named by its key.
    const gain = [];
    for (const [key, value] of Object.entries(line)) {
      if (key === "seat" || typeof value !== "number" || !value) continue;
      gain.push(`${value > 0 ? "+" : ""}${value} ${key.replaceAll("_", " ")}`);
    }
    return el("li", {}, el("span", { class: "who" }, store.game.seats[line.seat].name), ` ${line.text} `,
      el("b", {}, gain.join(" ")));
  });
  const named = report.when === "end" ? "End-game scoring"
    : report.round === undefined ? `${report.when} scoring` : `Round ${report.round}: ${report.when} scoring`;
  const sum = summed ? totals(report) : "";
  const title = sum ? `${named} — ${sum}` : named;
  return el("details", open ? { open: "" } : {},
    el("summary", {}, title), el("ul", { class: "lines" }, ...(lines.length ? lines : [el("li", {}, "nothing scored")])));
}

/** Draw every scoring so far, the newest first and open. */
export function drawScorings() {
  const view = store.view;
  const box = $("scorings");
  box.replaceChildren();
  const newest = view.scorings[view.scorings.length - 1];
  for (const report of [...view.scorings].reverse()) box.append(scoringReport(report, report === newest));
}

/** Draw the end screen once the game is over: standings, tie-break, last scoring, review and rematch. */
export function drawEnd() {
  const view = store.view;
  const result = view.result;
  $("end").hidden = !result;
  if (!result) return;
  const heading = (text) => el("th", {}, text);
  document.querySelector("#standings thead tr").replaceChildren(
    heading("#"), heading("Player"), ...result.columns.map((column) => heading(column.label)));
  const body = document.querySelector("#standings tbody");
  body.replaceChildren();
  for (const row of result.standings) {
    const cells = [row.place, row.name + (row.resigned ? " (resigned)" : ""), ...result.columns.map((column) => row[column.key] ?? "")];
    body.append(el("tr", { class: result.winners.includes(row.seat) ? "winner" : "" },
      ...cells.map((cell) => el("td", {}, cell))));
  }
  // The tie-break is told only when the best score was shared: then it decided, or the victory is shared.
  const winners = result.winners.map((s) => store.game.seats[s].name).join(", ");
  $("tie-break").textContent = result.agreed ? `Drawn by agreement: ${winners} share the victory.`
    : `${result.winners.length > 1 ? "Winners" : result.winners.length ? "Winner" : "No winner"}: ${winners || "every person resigned"}.`
      + (result.tied && !(result.resigned || []).length ? ` A tie on the score: ${result.tie_break}` : "");
  // Why the game ended, in the game's words (an end off the board is said above: resigned, agreed).
  $("ending").textContent = result.ending ? `The game ended: ${result.ending}.` : "";
  $("ending").hidden = !result.ending;
  // Every scoring of the game, oldest first, each with what each seat gained; the last one open.
  const last = view.scorings[view.scorings.length - 1];
  $("final-scoring").replaceChildren(...view.scorings.map((report) => scoringReport(report, report === last, true)));
  // A game ended off the board (a resignation, a draw agreed) may stop before the board's end: no review of it.
  $("review-box").hidden = Boolean(result.agreed || (result.resigned || []).length);
  $("rematch-button").hidden = store.you === null || !store.token || Boolean(view.rematch);
  checkReview();  // a review asked for earlier (here or by another viewer) is shown at once
  if (!view.rematch) return;
  const claimed = (joined()[view.rematch] || {}).token;
  if (store.you !== null && store.token && !claimed && !store.claiming) {
    store.claiming = true;
    claimRematch();
  } else showRematch(view.rematch);
}

// Fair draws: the SHA-256 of the game's secret chance seed, published from the start; at the end, how anyone can
// check every draw against it (the record reveals the seed). Built again only when the game ends.
/** Draw the fair draws' card, if the game has one. */
export function drawFair() {
  const fair = store.game && store.game.fair;
  const over = store.view.status === "over";
  let card = $("fair");
  if (!fair || (card && card.dataset.over === String(over))) return;
  if (!card) {
    card = el("section", { class: "card", id: "fair" });
    $("end").after(card);
  }
  card.dataset.over = String(over);
  const hash = el("input", { id: "fair-hash", class: "fair-hash", readonly: "", value: fair.commitment, "aria-label": "SHA-256 of the chance seed" });
  card.replaceChildren(el("h3", {}, over ? "Fair draws: verify" : "Fair draws"), el("p", { class: "muted" }, over
    ? "Every draw came from a secret seed fixed before the first one, whose SHA-256 was shown here from the start. "
      + "The record reveals the seed: run skald verify RECORD.json to check it and draw every outcome again from it."
    : "Every draw comes from a secret seed fixed before the first one. Its SHA-256 (the seed is revealed at the end):"), hash);
  if (over) card.append(el("p", {}, el("a", { id: "fair-record", href: `/api/games/${gameId}/record`, download: "" }, "Download the record (JSON)")));
}

/** Link to the rematch `id`, in place of the Rematch button. */
export function showRematch(id) {
  const card = $("end");
  if (!card.querySelector(".rematch-link")) {
    card.append(el("p", { class: "rematch-link" }, el("a", { href: `/table/${id}` }, "Rematch started — go to the new table")));
  }
  $("rematch-button").hidden = true;
}

// The rematch (made now, or already made by another seat) and this seat's fresh token in it, kept for the link.
/** Ask for this seat's place in the rematch. */
export async function claimRematch() {
  try {
    const next = await api("POST", `/api/games/${gameId}/rematch`, {}, store.token);
    if (next.token) remember(next.id, { token: next.token, seat: store.you, title: store.game.title });
    showRematch(next.id);
  } catch (e) { $("error").textContent = e.message; }
}

/** The end screen's Rematch button. */
export function wireRematch() {
  $("rematch-button").addEventListener("click", claimRematch);
}
