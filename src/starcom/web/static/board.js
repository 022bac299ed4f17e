// Shared drawing for the game and replay pages: the board, player cards and decks from a view.
// Loaded after dom.js and before game.js / replay.js; pure functions of the view plus optional
// click handlers. Text from the view only ever becomes text nodes (see dom.js).
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const SEAT_COLOURS = ["#4cc9f0", "#ff5d8f", "#7ae582", "#ffd166"];
const DOMAIN_COLOURS = { industry: "#f39c4a", statecraft: "#b48cff", science: "#35d0ba", none: "#c9d3f2" };
const DOMAINS = ["industry", "statecraft", "science"];
// Half sizes of a diamond tile, in SVG units.
const HW = 150, HH = 108;

const seatName = (p) => `P${p}`;
const seatColour = (p) => (p >= 0 && p < SEAT_COLOURS.length ? SEAT_COLOURS[p] : "#9aa6c9");

// "AI · hard" for a computer seat (its level or agent), "AI · normal (standing in)" for the seat of a
// player who left an online game, "human" otherwise.
function seatLabel(seat) {
  const kind = seat.kind || "human";
  if (kind.startsWith("ai:")) return `AI · ${kind.slice(3)}`;
  if (seat.ai) return `AI · ${seat.ai} (standing in)`;
  return "human";
}

// What a seat is doing beyond its kind: an AI waiting for a worker or thinking, a human seat nobody
// has taken yet. [text, tooltip, css class] or null. Replays carry none of these fields.
function seatStatus(seat) {
  if (seat.ai_status === "queued") {
    return ["AI queued", "Waiting for a free AI worker: the server's AI workers are busy with other games. " +
      "This seat moves as soon as one is free.", "queued"];
  }
  if (seat.ai_status === "thinking") return ["thinking…", "The AI is choosing its move.", "thinking"];
  if ((seat.kind || "human") === "human" && seat.claimed === false) {
    return ["free · waiting for a player", "Nobody has taken this seat yet: it waits for someone to open its invite link.", "free"];
  }
  return null;
}

function drawPlayers(box, v, seats, me) {
  fill(box, v.players.map((p) => {
    const seat = seats[p.seat] || {};
    const away = seat.connected === false && (seat.kind || "human") === "human" && seat.claimed !== false ? " · away" : "";
    const status = seatStatus(seat);
    return h("section", {
      class: ["panel", "player-card", p.seat === v.active && "active", !p.alive && "dead"],
      style: { "--pc": seatColour(p.seat) }, dataset: { seat: p.seat },
    },
    h("div", { class: "row" },
      h("span", { class: "name", style: { color: seatColour(p.seat) } }, seatName(p.seat), p.seat === me ? " (you)" : ""),
      h("span", { class: "tag seat-kind" }, seatLabel(seat), away, p.alive ? "" : " · out")),
    status && h("div", { class: "row" },
      h("span", { class: `tag seat-status ${status[2]}`, title: status[1] }, status[0])),
    h("div", { class: "stats" },
      h("span", { title: "credits" }, `◉ ${p.credits} cr`),
      h("span", { title: "cards in hand" }, `🃏 ${p.hand_size}`),
      h("span", { title: "developments" }, `▲ ${p.developments} dev`)),
    h("div", { class: "techs" },
      p.technologies.length ? p.technologies.map(chip) : h("span", { class: "muted small" }, "No technologies")));
  }));
}

function chip(card) {
  return h("span", { class: "chip", style: { "--dc": DOMAIN_COLOURS[card.domain] || "#888" },
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
  const glow = svg("filter", { id: "glow", x: "-50%", y: "-50%", width: "200%", height: "200%" }, defs);
  svg("feGaussianBlur", { stdDeviation: 6, result: "b" }, glow);
  const m = svg("feMerge", {}, glow);
  svg("feMergeNode", { in: "b" }, m);
  svg("feMergeNode", { in: "SourceGraphic" }, m);
}

function drawBoard(root, v, opts) {
  const ix = opts.ix || { byVessel: {}, targets: {}, atPos: {} };
  const selected = opts.selected === undefined ? null : opts.selected;
  const n = v.config.size;
  root.replaceChildren();
  const pad = 8;
  const minX = -n * HW - pad, width = 2 * n * HW + 2 * pad;
  root.setAttribute("viewBox", `${minX} ${-HH - pad} ${width} ${2 * n * HH + 2 * pad}`);
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
  for (const site of v.board) {
    const r = Math.floor(site.pos / n), c = site.pos % n;
    drawTile(root, site, (c - r) * HW, (r + c) * HH, {
      dest: dests[site.pos], here: ix.atPos[site.pos] || [], home: homes[site.pos],
      combat: v.combat_at === site.pos, vessels: vesselsAt[site.pos] || [], ix, targets, selected,
      onTile: opts.onTile, onVessel: opts.onVessel,
    });
  }
}

function drawTile(root, site, x, y, o) {
  const g = svg("g", { class: "tile", transform: `translate(${x},${y})`, "data-pos": site.pos, "data-name": site.name }, root);
  const k = 0.965;
  const pts = `0,${-HH * k} ${HW * k},0 0,${HH * k} ${-HW * k},0`;
  const owner = site.owner;
  const fill = site.face_up ? `url(#dom-${site.domain in DOMAIN_COLOURS ? site.domain : "none"})` : "url(#back)";
  const stroke = owner >= 0 ? seatColour(owner) : site.face_up ? "#42507e" : "#2a3563";
  svg("polygon", { points: pts, fill, stroke, class: "tile-shape", "stroke-width": owner >= 0 ? 3.5 : 2 }, g);
  if (o.home !== undefined) {
    svg("polygon", { points: `0,${-HH * 0.86} ${HW * 0.86},0 0,${HH * 0.86} ${-HW * 0.86},0`, fill: "none",
      stroke: seatColour(o.home), "stroke-opacity": 0.45, "stroke-width": 1.5, "stroke-dasharray": "3 5" }, g);
  }
  text(g, -HW + 34, 0, site.name, { fill: "#8f9cc2", "font-size": 15, "font-weight": 600 });
  if (site.face_up) {
    const dcol = DOMAIN_COLOURS[site.domain] || DOMAIN_COLOURS.none;
    const title = site.card === "Homeworld" && o.home !== undefined ? `${seatName(o.home)} Homeworld` : site.card;
    text(g, 0, -62, title, { fill: "#f1f4ff", "font-size": title.length > 14 ? 13 : 15, "font-weight": 700 });
    const dom = site.domain === "none" ? "" : site.domain.toUpperCase() + " · ";
    text(g, 0, -44, `${dom}max ${site.max_dev}`, { fill: dcol, "font-size": 10.5, "letter-spacing": 1.2, "font-weight": 600 });
    drawPips(g, site, -26);
    const t = svg("title", {}, g);
    t.textContent = `${site.name}: ${site.card} (${site.domain}) — ${site.text}`;
  } else {
    text(g, 0, -48, "?", { fill: "#3b4a86", "font-size": 40, "font-weight": 700 });
    text(g, 0, -22, "UNEXPLORED", { fill: "#5e6ca3", "font-size": 10, "letter-spacing": 2 });
  }
  const flags = [];
  if (site.under_siege) flags.push("SIEGE");
  if (site.contested) flags.push("CONTESTED");
  if (site.interdicted_by && site.interdicted_by.length) flags.push("INTERDICTED");
  flags.forEach((f, i) => text(g, HW - 52, -8 + i * 13, f, { fill: "#ff7b93", "font-size": 9, "font-weight": 700, "letter-spacing": 1 }));
  if (o.combat) g.classList.add("combat");
  if (o.dest) g.classList.add("dest", "clickable");
  if (o.here.length) {
    g.classList.add("clickable");
    const badge = svg("g", { transform: `translate(${HW - 40},${0})` }, g);
    svg("circle", { r: 11, fill: "#1769b8", stroke: "#6ee7ff", "stroke-width": 1.5 }, badge);
    text(badge, 0, 1, "+", { fill: "#fff", "font-size": 16, "font-weight": 700 });
  }
  if (o.onTile) g.addEventListener("click", (ev) => o.onTile(ev, site, o));
  drawVessels(g, o.vessels, o);
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

function shortName(name) {
  const map = { "Strike Fighter": "Fighter", "Defense Station": "Station", Battleship: "Battlesh." };
  return map[name] || (name.length > 9 ? name.slice(0, 8) + "." : name);
}

function drawVessels(g, vessels, o) {
  const count = vessels.length;
  if (!count) return;
  const scale = count > 6 ? 0.62 : count > 3 ? 0.8 : 1;
  const w = 74 * scale, h = 40 * scale, gap = 6 * scale;
  const rows = [];
  const perRow = count > 6 ? 4 : count > 3 ? 3 : 3;
  for (let i = 0; i < count; i += perRow) rows.push(vessels.slice(i, i + perRow));
  rows.forEach((row, ri) => {
    const y = 6 + ri * (h + gap) + h / 2;
    const total = row.length * w + (row.length - 1) * gap;
    row.forEach((ves, i) => drawVessel(g, ves, -total / 2 + i * (w + gap) + w / 2, y, w, h, scale, o));
  });
}

function drawVessel(g, ves, x, y, w, h, scale, o) {
  const col = seatColour(ves.owner);
  const cls = ["vessel"];
  const own = o.ix.byVessel[ves.id];
  if (own && own.length) cls.push("selectable");
  if (o.selected === ves.id) cls.push("selected");
  if (o.targets[ves.id]) cls.push("target");
  const vg = svg("g", { class: cls.join(" "), transform: `translate(${x},${y})`, "data-vessel": ves.id, "data-name": ves.name }, g);
  const station = ves.kind === "station";
  svg("rect", { class: "vbody", x: -w / 2, y: -h / 2, width: w, height: h, rx: station ? 3 : h / 2.4,
    fill: "#0c1226", stroke: col, "stroke-width": 2, opacity: ves.fresh ? 0.8 : 1 }, vg);
  svg("rect", { x: -w / 2 + 3, y: -h / 2 + 3, width: 5 * scale, height: h - 6, rx: 2, fill: col }, vg);
  text(vg, 4 * scale, -h / 2 + 12 * scale, shortName(ves.name), { fill: "#fff", "font-size": 12 * scale, "font-weight": 700 });
  const left = ves.hp - ves.damage;
  // A small four-pointed star stands for attack (the crossed-swords glyph is too thin here).
  const ax = -19 * scale, ay = h / 2 - 11 * scale, r1 = 5 * scale, r2 = 1.8 * scale;
  svg("polygon", { points: `${ax},${ay - r1} ${ax + r2},${ay - r2} ${ax + r1},${ay} ${ax + r2},${ay + r2} ${ax},${ay + r1} ${ax - r2},${ay + r2} ${ax - r1},${ay} ${ax - r2},${ay - r2}`,
    fill: "#ffcf70" }, vg);
  text(vg, -7 * scale, ay, `${ves.attack}`, { fill: "#ffcf70", "font-size": 12.5 * scale, "font-weight": 700 });
  text(vg, 20 * scale, h / 2 - 11 * scale, `♥${left}${ves.damage ? "/" + ves.hp : ""}`,
    { fill: ves.damage ? "#ff7b93" : "#9df0b0", "font-size": 12.5 * scale, "font-weight": 700 });
  const t = svg("title", {}, vg);
  t.textContent = `${seatName(ves.owner)}'s ${ves.name}: attack ${ves.attack}, hit points ${left}/${ves.hp}, speed ${ves.speed}` +
    (ves.text ? ` — ${ves.text}` : "");
  if (o.onVessel) vg.addEventListener("click", (ev) => { ev.stopPropagation(); o.onVessel(ev, ves, o); });
}

function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }
