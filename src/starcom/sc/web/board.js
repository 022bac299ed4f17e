// Star Commander's drawing for the game and replay pages: the board, player cards and decks from
// a view. The first of Star Commander's table scripts (loaded after the shared dom.js and
// seats.js); pure functions of the view plus optional click handlers. Text from the view only
// ever becomes text nodes (see dom.js).
//
// The board keeps every text at MIN_PX screen pixels or more, whatever the zoom: each font size
// is the larger of its design size and MIN_PX in board units, and a detail that no longer fits
// its tile at that size is left out (it stays in the card popup and the tooltip). Zooming in
// brings the details back.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const DOMAIN_COLOURS = { industry: "#f39c4a", statecraft: "#b48cff", science: "#35d0ba", none: "#c9d3f2" };
const DOMAINS = ["industry", "statecraft", "science"];
// Half sizes of a diamond tile, in SVG units.
const HW = 150, HH = 108;
const BOARD_PAD = 8;
// The smallest text on the board, in screen pixels (a little above the 11 px floor, for rounding).
const MIN_PX = 11.5;

// opts.changed: seats whose numbers just changed (highlighted for a moment).
function drawPlayers(box, v, seats, me, opts) {
  const changed = (opts && opts.changed) || new Set();
  fill(box, v.players.map((p) => {
    const seat = seats[p.seat] || {};
    const away = seat.connected === false && (seat.kind || "human") === "human" && seat.claimed !== false ? " · away" : "";
    const status = seatStatus(seat);
    return h("section", {
      class: ["panel", "player-card", p.seat === v.active && "active", !p.alive && "dead", changed.has(p.seat) && "changed"],
      style: { "--pc": seatColour(p.seat) }, dataset: { seat: p.seat },
    },
    h("div", { class: "row" },
      h("span", { class: "name", style: { color: seatColour(p.seat) } }, seatName(p.seat), p.seat === me ? " (you)" : ""),
      h("span", { class: "stats" },
        h("span", { title: "credits" }, `${p.credits} cr`),
        h("span", { title: "cards in hand" }, `${p.hand_size} card${p.hand_size === 1 ? "" : "s"}`),
        h("span", { title: "developments on the board" }, `${p.developments} dev`)),
      h("span", { class: "tag seat-kind" }, seatLabel(seat), away, p.alive ? "" : " · out")),
    status && h("div", { class: "row" },
      h("span", { class: `tag seat-status ${status[2]}`, title: status[1] }, status[0])),
    p.technologies.length ? h("div", { class: "techs" }, p.technologies.map(chip)) : null);
  }));
}

function chip(card) {
  return h("span", { class: "chip", style: { "--dc": DOMAIN_COLOURS[card.domain] || "#888" }, dataset: { card: card.id },
    title: `${card.name} (${card.domain} ${card.kind}): ${card.text}` }, card.name);
}

function drawDecks(box, v) {
  const rows = [];
  DOMAINS.forEach((d, i) => rows.push([`${cap(d)} deck`, `${v.decks[i]} (${v.discards[i].length} discarded)`]));
  rows.push(["System deck", v.system_deck]);
  for (const [name, n] of Object.entries(v.supply)) rows.push([name, n]);
  fill(box, rows.map(([k, n]) => [h("span", {}, k), h("span", {}, n)]));
}

function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, val] of Object.entries(attrs || {})) {
    // Presentation attributes (fill, stroke, ...) only: a style attribute breaks the CSP, on* is script.
    if (k === "style" || k.startsWith("on")) throw new Error(`svg(): ${k} is not allowed`);
    el.setAttribute(k, val);
  }
  if (parent) parent.appendChild(el);
  return el;
}

function text(parent, x, y, str, attrs) {
  const t = svg("text", { x, y, "text-anchor": "middle", "dominant-baseline": "middle", ...attrs }, parent);
  t.textContent = str;
  return t;
}

function boardDefs(root) {
  const defs = svg("defs", {}, root);
  const pat = svg("pattern", { id: "back", width: 14, height: 14, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
  svg("rect", { width: 14, height: 14, fill: "#141b36" }, pat);
  svg("rect", { width: 4, height: 14, fill: "#1c2650" }, pat);
  for (const [d, col] of Object.entries(DOMAIN_COLOURS)) {
    const g = svg("radialGradient", { id: `dom-${d}`, cx: "50%", cy: "40%", r: "65%" }, defs);
    svg("stop", { offset: "0%", "stop-color": col, "stop-opacity": 0.34 }, g);
    svg("stop", { offset: "100%", "stop-color": "#0b1022", "stop-opacity": 0.95 }, g);
  }
}

// ---------------------------------------------------------------- geometry

// The whole board in SVG units: {x, y, w, h}.
function boardBounds(n) {
  return { x: -n * HW - BOARD_PAD, y: -HH - BOARD_PAD, w: 2 * n * HW + 2 * BOARD_PAD, h: 2 * n * HH + 2 * BOARD_PAD };
}

// Grid cell of a position after `rot` quarter turns (each turn maps row r, column c to c, n-1-r).
function turnCell(pos, n, rot) {
  let r = Math.floor(pos / n), c = pos % n;
  for (let i = 0; i < ((rot % 4) + 4) % 4; i++) [r, c] = [c, n - 1 - r];
  return [r, c];
}

// Centre of a tile in SVG units; the cell with the largest row + column is the bottom corner.
function tileCentre(pos, n, rot) {
  const [r, c] = turnCell(pos, n, rot);
  return [(c - r) * HW, (r + c) * HH];
}

// The quarter turns that bring `seat`'s homeworld to the bottom corner (0 for spectators).
function seatRotation(v, seat) {
  if (seat === null || seat === undefined || !v.players[seat]) return 0;
  const home = v.players[seat].homeworld, n = v.config.size;
  let best = 0, bestSum = -1;
  for (let rot = 0; rot < 4; rot++) {
    const [r, c] = turnCell(home, n, rot);
    if (r + c > bestSum) { best = rot; bestSum = r + c; }
  }
  return best;
}

// The drawn diamond's size relative to the tile's cell (a thin gap between systems).
const TILE_K = 0.965;
// Width of the drawn diamond at height y inside a tile, less a margin for the tokens' outlines.
const roomAt = (y) => Math.max(0, 2 * HW * (TILE_K - Math.abs(y) / HH) - 8);
// Width of the diamond at height y (|y| < HH) inside a tile.
const widthAt = (y) => Math.max(0, 2 * HW * (1 - Math.abs(y) / HH));
// Rough width of a string in a bold sans font of size f (for fitting; no layout needed).
const textWidth = (str, f) => String(str).length * f * 0.6;

// Cuts the text of element `t` to fit `width` units ("Refin…"), measured as drawn (an estimate
// when the board is not laid out yet). False when not even three letters fit.
function fitTextEl(t, str, width) {
  t.textContent = str;
  const measure = () => t.getComputedTextLength() || textWidth(t.textContent, Number(t.getAttribute("font-size")));
  let len = measure();
  if (len <= width) return true;
  let n = Math.floor(str.length * width / len);
  while (n >= 3) {
    t.textContent = str.slice(0, n - 1) + "…";
    len = measure();
    if (len <= width) return true;
    n -= 1;
  }
  return false;
}

// ---------------------------------------------------------------- the board

// Draws view `v` into the <svg> `root`. opts (all optional): ix (the legal actions indexed by
// game.js), selected (vessel id), onTile/onVessel (click handlers), rotation (quarter turns),
// view ({x, y, w, h}: the visible part, for zoom and pan), changed ({sites, vessels}: Sets to
// highlight, with their start time `at`), marked ({sites, vessels}: the hint's), picks
// ({sites, vessels}: what a pending card may target). Returns the whole board's bounds.
function drawBoard(root, v, opts) {
  const o = opts || {};
  const ix = o.ix || { byVessel: {}, targets: {}, atPos: {} };
  const selected = o.selected === undefined ? null : o.selected;
  const n = v.config.size, rot = o.rotation || 0;
  const base = boardBounds(n);
  const vb = o.view || base;
  root.replaceChildren();
  root.setAttribute("viewBox", `${vb.x} ${vb.y} ${vb.w} ${vb.h}`);
  // Screen pixels per board unit ("meet": the smaller ratio wins); 1 before the first layout.
  const r = root.getBoundingClientRect();
  const ppu = r.width > 0 && r.height > 0 ? Math.min(r.width / vb.w, r.height / vb.h) : 1;
  const lod = { k: MIN_PX / ppu };
  lod.f = (design) => Math.max(design, lod.k);
  boardDefs(root);
  const dests = {};
  const targets = selected !== null ? (ix.targets[selected] || {}) : {};
  if (selected !== null) {
    for (const e of ix.byVessel[selected] || []) {
      if (e.action.type === "jump" || e.action.type === "retreat") (dests[e.action.to] ||= []).push(e);
    }
  }
  const homes = {};
  v.players.forEach((p) => { homes[p.homeworld] = p.seat; });
  const vesselsAt = {};
  for (const ves of v.vessels) if (ves.pos !== null && ves.pos >= 0) (vesselsAt[ves.pos] ||= []).push(ves);
  const none = { sites: new Set(), vessels: new Set() };
  const changed = o.changed || none, marked = o.marked || none, picks = o.picks || none;
  const flashDelay = changed.at ? -(Date.now() - changed.at) : 0;
  // Bottom row last, so tokens that reach over a tile's lower edge stay on top of the next row.
  const order = v.board.slice().sort((a, b) => tileCentre(a.pos, n, rot)[1] - tileCentre(b.pos, n, rot)[1]);
  for (const site of order) {
    const [x, y] = tileCentre(site.pos, n, rot);
    drawTile(root, site, x, y, {
      dest: dests[site.pos], here: ix.atPos[site.pos] || [], home: homes[site.pos],
      combat: v.combat_at === site.pos, vessels: vesselsAt[site.pos] || [], ix, targets, selected,
      onTile: o.onTile, onVessel: o.onVessel, lod, changed, marked, picks, flashDelay, view: vb,
    });
  }
  return base;
}

function drawTile(root, site, x, y, o) {
  const g = svg("g", { class: "tile", transform: `translate(${x},${y})`, "data-pos": site.pos, "data-name": site.name }, root);
  const { lod } = o;
  const k = TILE_K;
  const pts = `0,${-HH * k} ${HW * k},0 0,${HH * k} ${-HW * k},0`;
  const owner = site.owner;
  const fill = site.face_up ? `url(#dom-${site.domain in DOMAIN_COLOURS ? site.domain : "none"})` : "url(#back)";
  const stroke = owner >= 0 ? seatColour(owner) : site.face_up ? "#42507e" : "#2a3563";
  svg("polygon", { points: pts, fill, stroke, class: "tile-shape", "stroke-width": owner >= 0 ? 3.5 : 2 }, g);
  if (o.home !== undefined) {
    svg("polygon", { points: `0,${-HH * 0.86} ${HW * 0.86},0 0,${HH * 0.86} ${-HW * 0.86},0`, fill: "none",
      stroke: seatColour(o.home), "stroke-opacity": 0.45, "stroke-width": 1.5, "stroke-dasharray": "3 5" }, g);
  }
  if (o.changed.sites.has(site.pos)) flash(g, pts, o.flashDelay);
  if (o.marked.sites.has(site.pos)) g.classList.add("hinted");
  if (o.picks.sites.has(site.pos)) g.classList.add("pick", "clickable");
  // The system's name (a1, b2, ...) comes first: it is how the log and the orders name the tile.
  const nf = lod.f(15);
  // Where the view cuts the tile's left tip off, the name moves right to stay readable.
  let nx = -HW + 8 + nf * 0.9 + textWidth(site.name, nf) / 2;
  if (o.view) nx = Math.min(Math.max(nx, o.view.x - x + nf * 0.4 + textWidth(site.name, nf) / 2), HW - 8 - textWidth(site.name, nf) / 2);
  text(g, nx, 0, site.name, { fill: "#8f9cc2", "font-size": nf, "font-weight": 600, class: "site-name" });
  if (site.face_up) {
    const dcol = DOMAIN_COLOURS[site.domain] || DOMAIN_COLOURS.none;
    const home = o.home !== undefined;
    const full = home ? `${seatName(o.home)} ${site.card}` : site.card;
    const small = lod.k > 12;  // no room for the domain line: the title moves down where the tile is wider
    const tf = lod.f(full.length > 14 ? 13 : 15);
    const ty = small ? -30 - tf / 2 : -62;
    const tt = text(g, 0, ty, full, { fill: "#f1f4ff", "font-size": tf, "font-weight": 700, class: "site-title" });
    if (!fitTextEl(tt, full, widthAt(ty) * 0.95) && !(home && fitTextEl(tt, `${seatName(o.home)} ⌂`, Infinity))) tt.remove();
    if (!small) {
      const dom = site.domain === "none" ? "" : site.domain.toUpperCase() + " · ";
      text(g, 0, -44, `${dom}max ${site.max_dev}`, { fill: dcol, "font-size": lod.f(10.5), "letter-spacing": 1.2, "font-weight": 600 });
    }
    drawPips(g, site, small ? -20 : -26);
    const t = svg("title", {}, g);
    t.textContent = `${site.name}: ${site.card} (${site.domain}, up to ${site.max_dev} developments) — ${site.text}`;
  } else {
    text(g, 0, -50, "?", { fill: "#3b4a86", "font-size": lod.f(40), "font-weight": 700 });
    if (lod.k <= 12) text(g, 0, -22, "UNEXPLORED", { fill: "#5e6ca3", "font-size": lod.f(10), "letter-spacing": 2 });
  }
  drawFlags(g, site, lod);
  if (o.combat) g.classList.add("combat");
  if (o.dest) {
    g.classList.add("dest", "clickable");
    if (o.dest.length === 1) g.dataset.action = JSON.stringify(o.dest[0].action);
  }
  if (o.here.length) {
    g.classList.add("clickable");
    const br = Math.max(11, lod.k * 0.8);
    const badge = svg("g", { class: "badge", transform: `translate(${HW - 30 - br},${-br - 2})` }, g);
    svg("circle", { r: br, fill: "#1769b8", stroke: "#6ee7ff", "stroke-width": 1.5 }, badge);
    text(badge, 0, 1, "+", { fill: "#fff", "font-size": lod.f(16), "font-weight": 700 });
  }
  if (o.onTile) g.addEventListener("click", (ev) => o.onTile(ev, site, o));
  drawVessels(g, o.vessels, o);
}

// A glow over the tile that fades out (CSS animation); `delay` (<= 0) resumes it after a redraw.
function flash(g, pts, delay) {
  const p = svg("polygon", { points: pts, class: "flash", fill: "none" }, g);
  if (delay) p.style.animationDelay = `${delay}ms`;
  g.classList.add("changed");
}

function drawFlags(g, site, lod) {
  const flags = [];
  if (site.under_siege) flags.push("SIEGE");
  if (site.contested) flags.push("CONTESTED");
  if (site.interdicted_by && site.interdicted_by.length) flags.push("INTERDICTED");
  if (!flags.length) return;
  const f = lod.f(9);
  if (f <= 13) {
    flags.forEach((s, i) => text(g, HW - 58, -8 + i * (f + 4), s, { fill: "#ff7b93", "font-size": f, "font-weight": 700, "letter-spacing": 1 }));
  } else {  // no room for the words: one warning mark; the words are in the tooltip and the popup
    text(g, HW - 34 - f / 2, f * 0.55, "⚠", { fill: "#ff7b93", "font-size": f, "font-weight": 700 });
  }
  const t = svg("title", {}, g);
  t.textContent = `${site.name}: ${flags.join(", ").toLowerCase()}`;
}

function drawPips(g, site, y) {
  const max = Math.max(site.max_dev || 0, site.devs || 0);
  const step = 15, x0 = -((max - 1) * step) / 2;
  for (let i = 0; i < max; i++) {
    const filled = i < site.devs;
    svg("circle", { cx: x0 + i * step, cy: y, r: 5.5, fill: filled ? seatColour(site.owner) : "none",
      stroke: filled ? "#fff" : "#6c79a8", "stroke-width": filled ? 1 : 1.3, class: filled ? "pip on" : "pip" }, g);
  }
}

// A short name for a small token, from the name alone: initials of several words ("DS"), else
// the first `len` letters ("Cor", "Co").
function abbreviate(name, len = 3) {
  const words = String(name).split(/\s+/).filter(Boolean);
  return words.length > 1 ? words.map((w) => w[0].toUpperCase()).join("").slice(0, len) : String(name).slice(0, len);
}

// A name that fits a full token: the last word of a long name, cut to 9 letters.
function tokenName(name) {
  const s = String(name);
  if (s.length <= 9) return s;
  const last = s.split(/\s+/).pop();
  return last.length <= 9 ? last : last.slice(0, 8) + ".";
}

// The space for ships: the lower half of a tile, rows from FLEET_Y down to FLEET_Y + FLEET_H.
// Every row stays inside the diamond (no token reaches onto the next system).
const FLEET_W = 250, FLEET_H = 98, FLEET_Y = 6, ROW_SLACK = 0;

// Puts `tokens` into rows of `w` x `h` (gap apart) in the narrowing lower half of a tile, as many
// per row as fit there. The rows, or null when the tokens do not fit.
function fillRows(tokens, w, h, gap) {
  const rows = [];
  let i = 0;
  while (i < tokens.length) {
    const bottom = FLEET_Y + (rows.length + 1) * h + rows.length * gap;
    if (bottom > FLEET_Y + FLEET_H + 1) return null;
    const room = Math.min(FLEET_W, roomAt(bottom) + ROW_SLACK);
    const cap = Math.floor((room + gap) / (w + gap));
    if (cap < 1) return null;
    rows.push(tokens.slice(i, i + cap));
    i += cap;
  }
  return rows;
}

// Vessels of one owner, card and damage, as one token with a count (for a crowded tile).
function stackVessels(vessels) {
  const groups = new Map();
  for (const v of vessels) {
    const key = `${v.owner}|${v.name}|${v.damage}|${v.attack}|${v.hp}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(v);
  }
  return [...groups.values()];
}

// How the tokens of one tile are drawn at this zoom, the most detailed way that fits: "full"
// (name, then attack and hit points), "compact" (one line: short name, attack, hit points), the
// same with alike vessels stacked ("3×Cor"), or "tag" (a coloured mark with the count and two
// letters; the popup tells the rest). Every text is at least lod.k units.
function fleetLayout(vessels, lod) {
  const singles = vessels.map((v) => [v]);
  const count = vessels.length;
  const s = Math.max(count > 6 ? 0.62 : count > 3 ? 0.8 : 1, lod.k / 12);
  let rows = fillRows(singles, 74 * s, 40 * s, 6 * s);
  if (rows) return { mode: "full", s, w: 74 * s, h: 40 * s, gap: 6 * s, rows };
  const f = Math.max(12, lod.k), h = f * 1.5, gap = 5;
  // two-digit hit points ("♥10") need one more letter's room
  const wide = vessels.some((v) => v.hp - v.damage >= 10 || v.attack >= 10) ? 0.7 : 0;
  const compact = (chars) => f * (chars * 0.6 + 3.2 + wide) + 14;
  rows = fillRows(singles, compact(3), h, gap);
  if (rows) return { mode: "compact", f, w: compact(3), h, gap, rows };
  const stacks = stackVessels(vessels);
  rows = fillRows(stacks, compact(5), h, gap);
  if (rows) return { mode: "compact", f, w: compact(5), h, gap, rows };
  // Tags: a coloured mark with a count and two letters ("2Co"), as many as fit (the rest overflow).
  const tagW = f * 0.64 * (stacks.some((st) => st.length > 1) ? 3 : 2) + 14;
  rows = fillRows(stacks, tagW, h, 4);
  if (rows) return { mode: "tag", f, w: tagW, h, gap: 4, rows };
  // Still too many: one token per owner with the count ("×5"), else one for the whole tile.
  const byOwner = new Map();
  for (const v of vessels) {
    if (!byOwner.has(v.owner)) byOwner.set(v.owner, []);
    byOwner.get(v.owner).push(v);
  }
  const countW = (groups) => f * 0.64 * (String(Math.max(...groups.map((g) => g.length))).length + 1) + 14;
  const owners = [...byOwner.values()];
  rows = fillRows(owners, countW(owners), h, 4);
  if (rows) return { mode: "count", f, w: countW(owners), h, gap: 4, rows };
  const all = [vessels];
  let w = countW(all), size = f, hh = h;
  // At an extreme zoom out even one token may not fit its text size: it shrinks to the tile.
  while (!fillRows(all, w, hh, 4) && size > 4) { size *= 0.85; hh = size * 1.5; w = size * 0.64 * (String(count).length + 1) + 14; }
  return { mode: "count", f: size, w, h: hh, gap: 4, rows: [all] };
}

function drawVessels(g, vessels, o) {
  if (!vessels.length) return;
  const L = fleetLayout(vessels, o.lod);
  L.rows.forEach((row, ri) => {
    const y = FLEET_Y + ri * (L.h + L.gap) + L.h / 2;
    const total = row.length * L.w + (row.length - 1) * L.gap;
    row.forEach((stack, i) => drawVessel(g, stack, -total / 2 + i * (L.w + L.gap) + L.w / 2, y, L, o));
  });
}

// One token: a vessel, or a stack of alike vessels (the first one stands for them; a click picks
// the next of them that has orders).
function drawVessel(g, stack, x, y, L, o) {
  const ves = stack[0], n = stack.length;
  const ids = stack.map((v) => v.id);
  const any = (test) => ids.some(test);
  const col = seatColour(ves.owner);
  const cls = ["vessel", `mode-${L.mode}`];
  if (any((id) => (o.ix.byVessel[id] || []).length)) cls.push("selectable");
  if (any((id) => o.selected === id)) cls.push("selected");
  const aimed = ids.flatMap((id) => o.targets[id] || []);
  if (aimed.length) cls.push("target");
  if (any((id) => o.changed.vessels.has(id))) cls.push("changed");
  if (any((id) => o.marked.vessels.has(id))) cls.push("hinted");
  if (any((id) => o.picks.vessels.has(id))) cls.push("pick");
  const vg = svg("g", { class: cls.join(" "), transform: `translate(${x},${y})`, "data-vessel": ves.id, "data-name": ves.name }, g);
  if (n > 1) { vg.dataset.vessels = ids.join(" "); vg.dataset.count = n; }
  if (aimed.length === 1) vg.dataset.action = JSON.stringify(aimed[0].action);
  if (cls.includes("changed") && o.flashDelay) vg.style.animationDelay = `${o.flashDelay}ms`;
  const station = ves.kind === "station";
  const { w, h } = L;
  const left = ves.hp - ves.damage;
  const many = n > 1 ? `${n}×` : "";
  if (L.mode === "count") {
    // A crowd: one token per owner (or one for all) with how many there are; the popup and the
    // tooltip list them.
    const owners = new Set(stack.map((v) => v.owner));
    const fillCol = owners.size === 1 ? col : "#c9d3f2";
    svg("rect", { class: "vbody tag count", x: -w / 2, y: -h / 2, width: w, height: h, rx: h / 2,
      fill: fillCol, stroke: "#0c1226", "stroke-width": 2 }, vg);
    text(vg, 0, 1, `×${n}`, { fill: "#0c1226", "font-size": L.f, "font-weight": 800, class: "vcount" });
  } else if (L.mode === "tag") {
    svg("rect", { class: "vbody tag", x: -w / 2, y: -h / 2, width: w, height: h, rx: station ? 3 : h / 2,
      fill: col, stroke: ves.damage ? "#ff7b93" : "#0c1226", "stroke-width": 2 }, vg);
    text(vg, 0, 1, `${n > 1 ? n : ""}${abbreviate(ves.name, 2)}`, { fill: "#0c1226", "font-size": L.f, "font-weight": 800 });
  } else if (L.mode === "compact") {
    const f = L.f;
    svg("rect", { class: "vbody", x: -w / 2, y: -h / 2, width: w, height: h, rx: station ? 3 : h / 2.4,
      fill: "#0c1226", stroke: col, "stroke-width": 2, opacity: ves.fresh ? 0.8 : 1 }, vg);
    svg("rect", { x: -w / 2 + 3, y: -h / 2 + 3, width: 4, height: h - 6, rx: 2, fill: col }, vg);
    // count and short name, then attack (a small star) and hit points, on one line
    const name = many + abbreviate(ves.name);
    const nameW = textWidth(n > 1 ? "MMMMM" : "MMM", f);
    let cx = -w / 2 + 10;
    text(vg, cx + nameW / 2, 1, name, { fill: "#fff", "font-size": f, "font-weight": 700, class: "vname" });
    cx += nameW + f * 0.3;
    star(vg, cx + f * 0.35, 0, f * 0.36);
    text(vg, cx + f * 1.05, 1, `${ves.attack}`, { fill: "#ffcf70", "font-size": f, "font-weight": 700 });
    text(vg, w / 2 - 6 - textWidth(`♥${left}`, f) / 2, 1, `♥${left}`,
      { fill: ves.damage ? "#ff7b93" : "#9df0b0", "font-size": f, "font-weight": 700 });
  } else {
    const s = L.s;
    svg("rect", { class: "vbody", x: -w / 2, y: -h / 2, width: w, height: h, rx: station ? 3 : h / 2.4,
      fill: "#0c1226", stroke: col, "stroke-width": 2, opacity: ves.fresh ? 0.8 : 1 }, vg);
    svg("rect", { x: -w / 2 + 3, y: -h / 2 + 3, width: 5 * s, height: h - 6, rx: 2, fill: col }, vg);
    text(vg, 4 * s, -h / 2 + 12 * s, tokenName(ves.name), { fill: "#fff", "font-size": 12 * s, "font-weight": 700, class: "vname" });
    // A small four-pointed star stands for attack (the crossed-swords glyph is too thin here).
    const ay = h / 2 - 11 * s;
    star(vg, -19 * s, ay, 5 * s);
    text(vg, -7 * s, ay, `${ves.attack}`, { fill: "#ffcf70", "font-size": 12.5 * s, "font-weight": 700 });
    text(vg, 20 * s, ay, `♥${left}${ves.damage ? "/" + ves.hp : ""}`,
      { fill: ves.damage ? "#ff7b93" : "#9df0b0", "font-size": 12.5 * s, "font-weight": 700 });
  }
  const t = svg("title", {}, vg);
  if (L.mode === "count") {
    const names = new Map();
    for (const v of stack) { const k = `${seatName(v.owner)}'s ${v.name}`; names.set(k, (names.get(k) || 0) + 1); }
    t.textContent = [...names].map(([k, c]) => `${c}× ${k}`).join(", ");
  } else t.textContent = `${many}${seatName(ves.owner)}'s ${ves.name}: attack ${ves.attack}, hit points ${left}/${ves.hp}, speed ${ves.speed}` +
    (ves.text ? ` — ${ves.text}` : "");
  if (o.onVessel) vg.addEventListener("click", (ev) => { ev.stopPropagation(); o.onVessel(ev, stackPick(stack, o), o, stack); });
}

// The vessel of a stack a click means: after the selected one, the next with orders; else the first.
function stackPick(stack, o) {
  if (stack.length === 1) return stack[0];
  const withOrders = stack.filter((v) => (o.ix.byVessel[v.id] || []).length);
  if (!withOrders.length) return stack[0];
  const at = withOrders.findIndex((v) => v.id === o.selected);
  return at >= 0 && at + 1 < withOrders.length ? withOrders[at + 1] : at >= 0 ? withOrders[at] : withOrders[0];
}

function star(parent, ax, ay, r1) {
  const r2 = r1 * 0.36;
  svg("polygon", { points: `${ax},${ay - r1} ${ax + r2},${ay - r2} ${ax + r1},${ay} ${ax + r2},${ay + r2} ${ax},${ay + r1} ${ax - r2},${ay + r2} ${ax - r1},${ay} ${ax - r2},${ay - r2}`,
    fill: "#ffcf70" }, parent);
}
