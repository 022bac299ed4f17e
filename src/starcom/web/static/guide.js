// Help inside the game. The first-game guide: one sentence on what the current decision is about,
// and one on each kind of order on offer; on until the player's first game ends (then off unless
// switched on again in the settings), the choice kept in localStorage. The Hint button: what the
// AI would do in the player's place (vs-AI and hot-seat games). Loaded before game.js.
"use strict";

let hint = null;            // {step, key, text, action} or {step, asking: true}

const GUIDE_KEY = "starcom-guide";             // "on" / "off": the player's own choice
const FIRST_GAME_KEY = "starcom-first-game-done";

// What the decision asks of you, by the view's decision (and the choice's kind).
const GUIDE_DECISIONS = {
  command: "Your Command phase: move ships, build, develop systems and play cards in any order and as often as you can pay, then end the phase.",
  priority: "A card or ability is waiting to resolve: answer it with a card of your own, or pass and let it happen.",
  choice: "A card or a rule needs you to pick one of the offered options.",
  combat_pick: "Several systems hold enemy vessels: pick the one where combat is fought first.",
  assign: "Combat: pick one of your vessels, then the enemy it fires at; click Done when you have aimed all you want.",
  retreat: "The shots are fired: ships that have not moved may fall back to a neighbouring system you control, or stay.",
  trade_build: "You are putting a trade together: add what you give and what you ask for, then propose it.",
  trade_answer: "Another player offers you a trade: accept to swap everything at once, or decline.",
};
const GUIDE_CHOICES = {
  hand_full: "Your hand is full: discard a card to make room, or skip the new one.",
  receive_full: "Your hand is full: discard a card to make room for the one coming in.",
  ability_discard: "This ability costs a card: pick the card to discard.",
  deck: "You draw a card: pick the deck it comes from (you may draw from the domains of the systems you hold).",
};

// One sentence per kind of order, shown beside its buttons.
const GUIDE_ACTIONS = {
  end: "Finishes your orders for this turn: combat follows wherever rival vessels meet.",
  pass: "Adds nothing and lets what is waiting resolve.",
  done: "Finishes this step with the choices made so far.",
  jump: "Moves a ship to a neighbouring system; entering a face-down system explores it.",
  build: "Pays the cost shown to put a new ship or station on the board.",
  develop: "Adds a development to a system: it earns a credit each turn and claims the system for you.",
  play: "Plays a card from your hand: a command happens once, a technology stays with you, a station goes on the board.",
  ability: "Uses the special power of one of your cards on the table.",
  scrap: "Removes one of your ships and gives back part of its cost.",
  repair: "Pays 2 credits to mend one point of damage on your vessel.",
  buy: "Pays 3 credits to draw a card.",
  sell: "Discards two cards from your hand for 3 credits.",
  offer: "Starts a trade with another player.",
  give: "Adds something of yours to the trade offer.",
  ask: "Adds something you want from the other player to the trade offer.",
  propose: "Sends the trade offer; the other player accepts or declines it.",
  cancel: "Drops the trade offer you were preparing.",
  accept: "Takes the offered trade: both sides swap at once.",
  decline: "Turns the trade offer down; nothing changes hands.",
  fight: "Fights the combat in this system next.",
  assign: "Aims a vessel's attack at an enemy vessel; damage lands once everyone has aimed.",
  retreat: "Moves a ship out of the fight to a neighbouring system you control.",
  redirect: "Takes the damage aimed at another of your vessels onto this one.",
  choose: "Picks this option.",
};

function guideOn() {
  const mine = localStorage.getItem(GUIDE_KEY);
  if (mine === "on" || mine === "off") return mine === "on";
  return localStorage.getItem(FIRST_GAME_KEY) !== "1";
}

function setGuide(on) { localStorage.setItem(GUIDE_KEY, on ? "on" : "off"); }

// Called when a game the player sat in is over: the guide's default turns off from now on.
function firstGameDone() { localStorage.setItem(FIRST_GAME_KEY, "1"); }

function guideDecision(view) {
  if (view.decision === "choice" && view.choice && GUIDE_CHOICES[view.choice.kind]) return GUIDE_CHOICES[view.choice.kind];
  return GUIDE_DECISIONS[view.decision] || null;
}

function guideAction(type) { return GUIDE_ACTIONS[type] || null; }

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

// The board elements the hint is about: the system it acts at or moves to, the vessels it names.
function hintMarks() {
  const out = { sites: new Set(), vessels: new Set() };
  if (!hintKey() || !hint.action) return out;
  const a = hint.action;
  for (const k of ["at", "to"]) if (Number.isInteger(a[k])) out.sites.add(a[k]);
  for (const k of ["vessel", "target", "source"]) if (Number.isInteger(a[k]) && state.view.vessels.some((v) => v.id === a[k])) out.vessels.add(a[k]);
  return out;
}
