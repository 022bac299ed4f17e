// Star Commander's card popups: pointing at a card (a mouse resting on it, or a finger held on it)
// shows the whole card: its catalogue sheet (GET /api/cards, fetched once) and what the view says
// about this copy (owner, damage, developments). Loaded after dom.js; Star Commander's table.js
// tells it how to read board elements.
"use strict";

const HOVER_MS = 280;
const PRESS_MS = 480;

const POPS = new WeakMap();          // element -> () => {sheet, name, facts} for that element
let popResolver = null;              // (element) => info | null, for elements drawn afresh each time
let sheetsByName = new Map();        // lower-case name or key -> sheet
let sheetsLoaded = null;

// Fetches the catalogue's sheets once; a server without /api/cards leaves the popups to the view.
function loadSheets() {
  if (!sheetsLoaded) {
    sheetsLoaded = apiCall("GET", "/api/cards").then((data) => {
      for (const c of (data && data.cards) || []) {
        if (c.key) sheetsByName.set(String(c.key).toLowerCase(), c);
        if (c.name) sheetsByName.set(String(c.name).toLowerCase(), c);
      }
    }).catch(() => { /* older server: popups show what the view knows */ });
  }
  return sheetsLoaded;
}

function sheetFor(name) {
  return name ? sheetsByName.get(String(name).toLowerCase()) || null : null;
}

function registerPop(el, fn) { POPS.set(el, fn); el.classList.add("has-pop"); }

function setPopResolver(fn) { popResolver = fn; }

function popInfoFor(target) {
  for (let el = target; el && el !== document; el = el.parentNode) {
    if (POPS.has(el)) return { el, info: POPS.get(el)() };
    if (popResolver && el.nodeType === 1) {
      const info = popResolver(el);
      if (info) return { el, info };
    }
  }
  return null;
}

// The popup's contents from a sheet (catalogue) merged with facts (the view's numbers win).
function popContent(info) {
  const s = { ...(sheetFor(info.name) || {}), ...(info.sheet || {}), ...(info.live || {}) };
  const name = s.name || info.name || "";
  const stats = [];
  const add = (label, value) => { if (value !== null && value !== undefined && value !== "") stats.push(h("span", {}, h("b", {}, String(value)), " ", label)); };
  add("credits", s.cost);
  add("attack", s.attack);
  add("hit points", s.hp_text || s.hp);
  if (s.kind === "ship") add("speed", s.speed);
  if (s.carry) add("fighters carried", s.carry);
  add("developments at most", s.max_dev);
  const kind = [s.domain && s.domain !== "none" ? s.domain : null, s.kind].filter(Boolean).join(" · ");
  return [
    h("div", { class: "pop-kind", style: { color: DOMAIN_COLOURS[s.domain] || DOMAIN_COLOURS.none } }, kind),
    h("div", { class: "pop-name" }, name),
    stats.length ? h("div", { class: "pop-stats" }, stats) : null,
    s.text ? h("div", { class: "pop-text" }, s.text) : null,
    (info.facts || []).length ? h("div", { class: "pop-facts" }, info.facts.map((f) => h("div", {}, f))) : null,
  ];
}

// What a popup must never cover: the element it explains, the page's main buttons (the
// orders panel's first row, the top bar's tools, the zoom buttons) and whatever the board
// highlights as a target (destinations, targets, picks, the hint's marks).
const POP_AVOID = "#main-btns button, .topbar button, .zoom button, .tile.dest, .tile.pick, .tile.hinted, " +
  ".vessel.target, .vessel.pick, .vessel.hinted, .vessel.selected, button.hinted";

function popAvoidRects(el) {
  const rects = [el.getBoundingClientRect()];
  for (const a of document.querySelectorAll(POP_AVOID)) {
    const r = a.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) rects.push(r);
  }
  return rects;
}

const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
  Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

// The place for a popup of size w x h next to `r`: beside it, below or above it, then the
// screen's corners and edges, the first that covers none of `avoid`; failing that, the one that
// covers the least of them.
function placePop(r, w, h, avoid) {
  const W = innerWidth, H = innerHeight, m = 6;
  const fitX = (x) => Math.max(m, Math.min(W - w - m, x)), fitY = (y) => Math.max(m, Math.min(H - h - m, y));
  const cands = [
    [r.right + 10, r.top], [r.left - w - 10, r.top], [r.left, r.bottom + 8], [r.left, r.top - h - 8],
    [r.right + 10, r.bottom - h], [r.left - w - 10, r.bottom - h],
    [m, m], [W - w - m, m], [m, H - h - m], [W - w - m, H - h - m],
    [m, (H - h) / 2], [W - w - m, (H - h) / 2], [(W - w) / 2, m], [(W - w) / 2, H - h - m],
  ];
  let best = null, bestCost = Infinity;
  for (const [cx, cy] of cands) {
    const x = fitX(cx), y = fitY(cy);
    const box = { left: x, top: y, right: x + w, bottom: y + h };
    // the element itself weighs most: the popup must not hide what it explains
    const cost = avoid.reduce((sum, a, i) => sum + overlap(box, a) * (i === 0 ? 4 : 1), 0);
    if (cost === 0) return [x, y];
    if (cost < bestCost) { bestCost = cost; best = [x, y]; }
  }
  return best;
}

function showPop(el, info) {
  const box = $("cardpop");
  if (!box) return;
  fill(box, popContent(info));
  box.classList.remove("hidden");
  movePop(box, el);
  showPop.el = el;
}

// Put the shown popup `box` where it covers least of `el` and what to keep in view.
function movePop(box, el) {
  const b = box.getBoundingClientRect();
  const [x, y] = placePop(el.getBoundingClientRect(), b.width, b.height, popAvoidRects(el));
  box.style.left = `${x}px`;
  box.style.top = `${y}px`;
}

// After a redraw: a popup whose element was redrawn away goes; one whose element is still there
// is placed again, so highlights lit since (a second step's targets, the hint) stay uncovered.
function refreshPop() {
  const el = showPop.el, box = $("cardpop");
  if (!el || !box) return;
  if (!el.isConnected) { hidePop(); return; }
  movePop(box, el);
}

function hidePop() {
  const box = $("cardpop");
  if (box) box.classList.add("hidden");
  showPop.el = null;
}

(function wirePopups() {
  let timer = null, pressed = null, swallow = false;
  const clear = () => { clearTimeout(timer); timer = null; };
  document.addEventListener("pointerover", (ev) => {
    if (ev.pointerType !== "mouse") return;
    const hit = popInfoFor(ev.target);
    if (!hit) return;
    if (showPop.el === hit.el) return;
    clear();
    timer = setTimeout(() => { const again = popInfoFor(ev.target); if (again) showPop(again.el, again.info); }, HOVER_MS);
  });
  document.addEventListener("pointerout", (ev) => {
    if (ev.pointerType !== "mouse") return;
    const hit = popInfoFor(ev.target);
    if (hit && ev.relatedTarget && hit.el.contains(ev.relatedTarget)) return;
    clear();
    hidePop();
  });
  // Touch: hold a finger on a card to see it; the click that ends the press is not an order.
  document.addEventListener("pointerdown", (ev) => {
    clear();
    swallow = false;  // a new press: only the click ending a long press is swallowed
    if (ev.pointerType === "mouse") { hidePop(); return; }
    const hit = popInfoFor(ev.target);
    if (!hit) { hidePop(); return; }
    pressed = { x: ev.clientX, y: ev.clientY };
    timer = setTimeout(() => { showPop(hit.el, hit.info); swallow = true; }, PRESS_MS);
  });
  document.addEventListener("pointermove", (ev) => {
    if (pressed && Math.hypot(ev.clientX - pressed.x, ev.clientY - pressed.y) > 10) { clear(); pressed = null; }
  });
  for (const t of ["pointerup", "pointercancel"]) document.addEventListener(t, () => { clear(); pressed = null; });
  document.addEventListener("click", (ev) => {
    if (swallow) { swallow = false; ev.stopPropagation(); ev.preventDefault(); }
  }, true);
  document.addEventListener("contextmenu", (ev) => { if (showPop.el) ev.preventDefault(); });
  window.addEventListener("scroll", hidePop, true);
})();
