// Game page: renders the server's state messages and sends only actions found in `legal`.
// Loaded after dom.js (h, fill, $, apiCall) and board.js (drawing). Server text is shown as text.
"use strict";

const DECISIONS = {
  command: "Command phase", priority: "Respond or pass", choice: "Make a choice", combat_pick: "Pick a combat",
  assign: "Assign damage", retreat: "Retreat or stay", trade_build: "Build the trade offer",
  trade_answer: "Answer the trade offer", over: "Game over",
};
const CHOICE_TITLES = {
  hand_full: "Your hand is full: discard a card", receive_full: "Your hand is full: discard a card",
  ability_discard: "Discard a card",
};
const MAIN_TYPES = ["end", "pass", "done", "propose", "accept", "decline", "cancel", "buy"];
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
let passing = false;        // hot-seat: the "pass the device" screen is up
let overDismissed = false;
let pingTimer = null;

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
    else if (msg.type === "error") { pending = false; showError(errorText(msg, "The server refused that.")); if (state) render(); }
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
    if (fatal) { giveUp(fatal[0], fatal[1] + (ev.reason ? ` (${ev.reason})` : ""), ""); return; }
    const why = CLOSE_REASONS[ev.code] || ev.reason || "";
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

// Stop reconnecting and say why, with a way on (reload, or back to the lobby).
function giveUp(title, text, hint) {
  gaveUp = true;
  setConn("lost");
  $("lost").querySelector("h1").textContent = title;
  $("lost-text").textContent = text;
  $("lost-hint").textContent = hint;
  $("lost").classList.remove("hidden");
}

function reconnectAs(newToken) {
  token = newToken;
  if (ws) { const old = ws; ws = null; old.onclose = null; old.close(); }
  state = null;
  connect();
}

function send(action) {
  if (!ws || ws.readyState !== 1) { showError("Not connected to the server — retrying."); return; }
  if (pending) return;
  pending = true;
  closeMenu();
  selected = null;
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
  const prevStep = state ? state.step : null;
  state = msg;
  window.__starcom = { state: msg };
  document.body.dataset.step = msg.step;
  pending = false;
  if (prevStep !== msg.step) { selected = null; closeMenu(); $("hint").textContent = ""; }
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

// ---------------------------------------------------------------- rendering

function render() {
  if (!state) return;
  const v = state.view;
  const mine = state.seat !== null && state.to_move === state.seat && !state.over;
  const ix = indexLegal(mine && !pending ? state.legal : []);
  renderTop(v, mine);
  renderUndo();
  renderPlayers(v);
  renderDecks(v);
  renderBoard(v, ix);
  renderActions(v, ix, mine);
  renderHand(v, ix);
  renderStack(v);
  renderTrade(v);
  renderLog();
  renderChoice(v, ix);
  renderOver();
}

// What the seat to move is doing, for the banner: "is thinking", "waits for a free AI worker", ...
function movingText(seatNo) {
  const seat = state.seats[seatNo] || {};
  const decision = DECISIONS[state.view.decision] || state.view.decision;
  if (seat.ai_status === "queued") return `${seatName(seatNo)} (${seatLabel(seat)}) waits for a free AI worker — ${decision}`;
  if (seat.ai) return `${seatName(seatNo)} (${seatLabel(seat)}) is thinking — ${decision}`;
  if ((seat.kind || "human") === "human" && seat.claimed === false) return `${seatName(seatNo)}'s seat is free: waiting for a player to join`;
  return `${seatName(seatNo)} is deciding — ${decision}`;
}

function renderTop(v, mine) {
  const cfg = v.config;
  const who = state.seat === null ? "spectating" : `you are ${seatName(state.seat)}`;
  const takeover = state.takeover_level ? ` · AI (${state.takeover_level}) stands in for leavers` : "";
  $("info").textContent = `Turn ${v.turn + 1} · ${v.phase} phase · ${cfg.size}×${cfg.size} ${cfg.edition} · ${who}${takeover}`;
  const b = $("banner");
  b.classList.toggle("mine", mine);
  if (state.over) {
    b.textContent = state.winner === -1 ? "Draw" : `${seatName(state.winner)} wins!`;
    b.style.color = seatColour(state.winner);
  } else if (mine) {
    b.textContent = pending ? "Sending…" : `Your decision — ${DECISIONS[v.decision] || v.decision}`;
    b.style.color = seatColour(state.seat);
  } else if (state.to_move !== null) {
    b.textContent = movingText(state.to_move);
    b.style.color = seatColour(state.to_move);
  }
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

function renderPlayers(v) { drawPlayers($("players"), v, state.seats, state.seat); }

function renderDecks(v) { drawDecks($("decks"), v); }

function renderBoard(v, ix) {
  drawBoard($("board"), v, { ix, selected, onTile: onTileClick, onVessel: onVesselClick });
}

// ---------------------------------------------------------------- board clicks

function onVesselClick(ev, ves, o) {
  closeMenu();
  if (selected !== null && o.targets[ves.id]) {
    const entries = o.targets[ves.id];
    if (entries.length === 1) send(entries[0].action);
    else openMenu(ev, `Damage to ${ves.name}`, entries);
    return;
  }
  const own = o.ix.byVessel[ves.id] || [];
  if (!own.length) { selected = null; render(); return; }
  selected = selected === ves.id ? null : ves.id;
  const aims = own.some((e) => e.action.type === "assign");
  const moves = own.some((e) => ["jump", "retreat", "assign"].includes(e.action.type));
  $("hint").textContent = selected === null ? "" : moves
    ? `${ves.name} selected: click a highlighted ${aims ? "enemy to aim at" : "system to jump to"}.`
    : `${ves.name} selected: its orders are listed below.`;
  render();
}

function onTileClick(ev, site, o) {
  closeMenu();
  if (o.dest) {
    if (o.dest.length === 1) send(o.dest[0].action);
    else openMenu(ev, `Jump to ${site.name}`, o.dest);
    return;
  }
  if (selected !== null) { selected = null; $("hint").textContent = ""; render(); }
  if (o.here.length) openMenu(ev, `Orders at ${site.name}`, o.here);
}

// ---------------------------------------------------------------- menus and panels

function closeMenu() { $("menu").classList.add("hidden"); }

function openMenu(ev, title, entries) {
  const m = $("menu");
  fill(m, h("div", { class: "menu-title" }, title), entries.map((e) => actionButton(e)),
    h("button", { class: "danger", onclick: closeMenu }, "Cancel"));
  m.classList.remove("hidden");
  const r = m.getBoundingClientRect();
  m.style.left = Math.min(ev.clientX + 8, window.innerWidth - r.width - 8) + "px";
  m.style.top = Math.min(ev.clientY + 8, window.innerHeight - r.height - 8) + "px";
}

function actionButton(entry, label) {
  return h("button", { dataset: { type: entry.action.type, action: JSON.stringify(entry.action) },
    disabled: pending, onclick: () => send(entry.action) }, label || entry.text);
}

// "P0 builds Corvette at c3" reads better in a menu of P0's own orders as "Build Corvette at c3".
function shortText(entry) {
  const m = /^P\d+ (\S+)(.*)$/.exec(entry.text);
  if (!m) return entry.text;
  let verb = m[1];
  if (verb === "is") return cap(m[2].trim());
  if (/(ss|sh|ch)es$/.test(verb)) verb = verb.slice(0, -2);
  else if (verb.endsWith("ies")) verb = verb.slice(0, -3) + "y";
  else if (verb.endsWith("s")) verb = verb.slice(0, -1);
  return cap(verb) + m[2];
}

function renderActions(v, ix, mine) {
  const main = $("main-btns"), groups = $("groups");
  main.replaceChildren();
  groups.replaceChildren();
  $("actions").classList.toggle("hidden", state.seat === null);
  if (!mine) {
    if (!pending) $("hint").textContent = state.over ? "" : "Waiting for the other side…";
    return;
  }
  if (selected === null && $("hint").textContent.startsWith("Waiting")) $("hint").textContent = "";
  if (!$("hint").textContent) {
    $("hint").textContent = v.decision === "command"
      ? "Click one of your ships to move it, a system with + to build or develop, or a card to play it." : "";
  }
  for (const t of MAIN_TYPES) {
    for (const e of ix.byType[t] || []) {
      const b = actionButton(e, t === "end" ? "End Command phase" : shortText(e));
      if (t === "end" || t === "accept" || t === "done" || t === "pass") b.className = "primary";
      main.appendChild(b);
    }
  }
  if (selected !== null) {
    const direct = (ix.byVessel[selected] || []).filter((e) => !["jump", "retreat", "assign"].includes(e.action.type));
    if (direct.length) {
      groups.appendChild(h("div", { class: "group" }, h("div", { class: "group-title" }, "Selected ship"),
        h("div", { class: "btns" }, direct.map((e) => actionButton(e, shortText(e))))));
    }
  }
  for (const [title, types] of GROUPS) {
    const entries = types.flatMap((t) => ix.byType[t] || []);
    if (!entries.length) continue;
    groups.appendChild(h("details", { class: "group", open: entries.length <= 8 && !title.startsWith("Jumps") },
      h("summary", { class: "group-title" }, `${title} (${entries.length})`),
      h("div", { class: "btns" }, entries.map((e) => actionButton(e, shortText(e))))));
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
    box.appendChild(h("div", {
      class: ["card", plays.length ? "playable" : "unplayable"], dataset: { card: c.id },
      style: { "--dc": DOMAIN_COLOURS[c.domain] || "#888" },
      onclick: plays.length ? (ev) => openMenu(ev, c.name, plays) : null,
    },
    h("div", { class: "ckind" }, `${c.domain} · ${c.kind}`),
    h("div", { class: "cname" }, c.name),
    h("div", { class: "ctext" }, c.text)));
  }
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

function renderLog() {
  const box = $("log");
  const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 30;
  fill(box, state.log.map((l) => h("div", {}, l)));
  if (atBottom || !renderLog.done) box.scrollTop = box.scrollHeight;
  renderLog.done = true;
}

function renderChoice(v, ix) {
  const entries = ix.byType.choose || [];
  const box = $("choice");
  if (!entries.length || passing) { box.classList.add("hidden"); return; }
  const names = cardNames(v);
  const kind = v.choice ? v.choice.kind : "choice";
  const options = entries.map((e) => {
    const val = e.action.value;
    // Integers are card ids only for choices the server marks so (decks and positions are too).
    const card = v.choice && v.choice.cards && typeof val === "number" ? names[val] : null;
    return actionButton(e, card ? `${card.name}${card.text ? " — " + card.text : ""}` : shortText(e));
  });
  const others = state.legal.filter((e) => e.action.type !== "choose");
  fill($("choice-box"),
    h("h1", {}, CHOICE_TITLES[kind] || cap(String(kind).replace(/_/g, " "))),
    h("div", { class: "opts" }, options),
    others.length ? h("div", { class: "opts" }, others.map((e) => actionButton(e, shortText(e)))) : null);
  box.classList.remove("hidden");
}

function renderOver() {
  const box = $("over");
  if (!state.over || overDismissed) { box.classList.add("hidden"); return; }
  const w = state.winner;
  $("over-title").textContent = w === -1 || w === null ? "It's a draw" : w === state.seat ? "Victory!" : `${seatName(w)} wins`;
  $("over-title").style.color = seatColour(w);
  $("over-sub").textContent = w === state.seat ? "Your fleet commands the stars." :
    state.seat === null ? `After ${state.view.turn + 1} turns.` : `After ${state.view.turn + 1} turns. Better luck next time.`;
  $("over-replay").href = `/replay/${encodeURIComponent(gameId)}`;
  box.classList.remove("hidden");
}

// ---------------------------------------------------------------- start

$("undo").addEventListener("click", sendUndo);
$("over-close").addEventListener("click", () => { overDismissed = true; renderOver(); });
$("lost-reload").addEventListener("click", () => location.reload());
document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") { closeMenu(); selected = null; $("hint").textContent = ""; render(); } });
document.addEventListener("click", (ev) => {
  const m = $("menu");
  if (!m.classList.contains("hidden") && !m.contains(ev.target) && !ev.target.closest("svg, .card")) closeMenu();
});

async function start() {
  if (invite && !(await claimInvite(invite))) return;
  // A first picture over HTTP, so the page shows the game even before the socket is up.
  apiCall("GET", `/api/games/${encodeURIComponent(gameId)}` + (token ? `?seat=${encodeURIComponent(token)}` : ""))
    .then((data) => { if (!state && data) onState({ type: "state", ...data }); })
    .catch((e) => showError(e.status === 404 ? `No such game: ${e.message}` : e.message));
  connect();
}

start();
