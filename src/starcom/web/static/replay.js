// Replay page: steps through a finished game; every picture is the server's spectator view after
// the first n actions (GET /api/games/{id}/replay/{n}), drawn by the game's own table (tables.js,
// loaded when the first picture names the game). The page knows no game: its title and brand are
// the game's. Loaded after dom.js, seats.js, tables.js and summary.js; log lines and action texts
// are shown as text.
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
    msg.game = await gameOf(msg);
    const game = msg.game ? await loadTable(msg.game) : null;
    if (game) showGame(game);
    if (wanted === n) show(msg);
  } catch (e) { showError(e.message); }
}

// The game's title on the page: in the brand and the window's title.
function showGame(game) {
  if (document.querySelector(".brand-word").textContent === game.title) return;
  document.querySelector(".brand-word").textContent = game.title;
  document.title = `${game.title} — replay`;
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
  const table = tableOf(msg.game);
  document.body.dataset.game = msg.game || "";
  const about = table.replayInfo ? table.replayInfo(v) : table.info ? table.info(v, null).text : `step ${msg.step}`;
  $("info").textContent = `Replay · ${about}`;
  const b = $("banner");
  if (msg.over) {
    b.textContent = msg.winner === -1 ? "Game over — draw" : `Game over — ${seatName(msg.winner)} wins`;
    b.style.color = seatColour(msg.winner);
  } else {
    b.textContent = msg.to_move === null ? "Replay" : `${seatName(msg.to_move)} to decide`;
    b.style.color = seatColour(msg.to_move);
  }
  table.render({ table: $("table"), side: $("table-side"), players: $("players") },
    { game: msg.game, view: v, seats: msg.seats, seat: null, over: msg.over, winner: msg.winner },
    { legal: [], mine: false, seat: null, passing: false, pending: false, replay: true, guide: false, hint: null,
      changes: null, rerender: () => { if (current) show(current); }, controls: () => [], act: () => {},
      openMenu: () => {}, closeMenu: () => {}, send: () => {} });
  // The side column holds only what the table put there: none, no column (the board takes its room).
  const bare = !$("players").childElementCount && !$("table-side").childElementCount;
  $("left").classList.toggle("hidden", bare);
  document.querySelector(".replay-layout").classList.toggle("no-side", bare);
  const last = $("last-action");
  last.textContent = msg.step === 0 ? "The game is set up." : msg.action;
  last.style.color = msg.by === null || msg.by === undefined ? "" : seatColour(msg.by);
  showSummary(msg);  // first: the summary panel takes room from the log box
  renderLog(msg);
  updateControls();
}

// The log shows the lines up to this step. The lines the step added are highlighted (a step that
// added none marks the last line) and the log box scrolls, inside itself, to bring them into view.
function renderLog(msg) {
  const box = $("log");
  const lines = msg.log;
  const rows = box.children;
  // Each step's log begins with the previous step's: keep the lines already shown, so moving the
  // slider only adds or removes lines at the end.
  let keep = 0;
  while (keep < rows.length && keep < lines.length && rows[keep].textContent === lines[keep]) keep++;
  while (rows.length > keep) box.lastElementChild.remove();
  box.append(...lines.slice(keep).map((l) => h("div", {}, l)));
  box.querySelectorAll(".new, .here").forEach((r) => r.classList.remove("new", "here"));
  if (msg.step > 0 && rows.length) {
    const fresh = Math.min(Math.max(0, lines.length - (msg.new_lines || 0)), rows.length);
    const marked = fresh < rows.length ? Array.from(rows).slice(fresh) : [rows[rows.length - 1]];
    marked.forEach((r) => r.classList.add(fresh < rows.length ? "new" : "here"));
  }
  followLog();
}

// Scroll the log box (not the page) so the marked rows sit in its middle, or start at its top when
// they are taller than the box; nothing marked (step 0): the top. The log box is the rows'
// offsetParent (position: relative in pages.css).
function followLog() {
  const box = $("log");
  const marked = box.querySelectorAll(".new, .here");
  if (!marked.length) { box.scrollTop = 0; return; }
  const first = marked[0], last = marked[marked.length - 1];
  const top = first.offsetTop, height = last.offsetTop + last.offsetHeight - top;
  box.scrollTop = height >= box.clientHeight ? top - 4 : Math.max(0, top - (box.clientHeight - height) / 2);
}

// The summary of the game (GET .../summary) below "This step" at the last step of a finished game.
let summaryLoad = null;
function showSummary(msg) {
  const atEnd = !!msg.over && msg.step === total;
  $("summary-panel").classList.toggle("hidden", !atEnd);
  if (!atEnd || summaryLoad) return;
  const table = tableOf(msg.game);
  summaryLoad = fetchJson(api("/summary"))
    .then((summary) => (table.summary ? table.summary($("summary"), summary, {}) : drawSummary($("summary"), summary)))
    .catch((e) => {
      summaryLoad = null;  // asked again the next time the last step is shown
      fill($("summary"), h("p", { class: "muted" }, `The summary could not be loaded: ${e.message}`));
    })
    .finally(followLog);  // the panel grew and the log box shrank: keep the step's lines in view
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
