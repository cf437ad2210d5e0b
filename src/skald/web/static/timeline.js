// The game's time as the log reads it: entries under the game's turn and phase headings (`Presentation.section`),
// each draw in the game's words on what it decided, what happened since this seat's last move (said at its
// prompt), and the replay's jumps to the previous or next turn and phase.
import { $, el } from "./common.js";
import { store } from "./store.js";

// The headings the log last showed (a log emptied starts again). A heading is no entry of its own: the entry that
// opens a turn or a phase carries it (`data-turn`, `data-phase`, drawn above its line), so the log's items stay its
// entries, one an action.
let shownTurn = "";
let shownPhase = "";

/** Mark `item`, the log item of `entry` about to be added to `log` (after those in `items`), as opening its turn or
 * phase where they differ from the last shown. */
export function addHeadings(log, items, entry, item) {
  if (!log.childElementCount && !items.childElementCount) { shownTurn = ""; shownPhase = ""; }
  if (!entry.turn) return;
  item.dataset.ply = entry.ply;
  if (entry.turn !== shownTurn) {
    item.classList.add("turn-start");
    item.dataset.turn = entry.turn;
    shownTurn = entry.turn;
    shownPhase = "";
  }
  if (entry.phase && entry.phase !== shownPhase) {
    item.classList.add("phase-start");
    item.dataset.phase = entry.phase;
    item.firstElementChild.dataset.phase = entry.phase;  // drawn before the name, under the turn's heading
    shownPhase = entry.phase;
  }
}

/** An entry's words: what a draw decided in the game's words ("danger roll 7 against a count of 6: …"), else its
 * notation. */
export function entryText(entry) {
  return entry.says || entry.notation;
}

// What happened since this seat last moved: the log's entries after its last one, counted by who made them, each
// listed under its heading, shown above its choices when it is asked.
/** Draw the summary of what happened since this seat's last move (hidden when it is not asked). */
export function drawSince(mine) {
  const box = $("since");
  const log = $("log");
  if (!box || !mine || store.you === null) { if (box) box.hidden = true; return; }
  const items = [...log.children];
  let start = items.length;
  while (start > 0 && !items[start - 1].classList.contains(`seat-${store.you}`)) start -= 1;
  const moves = items.slice(start).filter((item) => item.hasAttribute("value"));
  box.hidden = moves.length === 0;
  if (!moves.length) return;
  const counts = new Map();
  for (const item of moves) {
    const who = item.querySelector(".who").textContent;
    counts.set(who, (counts.get(who) || 0) + 1);
  }
  const said = [...counts].map(([who, n]) => `${who} ${n}`).join(" · ");
  const opened = box.open;
  box.replaceChildren(el("summary", {}, `Since your last move: ${moves.length} ${moves.length === 1 ? "entry" : "entries"} (${said})`),
    el("ol", { class: "since-list" }, ...moves.map((item, index) => {
      const copy = item.cloneNode(true);
      copy.classList.remove("last-move", "replayed");
      copy.removeAttribute("aria-current");
      if (index === 0) headFirst(copy, Number(item.value) - 1);
      return copy;
    })));
  box.open = opened;
}

// The first entry of the summary opens under its turn and phase, wherever in them it came.
function headFirst(copy, ply) {
  const [turn, phase] = sectionOf(ply);
  if (turn) { copy.classList.add("turn-start"); copy.dataset.turn = turn; }
  if (phase) { copy.classList.add("phase-start"); copy.dataset.phase = phase; copy.firstElementChild.dataset.phase = phase; }
}

// The plies where each turn or phase began, from the log's headings: the positions the replay jumps to.
function starts(kind) {
  return [...$("log").querySelectorAll(`li.${kind}-start`)].map((item) => Number(item.dataset.ply));
}

function jump(kind, direction, open) {
  const at = Number($("rp-slider").value);
  const plies = starts(kind);
  const target = direction < 0 ? plies.filter((ply) => ply < at).pop() : plies.find((ply) => ply > at);
  if (target !== undefined) open(target);
}

// The turn and the phase the action at `ply` belongs to, from the log's headings ("" where there are none).
function sectionOf(ply) {
  const name = (kind) => {
    let found = "";
    for (const item of $("log").querySelectorAll(`li.${kind}-start`)) {
      if (Number(item.dataset.ply) <= ply) found = item.dataset[kind]; else break;
    }
    return found;
  };
  return [name("turn"), name("phase")];
}

/** Name, under the replayed board, the turn and phase of the position `ply` (from the log's headings). */
export function sectionAt(ply) {
  return sectionOf(ply).filter(Boolean).join(" · ");
}

/** The replay's jumps, each showing its position through `open(ply)`: the previous or next turn and phase (also
 * Page Up and Page Down, by phase). */
export function wireJumps(open) {
  $("rp-prev-turn").addEventListener("click", () => jump("turn", -1, open));
  $("rp-next-turn").addEventListener("click", () => jump("turn", 1, open));
  $("rp-prev-phase").addEventListener("click", () => jump("phase", -1, open));
  $("rp-next-phase").addEventListener("click", () => jump("phase", 1, open));
  document.addEventListener("keydown", (e) => {
    if ($("replay").hidden || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    if (e.key !== "PageUp" && e.key !== "PageDown") return;
    e.preventDefault();
    jump("phase", e.key === "PageUp" ? -1 : 1, open);
  });
}
