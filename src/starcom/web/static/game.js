// Game page: renders the server's state messages and sends only actions found in `legal`.
// Loaded last, after dom.js (h, fill, $, apiCall), board.js (drawing), camera.js (zoom and pan),
// cardpop.js (card popups), options.js (option controls), guide.js (guide and hint), news.js
// (changes, log, chat) and dialogs.js (settings, choice, game over). Server text is shown as text.
"use strict";

const DECISIONS = {
  command: "Command phase", priority: "Respond or pass", choice: "Make a choice", combat_pick: "Pick a combat",
  assign: "Assign damage", retreat: "Retreat or stay", trade_build: "Build the trade offer",
  trade_answer: "Answer the trade offer", over: "Game over",
};
const MAIN_TYPES = ["end", "pass", "done", "propose", "accept", "decline", "cancel", "buy"];
const PRIMARY_TYPES = new Set(["end", "pass", "done", "accept"]);
const GROUPS = [
  ["Build", ["build"]], ["Develop", ["develop"]], ["Play a card", ["play"]], ["Abilities", ["ability"]],
  ["Combat", ["fight", "assign", "retreat", "redirect"]], ["Trade", ["offer", "give", "ask"]],
  ["Ships", ["scrap", "repair"]], ["Sell cards", ["sell"]], ["Jumps (or click a ship)", ["jump"]],
  ["Choose", ["choose"]],
];
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
let selected = null;        // vessel id chosen on the board
let picking = null;         // {title, entries}: a card or ability waiting for a target on the board
let passing = false;        // hot-seat: the "pass the device" screen is up
let pingTimer = null;
const camera = new BoardCamera($("board"), () => { if (state && !otherTable()) renderBoard(state.view, currentIx()); });

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
    if (msg.type === "state") onState(msg);
    else if (msg.type === "chat") onChat(msg);
    else if (msg.type === "hint") onHint(msg);
    else if (msg.type === "error") {
      pending = false;
      if (hint && hint.asking) hint = null;
      showError(errorText(msg, "The server refused that."));
      if (state) render();
    }
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
  selected = null;
  picking = null;
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

function onState(msg) {
  const prev = state;
  const mineSent = pending;
  state = msg;
  window.__starcom = { state: msg };
  document.body.dataset.step = msg.step;
  pending = false;
  if (!msg.over) wasRunning = true;
  if (!prev || prev.step !== msg.step) {
    selected = null; picking = null; closeMenu(); $("hint").textContent = "";
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

// Index of the legal entries by what a click on the board or the hand refers to.
function indexLegal(legal) {
  const ix = { byVessel: {}, targets: {}, atPos: {}, byCard: {}, byType: {} };
  for (const e of legal) {
    const a = e.action;
    (ix.byType[a.type] ||= []).push(e);
    if (a.type === "jump" || a.type === "retreat") (ix.byVessel[a.vessel] ||= []).push(e);
    if (a.type === "assign") {
      (ix.byVessel[a.vessel] ||= []).push(e);
      (ix.targets[a.vessel] ||= {});
      (ix.targets[a.vessel][a.target] ||= []).push(e);
    }
    if (a.type === "scrap" || a.type === "repair") (ix.byVessel[a.vessel] ||= []).push(e);
    if (a.type === "ability" && state.view.vessels.some((v) => v.id === a.source)) (ix.byVessel[a.source] ||= []).push(e);
    if (a.at !== undefined) (ix.atPos[a.at] ||= []).push(e);
    if (a.type === "play") (ix.byCard[a.card] ||= []).push(e);
    if (a.type === "sell") { (ix.byCard[a.card] ||= []).push(e); }
  }
  return ix;
}

// A decision the server makes for this seat (state.passing) is not offered: the pass is made
// already, the next state follows at once, and a click on it would arrive stale
// (docs/protocol.md, "Automatic passes").
function isMine() {
  return !!state && state.seat !== null && state.to_move === state.seat && !state.over && !state.passing;
}

function currentIx() { return indexLegal(isMine() && !pending ? state.legal : []); }

function cardNames(view) {
  const names = {};
  const add = (c) => { if (c && c.id !== undefined) names[c.id] = c; };
  (view.hand || []).forEach(add);
  view.players.forEach((p) => p.technologies.forEach(add));
  view.discards.forEach((pile) => pile.forEach(add));
  view.stack.forEach((s) => add(s.card));
  view.vessels.forEach((v) => { names[v.id] = { id: v.id, name: v.name, text: v.text, kind: v.kind }; });
  view.board.forEach((s) => { if (s.face_up) names[s.card_id] = { id: s.card_id, name: s.card, text: s.text, domain: s.domain }; });
  return names;
}

// ---------------------------------------------------------------- targets on the board

// What a card's option points at first on the board: a vessel (its id is the first target and
// the sentence names it) or a system (likewise, by its name). null when it points at neither.
function boardTarget(entry, view) {
  const t = entry.action.targets;
  if (!Array.isArray(t) || !t.length || !Number.isInteger(t[0])) return null;
  const ves = view.vessels.find((v) => v.id === t[0]);
  if (ves && entry.text.includes(ves.name)) return { vessel: ves.id };
  const site = view.board[t[0]];
  if (site && new RegExp(`\\b${site.name}\\b`).test(entry.text)) return { site: site.pos };
  return null;
}

function pickSets(view) {
  const out = { sites: new Set(), vessels: new Set() };
  if (!picking) return out;
  for (const e of picking.entries) {
    const t = boardTarget(e, view);
    if (t && t.vessel !== undefined) out.vessels.add(t.vessel);
    else if (t) out.sites.add(t.site);
  }
  return out;
}

// Wait for a click on the board for these options (a card or an ability with targets). Returns
// false when none of them points at the board (the caller shows a list instead).
function startPicking(title, entries) {
  const p = { title, entries };
  const saved = picking;
  picking = p;
  const sets = pickSets(state.view);
  if (!sets.sites.size && !sets.vessels.size) { picking = saved; return false; }
  closeMenu();
  $("hint").textContent = `${title}: click a highlighted target on the board, or pick from the list below.`;
  render();
  return true;
}

function picksAt(kind, id) {
  return picking ? picking.entries.filter((e) => { const t = boardTarget(e, state.view); return t && t[kind] === id; }) : [];
}

// ---------------------------------------------------------------- rendering

// The drawing of a game other than Star Commander (GAME_TABLES, from its own script), or null.
function otherTable() {
  return (state && state.game && window.GAME_TABLES && window.GAME_TABLES[state.game]) || null;
}

function render() {
  if (!state) return;
  const table = otherTable();
  document.body.classList.toggle("other-table", !!table);
  if (table) { renderOtherTable(table); return; }
  const v = state.view;
  const mine = isMine();
  const ix = indexLegal(mine && !pending ? state.legal : []);
  renderTop(v, mine);
  renderUndo();
  renderHintButton(mine);
  renderPlayers(v);
  renderDecks(v);
  renderBoard(v, ix);
  renderActions(v, ix, mine);
  renderHand(v, ix);
  renderStack(v);
  renderTrade(v);
  renderLastMove();
  renderLog();
  renderChat();
  renderSettings();
  renderChoice(v, ix);
  renderOver();
}

// Another game's table: the page's own parts (top bar, undo, hint, log, chat, settings, game
// over) around the table's drawing of the board, the orders and the hand.
function renderOtherTable(table) {
  const mine = isMine();
  if (state.title && document.querySelector(".brand-word").textContent !== state.title) {
    document.querySelector(".brand-word").textContent = state.title;
    document.title = `${state.title} — game`;
    $("rules-link").href = `/help/${encodeURIComponent(state.game)}`;
    $("cards-link").href = `/cards/${encodeURIComponent(state.game)}`;
  }
  const legal = mine && !pending ? state.legal : [];
  renderTop(state.view, mine);
  renderUndo();
  renderHintButton(mine);
  $("actions").classList.toggle("hidden", state.seat === null);
  if (!mine && !pending) $("hint").textContent = state.over ? "" : "Waiting for the other side…";
  else if ($("hint").textContent.startsWith("Waiting")) $("hint").textContent = "";
  table.render({ table: $("table"), main: $("main-btns"), groups: $("groups"), hand: $("hand"), handTitle: $("hand-title") }, state, {
    legal, seat: state.seat, passing, rerender: render,
    controls: (entries, primary) => controls(entries, primary ? { primary: () => true } : {}),
    act: actOn,
  });
  renderLastMove();
  renderLog();
  renderChat();
  renderSettings();
  renderOver();
}

// What the seat to move is deciding, in words.
function decisionText(v) {
  const table = otherTable();
  return table ? table.decision(v) : DECISIONS[v.decision] || v.decision;
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
  const table = otherTable();
  if (table) {
    const about = table.info(v);
    fill(info, h("b", { class: "turn" }, about.text), " · ",
      h("span", { class: "who", style: { color: seatColour(state.seat) } }, who), takeover);
    info.title = about.title + (limit ? `; scored after turn ${limit}` : "");
  } else {
    const cfg = v.config;
    fill(info, h("b", { class: "turn" }, `Turn ${v.turn + 1}${limit ? ` of ${limit}` : ""}`),
      h("span", { class: "phase" }, ` · ${v.phase} phase`), " · ",
      h("span", { class: "who", style: { color: seatColour(state.seat) } }, who), takeover);
    info.title = `${cfg.size}×${cfg.size} board, ${cfg.edition} edition, ${cfg.players} players` +
      (limit ? `; the game is scored after turn ${limit}` : "; no turn limit");
  }
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

function renderPlayers(v) {
  drawPlayers($("players"), v, state.seats, state.seat, { changed: changes ? changes.seats : null });
}

function renderDecks(v) { drawDecks($("decks"), v); }

// On a small screen a big board starts zoomed in on the seat's own corner, with tiles at least
// this wide (px); the whole board is one button (or a pinch) away.
const START_TILE_PX = 130;

function renderBoard(v, ix) {
  const root = $("board");
  const base = boardBounds(v.config.size);
  const rotation = seatRotation(v, state.seat);
  if (camera.setBase(base)) {
    const tile = 2 * HW * camera.scale();
    if (tile > 0 && tile < START_TILE_PX) {
      const home = state.seat !== null && v.players[state.seat] ? v.players[state.seat].homeworld : null;
      const [x, y] = home !== null ? tileCentre(home, v.config.size, rotation) : [0, (v.config.size - 1) * HH];
      camera.focus(x, y, START_TILE_PX / tile);
    }
  }
  drawBoard(root, v, {
    ix, selected, onTile: onTileClick, onVessel: onVesselClick, rotation,
    view: camera.view(), changed: changes ? { sites: changes.sites, vessels: changes.vessels, at: changes.at } : null,
    marked: hintMarks(), picks: pickSets(v),
  });
  root.dataset.zoom = camera.zoom.toFixed(2);
}

// ---------------------------------------------------------------- board clicks

// `stack`: every vessel of the token clicked (alike vessels share one token on a crowded tile);
// `ves`: the one of them a click selects.
function onVesselClick(ev, ves, o, stack) {
  closeMenu();
  const all = stack || [ves];
  const picked = all.flatMap((v) => picksAt("vessel", v.id));
  if (picked.length) { actOn(ev, `${picking.title}: ${ves.name}`, picked); return; }
  const aimed = selected !== null ? all.flatMap((v) => o.targets[v.id] || []) : [];
  if (aimed.length) { actOn(ev, `Damage to ${ves.name}`, aimed); return; }
  const own = o.ix.byVessel[ves.id] || [];
  if (!own.length) { selected = null; picking = null; render(); return; }
  selected = selected === ves.id ? null : ves.id;
  picking = null;
  const aims = own.some((e) => e.action.type === "assign");
  const moves = own.some((e) => ["jump", "retreat", "assign"].includes(e.action.type));
  const abilities = own.filter((e) => e.action.type === "ability");
  $("hint").textContent = selected === null ? "" : moves
    ? `${ves.name} selected: click a highlighted ${aims ? "enemy to aim at" : "system to jump to"}.`
    : `${ves.name} selected: its orders are listed below.`;
  if (selected !== null && abilities.length && !moves) {
    if (startPicking(`${ves.name}'s ability`, abilities)) return;
  }
  render();
}

function onTileClick(ev, site, o) {
  closeMenu();
  const picked = picksAt("site", site.pos);
  if (picked.length) { actOn(ev, `${picking.title}: ${site.name}`, picked); return; }
  if (o.dest) { actOn(ev, `Jump to ${site.name}`, o.dest); return; }
  if (selected !== null || picking) { selected = null; picking = null; $("hint").textContent = ""; render(); }
  if (o.here.length) openMenu(ev, `Orders at ${site.name}`, o.here);
}

// One option: done at once; several: a menu (with a slider when they differ by an amount).
function actOn(ev, title, entries) {
  if (entries.length === 1) send(entries[0].action);
  else openMenu(ev, title, entries);
}

// ---------------------------------------------------------------- menus and panels

function closeMenu() { $("menu").classList.add("hidden"); }

function controls(entries, extra) {
  return optionControls(entries, { send, disabled: pending, marked: hintKey(), ...(extra || {}) });
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

// A group of option controls with its title (and in guided mode one sentence per kind of order).
function groupBox(title, types, entries, open) {
  const guide = guideOn() ? types.map(guideAction).filter(Boolean) : [];
  const body = h("div", { class: "btns" }, boardPickButtons(entries), controls(entries));
  return h("details", { class: "group", open, dataset: { types: types.join(" ") } },
    h("summary", { class: "group-title" }, title),
    guide.length ? h("div", { class: "guide-line" }, guide[0]) : null,
    body);
}

// For each card or ability with several targets on the board: a button that lights them up, so
// the target is clicked there instead of found in the list.
function boardPickButtons(entries) {
  const bySource = new Map();
  for (const e of entries) {
    const a = e.action;
    if (a.type !== "play" && a.type !== "ability") continue;
    const src = a.type === "play" ? a.card : a.source;
    if (!bySource.has(src)) bySource.set(src, []);
    bySource.get(src).push(e);
  }
  const names = cardNames(state.view);
  const out = [];
  for (const [src, list] of bySource) {
    if (list.length < 2 || !list.some((e) => boardTarget(e, state.view))) continue;
    const name = (names[src] || {}).name || "this card";
    const title = `${list[0].action.type === "play" ? "Play" : "Use"} ${name}`;
    out.push(h("button", { class: "pick-btn", type: "button", disabled: pending, title: "Light up its targets on the board",
      onclick: () => startPicking(title, list) }, `◎ ${title}: pick on the board`));
  }
  return out;
}

function renderActions(v, ix, mine) {
  const main = $("main-btns"), groups = $("groups");
  main.replaceChildren();
  groups.replaceChildren();
  $("actions").classList.toggle("hidden", state.seat === null);
  const guide = $("guide");
  if (!mine) {
    guide.classList.add("hidden");
    if (!pending) $("hint").textContent = state.over ? "" : "Waiting for the other side…";
    return;
  }
  if (selected === null && !picking && $("hint").textContent.startsWith("Waiting")) $("hint").textContent = "";
  if (!$("hint").textContent && v.decision === "command") {
    $("hint").textContent = "Click one of your ships to move it, a system with + to build or develop, or a card to play it.";
  }
  const sentence = guideOn() ? guideDecision(v) : null;
  guide.textContent = sentence || "";
  guide.classList.toggle("hidden", !sentence);
  const mainEntries = MAIN_TYPES.flatMap((t) => ix.byType[t] || []);
  fill(main, controls(mainEntries, { primary: (e) => PRIMARY_TYPES.has(e.action.type) }));
  if (guideOn() && mainEntries.length) {
    const said = [...new Set(mainEntries.map((e) => e.action.type))].map(guideAction).filter(Boolean);
    if (said.length) main.appendChild(h("div", { class: "guide-line wide" }, said.join(" ")));
  }
  if (picking) {
    groups.appendChild(h("div", { class: "group picking" },
      h("div", { class: "group-title" }, `${picking.title}: choose a target`),
      h("div", { class: "btns" }, controls(picking.entries)),
      h("button", { class: "danger", onclick: () => { picking = null; selected = null; $("hint").textContent = ""; render(); } }, "Cancel")));
  }
  if (selected !== null) {
    const direct = (ix.byVessel[selected] || []).filter((e) => !["jump", "retreat", "assign"].includes(e.action.type));
    if (direct.length && !picking) {
      groups.appendChild(h("div", { class: "group" }, h("div", { class: "group-title" }, "Selected ship"),
        h("div", { class: "btns" }, controls(direct))));
    }
  }
  for (const [title, types] of GROUPS) {
    const entries = types.flatMap((t) => ix.byType[t] || []);
    if (!entries.length) continue;
    const shown = groupOptions(entries).length;
    const hinted = hintKey() && entries.some((e) => actionKey(e.action) === hintKey());
    const open = hinted || (shown <= 8 && !title.startsWith("Jumps"));
    groups.appendChild(groupBox(`${title} (${shown})`, types, entries, open));
  }
}

function renderHand(v, ix) {
  const box = $("hand");
  box.replaceChildren();
  if (state.seat === null) {
    $("hand-title").textContent = "Spectating — hands are hidden";
    return;
  }
  $("hand-title").textContent = `Your hand (${(v.hand || []).length})`;
  if (passing) return;
  if (!(v.hand || []).length) { box.appendChild(h("span", { class: "muted" }, "No cards in hand.")); return; }
  for (const c of v.hand) {
    const plays = ix.byCard[c.id] || [];
    const sheet = sheetFor(c.name);
    const cost = sheet && sheet.cost !== null && sheet.cost !== undefined ? `${sheet.cost} cr` : null;
    const el = h("div", {
      class: ["card", plays.length ? "playable" : "unplayable", changes && changes.cards.has(c.id) && "changed"],
      dataset: { card: c.id }, style: { "--dc": DOMAIN_COLOURS[c.domain] || "#888" },
      title: `${c.name}: ${c.text}`,
      onclick: plays.length ? (ev) => onHandCard(ev, c, plays) : null,
    },
    h("div", { class: "ckind" }, h("span", {}, `${c.domain} · ${c.kind}`), cost && h("span", { class: "ccost" }, cost)),
    h("div", { class: "cname" }, c.name),
    h("div", { class: "ctext" }, c.text),
    plays.length ? h("div", { class: "cplay" }, "▶ Play") : null);
    registerPop(el, () => ({ name: c.name, sheet: { name: c.name, domain: c.domain, kind: c.kind, text: c.text } }));
    box.appendChild(el);
  }
}

// A hand card: with targets on the board, wait for a click there (the list stays as a fallback);
// otherwise a menu of what can be done with it.
function onHandCard(ev, c, entries) {
  const plays = entries.filter((e) => e.action.type === "play");
  if (plays.length > 1 && startPicking(`Play ${c.name}`, plays)) return;
  openMenu(ev, c.name, entries);
}

function renderStack(v) {
  $("stack-panel").classList.toggle("hidden", !v.stack.length);
  fill($("stack"), v.stack.slice().reverse().map((s, i) =>
    h("div", { class: "stack-item", style: { "--pc": seatColour(s.player) } },
      h("b", {}, i === 0 ? "Top: " : "", s.card.name), " ",
      h("span", { class: "muted" }, `(${seatName(s.player)}, ${s.kind})`),
      h("div", { class: "muted" }, s.card.text))));
}

function tradeItem(item, names) {
  const [kind, value] = item;
  if (kind === "card") return value === null || value === undefined ? "a hidden card" : (names[value] || {}).name || `card ${value}`;
  if (kind === "vessel") return (names[value] || {}).name || `vessel ${value}`;
  if (kind === "credit" || kind === "credits") return `${value} credit${value === 1 ? "" : "s"}`;
  if (kind === "system" || kind === "site") return `system ${value}`;
  return `${kind} ${value}`;
}

function renderTrade(v) {
  const box = $("trade");
  if (!v.trade) { box.classList.add("hidden"); return; }
  const t = v.trade, names = cardNames(v);
  const list = (items, credits, hand) => {
    const parts = items.map((i) => tradeItem(i, names));
    if (credits) parts.push(`${credits} credit${credits === 1 ? "" : "s"}`);
    if (hand) parts.push(`${hand} card${hand === 1 ? "" : "s"} from hand`);
    return parts.length ? parts.join(", ") : "nothing";
  };
  box.classList.remove("hidden");
  fill(box,
    h("h2", {}, `Trade ${t.proposed ? "proposed" : "being prepared"}`),
    h("div", {}, h("b", { style: { color: seatColour(t.from) } }, seatName(t.from)), " → ",
      h("b", { style: { color: seatColour(t.to) } }, seatName(t.to))),
    h("div", { class: "gap-above" }, `Gives: ${list(t.give, t.give_credits, 0)}`),
    h("div", {}, `Asks: ${list(t.ask, t.ask_credits, t.ask_hand)}`),
    h("div", { class: "muted gap-above" }, "Use the Trade buttons in your orders to add items, propose, accept or decline."));
}

// ---------------------------------------------------------------- card popups on the board

// Board elements are drawn afresh each time: the popup reads them through their data attributes.
setPopResolver((el) => {
  if (!state || !el.classList) return null;
  const v = state.view;
  if (el.classList.contains("vessel")) {
    const ves = v.vessels.find((x) => String(x.id) === el.dataset.vessel);
    if (!ves) return null;
    const left = ves.hp - ves.damage;
    const site = v.board[ves.pos];
    const n = Number(el.dataset.count || 1);
    return { name: ves.name, live: { name: ves.name, kind: ves.kind, attack: ves.attack, hp_text: `${left}/${ves.hp}`, speed: ves.speed, text: ves.text || undefined },
      facts: [`${n > 1 ? `${n} of ${seatName(ves.owner)}'s` : `${seatName(ves.owner)}'s`}, at ${site ? site.name : "?"}`,
        ves.fresh ? "Built this turn: it cannot jump yet." : null,
        ves.shielded ? "Shielded." : null].filter(Boolean) };
  }
  if (el.classList.contains("tile")) {
    const site = v.board[Number(el.dataset.pos)];
    if (!site) return null;
    if (!site.face_up) return { name: null, live: { name: `${site.name}: unexplored`, kind: "system", text: "Face down until a ship enters it." } };
    const owner = site.owner >= 0 ? `held by ${seatName(site.owner)}, ${site.devs} development${site.devs === 1 ? "" : "s"}` : "held by nobody";
    const flags = [site.under_siege && "under siege", site.contested && "contested", (site.interdicted_by || []).length && "interdicted"].filter(Boolean);
    return { name: site.card, live: { name: site.card, domain: site.domain, max_dev: site.max_dev, text: site.text },
      facts: [`${site.name}: ${owner}`, flags.length ? cap(flags.join(", ")) + "." : null].filter(Boolean) };
  }
  if (el.classList.contains("chip") && el.dataset.card) {
    const names = cardNames(v);
    const c = names[Number(el.dataset.card)];
    return c ? { name: c.name, sheet: { name: c.name, domain: c.domain, kind: c.kind, text: c.text } } : null;
  }
  return null;
});

// ---------------------------------------------------------------- start

$("undo").addEventListener("click", sendUndo);
$("hint-btn").addEventListener("click", askHint);
$("over-close").addEventListener("click", () => { overDismissed = true; renderOver(); });
$("lost-reload").addEventListener("click", () => location.reload());
$("zoom-in").addEventListener("click", () => camera.zoomBy(ZOOM_STEP));
$("zoom-out").addEventListener("click", () => camera.zoomBy(1 / ZOOM_STEP));
$("zoom-fit").addEventListener("click", () => camera.fit());
$("settings-btn").addEventListener("click", (ev) => { ev.stopPropagation(); toggleSettings(); });
$("set-auto").addEventListener("change", sendSettings);
$("set-stop").addEventListener("change", sendSettings);
$("set-guide").addEventListener("change", () => { setGuide($("set-guide").checked); render(); });
$("tab-log").addEventListener("click", () => showTab("log"));
$("tab-chat").addEventListener("click", () => showTab("chat"));
$("chat-bubble").addEventListener("click", () => showTab("chat"));
$("chat-btn").addEventListener("click", sendChat);
$("chat-input").addEventListener("keydown", (ev) => { if (ev.key === "Enter") sendChat(); });
window.addEventListener("resize", () => { if (state && !otherTable()) renderBoard(state.view, currentIx()); });
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") { closeMenu(); toggleSettings(false); selected = null; picking = null; $("hint").textContent = ""; render(); }
});
document.addEventListener("click", (ev) => {
  const m = $("menu");
  if (!m.classList.contains("hidden") && !m.contains(ev.target) && !ev.target.closest("svg, .card")) closeMenu();
  const s = $("settings");
  if (!s.classList.contains("hidden") && !s.contains(ev.target) && ev.target !== $("settings-btn")) toggleSettings(false);
});

async function start() {
  loadSheets().then(() => { if (state) render(); });
  if (invite && !(await claimInvite(invite))) return;
  // A first picture over HTTP, so the page shows the game even before the socket is up.
  apiCall("GET", `/api/games/${encodeURIComponent(gameId)}` + (token ? `?seat=${encodeURIComponent(token)}` : ""))
    .then((data) => { if (!state && data) onState({ type: "state", ...data }); })
    .catch((e) => {
      showError(e.status === 404 ? `No such game: ${e.message}` : e.message);
      if (e.status === 404) giveUp("No such game", `There is no game with ${gameIdText()}.`, FATAL_HINTS[4404]);
      else if (e.status === 403) giveUp("Not your seat", `${e.message}.`, FATAL_HINTS[4403], gamePath);
    });
  connect();
}

start();
