// The summary of a finished game (GET /api/games/{id}/summary): a line on how it ended, a table
// with a row per player and a small line chart of a number of each player over the turns. Used by
// the game-over screen and the replay; each game's table says which columns and which chart
// (tables.js: summary), a game without one gets a column per number of its summary's players.
// Loaded after dom.js (h, fill); uses seats.js's seat colours when that is loaded. Everything from
// the server becomes text nodes or numbers in SVG attributes.
"use strict";

(() => {
  const NS = "http://www.w3.org/2000/svg";
  const FALLBACK_COLOURS = ["#4cc9f0", "#ff5d8f", "#7ae582", "#ffd166"];
  const colours = () => (typeof SEAT_COLOURS !== "undefined" ? SEAT_COLOURS : FALLBACK_COLOURS);
  const colourOf = (seat) => colours()[seat] || "#9aa6c9";
  // Chart size in SVG units (the SVG scales to its box) and the room kept for the axis labels.
  const W = 320, H = 150, LEFT = 40, RIGHT = 10, TOP = 10, BOTTOM = 34;
  // Colours as SVG presentation attributes, so the chart reads on the dark panels of any page.
  const LABEL = { fill: "#8f9cc2", "font-size": 11 };
  const AXIS = { stroke: "#6c79a8", "stroke-width": 1 };
  const GRID = { stroke: "#ffffff14", "stroke-width": 1 };

  function el(tag, attrs, parent, label) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (label !== undefined) node.textContent = String(label);
    if (parent) parent.appendChild(node);
    return node;
  }

  const num = (x) => (Number.isFinite(Number(x)) ? Number(x) : 0);

  // About five round steps from 0 to max: 1, 2, 5, 10, 20, 50, ...
  function niceStep(max, wanted) {
    const raw = Math.max(1, max / wanted);
    const mag = 10 ** Math.floor(Math.log10(raw));
    for (const m of [1, 2, 5, 10]) if (m * mag >= raw) return m * mag;
    return 10 * mag;
  }

  function ticks(max, wanted) {
    const step = niceStep(max, wanted);
    const out = [];
    for (let t = 0; t <= max; t += step) out.push(t);
    if (out[out.length - 1] < max) out.push(out[out.length - 1] + step);
    return out;
  }

  // The chart of `chart.field` (a list per player: the value when each turn began, then at the
  // end): x = turns played so far (0 = the start of the game), y = the value then.
  function lineChart(players, chart) {
    const series = players.map((p) => ({ seat: p.seat, values: (p[chart.field] || []).map(num) }));
    const turns = Math.max(1, ...series.map((s) => s.values.length - 1));
    const yTicks = ticks(Math.max(1, ...series.flatMap((s) => s.values)), 4);
    const yMax = yTicks[yTicks.length - 1];
    const xTicks = ticks(turns, 5).filter((t) => t <= turns);
    const x = (i) => LEFT + (i / turns) * (W - LEFT - RIGHT);
    const y = (v) => TOP + (1 - v / yMax) * (H - TOP - BOTTOM);
    const root = el("svg", { class: ["summary-chart", chart.className].filter(Boolean).join(" "), viewBox: `0 0 ${W} ${H}`, role: "img",
      "aria-label": chart.aria || `${chart.yLabel} of each player over the turns` });
    // A small chart on any page, with or without pages.css: never much larger than designed.
    Object.assign(root.style, { display: "block", width: "100%", height: "auto", maxWidth: `${Math.round(1.4 * W)}px` });
    for (const t of yTicks) {
      el("line", { class: "grid", x1: LEFT, x2: W - RIGHT, y1: y(t), y2: y(t), ...GRID }, root);
      el("text", { x: LEFT - 5, y: y(t) + 4, "text-anchor": "end", class: "tick", ...LABEL }, root, t);
    }
    for (const t of xTicks) {
      el("text", { x: x(t), y: H - BOTTOM + 14, "text-anchor": "middle", class: "tick", ...LABEL }, root, t);
    }
    el("line", { class: "axis", x1: LEFT, x2: LEFT, y1: TOP, y2: H - BOTTOM, ...AXIS }, root);
    el("line", { class: "axis", x1: LEFT, x2: W - RIGHT, y1: H - BOTTOM, y2: H - BOTTOM, ...AXIS }, root);
    el("text", { x: (LEFT + W - RIGHT) / 2, y: H - 4, "text-anchor": "middle", class: "axis-label", ...LABEL }, root,
      "turns played");
    el("text", { x: 11, y: (TOP + H - BOTTOM) / 2, "text-anchor": "middle", class: "axis-label", ...LABEL,
      transform: `rotate(-90 11 ${(TOP + H - BOTTOM) / 2})` }, root, chart.yLabel);
    for (const s of series) {
      if (!s.values.length) continue;
      const pts = s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
      el("polyline", { points: pts, fill: "none", stroke: colourOf(s.seat), "stroke-width": 2,
        "stroke-linejoin": "round", "data-seat": s.seat, class: "series" }, root);
      if (s.values.length === 1) el("circle", { cx: x(0), cy: y(s.values[0]), r: 3, fill: colourOf(s.seat) }, root);
    }
    return root;
  }

  // columns: [field, column head, what the head means]; note(player): more for the seat's cell.
  function table(summary, columns, note) {
    return h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "Player"),
        columns.map(([, label, meaning]) => h("th", { title: meaning, "aria-label": meaning }, label)))),
      h("tbody", {}, summary.players.map((p) => h("tr", {
        class: p.seat === summary.winner ? "winner" : null, dataset: { seat: p.seat },
      },
      h("td", { class: "seat-cell", style: { color: colourOf(p.seat) } }, `P${p.seat}`, note ? note(p) : null),
      columns.map(([key]) => h("td", { dataset: { col: key } }, num(p[key])))))));
  }

  // A column for every number a player's row holds (for a game whose table names none).
  function numberColumns(players) {
    const keys = [];
    for (const p of players) {
      for (const [k, v] of Object.entries(p)) if (k !== "seat" && typeof v === "number" && !keys.includes(k)) keys.push(k);
    }
    return keys.map((k) => { const words = k.replace(/_/g, " "); return [k, words.charAt(0).toUpperCase() + words.slice(1), words]; });
  }

  // Draw ``summary`` into ``box`` (replacing what was there); returns the box. spec (all
  // optional): reason (the line on how the game ended; null or "": none), columns (as table()'s;
  // default: every number of the rows), note (player => more for its seat's cell), chart
  // ({field, title, yLabel, className, aria}: a line per player of that list field).
  function drawSummary(box, summary, spec = {}) {
    const players = Array.isArray(summary && summary.players) ? summary.players : [];
    const chart = spec.chart || null;
    box.classList.add("summary");
    return fill(box,
      spec.reason ? h("p", { class: "summary-reason" }, spec.reason) : null,
      players.length ? table({ ...summary, players }, spec.columns || numberColumns(players), spec.note) : null,
      players.length && chart ? [
        h("div", { class: "chart-title" }, chart.title),
        lineChart(players, chart),
        h("div", { class: "chart-legend" }, players.map((p) =>
          h("span", { style: { "--sc": colourOf(p.seat), color: colourOf(p.seat) } }, `P${p.seat}`))),
      ] : null);
  }

  window.drawSummary = drawSummary;
})();
