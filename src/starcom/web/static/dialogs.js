// The game page's dialogs: the settings popover, the choice dialog and the game-over screen
// (with the per-player summary). Loaded before game.js; called from its render().
"use strict";

let overDismissed = false;
let wasRunning = false;     // this page saw the game running (else it opened a finished game)
let summaryFor = null;      // the game whose summary is shown (fetched once)

const CHOICE_TITLES = {
  hand_full: "Your hand is full: discard a card", receive_full: "Your hand is full: discard a card",
  ability_discard: "Discard a card",
};

// Why a game ended, by the state's over_reason.
const OVER_REASONS = {
  conquest: "By conquest: the last player still holding their homeworld wins.",
  turn_limit: "The turn limit was reached: most developments wins, then most credits.",
  action_limit: "The game reached its safety limit on actions and was scored like a turn limit.",
};

// ---------------------------------------------------------------- settings

// The seat's auto-pass settings come from the server (state.settings; none for spectators or from
// an older server); the guide is this browser's own.
function renderSettings() {
  const s = state && state.settings && typeof state.settings === "object" ? state.settings : null;
  const seat = state && state.seat !== null;
  document.querySelectorAll("#settings .seat-only").forEach((el) => el.classList.toggle("hidden", !seat || !s));
  if (s) {
    $("set-auto").checked = !!s.auto_pass;
    $("set-stop").checked = !!s.stop_at_responses;
    $("set-stop").disabled = !s.auto_pass;
  }
  $("set-guide").checked = guideOn();
  const note = $("settings-note");
  note.textContent = seat && !s ? "This server does not offer auto-pass settings." : "";
  note.classList.toggle("hidden", !note.textContent);
}

function sendSettings() {
  if (!state || state.seat === null) return;
  wsSend({ type: "settings", auto_pass: $("set-auto").checked, stop_at_responses: $("set-stop").checked });
}

function toggleSettings(show) {
  const box = $("settings"), btn = $("settings-btn");
  const open = show === undefined ? box.classList.contains("hidden") : show;
  box.classList.toggle("hidden", !open);
  btn.setAttribute("aria-expanded", String(open));
  if (open) {
    const r = btn.getBoundingClientRect();
    box.style.top = `${r.bottom + 6}px`;
    box.style.right = `${Math.max(8, innerWidth - r.right)}px`;
    renderSettings();
  }
}

// ---------------------------------------------------------------- choice and game over

function renderChoice(v, ix) {
  const entries = ix.byType.choose || [];
  const box = $("choice");
  if (!entries.length || passing) { box.classList.add("hidden"); return; }
  const names = cardNames(v);
  const kind = v.choice ? v.choice.kind : "choice";
  // Integers are card ids only for choices the server marks so (decks and positions are too).
  const cardOf = (e) => (v.choice && v.choice.cards && typeof e.action.value === "number" ? names[e.action.value] : null);
  const options = entries.map((e) => {
    const card = cardOf(e);
    const b = optionButton(e, { send, disabled: pending, plain: true,
      label: card ? `${card.name}${card.text ? " — " + card.text : ""}` : optionLabel(e) });
    if (hintKey() === actionKey(e.action)) b.classList.add("hinted");
    if (card) registerPop(b, () => ({ name: card.name, sheet: card }));
    return b;
  });
  const others = state.legal.filter((e) => e.action.type !== "choose");
  const sentence = guideOn() ? guideDecision(v) : null;
  fill($("choice-box"),
    h("h1", {}, CHOICE_TITLES[kind] || cap(String(kind).replace(/_/g, " "))),
    sentence ? h("p", { class: "guide" }, sentence) : null,
    hintKey() ? h("p", { class: "hint-answer" }, hint.text) : null,
    h("div", { class: "opts" }, options),
    others.length ? h("div", { class: "opts" }, controls(others)) : null);
  box.classList.remove("hidden");
}

function renderOver() {
  const box = $("over");
  if (!state.over || overDismissed) { box.classList.add("hidden"); return; }
  const w = state.winner;
  $("over-title").textContent = w === -1 || w === null ? "It's a draw" : w === state.seat ? "Victory!" : `${seatName(w)} wins`;
  $("over-title").style.color = seatColour(w);
  const table = otherTable();
  $("over-reason").textContent = table ? table.overReason(state) : OVER_REASONS[state.over_reason] || "";
  const played = table ? table.turns(state.view) : state.view.turn + 1;
  const turns = `After ${played} turn${played === 1 ? "" : "s"}`;
  const how = w === state.seat ? "Your fleet commands the stars." : w === -1 || w === null ? `${turns} nobody came out ahead.`
    : state.seat === null ? `${turns}.` : `${turns}. Better luck next time.`;
  $("over-sub").textContent = (wasRunning ? "" : "This game had already finished when you opened it. ") + how;
  $("over-replay").href = `/replay/${encodeURIComponent(gameId)}`;
  box.classList.remove("hidden");
  loadSummary();
}

// The per-player summary (GET /api/games/ID/summary), drawn by summary.js when the page has it.
function loadSummary() {
  if (summaryFor === gameId) return;
  summaryFor = gameId;
  const box = $("over-summary");
  fill(box, h("div", { class: "muted small" }, "Loading the summary…"));
  apiCall("GET", `/api/games/${encodeURIComponent(gameId)}/summary`).then((summary) => {
    // The screen says why the game ended already (over_reason): the summary leaves that out.
    if (typeof drawSummary === "function") drawSummary(box, summary, { reason: false });
    else fill(box, summaryTable(summary));
  }).catch((e) => {
    fill(box, h("div", { class: "muted small" }, `No summary: ${e.message}`));
  });
}

// A plain table, for pages without summary.js.
function summaryTable(summary) {
  const cols = [["systems", "Systems"], ["developments", "Developments"], ["credits", "Credits"],
    ["vessels_built", "Vessels built"], ["cards_played", "Cards played"]];
  return h("table", { class: "summary-table" },
    h("thead", {}, h("tr", {}, h("th", {}, "Player"), cols.map(([, t]) => h("th", {}, t)))),
    h("tbody", {}, (summary.players || []).map((p) => h("tr", {},
      h("td", { style: { color: seatColour(p.seat) } }, seatName(p.seat), p.eliminated_turn !== null && p.eliminated_turn !== undefined ? ` (out, turn ${p.eliminated_turn + 1})` : ""),
      cols.map(([k]) => h("td", {}, p[k] === undefined || p[k] === null ? "–" : String(p[k])))))));
}
