// Game page: renders the server's state messages and sends only actions found in `legal`. The
// page knows no game: the game's own table (tables.js, loaded when the first state message names
// the game) draws the position, the orders and the hand; this page keeps the connection, the top
// bar, undo, the hint, the log and chat, the settings and the game-over screen around it.
// Loaded last, after dom.js (h, fill, $, apiCall), seats.js (seat names and colours), tables.js
// (the game's table), options.js (option controls), guide.js (guide and hint), summary.js, news.js
// (changes, log, chat) and dialogs.js (settings, game over). Server text is shown as text.
"use strict";

// Reconnecting: a socket the server closes is reopened with growing pauses, and the first state
// message on the new socket is the whole truth. Consecutive failures are counted (a connection
// that stayed up STABLE_MS was a good one and starts the count afresh); after MAX_FAILURES the
// page stops and says so, with a Reload button, instead of looping on its own.
const MAX_FAILURES = 5;
const STABLE_MS = 15000;
// The server refuses a socket with 4000 + the HTTP status: reconnecting cannot help then.
const FATAL_CLOSES = {
  4400: ["Cannot open this game", "The server refused the connection."],
  4403: ["Not your seat", "This seat link is not valid for this game."],
  4404: ["No such game", "There is no game with this id."],
};
const gameIdText = () => `the id “${gameId.slice(0, 40)}”`;
// What to do next after each of those, under the message.
const FATAL_HINTS = {
  4400: "Check the link you followed, or go back to the lobby and open the game from there.",
  4403: "The link may be mistyped or from another game. You can still watch the game as a spectator.",
  4404: "The link may be mistyped, or the game was removed. Start a new one from the lobby.",
};
// Closes the server makes on purpose; the player is told, then the page reconnects.
const CLOSE_REASONS = {
  1008: "The server closed the connection: too many messages.",
  4429: "The server closed the connection: too many messages.",
  4409: "The server closed the connection: it was out of step with the game.",
  1013: "The connection fell behind the game.",
};
// What a refused invite means, under the server's own message.
const JOIN_WHY = {
  409: "Someone has already taken this seat: each invite link seats one player, once. You can still watch the game.",
  403: "This invite link is not valid for this game. Ask for a new one, or watch the game.",
  404: "There is no game with this id.",
};

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const gamePath = `/game/${encodeURIComponent(gameId)}`;
const params = new URLSearchParams(location.search);
const invite = params.get("invite");
const hotKey = `starcom-seats-${gameId}`;
const hotSeatKey = `starcom-hotseat-${gameId}`;

// Hot-seat: the page holds every human seat's token; it connects as whoever must decide.
let hotTokens = null;
if (invite) {
  hotTokens = null;  // an invite claims one seat of an online game
} else if (params.get("seats")) {
  hotTokens = params.get("seats").split(",").map((t) => decodeURIComponent(t));
  sessionStorage.setItem(hotKey, JSON.stringify(hotTokens));
} else if (!params.get("seat") && sessionStorage.getItem(hotKey)) {
  try { hotTokens = JSON.parse(sessionStorage.getItem(hotKey)); } catch (e) { hotTokens = null; }
}
let token = invite ? null : params.get("seat");
if (hotTokens) {
  const saved = Number(sessionStorage.getItem(hotSeatKey));
  const seat = hotTokens[saved] ? saved : hotTokens.findIndex((t) => t);
  token = hotTokens[seat] || null;
}

let ws = null;
let failures = 0;           // consecutive connections that failed or did not last
let openedAt = 0;           // when the current socket opened (0: not open)
let gaveUp = false;
let state = null;
let pending = false;        // an action or undo is on its way; wait for the answer
let passing = false;        // hot-seat: the "pass the device" screen is up
let pingTimer = null;
let inbox = null;           // messages that came while the game's own scripts were loading
let shownGame = null;       // the game whose title and pages the top bar shows

// ---------------------------------------------------------------- connection

function wsUrl() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  return `${proto}://${location.host}/ws/games/${encodeURIComponent(gameId)}` +
    (token ? `?seat=${encodeURIComponent(token)}` : "");
}

function setConn(how) {
  const c = $("conn");
  c.textContent = { ok: "connected", down: "reconnecting…", lost: "offline" }[how];
  c.className = "conn " + (how === "ok" ? "ok" : "down");
  c.title = how === "down" ? `Connection lost: trying again (${failures} of ${MAX_FAILURES} tries failed)` : "";
}

function backoff(n) {
  return Math.min(5000, 250 * 2 ** n) + Math.floor(Math.random() * 250);
}

function connect() {
  if (gaveUp) return;
  const sock = new WebSocket(wsUrl());
  ws = sock;
  sock.onopen = () => {
    openedAt = Date.now();
    setConn("ok");
    clearInterval(pingTimer);
    pingTimer = setInterval(() => { if (sock.readyState === 1) sock.send(JSON.stringify({ type: "ping" })); }, 20000);
  };
  sock.onmessage = (ev) => {
    if (ws !== sock) return;
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    receive(msg);
  };
  sock.onclose = (ev) => {
    if (ws !== sock) return;  // replaced on purpose (hot-seat switch)
    clearInterval(pingTimer);
    if (openedAt && Date.now() - openedAt >= STABLE_MS) failures = 0;
    openedAt = 0;
    failures += 1;
    pending = false;
    if (state) render();
    const fatal = FATAL_CLOSES[ev.code];
    if (fatal) {
      const what = ev.code === 4404 ? `There is no game with ${gameIdText()}.` : fatal[1];
      giveUp(fatal[0], what + (ev.reason ? ` (${ev.reason})` : ""), FATAL_HINTS[ev.code], ev.code === 4403 ? gamePath : null);
      return;
    }
    // A 1013 with a reason is a cap on connections (docs/security.md): its words say which.
    const why = (ev.code === 1013 && ev.reason) || CLOSE_REASONS[ev.code] || ev.reason || "";
    if (failures >= MAX_FAILURES) {
      giveUp("Connection lost", (why || "The server cannot be reached.") + ` ${failures} tries in a row failed.`,
        "The game goes on at the server; nothing is lost. Reload the page to see it again.");
      return;
    }
    setConn("down");
    if (why) showError(`${why} Reconnecting for a fresh picture of the game…`);
    setTimeout(connect, backoff(failures));
  };
}

// A message from the server (over the socket, or the first picture over HTTP). The first state
// message of a game whose table is not on the page yet waits for the game's scripts; messages
// that come meanwhile wait behind it, in order.
function receive(msg) {
  if (inbox) { inbox.push(msg); return; }
  if (msg.type === "state" && !(msg.game && tableLoads.has(String(msg.game)))) {
    inbox = [msg];
    gameOf(msg).then((name) => {
      msg.game = name;
      return name ? loadTable(name) : null;
    }).finally(() => {
      const waiting = inbox;
      inbox = null;
      waiting.forEach(receive);
    });
    return;
  }
  if (msg.type === "state") onState(msg);
  else if (msg.type === "chat") onChat(msg);
  else if (msg.type === "hint") onHint(msg);
  else if (msg.type === "error") {
    pending = false;
    if (hint && hint.asking) hint = null;
    showError(errorText(msg, "The server refused that."));
    if (state) render();
  }
}
// Stop reconnecting and say why, with a way on: reload, spectate (a link) or the lobby.
function giveUp(title, text, hint, spectate) {
  gaveUp = true;
  setConn("lost");
  $("lost").querySelector("h1").textContent = title;
  $("lost-text").textContent = text;
  $("lost-hint").textContent = hint || "";
  // Reloading cannot bring back a game that does not exist or a seat link that is wrong.
  $("lost-reload").classList.toggle("hidden", title !== "Connection lost");
  $("lost-lobby").classList.toggle("primary", title !== "Connection lost");
  $("lost-spectate").classList.toggle("hidden", !spectate);
  if (spectate) $("lost-spectate").href = spectate;
  $("lost").classList.remove("hidden");
}

function reconnectAs(newToken) {
  token = newToken;
  lastLines = [];  // another seat's page now: what the last one saw is not news to this one
  changes = null;
  if (ws) { const old = ws; ws = null; old.onclose = null; old.close(); }
  state = null;
  connect();
}

function wsSend(msg) {
  if (!ws || ws.readyState !== 1) { showError("Not connected to the server — retrying."); return false; }
  ws.send(JSON.stringify(msg));
  return true;
}

function send(action) {
  if (!ws || ws.readyState !== 1) { showError("Not connected to the server — retrying."); return; }
  if (pending) return;
  pending = true;
  closeMenu();
  resetTable();
  ws.send(JSON.stringify({ type: "action", action, expect_step: state ? state.step : undefined }));
  render();
}

function sendUndo() {
  if (!ws || ws.readyState !== 1 || pending || !undoInfo().allowed) return;
  pending = true;
  ws.send(JSON.stringify({ type: "undo" }));
  render();
}

function showError(text) {
  const t = $("toast");
  t.textContent = text;
  t.classList.remove("hidden");
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => t.classList.add("hidden"), 7000);
}

// ---------------------------------------------------------------- invite links

// /game/ID?invite=CODE claims the invited seat once, then the page is that seat's page.
async function claimInvite(code) {
  try {
    const joined = await apiCall("POST", `/api/games/${encodeURIComponent(gameId)}/join`, { invite: code });
    if (!joined || typeof joined.token !== "string") throw new Error("The server did not give this page a seat.");
    token = joined.token;
    // The invite is used up: the address bar (and a bookmark or reload) now holds the seat link.
    history.replaceState(null, "", sitePath(joined.link, `${gamePath}?seat=${encodeURIComponent(token)}`));
    return true;
  } catch (e) {
    $("join-error").textContent = e.message;
    $("join-why").textContent = JOIN_WHY[e.status] || "";
    $("join-spectate").href = gamePath;
    $("join-spectate").classList.toggle("hidden", e.status === 404);
    $("info").textContent = "Could not join this game";
    $("banner").textContent = "Not joined";
    setConn("lost");
    $("join-failed").classList.remove("hidden");
    return false;
  }
}

// ---------------------------------------------------------------- state handling

function table() { return tableOf(state && state.game); }

// The table forgets what was picked on it (a ship selected, a card waiting for its target).
function resetTable() {
  const t = table();
  if (t.reset) t.reset();
}

function onState(msg) {
  const prev = state;
  const mineSent = pending;
  state = msg;
  window.__starcom = { state: msg };
  document.body.dataset.step = msg.step;
  pending = false;
  if (!msg.over) wasRunning = true;
  if (!prev || prev.step !== msg.step) {
    resetTable(); closeMenu(); $("hint").textContent = "";
    if (hint && hint.step !== msg.step) hint = null;
  }
  noteChanges(prev, msg, mineSent);
  if (Array.isArray(msg.chat)) mergeChat(msg.chat);
  if (msg.over && msg.seat !== null) firstGameDone();
  // The server passed for the other seat (it could only pass) and the decision is back here
  // before anyone took the device: there is nobody to hand it to.
  if (passing && msg.seat !== null && msg.to_move === msg.seat) passing = false;
  if (hotTokens && msg.seat !== null && msg.to_move !== null && msg.to_move !== msg.seat && hotTokens[msg.to_move]) {
    passing = true;
    $("pass-title").textContent = `Pass the device to ${seatName(msg.to_move)}`;
    $("pass-title").style.color = seatColour(msg.to_move);
    $("pass-ready").onclick = () => {
      sessionStorage.setItem(hotSeatKey, String(msg.to_move));
      passing = false;
      $("pass").classList.add("hidden");
      reconnectAs(hotTokens[msg.to_move]);
    };
  }
  $("pass").classList.toggle("hidden", !passing);
  render();
}

// A decision the server makes for this seat (state.passing) is not offered: the pass is made
// already, the next state follows at once, and a click on it would arrive stale
// (docs/protocol.md, "Automatic passes").
function isMine() {
  return !!state && state.seat !== null && state.to_move === state.seat && !state.over && !state.passing;
}

// ---------------------------------------------------------------- rendering

function render() {
  if (!state) return;
  const t = table();
  const mine = isMine();
  document.body.dataset.game = state.game || "";
  showGame();
  renderTop(state.view, mine);
  renderUndo();
  renderHintButton(mine);
  $("actions").classList.toggle("hidden", state.seat === null);
  renderGuide(mine);
  if (!mine) {
    if (!pending) $("hint").textContent = state.over ? "" : "Waiting for the other side…";
  } else if ($("hint").textContent.startsWith("Waiting")) {
    $("hint").textContent = "";
  }
  t.render({ table: $("table"), side: $("table-side"), players: $("players"), main: $("main-btns"), groups: $("groups"),
    hand: $("hand"), handTitle: $("hand-title"), hint: $("hint"), dialog: $("choice"), dialogBox: $("choice-box") }, state, {
    legal: mine && !pending ? state.legal : [], mine, seat: state.seat, passing, pending, replay: false,
    guide: guideOn(), hint: hintKey() ? hint : null, changes, rerender: render, send, act: actOn, openMenu, closeMenu,
    controls: (entries, extra) => controls(entries, extra),
  });
  dialogTools();
  renderLastMove();
  renderLog();
  renderChat();
  renderSettings();
  renderOver();
}

// A choice dialog covers the top bar, so it carries the Hint and Undo buttons itself (when the
// top bar shows them): a player can ask the AI or take a decision back without leaving the choice.
function dialogTools() {
  const box = $("choice-box");
  box.querySelectorAll(".dialog-tools").forEach((el) => el.remove());
  if ($("choice").classList.contains("hidden")) return;
  const hint = $("hint-btn"), undo = $("undo");
  const copy = (b, cls, label, onclick) => (b.classList.contains("hidden") ? null
    : h("button", { type: "button", class: cls, disabled: b.disabled, title: b.title, onclick }, label));
  const tools = [copy(hint, "dialog-hint", "Hint", askHint), copy(undo, "dialog-undo", "\u21b6 Undo", sendUndo)].filter(Boolean);
  if (tools.length) box.appendChild(h("div", { class: "dialog-tools" }, tools));
}

// The game's title on the page, and its own rules and card pages (from its settings), once per game.
function showGame() {
  if (shownGame === state.game) return;
  shownGame = state.game;
  if (state.title) {
    document.querySelector(".brand-word").textContent = state.title;
    document.title = `${state.title} — game`;
  }
  loadTable(state.game).then((game) => {
    if (!game || shownGame !== game.name) return;
    for (const [id, href] of [["rules-link", game.help], ["cards-link", game.cards]]) {
      $(id).classList.toggle("hidden", !href);
      if (href) $(id).href = href;
    }
  });
}

// In guided mode, what the decision asks of this seat (the game's words), over its orders.
function renderGuide(mine) {
  const sentence = mine ? guideSentence() : null;
  const box = $("guide");
  box.textContent = sentence || "";
  box.classList.toggle("hidden", !sentence);
}

// What the seat to move is deciding, in words.
function decisionText(v) {
  const t = table();
  return t.decision ? t.decision(v) : "a decision";
}

// What the seat to move is doing, for the banner: "is thinking", "waits for a free AI worker", ...
function movingText(seatNo) {
  const seat = state.seats[seatNo] || {};
  const decision = decisionText(state.view);
  if (seat.ai_status === "queued") return `${seatName(seatNo)} (${seatLabel(seat)}) waits for a free AI worker — ${decision}`;
  if (seat.ai) return `${seatName(seatNo)} (${seatLabel(seat)}) is thinking — ${decision}`;
  if ((seat.kind || "human") === "human" && seat.claimed === false) return `${seatName(seatNo)}'s seat is free: waiting for a player to join`;
  return `${seatName(seatNo)} is deciding — ${decision}`;
}

// The turn limit: the state's own field, else the view's config (older servers: none).
function turnLimit() {
  if (Number.isInteger(state.turn_limit)) return state.turn_limit;
  const cfg = state.view.config || {};
  return Number.isInteger(cfg.turn_limit) ? cfg.turn_limit : null;
}

function renderTop(v, mine) {
  const who = state.seat === null ? "spectating" : `you are ${seatName(state.seat)}`;
  const limit = turnLimit();
  const takeover = state.takeover_level ? ` · AI (${state.takeover_level}) stands in for leavers` : "";
  const info = $("info");
  const t = table();
  const about = t.info ? t.info(v, limit) : { text: `Step ${state.step}`, title: "" };
  fill(info, h("b", { class: "turn" }, about.text), about.phase ? h("span", { class: "phase" }, ` · ${about.phase}`) : null,
    " · ", h("span", { class: "who", style: { color: seatColour(state.seat) } }, who), takeover);
  info.title = about.title || "";
  const b = $("banner");
  b.classList.toggle("mine", mine);
  if (state.over) {
    b.textContent = state.winner === -1 ? "Draw" : `${seatName(state.winner)} wins!`;
    b.style.color = seatColour(state.winner);
  } else if (mine) {
    b.textContent = pending ? "Sending…" : `Your decision — ${decisionText(v)}`;
    b.style.color = seatColour(state.seat);
  } else if (state.to_move !== null) {
    b.textContent = movingText(state.to_move);
    b.style.color = seatColour(state.to_move);
  }
  b.title = b.textContent;
}

// The server's word on undo: {"allowed", "reason"}; older servers only sent can_undo.
function undoInfo() {
  if (!state) return { allowed: false, reason: null };
  if (state.undo && typeof state.undo === "object") return { allowed: !!state.undo.allowed, reason: state.undo.reason || null };
  return { allowed: !!state.can_undo, reason: null };
}

// Seats of vs-AI and hot-seat games always see Undo; greyed, with the reason, when it is not allowed.
function renderUndo() {
  const u = undoInfo();
  const show = state.seat !== null && (state.mode === "vs_ai" || state.mode === "hotseat" || u.allowed);
  const btn = $("undo"), why = $("undo-why");
  btn.classList.toggle("hidden", !show);
  btn.disabled = !u.allowed || pending;
  const reason = u.allowed ? "" : u.reason || (state.over ? "The game is over." : "Nothing to take back right now.");
  btn.title = u.allowed ? "Take back your last decision" : `Undo is not possible: ${reason}`;
  why.textContent = reason;
  why.title = reason;
  why.classList.toggle("hidden", !show || u.allowed);
}

// ---------------------------------------------------------------- menus and orders

// One option: done at once; several: a menu (with a slider when they differ by an amount).
function actOn(ev, title, entries) {
  if (entries.length === 1) send(entries[0].action);
  else openMenu(ev, title, entries);
}

function closeMenu() { $("menu").classList.add("hidden"); }

// Option controls as the game's table words them; extra.primary: true, or entry => whether it is
// a main order (drawn as a primary button).
function controls(entries, extra) {
  const o = { ...(table().options || {}), ...(extra || {}) };
  if (o.primary === true) o.primary = () => true;
  return optionControls(entries, { send, disabled: pending, marked: hintKey(), ...o });
}

function openMenu(ev, title, entries) {
  const m = $("menu");
  fill(m, h("div", { class: "menu-title" }, title), controls(entries),
    h("button", { class: "danger", onclick: closeMenu }, "Cancel"));
  m.classList.remove("hidden");
  const r = m.getBoundingClientRect();
  m.style.left = Math.max(8, Math.min(ev.clientX + 8, window.innerWidth - r.width - 8)) + "px";
  m.style.top = Math.max(8, Math.min(ev.clientY + 8, window.innerHeight - r.height - 8)) + "px";
}

// ---------------------------------------------------------------- start

$("undo").addEventListener("click", sendUndo);
$("hint-btn").addEventListener("click", askHint);
$("over-close").addEventListener("click", () => { overDismissed = true; renderOver(); });
$("lost-reload").addEventListener("click", () => location.reload());
$("settings-btn").addEventListener("click", (ev) => { ev.stopPropagation(); toggleSettings(); });
$("set-auto").addEventListener("change", sendSettings);
$("set-stop").addEventListener("change", sendSettings);
$("set-single").addEventListener("change", sendSettings);
$("set-idle").addEventListener("change", sendSettings);
$("set-guide").addEventListener("change", () => { setGuide($("set-guide").checked); render(); });
$("tab-log").addEventListener("click", () => showTab("log"));
$("tab-chat").addEventListener("click", () => showTab("chat"));
$("chat-bubble").addEventListener("click", () => showTab("chat"));
$("chat-btn").addEventListener("click", sendChat);
$("chat-input").addEventListener("keydown", (ev) => { if (ev.key === "Enter") sendChat(); });
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") { closeMenu(); toggleSettings(false); resetTable(); $("hint").textContent = ""; render(); }
});
document.addEventListener("click", (ev) => {
  const m = $("menu");
  if (!m.classList.contains("hidden") && !m.contains(ev.target) && !ev.target.closest("svg, .card")) closeMenu();
  const s = $("settings");
  if (!s.classList.contains("hidden") && !s.contains(ev.target) && ev.target !== $("settings-btn")) toggleSettings(false);
});

async function start() {
  if (invite && !(await claimInvite(invite))) return;
  // A first picture over HTTP, so the page shows the game even before the socket is up.
  apiCall("GET", `/api/games/${encodeURIComponent(gameId)}` + (token ? `?seat=${encodeURIComponent(token)}` : ""))
    .then((data) => {
      // The socket's first state may be here already (or waiting for the table): it is newer.
      const waiting = inbox && inbox.some((m) => m.type === "state");
      if (!state && !waiting && data) receive({ type: "state", ...data });
    })
    .catch((e) => {
      showError(e.status === 404 ? `No such game: ${e.message}` : e.message);
      if (e.status === 404) giveUp("No such game", `There is no game with ${gameIdText()}.`, FATAL_HINTS[4404]);
      else if (e.status === 403) giveUp("Not your seat", `${e.message}.`, FATAL_HINTS[4403], gamePath);
    });
  connect();
}

start();
