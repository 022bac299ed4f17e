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
  ["Weapons fire", ["aim", "add", "shoot"]],
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

function geNumbers(spec) {
  if (!spec) return "";
  const parts = [];
  if (spec.strength) parts.push(`str ${spec.strength}`);
  if (spec.shields) parts.push(`shields ${spec.shields}`);
  if (spec.phasers) parts.push(`phasers ${spec.phasers}${spec.one_shot ? " (one shot)" : ""}`);
  if (spec.heavy) parts.push(`heavy ${spec.heavy}`);
  if (spec.card_damage) parts.push(`damage ${spec.card_damage}`);
  const pts = (o) => Object.entries(o || {}).map(([k, n]) => `${n} ${GE_POINT_MARKS[k] || k}`).join(", ");
  if (Object.keys(spec.cost || {}).length) parts.push(`costs ${pts(spec.cost)}`);
  if (Object.keys(spec.generates || {}).length) parts.push(`makes ${pts(spec.generates)}`);
  return parts.join(" · ");
}

// What the counters on a card in play say, in short words.
function geMarks(u) {
  const out = [];
  if (!u.engaged) out.push("disengaged");
  if (u.damage) out.push(`${u.damage} damage`);
  if (u.shield_damage) out.push(`${u.shield_damage} shield damage`);
  if (u.card_damage) out.push(`${u.card_damage} card damage`);
  if (u.loaded) out.push(`${u.loaded} loaded`);
  if (u.fired) out.push(`fired ${u.fired}`);
  if (u.empty) out.push("phaser spent");
  if (u.age) out.push(`${u.age} turn${u.age === 1 ? "" : "s"} in play`);
  if (u.used) out.push("used");
  if (u.new) out.push("new");
  if (u.partner !== null && u.partner !== undefined) out.push("combined");
  return out;
}

function geCardTitle(name, spec) {
  return [name, spec ? `${spec.kind}${spec.class && spec.class !== spec.kind ? ` (${spec.class})` : ""}` : null,
    geNumbers(spec), spec ? spec.text : null].filter(Boolean).join("\n");
}

// One card in play with what sits on it. A card with orders is a button: one order is sent at
// once, several open a menu.
function geUnit(u, kids, ctx, ix) {
  const spec = geSpec(u.key);
  const orders = ix.byId.get(u.uid) || [];
  const el = h("div", {
    class: ["ge-unit", `k-${u.kind}`, !u.engaged && "disengaged", orders.length && "actionable",
      ctx.aim === u.uid && "aimed"],
    dataset: { uid: u.uid, key: u.key }, style: { "--pc": seatColour(u.owner) },
    title: geCardTitle(u.name, spec),
    onclick: orders.length ? (ev) => { ev.stopPropagation(); ctx.act(ev, u.name, orders); } : null,
  },
  h("div", { class: "ge-name" }, u.name),
  h("div", { class: "ge-kind" }, spec ? `${u.kind} · ${geNumbers(spec)}` : u.kind),
  geMarks(u).length ? h("div", { class: "ge-marks" }, geMarks(u).join(" · ")) : null,
  orders.length ? h("div", { class: "ge-orders" }, `▶ ${orders.length} order${orders.length === 1 ? "" : "s"}`) : null,
  kids.length ? h("div", { class: "ge-on" }, kids) : null);
  return el;
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
  return cards.length ? cards.map((c) => h("span", { class: "ge-chip", title: geCardTitle(c.name, geSpec(c.key)) }, c.name))
    : h("span", { class: "muted" }, empty);
}

function geSide(v, seat, ctx, ix) {
  const p = v.players[seat];
  const you = ctx.seat === seat;
  const left = v.hq_limit - p.hq;
  const aimedHq = v.aim === -1 - seat;
  const hqOrders = ix.byId.get(-1 - seat) || [];
  const pool = (v.point_types || []).map((t, i) => (p.pool[i] ? `${p.pool[i]} ${GE_POINT_MARKS[t] || t}` : null)).filter(Boolean);
  return h("section", { class: ["ge-side", you && "mine", v.active === seat && "active"], dataset: { seat },
    style: { "--pc": seatColour(seat) } },
  h("header", { class: "ge-head" },
    h("b", { class: "ge-who" }, `${seatName(seat)} · ${GE_EMPIRES[p.empire] || p.empire}${you ? " (you)" : ""}`),
    h("span", { class: ["ge-hq", aimedHq && "aimed"], title: `Sector HQ: ${p.hq} damage of ${v.hq_limit}`,
      onclick: hqOrders.length ? (ev) => ctx.act(ev, "Sector HQ", hqOrders) : null },
    `Sector HQ ${left}/${v.hq_limit}`, h("span", { class: "ge-bar" }, h("span", { style: { width: `${Math.max(0, 100 * left / v.hq_limit)}%` } }))),
    h("span", {}, `deck ${p.deck}`), h("span", {}, `hand ${p.hand_size}`),
    h("span", {}, `command ${p.slots / 2}`),
    h("span", { class: "ge-pool", title: "Points made this turn and not yet spent" }, pool.length ? pool.join(" · ") : "no points")),
  h("div", { class: "ge-fleet" }, geFleet(v.units, seat, ctx, ix)),
  h("details", { class: "ge-piles" }, h("summary", {}, `Discard ${p.discard.length} · reserve ${Array.isArray(p.reserve) ? p.reserve.length : p.reserve}` +
    (p.aside.length ? ` · aside ${p.aside.length}` : "")),
  h("div", {}, h("b", {}, "Discard: "), geCardList(p.discard.slice().reverse(), "empty")),
  h("div", {}, h("b", {}, "Reserve: "), geCardList(p.reserve, "none")),
  p.aside.length ? h("div", {}, h("b", {}, "Set aside: "), geCardList(p.aside, "none")) : null,
  !you && p.hand.length ? h("div", {}, h("b", {}, "Seen in hand: "), geCardList(p.hand, "")) : null));
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
    h("p", { class: "muted small" }, "Pick the cards of your deck to hold back in reserve, one at a time; keep the reserve once it is complete."),
    h("div", { class: "btns" }, keys.map((k) => h("button", { type: "button", class: "ge-add", dataset: { key: k },
      disabled: !fleets.some((f) => geWithin(chosen.concat([k]), f.keys)),
      title: geCardTitle(nameOf(k), geSpec(k)), onclick: () => change(chosen.concat([k])) }, `+ ${nameOf(k)}`))),
    h("div", { class: "ge-chosen" }, h("b", {}, "Reserve: "), chosen.length ? chosen.map((k, i) => h("button", {
      type: "button", class: "ge-remove", title: "Take it out again",
      onclick: () => change(chosen.filter((_, j) => j !== i)) }, `− ${nameOf(k)}`)) : h("span", { class: "muted" }, "nothing yet")),
    exact ? h("div", { class: "btns" }, ctx.controls([exact.e], { primary: true }))
      : h("p", { class: "muted small" }, chosen.length ? "Not a complete reserve fleet yet: add more." : ""));
}

// A chain link's action (the notation's words: "play moon#3 fleet:0") in names: the card of a
// key#id word (from the glossary), a seat's fleet, or its Sector HQ when the link fires at it.
function geLinkWords(link) {
  const hq = link.kind === "fire" || link.kind === "shoot";
  return String(link.action).split(" ").slice(1).join(" ")
    .replace(/([a-z0-9_-]+)#\d+/g, (_, key) => (geSpec(key) || { name: key.replace(/_/g, " ") }).name)
    .replace(/\b(fleet|hq):(\d+)/g, (_, what, seat) => `${seatName(Number(seat))}'s ${what === "hq" || hq ? "Sector HQ" : "fleet"}`);
}

function geChain(v) {
  if (!v.chain.length) return null;
  return h("section", { class: "ge-chain" }, h("b", {}, "Reaction chain"),
    v.chain.slice().reverse().map((link, i) => h("div", { style: { color: seatColour(link.player) }, title: link.action },
      `${i === 0 ? "Top: " : ""}${seatName(link.player)} · ${link.kind}`, geLinkWords(link) ? ` · ${geLinkWords(link)}` : "")));
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
    const v = state.view;
    const ix = geIndex(ctx.legal);
    const me = state.seat === null ? 0 : state.seat;
    const other = 1 - me;
    const c = { ...ctx, aim: v.aim };
    fill(parts.table, h("div", { class: "ge-board" }, geSide(v, other, c, ix), geChain(v), geSide(v, me, c, ix)));
    if (parts.groups) this.renderOrders(parts, ix, c, state);  // a replay has neither orders nor a hand
    if (parts.hand) this.renderHand(parts.hand, parts.handTitle, state, ix, c);
  },

  renderOrders(parts, ix, ctx, state) {
    const [, mainVerbs] = GE_GROUPS[0];
    const none = (ix.byVerb.get("reserve") || []).filter((e) => e.action.length === 1);  // keep no reserve
    fill(parts.main, ctx.controls(mainVerbs.flatMap((verb) => ix.byVerb.get(verb) || []).concat(none), { primary: true }));
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
      return h("div", { class: ["card", "ge-card", orders.length ? "playable" : "unplayable"], dataset: { uid: card.uid, key: card.key },
        title: geCardTitle(card.name, spec),
        onclick: orders.length ? (ev) => ctx.act(ev, card.name, orders) : null },
      h("div", { class: "ckind" }, h("span", {}, spec ? [spec.empire !== "none" && spec.empire, spec.kind, spec.reaction && "reaction"]
        .filter(Boolean).join(" · ") : card.kind)),
      h("div", { class: "cname" }, card.name),
      h("div", { class: "ctext" }, spec ? [geNumbers(spec), h("br"), spec.text] : ""),
      orders.length ? h("div", { class: "cplay" }, "▶ Play") : null);
    }) : h("span", { class: "muted" }, "No cards in hand."));
  },
};
