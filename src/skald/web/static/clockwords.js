// A game's time control and its rule for a seat whose clock runs out, in words: the lobby lists them with the open
// tables, and the table says them under its seats.

function duration(seconds) {
  if (seconds >= 3600 && seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** The rule for a seat whose clock runs out, in a few words. */
export function ruleWords(clock) {
  if (clock.timeout === "bot") return `a bot (${clock.stand_in}) plays the seat until its player is back`;
  if (clock.timeout === "pass") return `its turns are passed where the rules allow (else a bot, ${clock.stand_in}, plays)`;
  return "expelled and scored last";
}

/** The clock stored (`games.clock`), in words: "live, 5 min + 5 s a move; out of time: expelled and scored last". */
export function clockWords(clock) {
  if (!clock) return "none";
  const kind = clock.kind === "live"
    ? `live, ${duration(clock.bank)} + ${duration(clock.increment)} a move`
    : `turn-based, ${Math.round(clock.per_move / 86400)} day(s) a move`;
  return `${kind}; out of time: ${ruleWords(clock)}`;
}
