// The Galactic Empires table: each side's Sector HQ, decks, points and fleet (terrain with the
// ships and bases on it, crew and equipment on those), the reaction chain, and this seat's hand.
// Drawn as HTML from the server's view (src/starcom/ge/observer.py); every order is one of the
// server's legal entries, shown on the cards it names and in the orders panel. Served from the
// game's package (its entry's serving.web) and loaded by the game and replay pages after their
// shared scripts (dom.js, seats.js: seatName, seatColour, cap; tables.js; summary.js); they draw
// through GAME_TABLES.ge.
"use strict";

const GE_PHASES = { setup: "Setup", allocate: "Point Allocation", "play-a": "Play Cards A", fire: "Weapons Fire",
  "play-b": "Play Cards B", discard: "Discard", over: "Game over" };
const GE_EMPIRES = { argonian: "Argonian", krebiz: "Krebiz" };
const GE_POINT_MARKS = { economy: "Econ", supply: "Sup", energy: "En", ammunition: "Ammo", research: "Res", repair: "Rep" };
// The orders panel: which verbs go together, in the order the turn meets them. The first group's
// orders are the phase's main buttons.
const GE_GROUPS = [
  ["Main", ["end", "pass", "quiet", "allocate", "fire"]],
  ["Reserve fleet", ["reserve"]],
  ["Play a card", ["play", "pair"]],
  ["Pay, load and repair", ["pay", "pay-part", "load", "research", "repair"]],
  ["Weapons fire", ["aim", "add"]],
  ["Use a card", ["use", "swap", "combine", "separate"]],
  ["Discard", ["discard", "drop"]],
];
const GE_ENDINGS = {
  hq: "A Sector HQ was destroyed.",
  stall: "Nothing changed for too long: the side with less Sector HQ damage wins.",
  "turn cap": "The turn limit was reached: the side with less Sector HQ damage wins.",
};

let geCards = null;   // key -> glossary entry (GET /api/cards?game=ge), once loaded
let geCardsAsked = false;

function geLoadCards(rerender) {
  if (geCardsAsked) return;
  geCardsAsked = true;
  apiCall("GET", "/api/cards?game=ge").then((data) => {
    geCards = new Map(((data && data.cards) || []).map((c) => [c.key, c]));
    rerender();
  }).catch(() => { geCards = new Map(); });
}

const geSpec = (key) => (geCards && geCards.get(key)) || null;

// Every card id an action names (ids are the integers that are not negative: a negative one is a
// seat's fleet or Sector HQ).
function geIdsOf(action) {
  return Array.isArray(action) ? action.slice(1).filter((x) => Number.isInteger(x) && x >= 0) : [];
}

function geIndex(legal) {
  const byId = new Map(), byVerb = new Map();
  for (const e of legal) {
    const verb = Array.isArray(e.action) ? e.action[0] : "?";
    (byVerb.get(verb) || byVerb.set(verb, []).get(verb)).push(e);
    // An order belongs to the first card it names: the card played, paid for, aimed at, used.
    const ids = geIdsOf(e.action);
    if (ids.length) (byId.get(ids[0]) || byId.set(ids[0], []).get(ids[0])).push(e);
  }
  return { byId, byVerb };
}

const GE_POINT_WORDS = { economy: "Economy", supply: "Supply", energy: "Energy", ammunition: "Ammunition", research: "Research", repair: "Repair" };
// The symbols of a card's numbers, each with its meaning (the hover card spells them out).
const GE_SYMBOLS = { strength: ["◆", "strength (hull)"], shields: ["◎", "shields"], phasers: ["⚡", "phasers"],
  heavy: ["✹", "heavy weapons"], card_damage: ["✖", "card damage it deals"] };

const gePts = (o) => Object.entries(o || {}).map(([k, n]) => `${n} ${GE_POINT_WORDS[k] || k}`).join(", ");

function geNumbers(spec) {
  if (!spec) return "";
  const parts = [];
  if (spec.strength) parts.push(`strength ${spec.strength}`);
  if (spec.shields) parts.push(`shields ${spec.shields}`);
  if (spec.phasers) parts.push(`phasers ${spec.phasers}${spec.one_shot ? " (one shot)" : ""}`);
  if (spec.heavy) parts.push(`heavy weapons ${spec.heavy}`);
  if (spec.card_damage) parts.push(`card damage ${spec.card_damage}`);
  if (Object.keys(spec.cost || {}).length) parts.push(`costs ${gePts(spec.cost)}`);
  if (Object.keys(spec.generates || {}).length) parts.push(`makes ${gePts(spec.generates)}`);
  return parts.join(" · ");
}

// A card's numbers as symbols: strength left of printed, shields up of printed, phasers, heavy.
function geSymbols(spec, u) {
  if (!spec) return null;
  const out = [];
  const sym = (key, text, cls) => h("span", { class: ["ge-sym", `s-${key}`, cls] }, `${GE_SYMBOLS[key][0]}${text}`);
  if (spec.strength && ["ship", "base", "terrain"].includes(spec.kind)) {
    const left = spec.strength - ((u && (u.damage + (u.card_damage || 0))) || 0);
    out.push(sym("strength", u ? `${left}/${spec.strength}` : spec.strength, u && left < spec.strength && "hurt"));
  } else if (spec.strength) out.push(sym("strength", spec.strength));
  if (spec.shields) {
    const up = spec.shields - ((u && u.shield_damage) || 0);
    out.push(sym("shields", u ? `${up}/${spec.shields}` : spec.shields, u && up < spec.shields && "hurt"));
  }
  if (spec.phasers) out.push(sym("phasers", spec.phasers, u && u.empty && "spent"));
  if (spec.heavy) out.push(sym("heavy", u && u.loaded ? `${spec.heavy} (${u.loaded} loaded)` : spec.heavy));
  if (spec.card_damage) out.push(sym("card_damage", spec.card_damage));
  return out.length ? h("div", { class: "ge-syms" }, out) : null;
}

// What a card in play needs or makes this turn, beside the pool: "needs 1 Supply, 1 Energy",
// "paid", "makes 2 Energy".
function geNeeds(spec, u) {
  if (!spec) return null;
  const cost = Object.keys(spec.cost || {}).length && ["ship", "base"].includes(spec.kind);
  if (cost && u.paid) return h("div", { class: "ge-need paid" }, "paid this turn");
  if (cost) return h("div", { class: "ge-need" }, `needs ${gePts(spec.cost)}`);
  if (Object.keys(spec.generates || {}).length) return h("div", { class: "ge-need makes" }, `makes ${gePts(spec.generates)}`);
  return null;
}

// What the counters on a card in play say, in short words.
function geMarks(u) {
  const out = [];
  if (u.damage) out.push(`${u.damage} hull damage`);
  if (u.shield_damage) out.push(`${u.shield_damage} shield damage`);
  if (u.card_damage) out.push(`${u.card_damage} card damage`);
  if (u.fired) out.push(`fired ${u.fired}`);
  if (u.age) out.push(`${u.age} turn${u.age === 1 ? "" : "s"} in play`);
  if (u.used) out.push("function used");
  if (u.new) out.push("new");
  if (u.against) out.push("against a foe");
  if (u.partner !== null && u.partner !== undefined) out.push("combined");
  return out;
}

// The hover card: a card's name, kind, numbers in words and its whole text.
let gePopBox = null;
function gePopShow(el, name, spec, u) {
  if (!gePopBox) { gePopBox = h("div", { class: "ge-pop hidden", role: "tooltip" }); document.body.appendChild(gePopBox); }
  fill(gePopBox, h("div", { class: "ge-pop-name" }, name),
    spec ? h("div", { class: "ge-pop-kind" }, [cap(spec.kind), spec.class && spec.class !== spec.kind ? ` (${spec.class})` : "",
      spec.empire && !["none", "generic"].includes(spec.empire) ? ` · ${cap(spec.empire)}` : "", spec.reaction ? " · reaction" : ""].join("")) : null,
    spec ? h("div", { class: "ge-pop-nums" }, geNumbers(spec)) : null,
    u && geMarks(u).length ? h("div", { class: "ge-pop-marks" }, [u.engaged ? "Engaged" : "Disengaged", ...geMarks(u)].join(" · ")) : null,
    spec ? h("div", { class: "ge-pop-text" }, spec.text) : h("div", { class: "muted" }, "Loading the card…"));
  gePopBox.classList.remove("hidden");
  const r = el.getBoundingClientRect(), b = gePopBox.getBoundingClientRect();
  const left = Math.max(6, Math.min(r.left, innerWidth - b.width - 6));
  const top = r.bottom + 6 + b.height < innerHeight ? r.bottom + 6 : Math.max(6, r.top - b.height - 6);
  Object.assign(gePopBox.style, { left: `${left}px`, top: `${top}px` });
}
function gePopHide() { if (gePopBox) gePopBox.classList.add("hidden"); }
function geHover(el, name, spec, u) {
  el.addEventListener("mouseenter", () => gePopShow(el, name, spec, u));
  el.addEventListener("mouseleave", gePopHide);
  el.addEventListener("focus", () => gePopShow(el, name, spec, u));
  el.addEventListener("blur", gePopHide);
  return el;
}

// One card in play, with what sits on it stacked beneath. A card with orders is a button: one
// order is sent at once, several open a menu.
function geUnit(u, kids, ctx, ix) {
  const spec = geSpec(u.key);
  const orders = ix.byId.get(u.uid) || [];
  const marks = geMarks(u);
  const unit = ["ship", "base"].includes(u.kind);
  const card = h("div", {
    class: ["ge-card-in", `k-${u.kind}`, unit && !u.engaged && "disengaged", orders.length && "actionable", ctx.aim === u.uid && "aimed"],
    dataset: { uid: u.uid, key: u.key }, style: { "--pc": seatColour(u.owner) }, tabindex: orders.length ? 0 : null,
    onclick: orders.length ? (ev) => { ev.stopPropagation(); gePopHide(); ctx.act(ev, u.name, orders); } : null,
  },
  h("div", { class: "ge-top" }, h("span", { class: "ge-name" }, u.name),
    unit ? h("span", { class: ["ge-state", u.engaged ? "on" : "off"] }, u.engaged ? "engaged" : "disengaged") : h("span", { class: "ge-kind" }, u.kind)),
  geSymbols(spec, u),
  u.owner === ctx.seat || ctx.seat === null ? geNeeds(spec, u) : null,
  marks.length ? h("div", { class: "ge-marks" }, marks.join(" · ")) : null,
  orders.length ? h("div", { class: "ge-orders" }, `▶ ${orders.length === 1 ? optionLabel(orders[0]) : `${orders.length} orders`}`) : null);
  geHover(card, u.name, spec, u);
  return h("div", { class: ["ge-stack", `k-${u.kind}`] }, card, kids.length ? h("div", { class: "ge-on" }, kids) : null);
}

function geFleet(units, seat, ctx, ix) {
  const children = new Map();
  const ids = new Set(units.map((u) => u.uid));
  for (const u of units) if (u.on !== null && ids.has(u.on)) (children.get(u.on) || children.set(u.on, []).get(u.on)).push(u);
  const draw = (u) => geUnit(u, (children.get(u.uid) || []).map(draw), ctx, ix);
  const roots = units.filter((u) => u.owner === seat && (u.on === null || !ids.has(u.on)));
  const order = (u) => (u.kind === "terrain" ? 0 : u.kind === "ship" || u.kind === "base" ? 1 : 2);
  roots.sort((a, b) => order(a) - order(b) || a.uid - b.uid);
  return roots.length ? roots.map(draw) : [h("div", { class: "muted" }, "No cards in play.")];
}

function geCardList(cards, empty) {
  if (!Array.isArray(cards)) return h("span", {}, `${cards} hidden`);
  return cards.length ? cards.map((c) => geHover(h("span", { class: "ge-chip", tabindex: 0 }, c.name), c.name, geSpec(c.key), null))
    : h("span", { class: "muted" }, empty);
}

// The points pool as chips, one per type with points.
function gePool(v, p) {
  const chips = (v.point_types || []).map((t, i) => (p.pool[i] ? h("span", { class: ["ge-pt", `pt-${t}`] }, `${p.pool[i]} ${GE_POINT_WORDS[t] || t}`) : null)).filter(Boolean);
  return h("span", { class: "ge-pool" }, h("b", {}, "Points: "), chips.length ? chips : h("span", { class: "muted" }, "none"));
}

function geSide(v, seat, ctx, ix) {
  const p = v.players[seat];
  const you = ctx.seat === seat;
  const aimedHq = v.aim === -1 - seat;
  const hqOrders = ix.byId.get(-1 - seat) || [];
  return h("section", { class: ["ge-side", you && "mine", v.active === seat && "active"], dataset: { seat },
    style: { "--pc": seatColour(seat) } },
  h("header", { class: "ge-head" },
    h("b", { class: "ge-who" }, `${seatName(seat)} · ${GE_EMPIRES[p.empire] || p.empire}${you ? " (you)" : ""}`),
    h("span", { class: ["ge-hq", aimedHq && "aimed", hqOrders.length && "actionable"], dataset: { hq: seat },
      title: `Sector HQ: ${p.hq} damage; it falls at ${v.hq_limit}`,
      onclick: hqOrders.length ? (ev) => ctx.act(ev, `${seatName(seat)}'s Sector HQ`, hqOrders) : null },
    `Sector HQ damage ${p.hq}/${v.hq_limit}`, h("span", { class: "ge-bar" }, h("span", { style: { width: `${Math.min(100, 100 * p.hq / v.hq_limit)}%` } }))),
    h("span", { class: "ge-count" }, `deck ${p.deck} · hand ${p.hand_size} · plays ${p.plays}/3`),
    gePool(v, p)),
  h("div", { class: "ge-fleet" }, geFleet(v.units, seat, ctx, ix)),
  h("details", { class: "ge-piles" }, h("summary", {}, `Discard ${p.discard.length} · reserve ${Array.isArray(p.reserve) ? p.reserve.length : p.reserve}` +
    (p.aside.length ? ` · aside ${p.aside.length}` : "")),
  h("div", {}, h("b", {}, "Discard: "), geCardList(p.discard.slice().reverse(), "empty")),
  h("div", {}, h("b", {}, "Reserve: "), geCardList(p.reserve, "none")),
  p.aside.length ? h("div", {}, h("b", {}, "Set aside: "), geCardList(p.aside, "none")) : null,
  !you && p.hand.length ? h("div", {}, h("b", {}, "Seen in hand: "), geCardList(p.hand, "")) : null));
}

// Allocation remembers the last plan: the cards this seat paid for and the heavy weapons it
// loaded in its last allocation (read off its own cards in play after it), offered again as one
// order, "Pay and load as last turn", which sends the steps one after another and declares.
let gePlanQueue = [];
const gePlanKey = (state) => `starcom-ge-plan-${state.game_id}-${state.seat}`;

function geRememberPlan(state) {
  const v = state.view;
  if (state.seat === null || v.active !== state.seat || !["play-a", "fire", "play-b", "discard"].includes(v.phase)) return;
  const mine = v.units.filter((u) => u.owner === state.seat);
  const plan = { turn: v.players[state.seat].turns, paid: mine.filter((u) => u.paid).map((u) => u.uid),
    loaded: Object.fromEntries(mine.filter((u) => u.loaded).map((u) => [u.uid, u.loaded])) };
  try { localStorage.setItem(gePlanKey(state), JSON.stringify(plan)); } catch (e) { /* private mode: no memory */ }
}

// The steps of the last plan that are legal now, in order (pay first, then loads), or [].
function geLastPlanSteps(state, legal) {
  let plan = null;
  try { plan = JSON.parse(localStorage.getItem(gePlanKey(state)) || "null"); } catch (e) { plan = null; }
  if (!plan || plan.turn >= state.view.players[state.seat].turns) return [];
  const has = (a) => legal.some((e) => JSON.stringify(e.action) === JSON.stringify(a));
  const steps = plan.paid.map((uid) => ["pay", uid]).filter(has);
  const units = new Map(state.view.units.map((u) => [u.uid, u]));
  for (const [uid, n] of Object.entries(plan.loaded)) {
    const u = units.get(Number(uid));
    if (u && has(["load", Number(uid)])) for (let i = u.loaded; i < n; i++) steps.push(["load", Number(uid)]);
  }
  return steps;
}

// Send the next step of a plan being replayed, once the page may send again.
function geRunQueue(ctx) {
  if (!gePlanQueue.length || !ctx.legal.length) return;
  const next = gePlanQueue[0];
  // The plan is replayed; cards new since then may want paying too: declare only if none can be.
  if (next[0] === "allocate" && ctx.legal.some((e) => e.action[0] === "pay")) { gePlanQueue = []; return; }
  const entry = ctx.legal.find((e) => JSON.stringify(e.action) === JSON.stringify(next));
  if (!entry) { gePlanQueue = []; return; }
  gePlanQueue.shift();
  setTimeout(() => ctx.send(entry.action), 0);
}

// The reserve fleet is chosen card by card (there are hundreds of possible fleets): the cards of
// the legal fleets as buttons to add, the fleet so far with buttons to take a card out again,
// and the order that keeps exactly this fleet once it is one of the legal ones.
let geReserve = { step: -1, keys: [] };

function geWithin(small, big) {
  const left = big.slice();
  return small.every((k) => { const i = left.indexOf(k); if (i < 0) return false; left.splice(i, 1); return true; });
}

function geReservePicker(entries, state, ctx) {
  if (geReserve.step !== state.step) geReserve = { step: state.step, keys: [] };
  const chosen = geReserve.keys;
  const fleets = entries.map((e) => ({ e, keys: e.action.slice(1) })).filter((f) => f.keys.length);
  const exact = fleets.find((f) => f.keys.length === chosen.length && geWithin(chosen, f.keys));
  const keys = [...new Set(fleets.flatMap((f) => f.keys))];
  const nameOf = (k) => (geSpec(k) || { name: k }).name;
  keys.sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
  const change = (next) => { geReserve = { step: state.step, keys: next }; ctx.rerender(); };
  return h("div", { class: "ge-reserve" },
    h("p", { class: "small ge-walk" }, "Your reserve fleet waits beside your deck: your opponent sees only how many cards it holds, and " +
      "in a card-play phase you may swap a card from your hand for one of them. Click a card to add it (hover it to read it), " +
      "then keep the reserve. First game: one or two ships are a fine choice."),
    h("div", { class: "btns" }, keys.map((k) => geHover(h("button", { type: "button", class: "ge-add", dataset: { key: k },
      disabled: !fleets.some((f) => geWithin(chosen.concat([k]), f.keys)),
      onclick: () => change(chosen.concat([k])) }, `+ ${nameOf(k)}`), nameOf(k), geSpec(k), null))),
    h("div", { class: "ge-chosen" }, h("b", {}, "Reserve: "), chosen.length ? chosen.map((k, i) => h("button", {
      type: "button", class: "ge-remove", title: "Take it out again",
      onclick: () => change(chosen.filter((_, j) => j !== i)) }, `− ${nameOf(k)}`)) : h("span", { class: "muted" }, "nothing yet")),
    exact ? h("div", { class: "btns" }, ctx.controls([exact.e], { primary: true }))
      : h("p", { class: "muted small" }, chosen.length ? "Not a complete reserve fleet yet: add more." : ""));
}

function geChain(v) {
  if (!v.chain.length) return null;
  return h("section", { class: "ge-chain" }, h("b", {}, "Reaction chain (the top resolves first)"),
    v.chain.slice().reverse().map((link, i) => h("div", { class: ["ge-link", link.void && "void"], style: { color: seatColour(link.player) } },
      `${i === 0 ? "Top: " : ""}${link.words || `${seatName(link.player)} acts`}${link.void ? " (cancelled)" : ""}`)));
}

// The game summary's columns ([field, head, what it means]) and its chart (ge/summary.py).
const GE_SUMMARY_COLUMNS = [["hq_damage", "HQ", "damage on the Sector HQ"], ["cards_played", "Cards", "cards put into play"],
  ["volleys", "Vol", "volleys fired"], ["damage_dealt", "Dmg", "damage the volleys did"],
  ["cards_lost", "Lost", "own cards destroyed"]];
const GE_SUMMARY_CHART = { field: "hq_by_turn", title: "Sector HQ damage over the game", yLabel: "HQ damage",
  className: "hq-chart", aria: "Sector HQ damage of each player over the turns" };

GAME_TABLES.ge = {
  // The top bar: the turn and the phase.
  info(v, limit) {
    const turn = Math.max(...v.players.map((p) => p.turns), 1);
    return { text: `Turn ${turn} · ${GE_PHASES[v.phase] || v.phase}`,
      title: `Galactic Empires, ${v.edition} edition; ${seatName(v.active)} (${GE_EMPIRES[v.players[v.active].empire]}) is the active player` +
        (limit ? `; scored after turn ${limit}` : "") };
  },
  turns(v) { return Math.max(...v.players.map((p) => p.turns), 1); },
  decision(v) {
    if (v.priority !== null && v.priority !== undefined) return "react or pass";
    return v.phase === "setup" ? "choose your reserve fleet" : GE_PHASES[v.phase] || v.phase;
  },
  overReason(state) { return GE_ENDINGS[state.view.end] || (state.view.end ? cap(String(state.view.end)) : ""); },
  victory: "Your empire holds the sector.",

  // How the game went: the ending, then each side's numbers and its Sector HQ damage over the turns.
  summary(box, summary, opts) {
    const ending = GE_ENDINGS[summary && summary.reason] || "The game is over.";
    const turns = summary && Number.isFinite(summary.turns) ? ` ${summary.turns} turns were played.` : "";
    return drawSummary(box, summary, { reason: opts && opts.reason === false ? null : ending + turns,
      columns: GE_SUMMARY_COLUMNS, chart: GE_SUMMARY_CHART,
      note: (p) => (p.empire ? h("span", { class: "out-note" }, GE_EMPIRES[p.empire] || p.empire) : null) });
  },

  // The table itself (the board area), the orders panel and the hand.
  render(parts, state, ctx) {
    geLoadCards(ctx.rerender);
    gePopHide();
    const v = state.view;
    if (!ctx.replay) geRememberPlan(state);
    const ix = geIndex(ctx.legal);
    const me = state.seat === null ? 0 : state.seat;
    const other = 1 - me;
    const c = { ...ctx, aim: v.aim };
    fill(parts.table, h("div", { class: "ge-board" }, geSide(v, other, c, ix), geChain(v), geSide(v, me, c, ix)));
    if (parts.groups) this.renderOrders(parts, ix, c, state);  // a replay has neither orders nor a hand
    if (parts.hand) this.renderHand(parts.hand, parts.handTitle, state, ix, c);
    if (!ctx.replay) geRunQueue(ctx);
  },

  reset() { /* a plan being replayed goes on across decisions; Escape stops it */ },

  renderOrders(parts, ix, ctx, state) {
    const [, mainVerbs] = GE_GROUPS[0];
    const none = (ix.byVerb.get("reserve") || []).filter((e) => e.action.length === 1);  // keep no reserve
    const main = ctx.controls(mainVerbs.flatMap((verb) => ix.byVerb.get(verb) || []).concat(none), { primary: true });
    const v = state.view;
    if (v.phase === "allocate" && v.priority === null && ctx.legal.length && !gePlanQueue.length) {
      const steps = geLastPlanSteps(state, ctx.legal);
      if (steps.length) {
        const pays = steps.filter((a) => a[0] === "pay").length, loads = steps.length - pays;
        const what = [pays && `pay for ${pays} card${pays === 1 ? "" : "s"}`, loads && `load ${loads} heavy weapon${loads === 1 ? "" : "s"}`].filter(Boolean).join(", ");
        main.unshift(h("button", { type: "button", class: ["option", "primary", "ge-replan"], disabled: ctx.pending,
          title: `As in your last allocation: ${what}; then the allocation is declared, unless more can be paid`,
          onclick: () => { gePlanQueue = [...steps, ["allocate"]]; geRunQueue(ctx); } }, `Pay and load as last turn (${what})`));
      }
    }
    fill(parts.main, main);
    const boxes = [];
    for (const [title, verbs] of GE_GROUPS.slice(1)) {
      const entries = verbs.flatMap((verb) => ix.byVerb.get(verb) || []);
      if (verbs[0] === "reserve" && entries.length) {
        boxes.push(h("div", { class: "group" }, h("div", { class: "group-title" }, title), geReservePicker(entries, state, ctx)));
        continue;
      }
      if (entries.length) boxes.push(h("details", { class: "group", open: entries.length <= 12, dataset: { types: verbs.join(" ") } },
        h("summary", { class: "group-title" }, `${title} (${entries.length})`), h("div", { class: "btns" }, ctx.controls(entries))));
    }
    const known = new Set(GE_GROUPS.flatMap(([, verbs]) => verbs));
    const rest = [...ix.byVerb.entries()].filter(([verb]) => !known.has(verb)).flatMap(([, es]) => es);
    if (rest.length) boxes.push(h("details", { class: "group", open: true }, h("summary", { class: "group-title" }, `Other (${rest.length})`),
      h("div", { class: "btns" }, ctx.controls(rest))));
    fill(parts.groups, boxes);
  },

  renderHand(box, title, state, ix, ctx) {
    if (state.seat === null) { title.textContent = "Spectating — hands are hidden"; box.replaceChildren(); return; }
    const hand = state.view.players[state.seat].hand;
    title.textContent = `Your hand (${hand.length})`;
    if (ctx.passing) { box.replaceChildren(); return; }
    fill(box, hand.length ? hand.map((card) => {
      const spec = geSpec(card.key);
      const orders = ix.byId.get(card.uid) || [];
      return geHover(h("div", { class: ["card", "ge-card", orders.length ? "playable" : "unplayable"], dataset: { uid: card.uid, key: card.key }, tabindex: 0,
        onclick: orders.length ? (ev) => { gePopHide(); ctx.act(ev, card.name, orders); } : null },
      h("div", { class: "ckind" }, h("span", {}, spec ? [spec.empire !== "none" && spec.empire, spec.kind, spec.reaction && "reaction"]
        .filter(Boolean).join(" · ") : card.kind)),
      h("div", { class: "cname" }, card.name),
      geSymbols(spec, null),
      spec && Object.keys(spec.cost || {}).length ? h("div", { class: "ge-need" }, `needs ${gePts(spec.cost)} a turn`) : null,
      h("div", { class: "ctext" }, spec ? spec.text : ""),
      orders.length ? h("div", { class: "cplay" }, "▶ Play") : null), card.name, spec, null);
    }) : h("span", { class: "muted" }, "No cards in hand."));
  },
};
