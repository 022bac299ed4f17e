// Game page: renders the server's state messages and sends only actions found in `legal`.
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

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const params = new URLSearchParams(location.search);
const hotKey = `starcom-seats-${gameId}`;
const hotSeatKey = `starcom-hotseat-${gameId}`;

// Hot-seat: the page holds every human seat's token; it connects as whoever must decide.
let hotTokens = null;
if (params.get("seats")) {
  hotTokens = params.get("seats").split(",").map((t) => decodeURIComponent(t));
  sessionStorage.setItem(hotKey, JSON.stringify(hotTokens));
} else if (!params.get("seat") && sessionStorage.getItem(hotKey)) {
  try { hotTokens = JSON.parse(sessionStorage.getItem(hotKey)); } catch (e) { hotTokens = null; }
}
let token = params.get("seat");
if (hotTokens) {
  const saved = Number(sessionStorage.getItem(hotSeatKey));
  const seat = hotTokens[saved] ? saved : hotTokens.findIndex((t) => t);
  token = hotTokens[seat] || null;
}

let ws = null;
let retries = 0;
let state = null;
let pending = false;
let selected = null;       // vessel id chosen on the board
let passing = false;        // hot-seat: the "pass the device" screen is up
let overDismissed = false;
let pingTimer = null;

// ---------------------------------------------------------------- connection

function wsUrl() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  return `${proto}://${location.host}/ws/games/${encodeURIComponent(gameId)}` +
    (token ? `?seat=${encodeURIComponent(token)}` : "");
}

function setConn(ok) {
  const c = $("conn");
  c.textContent = ok ? "connected" : "reconnecting…";
  c.className = "conn " + (ok ? "ok" : "down");
}

function connect() {
  const sock = new WebSocket(wsUrl());
  ws = sock;
  sock.onopen = () => {
    retries = 0;
    setConn(true);
    clearInterval(pingTimer);
    pingTimer = setInterval(() => { if (sock.readyState === 1) sock.send(JSON.stringify({ type: "ping" })); }, 20000);
  };
  sock.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (msg.type === "state") onState(msg);
    else if (msg.type === "error") { pending = false; showError(msg.error, msg.rule); if (state) render(); }
  };
  sock.onclose = () => {
    if (ws !== sock) return;  // replaced on purpose (hot-seat switch)
    setConn(false);
    clearInterval(pingTimer);
    retries += 1;
    setTimeout(connect, Math.min(5000, 300 * 2 ** Math.min(retries, 5)));
  };
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

function showError(text, rule) {
  const t = $("toast");
  t.textContent = (rule ? `[${rule}] ` : "") + text;
  t.classList.remove("hidden");
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => t.classList.add("hidden"), 7000);
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
    const seat = state.seats[state.to_move] || {};
    const ai = seat.ai ? ` (${seatLabel(seat)})` : "";
    const verb = seat.ai ? "is thinking" : "is deciding";
    b.textContent = `${seatName(state.to_move)}${ai} ${verb} — ${DECISIONS[v.decision] || v.decision}`;
    b.style.color = seatColour(state.to_move);
  }
  $("undo").classList.toggle("hidden", !state.can_undo);
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
  m.innerHTML = `<div class="menu-title">${esc(title)}</div>`;
  for (const e of entries) m.appendChild(actionButton(e));
  const cancel = document.createElement("button");
  cancel.textContent = "Cancel";
  cancel.className = "danger";
  cancel.onclick = closeMenu;
  m.appendChild(cancel);
  m.classList.remove("hidden");
  const r = m.getBoundingClientRect();
  m.style.left = Math.min(ev.clientX + 8, window.innerWidth - r.width - 8) + "px";
  m.style.top = Math.min(ev.clientY + 8, window.innerHeight - r.height - 8) + "px";
}

function actionButton(entry, label) {
  const b = document.createElement("button");
  b.textContent = label || entry.text;
  b.dataset.type = entry.action.type;
  b.dataset.action = JSON.stringify(entry.action);
  b.disabled = pending;
  b.onclick = () => send(entry.action);
  return b;
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
  main.innerHTML = "";
  groups.innerHTML = "";
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
      const b = actionButton(e, shortText(e));
      b.className = t === "end" || t === "accept" || t === "done" || t === "pass" ? "primary" : "";
      if (t === "end") b.textContent = "End Command phase";
      main.appendChild(b);
    }
  }
  if (selected !== null) {
    const direct = (ix.byVessel[selected] || []).filter((e) => !["jump", "retreat", "assign"].includes(e.action.type));
    if (direct.length) {
      const det = document.createElement("div");
      det.className = "group";
      det.innerHTML = '<div class="group-title">Selected ship</div>';
      const btns = document.createElement("div");
      btns.className = "btns";
      direct.forEach((e) => btns.appendChild(actionButton(e, shortText(e))));
      det.appendChild(btns);
      groups.appendChild(det);
    }
  }
  for (const [title, types] of GROUPS) {
    const entries = types.flatMap((t) => ix.byType[t] || []);
    if (!entries.length) continue;
    const det = document.createElement("details");
    det.className = "group";
    det.open = entries.length <= 8 && !title.startsWith("Jumps");
    const sum = document.createElement("summary");
    sum.className = "group-title";
    sum.textContent = `${title} (${entries.length})`;
    det.appendChild(sum);
    const btns = document.createElement("div");
    btns.className = "btns";
    for (const e of entries) btns.appendChild(actionButton(e, shortText(e)));
    det.appendChild(btns);
    groups.appendChild(det);
  }
}

function renderHand(v, ix) {
  const box = $("hand");
  box.innerHTML = "";
  if (state.seat === null) {
    $("hand-title").textContent = "Spectating — hands are hidden";
    return;
  }
  $("hand-title").textContent = `Your hand (${(v.hand || []).length})`;
  if (passing) return;
  if (!(v.hand || []).length) box.innerHTML = '<span class="muted">No cards in hand.</span>';
  for (const c of v.hand || []) {
    const el = document.createElement("div");
    const plays = ix.byCard[c.id] || [];
    el.className = "card " + (plays.length ? "playable" : "unplayable");
    el.dataset.card = c.id;
    el.style.setProperty("--dc", DOMAIN_COLOURS[c.domain] || "#888");
    el.innerHTML = `<div class="ckind">${esc(c.domain)} · ${esc(c.kind)}</div><div class="cname">${esc(c.name)}</div>
      <div class="ctext">${esc(c.text)}</div>`;
    if (plays.length) el.onclick = (ev) => openMenu(ev, c.name, plays);
    box.appendChild(el);
  }
}

function renderStack(v) {
  $("stack-panel").classList.toggle("hidden", !v.stack.length);
  $("stack").innerHTML = v.stack.slice().reverse().map((s, i) =>
    `<div class="stack-item" style="--pc:${seatColour(s.player)}"><b>${i === 0 ? "Top: " : ""}${esc(s.card.name)}</b>
     <span class="muted">(${seatName(s.player)}, ${esc(s.kind)})</span><div class="muted">${esc(s.card.text)}</div></div>`).join("");
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
    return parts.length ? parts.map(esc).join(", ") : "nothing";
  };
  box.classList.remove("hidden");
  box.innerHTML = `<h2>Trade ${t.proposed ? "proposed" : "being prepared"}</h2>
    <div><b style="color:${seatColour(t.from)}">${seatName(t.from)}</b> &rarr; <b style="color:${seatColour(t.to)}">${seatName(t.to)}</b></div>
    <div style="margin-top:6px">Gives: ${list(t.give, t.give_credits, 0)}</div>
    <div>Asks: ${list(t.ask, t.ask_credits, t.ask_hand)}</div>
    <div class="muted" style="margin-top:6px">Use the Trade buttons in your orders to add items, propose, accept or decline.</div>`;
}

function renderLog() {
  const box = $("log");
  const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 30;
  box.innerHTML = state.log.map((l) => `<div>${esc(l)}</div>`).join("");
  if (atBottom || !renderLog.done) box.scrollTop = box.scrollHeight;
  renderLog.done = true;
}

function renderChoice(v, ix) {
  const entries = ix.byType.choose || [];
  const box = $("choice");
  if (!entries.length || passing) { box.classList.add("hidden"); return; }
  const names = cardNames(v);
  const kind = v.choice ? v.choice.kind : "choice";
  const dlg = $("choice-box");
  dlg.innerHTML = `<h1>${esc(CHOICE_TITLES[kind] || cap(String(kind).replace(/_/g, " ")))}</h1>`;
  const opts = document.createElement("div");
  opts.className = "opts";
  for (const e of entries) {
    const val = e.action.value;
    // Integers are card ids only for choices the server marks so (decks and positions are too).
    const card = v.choice && v.choice.cards && typeof val === "number" ? names[val] : null;
    const label = card ? `${card.name}${card.text ? " — " + card.text : ""}` : shortText(e);
    opts.appendChild(actionButton(e, label));
  }
  dlg.appendChild(opts);
  const others = state.legal.filter((e) => e.action.type !== "choose");
  if (others.length) {
    const more = document.createElement("div");
    more.className = "opts";
    others.forEach((e) => more.appendChild(actionButton(e, shortText(e))));
    dlg.appendChild(more);
  }
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

// ---------------------------------------------------------------- helpers and start


$("undo").onclick = () => { if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "undo" })); };
$("over-close").onclick = () => { overDismissed = true; renderOver(); };
document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") { closeMenu(); selected = null; $("hint").textContent = ""; render(); } });
document.addEventListener("click", (ev) => {
  const m = $("menu");
  if (!m.classList.contains("hidden") && !m.contains(ev.target) && !ev.target.closest("svg, .card")) closeMenu();
});

// A first picture over HTTP, so the page shows the game even before the socket is up.
fetch(`/api/games/${encodeURIComponent(gameId)}` + (token ? `?seat=${encodeURIComponent(token)}` : ""))
  .then(async (r) => {
    const data = await r.json().catch(() => null);
    if (!r.ok) { showError((data && data.error) || `No such game (HTTP ${r.status})`); return; }
    if (!state && data) onState({ type: "state", ...data });
  })
  .catch(() => {});
connect();
