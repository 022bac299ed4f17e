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

function showPop(el, info) {
  const box = $("cardpop");
  if (!box) return;
  fill(box, popContent(info));
  box.classList.remove("hidden");
  const r = el.getBoundingClientRect(), b = box.getBoundingClientRect();
  let x = r.right + 10;
  if (x + b.width > innerWidth - 6) x = r.left - b.width - 10;
  if (x < 6) x = Math.min(innerWidth - b.width - 6, Math.max(6, r.left));
  let y = r.top;
  if (x >= r.left - b.width - 10 && x <= r.right && r.bottom + b.height + 8 < innerHeight) y = r.bottom + 8;
  y = Math.max(6, Math.min(innerHeight - b.height - 6, y));
  box.style.left = `${x}px`;
  box.style.top = `${y}px`;
  showPop.el = el;
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
