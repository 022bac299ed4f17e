// The game page's dialogs: the settings popover and the game-over screen (with the per-player
// summary, drawn by the game's table). Loaded before game.js; called from its render().
"use strict";

let overDismissed = false;
let wasRunning = false;     // this page saw the game running (else it opened a finished game)
let summaryFor = null;      // the game whose summary is shown (fetched once)

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
    // settings an older server does not have stay hidden
    for (const [id, key] of [["set-single", "auto_single"], ["set-idle", "skip_idle"]]) {
      $(id).checked = !!s[key];
      $(id).closest("label").classList.toggle("hidden", !(key in s));
    }
  }
  $("set-guide").checked = guideOn();
  const note = $("settings-note");
  note.textContent = seat && !s ? "This server does not offer auto-pass settings." : "";
  note.classList.toggle("hidden", !note.textContent);
}

function sendSettings() {
  if (!state || state.seat === null) return;
  const msg = { type: "settings", auto_pass: $("set-auto").checked, stop_at_responses: $("set-stop").checked };
  for (const [id, key] of [["set-single", "auto_single"], ["set-idle", "skip_idle"]]) {
    if (state.settings && key in state.settings) msg[key] = $(id).checked;
  }
  wsSend(msg);
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

// ---------------------------------------------------------------- game over

function renderOver() {
  const box = $("over");
  if (!state.over || overDismissed) { box.classList.add("hidden"); return; }
  const table = tableOf(state.game);
  const w = state.winner;
  $("over-title").textContent = w === -1 || w === null ? "It's a draw" : w === state.seat ? "Victory!" : `${seatName(w)} wins`;
  $("over-title").style.color = seatColour(w);
  $("over-reason").textContent = table.overReason ? table.overReason(state) : "";
  const played = table.turns ? table.turns(state.view) : null;
  const turns = played === null ? "" : `After ${played} turn${played === 1 ? "" : "s"}`;
  const how = w === state.seat ? table.victory || "Well played."
    : w === -1 || w === null ? (turns ? `${turns} nobody came out ahead.` : "Nobody came out ahead.")
      : state.seat === null ? (turns ? `${turns}.` : "") : `${turns ? `${turns}. ` : ""}Better luck next time.`;
  $("over-sub").textContent = (wasRunning ? "" : "This game had already finished when you opened it. ") + how;
  $("over-replay").href = `/replay/${encodeURIComponent(gameId)}`;
  box.classList.remove("hidden");
  loadSummary(table);
}

// The per-player summary (GET /api/games/ID/summary), drawn by the game's table (or plainly).
function loadSummary(table) {
  if (summaryFor === gameId) return;
  summaryFor = gameId;
  const box = $("over-summary");
  fill(box, h("div", { class: "muted small" }, "Loading the summary…"));
  apiCall("GET", `/api/games/${encodeURIComponent(gameId)}/summary`).then((summary) => {
    // The screen says why the game ended already (over_reason): the summary leaves that out.
    if (table.summary) table.summary(box, summary, { reason: false });
    else drawSummary(box, summary);
  }).catch((e) => {
    fill(box, h("div", { class: "muted small" }, `No summary: ${e.message}`));
  });
}
