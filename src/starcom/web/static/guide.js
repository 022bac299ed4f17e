// Help inside the game. The first-game guide: what the current decision is about (the game's own
// words, from the server) and, where the game's table has them, a sentence on each kind of order;
// on until the player's first game ends (then off unless switched on again in the settings), the
// choice kept in localStorage. The Hint button: what the AI would do in the player's place (vs-AI
// and hot-seat games). Loaded before game.js.
"use strict";

let hint = null;            // {step, key, text, action} or {step, asking: true}

const GUIDE_KEY = "starcom-guide";             // "on" / "off": the player's own choice
const FIRST_GAME_KEY = "starcom-first-game-done";

function guideOn() {
  const mine = localStorage.getItem(GUIDE_KEY);
  if (mine === "on" || mine === "off") return mine === "on";
  return localStorage.getItem(FIRST_GAME_KEY) !== "1";
}

function setGuide(on) { localStorage.setItem(GUIDE_KEY, on ? "on" : "off"); }

// Called when a game the player sat in is over: the guide's default turns off from now on.
function firstGameDone() { localStorage.setItem(FIRST_GAME_KEY, "1"); }

// What the decision in front of this seat asks of it, in the game's own words (the state
// message's guide), when guided mode is on; else null.
function guideSentence() { return guideOn() && state && typeof state.guide === "string" && state.guide ? state.guide : null; }

// ---------------------------------------------------------------- the hint

// Hints: vs-AI and hot-seat games, for the seat to move.
function renderHintButton(mine) {
  const show = mine && (state.mode === "vs_ai" || state.mode === "hotseat");
  const btn = $("hint-btn");
  btn.classList.toggle("hidden", !show);
  btn.disabled = pending || !!(hint && hint.asking);
  const box = $("hint-answer");
  const text = hint && hint.step === state.step ? (hint.asking ? "Asking the AI…" : hint.text) : "";
  box.textContent = text;
  box.classList.toggle("hidden", !text || !mine);
}

// A hint that has not come after this long is given up (the button works again).
const HINT_WAIT_MS = 45000;

function askHint() {
  if (!isMine() || pending) return;
  if (!wsSend({ type: "hint" })) return;
  const asked = { step: state.step, asking: true };
  hint = asked;
  render();
  setTimeout(() => {
    if (hint !== asked) return;
    hint = null;
    showError("The AI did not answer in time. Try the hint again.");
    if (state) render();
  }, HINT_WAIT_MS);
}

function onHint(msg) {
  if (!state || msg.step !== state.step) return;
  const entry = state.legal.find((e) => sameAction(e.action, msg.action));
  const label = msg.label || (entry ? optionLabel(entry) : JSON.stringify(msg.action));
  const chance = typeof msg.win_chance === "number" ? ` — estimated win chance ${Math.round(msg.win_chance * 100)}%` : "";
  hint = { step: msg.step, key: entry ? actionKey(entry.action) : null, text: `The AI would: ${label}${chance}`, action: msg.action };
  render();
  const marked = document.querySelector("#actions .hinted, #choice .hinted");
  if (marked) marked.scrollIntoView({ block: "nearest" });
}

// Two actions are the same whatever the order of their keys.
function sameAction(a, b) {
  const norm = (x) => JSON.stringify(x, Object.keys(x || {}).sort());
  return norm(a) === norm(b);
}

function hintKey() { return hint && hint.step === state.step && !hint.asking ? hint.key : null; }
