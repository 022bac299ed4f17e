// Seats as every page shows them: a seat's name and colour, what kind of player sits there and
// what it is doing. Loaded after dom.js, before the other scripts of the game and replay pages
// (and of each game's table).
"use strict";

const SEAT_COLOURS = ["#4cc9f0", "#ff5d8f", "#7ae582", "#ffd166"];

const seatName = (p) => `P${p}`;
const seatColour = (p) => (p >= 0 && p < SEAT_COLOURS.length ? SEAT_COLOURS[p] : "#9aa6c9");

// "AI · hard" for a computer seat (its level or agent), "AI · normal (standing in)" for the seat of a
// player who left an online game, "human" otherwise.
function seatLabel(seat) {
  const kind = seat.kind || "human";
  if (kind.startsWith("ai:")) return `AI · ${kind.slice(3)}`;
  if (seat.ai) return `AI · ${seat.ai} (standing in)`;
  return "human";
}

// What a seat is doing beyond its kind: an AI waiting for a worker or thinking, a human seat nobody
// has taken yet. [text, tooltip, css class] or null. Replays carry none of these fields.
function seatStatus(seat) {
  if (seat.ai_status === "queued") {
    return ["AI queued", "Waiting for a free AI worker: the server's AI workers are busy with other games. " +
      "This seat moves as soon as one is free.", "queued"];
  }
  if (seat.ai_status === "thinking") return ["thinking…", "The AI is choosing its move.", "thinking"];
  if ((seat.kind || "human") === "human" && seat.claimed === false) {
    return ["free · waiting for a player", "Nobody has taken this seat yet: it waits for someone to open its invite link.", "free"];
  }
  return null;
}

function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }
