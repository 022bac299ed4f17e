// Replay page: steps through a finished game; every picture is the server's spectator view after
// the first n actions (GET /api/games/{id}/replay/{n}), drawn with the shared board code.
// Loaded after dom.js and board.js; log lines and action texts are shown as text.
"use strict";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const api = (path) => `/api/games/${encodeURIComponent(gameId)}${path}`;
let total = 0;
let current = null;     // the last step message shown
let wanted = 0;         // the step the user asked for (requests may come back out of order)
const cache = new Map();

function showError(msg) {
  const t = $("toast");
  t.textContent = msg;
  t.classList.remove("hidden");
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => t.classList.add("hidden"), 7000);
}

const fetchJson = (url) => apiCall("GET", url);

async function loadStep(n) {
  if (!cache.has(n)) cache.set(n, fetchJson(api(`/replay/${n}`)).catch((e) => { cache.delete(n); throw e; }));
  return cache.get(n);
}

async function go(n) {
  n = Math.max(0, Math.min(total, n));
  wanted = n;
  updateControls();
  try {
    const msg = await loadStep(n);
    if (wanted === n) show(msg);
  } catch (e) { showError(e.message); }
}

function updateControls() {
  const at = wanted;
  $("slider").value = String(at);
  $("counter").textContent = `step ${at} of ${total}`;
  $("step-first").disabled = $("step-back").disabled = at <= 0;
  $("step-last").disabled = $("step-forward").disabled = at >= total;
}

function show(msg) {
  current = msg;
  window.__starcom = { replay: msg };
  document.body.dataset.step = msg.step;
  const v = msg.view;
  const cfg = v.config;
  $("info").textContent = `Replay · turn ${v.turn + 1} · ${v.phase} phase · ${cfg.size}×${cfg.size} ${cfg.edition}`;
  const b = $("banner");
  if (msg.over) {
    b.textContent = msg.winner === -1 ? "Game over — draw" : `Game over — ${seatName(msg.winner)} wins`;
    b.style.color = seatColour(msg.winner);
  } else {
    b.textContent = msg.to_move === null ? "Replay" : `${seatName(msg.to_move)} to decide`;
    b.style.color = seatColour(msg.to_move);
  }
  drawPlayers($("players"), v, msg.seats, null);
  drawDecks($("decks"), v);
  drawBoard($("board"), v, {});
  const last = $("last-action");
  last.textContent = msg.step === 0 ? "The game is set up." : msg.action;
  last.style.color = msg.by === null || msg.by === undefined ? "" : seatColour(msg.by);
  renderLog(msg);
  updateControls();
}

// The lines this step added are highlighted and scrolled into view.
function renderLog(msg) {
  const box = $("log");
  const fresh = msg.log.length - (msg.step === 0 ? 0 : msg.new_lines);
  fill(box, msg.log.map((l, i) => h("div", { class: i >= fresh && msg.step > 0 ? "new" : null }, l)));
  const first = box.querySelector(".new");
  if (first) box.scrollTop = Math.max(0, first.offsetTop - box.offsetTop - 40);
  else box.scrollTop = box.scrollHeight;
}

$("step-first").addEventListener("click", () => go(0));
$("step-back").addEventListener("click", () => go(wanted - 1));
$("step-forward").addEventListener("click", () => go(wanted + 1));
$("step-last").addEventListener("click", () => go(total));
$("slider").addEventListener("input", () => go(Number($("slider").value)));
document.addEventListener("keydown", (ev) => {
  if (ev.target && ev.target.tagName === "INPUT" && ev.target.type !== "range") return;
  const moves = { ArrowLeft: -1, ArrowRight: 1 };
  if (ev.key in moves) { ev.preventDefault(); go(wanted + moves[ev.key]); }
  else if (ev.key === "Home") { ev.preventDefault(); go(0); }
  else if (ev.key === "End") { ev.preventDefault(); go(total); }
});

$("spectate").href = `/game/${encodeURIComponent(gameId)}`;
fetchJson(api("/replay"))
  .then((rep) => {
    total = rep.actions.length;
    $("slider").max = String(total);
    return go(0);
  })
  .catch((e) => {
    $("info").textContent = "No replay";
    showError(`No replay for this game: ${e.message}`);
  });
