// Star Commander's table, registered as GAME_TABLES.starcom (the shared tables.js says what a
// table holds): the diamond board with its zoom, the players, decks and supply, the orders panel
// with its groups, the hand, the response stack, the trade panel and the choice dialog; a click
// on a ship, a system or a hand card gives the orders it stands for. On the replay page: the
// board, the players and the decks. Loaded after Star Commander's board.js, camera.js and
// cardpop.js, and after the shared scripts of the page.
"use strict";

const SC_DECISIONS = {
  command: "Command phase", priority: "Respond or pass", choice: "Make a choice", combat_pick: "Pick a combat",
  assign: "Assign damage", retreat: "Retreat or stay", trade_build: "Build the trade offer",
  trade_answer: "Answer the trade offer", over: "Game over",
};
const SC_MAIN_TYPES = ["end", "pass", "done", "propose", "accept", "decline", "cancel", "buy"];
const SC_PRIMARY_TYPES = new Set(["end", "pass", "done", "accept"]);
const SC_GROUPS = [
  ["Build", ["build"]], ["Develop", ["develop"]], ["Play a card", ["play"]], ["Abilities", ["ability"]],
  ["Combat", ["fight", "assign", "retreat", "redirect"]], ["Trade", ["offer", "give", "ask"]],
  ["Ships", ["scrap", "repair"]], ["Sell cards", ["sell"]], ["Jumps (or click a ship)", ["jump"]],
  ["Choose", ["choose"]],
];
// In guided mode: one sentence per kind of order, shown beside its buttons.
const SC_GUIDE_ACTIONS = {
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
const SC_CHOICE_TITLES = {
  hand_full: "Your hand is full: discard a card", receive_full: "Your hand is full: discard a card",
  ability_discard: "Discard a card",
};
// Why a game ended, by the state's over_reason (the game-over screen).
const SC_OVER_REASONS = {
  conquest: "By conquest: the last player still holding their homeworld wins.",
  turn_limit: "The turn limit was reached: most developments wins, then most credits.",
  action_limit: "The game reached its safety limit on actions and was scored like a turn limit.",
};
// The same in the summary's own words (the replay's summary panel).
const SC_SUMMARY_REASONS = {
  conquest: "Ended by conquest: one player was left standing.",
  turn_limit: "Ended at the turn limit: most developments won (then most credits).",
  action_limit: "Ended at the server's action cap, scored like the turn limit.",
};
// [field, column head, what the head means]: short heads, so the table fits a side panel.
const SC_SUMMARY_COLUMNS = [["systems", "Sys", "systems held"], ["developments", "Dev", "developments"],
  ["credits", "Cr", "credits at the end"], ["vessels_built", "Built", "vessels built"],
  ["cards_played", "Cards", "cards played"]];
// Option fields that hold a quantity; the orders whose buttons also show their card's text.
const SC_AMOUNT_FIELDS = ["amount", "credits", "count", "carry"];
const SC_CARD_TEXT_TYPES = new Set(["build", "play"]);
// On a small screen a big board starts zoomed in on the seat's own corner, with tiles at least
// this wide (px); the whole board is one button (or a pinch) away.
const START_TILE_PX = 130;

// What the table draws from and what was picked on it: the last state and context it was given,
// the vessel chosen on the board, and a card or ability waiting for a target on the board.
const sc = { state: null, ctx: null, parts: null, selected: null, picking: null, camera: null, sheets: null };

// ---------------------------------------------------------------- the table's own elements

// The board (an SVG with its zoom buttons and, on the game page, the decks box) in the page's
// table area, and the trade and stack panels (the decks on the replay page) in its side area:
// made once, kept across renders.
function scElements(parts, replay) {
  if ($("board")) return;
  const board = svg("svg", { id: "board", role: "img", "aria-label": "game board" });
  if (replay) {
    parts.table.append(board);
    parts.side.append(h("section", { class: "panel" }, h("h2", {}, "Decks & supply"), h("div", { class: "kv", id: "decks" })));
    return;
  }
  parts.table.append(board,
    h("div", { class: "zoom" },
      h("button", { id: "zoom-in", title: "Zoom in (or use the mouse wheel)", "aria-label": "Zoom in",
        onclick: () => sc.camera.zoomBy(ZOOM_STEP) }, "+"),
      h("button", { id: "zoom-out", title: "Zoom out", "aria-label": "Zoom out",
        onclick: () => sc.camera.zoomBy(1 / ZOOM_STEP) }, "−"),
      h("button", { id: "zoom-fit", title: "Show the whole board", "aria-label": "Show the whole board",
        onclick: () => sc.camera.fit() }, "⤢")),
    h("details", { class: "decks-box", id: "decks-box" }, h("summary", {}, "Decks & supply"), h("div", { class: "kv", id: "decks" })));
  parts.side.append(h("section", { class: "panel trade-panel hidden", id: "trade" }),
    h("section", { class: "panel hidden", id: "stack-panel" }, h("h2", {}, "Response stack"), h("div", { id: "stack" })));
  sc.camera = new BoardCamera(board, () => { if (sc.state) renderBoard(sc.state.view, indexLegal(sc.ctx.legal)); });
  window.addEventListener("resize", () => { if (sc.state) renderBoard(sc.state.view, indexLegal(sc.ctx.legal)); });
  // Board elements are drawn afresh each time: the popup reads them through their data attributes.
  setPopResolver(boardPopup);
}

// ---------------------------------------------------------------- the legal entries

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
    if (a.type === "ability" && sc.state.view.vessels.some((v) => v.id === a.source)) (ix.byVessel[a.source] ||= []).push(e);
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

// "3 cr · ★2 · ♥3 · ⇢1": what an option's card costs and does in numbers; empty without a card.
function sheetStats(card) {
  if (!card) return "";
  const parts = [];
  if (card.cost !== null && card.cost !== undefined) parts.push(`${card.cost} cr`);
  if (card.attack !== null && card.attack !== undefined) parts.push(`★${card.attack}`);
  if (card.hp !== null && card.hp !== undefined) parts.push(`♥${card.hp}`);
  if (card.speed !== null && card.speed !== undefined && card.kind === "ship") parts.push(`⇢${card.speed}`);
  if (card.carry) parts.push(`carries ${card.carry}`);
  if (card.max_dev !== null && card.max_dev !== undefined) parts.push(`max ${card.max_dev}`);
  return parts.join(" · ");
}

// ---------------------------------------------------------------- targets on the board

// What a card's option points at first on the board: a vessel (its id is the first target and
// the sentence names it) or a system (likewise, by its name). null when it points at neither.
function boardTarget(entry, view) {
  if (!entry.action) return null;
  if (entry.action.type === "build" && Number.isInteger(entry.action.at)) return { site: entry.action.at };
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
  if (!sc.picking) return out;
  for (const e of sc.picking.entries) {
    const t = boardTarget(e, view);
    if (t && t.vessel !== undefined) out.vessels.add(t.vessel);
    else if (t) out.sites.add(t.site);
  }
  return out;
}

// Wait for a click on the board for these options (a card or an ability with targets). Returns
// false when none of them points at the board (the caller shows a list instead).
function startPicking(title, entries, listed) {
  const p = { title, entries };
  const saved = sc.picking;
  sc.picking = p;
  sc.more = 0;
  const sets = pickSets(sc.state.view);
  const onBoard = sets.sites.size || sets.vessels.size;
  if (!onBoard && !listed) { sc.picking = saved; return false; }
  sc.ctx.closeMenu();
  sc.parts.hint.textContent = onBoard ? `${title}: click a highlighted target on the board, or pick from the list below.`
    : `${title}: pick one from the list below.`;
  sc.ctx.rerender();
  return true;
}

function picksAt(kind, id) {
  return sc.picking ? sc.picking.entries.filter((e) => { const t = boardTarget(e, sc.state.view); return t && t[kind] === id; }) : [];
}

// The board elements the AI's hint is about: the system it acts at or moves to, the vessels it names.
function hintMarks() {
  const out = { sites: new Set(), vessels: new Set() };
  const hinted = sc.ctx.hint;
  if (!hinted || !hinted.action) return out;
  const a = hinted.action;
  for (const k of ["at", "to"]) if (Number.isInteger(a[k])) out.sites.add(a[k]);
  for (const k of ["vessel", "target", "source"]) if (Number.isInteger(a[k]) && sc.state.view.vessels.some((v) => v.id === a[k])) out.vessels.add(a[k]);
  return out;
}

// ---------------------------------------------------------------- drawing

function renderBoard(v, ix) {
  const root = $("board");
  const base = boardBounds(v.config.size);
  const rotation = seatRotation(v, sc.state.seat);
  const camera = sc.camera;
  if (camera.setBase(base)) {
    const tile = 2 * HW * camera.scale();
    if (tile > 0 && tile < START_TILE_PX) {
      const home = sc.state.seat !== null && v.players[sc.state.seat] ? v.players[sc.state.seat].homeworld : null;
      const [x, y] = home !== null ? tileCentre(home, v.config.size, rotation) : [0, (v.config.size - 1) * HH];
      camera.focus(x, y, START_TILE_PX / tile);
    }
  }
  const changes = sc.ctx.changes;
  drawBoard(root, v, {
    ix, selected: sc.selected, onTile: onTileClick, onVessel: onVesselClick, rotation,
    view: camera.view(), changed: changes ? { sites: changes.sites, vessels: changes.vessels, at: changes.at } : null,
    marked: hintMarks(), picks: pickSets(v),
  });
  root.dataset.zoom = camera.zoom.toFixed(2);
}

// What a unit of a group is keyed by: the orders for one card, one vessel or one kind of trade
// item come as one button and a second step; null: the order stands alone.
const SC_STEP_KEYS = {
  play: (a) => `card ${a.card}`, ability: (a) => `source ${a.source}`, build: (a) => `def ${a.card}`,
  sell: (a) => `card ${a.card}`, jump: (a) => `vessel ${a.vessel}`, retreat: (a) => `vessel ${a.vessel}`,
  assign: (a) => `vessel ${a.vessel}`, give: (a) => `item ${a.item}`, ask: (a) => `item ${a.item}`,
};
// Orders whose second step is a vessel selected on the board (its destinations or targets light up).
const SC_VESSEL_STEPS = new Set(["jump", "retreat", "assign"]);

function vesselWords(id) {
  const v = sc.state.view.vessels.find((x) => x.id === id);
  if (!v) return `#${id}`;
  const site = sc.state.view.board[v.pos];
  const owner = v.owner === sc.state.seat ? "" : `${seatName(v.owner)}'s `;
  return `${owner}${v.name} #${v.id}${site ? ` at ${site.name}` : ""}`;
}

// The button of a unit of several orders: it names the card or vessel, how many ways there are
// and the common price; a click starts the second step.
function stepButton(unit) {
  const list = unit.entries, a = list[0].action, n = list.length;
  const names = cardNames(sc.state.view);
  const price = commonPrice(list);
  let label, title, onclick;
  if (SC_VESSEL_STEPS.has(a.type)) {
    const what = { jump: "jumps", retreat: "retreats", assign: "ways to aim" }[a.type];
    label = `${vesselWords(a.vessel)}: ${n} ${what}`;
    title = vesselWords(a.vessel);
    onclick = () => selectVessel(a.vessel);
  } else {
    const cardName = (list[0].card && list[0].card.name) || (names[a.card !== undefined ? a.card : a.source] || {}).name || "this card";
    const verb = { play: "Play", ability: "Use", build: "Build", sell: "Sell", give: "Offer", ask: "Ask for" }[a.type] || cap(a.type);
    title = a.type === "give" || a.type === "ask" ? `${verb} ${a.item === "credit" ? "credits" : `a ${a.item}`}` : `${verb} ${cardName}`;
    label = `${title}${price} (${n} ways)`;
    onclick = () => startPicking(title, list, true);
  }
  const b = h("button", { class: ["option", "step-btn"], type: "button", disabled: sc.ctx.pending,
    dataset: { step: unit.key, ways: n }, title: `${title}: pick one of ${n} on the board or in the list`, onclick }, `${label} ▸`);
  if (list[0].card) registerPop(b, () => ({ sheet: list[0].card }));
  if (sc.ctx.hint && list.some((e) => actionKey(e.action) === sc.ctx.hint.key)) b.classList.add("hinted");
  return b;
}

// The controls of a group as units: a button for a lone order, a step button for several orders
// of one card or vessel. Every order keeps an element with its data-action (hidden behind its
// step button), so what the panel offers is always the whole legal list.
function groupUnits(entries) {
  const keyOf = (e) => (SC_STEP_KEYS[e.action.type] ? SC_STEP_KEYS[e.action.type](e.action) : null);
  return unitsBy(entries, keyOf).map((u) => {
    const controls = sc.ctx.controls(u.entries);
    // One control already (a lone order, or one slider for many amounts): no second step.
    if (controls.length === 1 || !SC_STEP_KEYS[u.entries[0].action.type]) return { controls };
    return { controls: [stepButton(u)], hidden: controls };
  });
}

// Select a vessel: its destinations or targets light up on the board and its orders are listed.
function selectVessel(id) {
  sc.selected = id;
  sc.picking = null;
  sc.more = 0;
  sc.parts.hint.textContent = `${vesselWords(id)} selected: click a highlighted system or enemy on the board, or pick below.`;
  sc.ctx.rerender();
}

// At most `room` of `controls` visible: the first ones, and "more…" for the next page when they
// do not fit (only where no second step can take them). Returns the elements and how many show.
function paged(controls, room, page, onMore) {
  if (controls.length <= room) return { els: controls, shown: controls.length };
  const per = Math.max(1, room - 1);
  // The AI's hinted order goes first, so it is never on a page behind "more…".
  const marked = controls.findIndex((c) => c.classList.contains("hinted"));
  if (marked >= per) controls = [controls[marked], ...controls.filter((_, i) => i !== marked)];
  const start = (page * per) % controls.length;
  const els = controls.map((c, i) => {
    if (i < start || i >= start + per) c.classList.add("over");
    return c;
  });
  const rest = controls.length - per;
  const more = h("button", { class: ["more-btn"], type: "button", title: "Show the next ones", onclick: onMore },
    `more… (${rest} more)`);
  return { els: [...els, more], shown: per + 1 };
}

function cancelButton() {
  return h("button", { class: "danger", type: "button", onclick: () => {
    sc.picking = null; sc.selected = null; sc.more = 0; sc.parts.hint.textContent = ""; sc.ctx.rerender();
  } }, "Cancel");
}

// A second step: the orders of one card (sc.picking) or one vessel (sc.selected), listed (and
// lit up on the board), with a Cancel; it takes the panel's room while it lasts.
function stepBox(title, entries, room) {
  const list = sc.ctx.controls(entries);
  const byKey = new Map(entries.map((e) => [actionKey(e.action), e]));
  list.forEach((el) => {
    const e = byKey.get(el.dataset.action);
    const t = e && e.action.type !== "build" ? boardTarget(e, sc.state.view) : null;
    // The target's card on hover or a long press: the vessel aimed at, or the system.
    if (t && t.vessel !== undefined) registerPop(el, () => boardPopup({ classList: { contains: (c) => c === "vessel" }, dataset: { vessel: String(t.vessel) } }));
    else if (t) registerPop(el, () => boardPopup({ classList: { contains: (c) => c === "tile" }, dataset: { pos: String(t.site) } }));
  });
  const p = paged(list, room - 1, sc.more || 0, () => { sc.more = (sc.more || 0) + 1; sc.ctx.rerender(); });
  return h("div", { class: "group picking" }, h("div", { class: "group-title" }, title),
    h("div", { class: "btns" }, p.els, cancelButton()));
}

function renderActions(v, ix, mine) {
  const main = sc.parts.main, groups = sc.parts.groups, hint = sc.parts.hint;
  main.replaceChildren();
  groups.replaceChildren();
  if (!mine) return;
  if (!hint.textContent && v.decision === "command") {
    hint.textContent = "Click one of your ships to move it, a system with + to build or develop, or a card to play it.";
  }
  const mainEntries = SC_MAIN_TYPES.flatMap((t) => ix.byType[t] || []);
  const mainControls = sc.ctx.controls(mainEntries, { primary: (e) => SC_PRIMARY_TYPES.has(e.action.type) });
  fill(main, mainControls);
  if (sc.ctx.guide && mainEntries.length) {
    const said = [...new Set(mainEntries.map((e) => e.action.type))].map((t) => SC_GUIDE_ACTIONS[t] || null).filter(Boolean);
    if (said.length) main.appendChild(h("div", { class: "guide-line wide" }, said.join(" ")));
  }
  let room = VISIBLE_MAX - mainControls.length;
  // A second step under way: it has the room, the groups wait folded.
  let step = null;
  if (sc.picking) step = stepBox(`${sc.picking.title}: choose a target`, sc.picking.entries, room);
  else if (sc.selected !== null && (ix.byVessel[sc.selected] || []).length) {
    step = stepBox(`${vesselWords(sc.selected)}: its orders`, ix.byVessel[sc.selected], room);
  }
  if (step) { groups.appendChild(step); room = 0; }
  const boxes = [];
  for (const [title, types] of SC_GROUPS) {
    const entries = types.flatMap((t) => ix.byType[t] || []);
    if (!entries.length) continue;
    const kind = types[0];
    const units = groupUnits(entries);
    const hinted = sc.ctx.hint && entries.some((e) => actionKey(e.action) === sc.ctx.hint.key);
    boxes.push({ title, types, kind, units, entries, hinted, want: hinted || foldMemory.isOpen(kind, true) });
  }
  // The room goes first to the hinted group, then to the groups opened last, then in panel order.
  const order = boxes.map((b, i) => ({ b, i }))
    .sort((x, y) => (y.b.hinted - x.b.hinted) || (foldMemory.rank(x.b.kind) - foldMemory.rank(y.b.kind)) || (x.i - y.i));
  for (const { b } of order) {
    const controls = b.units.flatMap((u) => u.controls);
    b.open = b.want && room >= Math.min(2, controls.length);
    b.body = [];
    if (b.open) {
      const page = (sc.groupPage || {})[b.kind] || 0;
      const p = paged(controls, room, page, () => { sc.groupPage = { ...(sc.groupPage || {}), [b.kind]: page + 1 }; sc.ctx.rerender(); });
      room -= p.shown;
      b.body = p.els;
    } else {
      b.body = controls.map((c) => { c.classList.add("over"); return c; });
    }
    b.hidden = b.units.flatMap((u) => u.hidden || []);
    b.hidden.forEach((c) => c.classList.add("over"));
  }
  for (const b of boxes) {
    const guide = sc.ctx.guide ? b.types.map((t) => SC_GUIDE_ACTIONS[t] || null).filter(Boolean) : [];
    const steps = b.units.filter((u) => u.hidden).length;
    const count = b.units.length === b.entries.length ? `${b.entries.length}` : `${b.units.length}: ${b.entries.length} orders`;
    const d = foldGroup(b.kind, b.open, [
      h("summary", { class: "group-title" }, `${b.title} (${count})`, b.want && !b.open ? h("span", { class: "muted" }, " — open to show") : null),
      guide.length ? h("div", { class: "guide-line" }, guide[0]) : null,
      steps ? h("div", { class: "muted step-note" }, "▸ a second step: pick the card or ship, then its target") : null,
      h("div", { class: "btns" }, b.body, b.hidden)]);
    d.onroom = () => sc.ctx.rerender();  // opened by the player: it takes the room first
    groups.appendChild(d);
  }
}

function renderHand(v, ix) {
  const box = sc.parts.hand;
  box.replaceChildren();
  if (sc.state.seat === null) {
    sc.parts.handTitle.textContent = "Spectating — hands are hidden";
    return;
  }
  sc.parts.handTitle.textContent = `Your hand (${(v.hand || []).length})`;
  if (sc.ctx.passing) return;
  if (!(v.hand || []).length) { box.appendChild(h("span", { class: "muted" }, "No cards in hand.")); return; }
  const changes = sc.ctx.changes;
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
  sc.ctx.openMenu(ev, c.name, entries);
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

// A choice (a card or a rule asks the seat to pick one option): a dialog over the board.
function renderChoice(v, ix) {
  const entries = ix.byType.choose || [];
  const box = sc.parts.dialog;
  if (!entries.length || sc.ctx.passing) { box.classList.add("hidden"); return; }
  const names = cardNames(v);
  const kind = v.choice ? v.choice.kind : "choice";
  const marked = sc.ctx.hint ? sc.ctx.hint.key : null;
  // Integers are card ids only for choices the server marks so (decks and positions are too).
  const cardOf = (e) => (v.choice && v.choice.cards && typeof e.action.value === "number" ? names[e.action.value] : null);
  const options = entries.map((e) => {
    const card = cardOf(e);
    const b = optionButton(e, { send: sc.ctx.send, disabled: sc.ctx.pending, plain: true,
      label: card ? `${card.name}${card.text ? " — " + card.text : ""}`
        : e.card && e.card.text ? `${optionLabel(e)} — ${e.card.text}` : optionLabel(e) });
    if (marked === actionKey(e.action)) b.classList.add("hinted");
    if (card) registerPop(b, () => ({ name: card.name, sheet: card }));
    return b;
  });
  const others = sc.ctx.legal.filter((e) => e.action.type !== "choose");
  const sentence = sc.ctx.guide && sc.state.guide ? sc.state.guide : null;
  fill(sc.parts.dialogBox,
    h("h1", {}, SC_CHOICE_TITLES[kind] || cap(String(kind).replace(/_/g, " "))),
    sentence ? h("p", { class: "guide" }, sentence) : null,
    marked ? h("p", { class: "hint-answer" }, sc.ctx.hint.text) : null,
    h("div", { class: "opts" }, options),
    others.length ? h("div", { class: "opts" }, sc.ctx.controls(others)) : null);
  box.classList.remove("hidden");
}

// ---------------------------------------------------------------- clicks on the board

// `stack`: every vessel of the token clicked (alike vessels share one token on a crowded tile);
// `ves`: the one of them a click selects.
function onVesselClick(ev, ves, o, stack) {
  const ctx = sc.ctx, hint = sc.parts.hint;
  ctx.closeMenu();
  const all = stack || [ves];
  const picked = all.flatMap((v) => picksAt("vessel", v.id));
  if (picked.length) { ctx.act(ev, `${sc.picking.title}: ${ves.name}`, picked); return; }
  const aimed = sc.selected !== null ? all.flatMap((v) => o.targets[v.id] || []) : [];
  if (aimed.length) { ctx.act(ev, `Damage to ${ves.name}`, aimed); return; }
  const own = o.ix.byVessel[ves.id] || [];
  if (!own.length) { sc.selected = null; sc.picking = null; ctx.rerender(); return; }
  sc.selected = sc.selected === ves.id ? null : ves.id;
  sc.picking = null;
  const aims = own.some((e) => e.action.type === "assign");
  const moves = own.some((e) => ["jump", "retreat", "assign"].includes(e.action.type));
  const abilities = own.filter((e) => e.action.type === "ability");
  hint.textContent = sc.selected === null ? "" : moves
    ? `${ves.name} selected: click a highlighted ${aims ? "enemy to aim at" : "system to jump to"}.`
    : `${ves.name} selected: its orders are listed below.`;
  if (sc.selected !== null && abilities.length && !moves) {
    if (startPicking(`${ves.name}'s ability`, abilities)) return;
  }
  ctx.rerender();
}

function onTileClick(ev, site, o) {
  const ctx = sc.ctx;
  ctx.closeMenu();
  const picked = picksAt("site", site.pos);
  if (picked.length) { ctx.act(ev, `${sc.picking.title}: ${site.name}`, picked); return; }
  if (o.dest) { ctx.act(ev, `Jump to ${site.name}`, o.dest); return; }
  if (sc.selected !== null || sc.picking) { sc.selected = null; sc.picking = null; sc.parts.hint.textContent = ""; ctx.rerender(); }
  if (o.here.length) ctx.openMenu(ev, `Orders at ${site.name}`, o.here);
}

// ---------------------------------------------------------------- card popups on the board

function boardPopup(el) {
  if (!sc.state || !el.classList) return null;
  const v = sc.state.view;
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
}

// ---------------------------------------------------------------- what others changed

// Between two pictures of the same seat: the systems, vessels, seats and hand cards to highlight.
function boardChanges(a, b) {
  const sites = new Set(), vessels = new Set(), seats = new Set(), cards = new Set();
  const siteKey = (s) => JSON.stringify([s.face_up, s.owner, s.devs, s.card, s.under_siege, s.contested, s.interdicted_by]);
  b.board.forEach((s, i) => { if (!a.board[i] || siteKey(a.board[i]) !== siteKey(s)) sites.add(s.pos); });
  const before = new Map(a.vessels.map((v) => [v.id, v]));
  const after = new Set(b.vessels.map((v) => v.id));
  for (const v of b.vessels) {
    const old = before.get(v.id);
    if (!old || old.pos !== v.pos || old.damage !== v.damage || old.owner !== v.owner) vessels.add(v.id);
    if (old && old.pos !== v.pos && old.pos !== null && old.pos >= 0) sites.add(old.pos);
  }
  for (const v of a.vessels) if (!after.has(v.id) && v.pos !== null && v.pos >= 0) sites.add(v.pos);  // destroyed here
  b.players.forEach((p, i) => {
    const o = a.players[i];
    if (o && JSON.stringify([o.credits, o.hand_size, o.developments, o.alive, o.technologies.map((t) => t.id)]) !==
      JSON.stringify([p.credits, p.hand_size, p.developments, p.alive, p.technologies.map((t) => t.id)])) seats.add(p.seat);
  });
  const had = new Set((a.hand || []).map((c) => c.id));
  for (const c of b.hand || []) if (!had.has(c.id)) cards.add(c.id);
  return { sites, vessels, seats, cards };
}

// ---------------------------------------------------------------- the table

GAME_TABLES.starcom = {
  info(v, limit) {
    const cfg = v.config;
    return { text: `Turn ${v.turn + 1}${limit ? ` of ${limit}` : ""}`, phase: `${v.phase} phase`,
      title: `${cfg.size}×${cfg.size} board, ${cfg.edition} edition, ${cfg.players} players` +
        (limit ? `; the game is scored after turn ${limit}` : "; no turn limit") };
  },
  replayInfo(v) {
    const cfg = v.config;
    return `turn ${v.turn + 1} · ${v.phase} phase · ${cfg.size}×${cfg.size} ${cfg.edition}`;
  },
  decision(v) { return v.decision_text || SC_DECISIONS[v.decision] || v.decision; },
  turns(v) { return v.turn + 1; },
  overReason(state) { return SC_OVER_REASONS[state.over_reason] || ""; },
  victory: "Your fleet commands the stars.",
  options: { amountFields: SC_AMOUNT_FIELDS, stats: sheetStats, withText: (e) => SC_CARD_TEXT_TYPES.has(e.action.type) },
  changes: boardChanges,
  reset() { sc.selected = null; sc.picking = null; sc.more = 0; sc.groupPage = {}; },

  render(parts, state, ctx) {
    sc.state = state;
    sc.ctx = ctx;
    sc.parts = parts;
    scElements(parts, ctx.replay);
    const v = state.view;
    if (ctx.replay) {
      drawPlayers(parts.players, v, state.seats, null);
      drawDecks($("decks"), v);
      drawBoard($("board"), v, {});
      return;
    }
    // The catalogue's sheets, once: the hand shows costs and the popups whole cards.
    if (!sc.sheets) sc.sheets = loadSheets().then(() => ctx.rerender());
    const ix = indexLegal(ctx.legal);
    drawPlayers(parts.players, v, state.seats, state.seat, { changed: ctx.changes ? ctx.changes.seats : null });
    drawDecks($("decks"), v);
    renderBoard(v, ix);
    renderActions(v, ix, ctx.mine);
    renderHand(v, ix);
    renderStack(v);
    renderTrade(v);
    renderChoice(v, ix);
    refreshPop();
  },

  summary(box, summary, opts) {
    const reason = (SC_SUMMARY_REASONS[summary && summary.reason] || "The game is over.") +
      (summary && Number.isFinite(summary.turns) ? ` ${summary.turns} turns were played.` : "");
    return drawSummary(box, summary, {
      reason: opts && opts.reason === false ? null : reason,
      columns: SC_SUMMARY_COLUMNS,
      note: (p) => (p.eliminated_turn !== null && p.eliminated_turn !== undefined
        ? h("span", { class: "out-note" }, `out on turn ${Number(p.eliminated_turn) + 1}`) : null),
      chart: { field: "credits_by_turn", title: "Credits over the game", yLabel: "credits", className: "credits-chart",
        aria: "credits of each player over the turns" },
    });
  },
};
