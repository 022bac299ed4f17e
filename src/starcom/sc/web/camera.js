// Zoom and pan for Star Commander's board: which part of the board the <svg> shows. Wheel and the
// +/− buttons zoom, a drag pans, two fingers pinch. Loaded before Star Commander's table.js, which
// redraws the board (with the board's text sizes for the new zoom) whenever the view changes.
"use strict";

const ZOOM_MAX = 5;
const ZOOM_STEP = 1.4;
const DRAG_PX = 6;  // a press that moves less than this is a click, not a drag

class BoardCamera {
  // svgEl: the board's <svg>; onChange(): called (once per frame at most) when the view changed.
  constructor(svgEl, onChange) {
    this.el = svgEl;
    this.onChange = onChange;
    this.base = null;   // the whole board {x, y, w, h}
    this.zoom = 1;
    this.cx = 0; this.cy = 0;
    this.pointers = new Map();
    this.drag = null;
    this.suppressClick = false;
    this.queued = false;
    svgEl.addEventListener("wheel", (ev) => this.onWheel(ev), { passive: false });
    svgEl.addEventListener("pointerdown", (ev) => this.onDown(ev));
    svgEl.addEventListener("pointermove", (ev) => this.onMove(ev));
    for (const t of ["pointerup", "pointercancel", "pointerleave"]) svgEl.addEventListener(t, (ev) => this.onUp(ev));
    // A drag ends with a click on whatever is under the finger: that click is not an order.
    svgEl.addEventListener("click", (ev) => {
      if (this.suppressClick) { ev.stopPropagation(); ev.preventDefault(); this.suppressClick = false; }
    }, true);
  }

  // The board's full bounds; a new board size starts from the whole board (returns true then).
  setBase(b) {
    const same = this.base && this.base.w === b.w && this.base.h === b.h && this.base.x === b.x && this.base.y === b.y;
    this.base = b;
    if (!same) this.fit(false);
    return !same;
  }

  fit(notify = true) {
    if (!this.base) return;
    this.zoom = 1;
    this.cx = this.base.x + this.base.w / 2;
    this.cy = this.base.y + this.base.h / 2;
    if (notify) this.changed();
  }

  // Screen pixels per board unit now.
  scale() {
    const r = this.el.getBoundingClientRect();
    if (!this.base || r.width <= 0 || r.height <= 0) return 1;
    return Math.min(r.width / this.base.w, r.height / this.base.h) * this.zoom;
  }

  // The visible rectangle in board units, with the element's own shape (so pans use all of it).
  view() {
    if (!this.base) return null;
    const r = this.el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return this.base;
    const s = this.scale();
    const w = r.width / s, h = r.height / s;
    return { x: this.cx - w / 2, y: this.cy - h / 2, w, h };
  }

  // The board point under a screen point.
  toBoard(clientX, clientY) {
    const r = this.el.getBoundingClientRect(), v = this.view(), s = this.scale();
    return [v.x + (clientX - r.left) / s, v.y + (clientY - r.top) / s];
  }

  zoomBy(factor, clientX, clientY) {
    if (!this.base) return;
    const z = Math.min(ZOOM_MAX, Math.max(1, this.zoom * factor));
    if (z === this.zoom) return;
    const r = this.el.getBoundingClientRect();
    const ax = clientX === undefined ? r.left + r.width / 2 : clientX;
    const ay = clientY === undefined ? r.top + r.height / 2 : clientY;
    const [bx, by] = this.toBoard(ax, ay);
    const ratio = this.zoom / z;  // the point under the cursor stays where it is
    this.cx = bx + (this.cx - bx) * ratio;
    this.cy = by + (this.cy - by) * ratio;
    this.zoom = z;
    this.clamp();
    this.changed();
  }

  panBy(dxPx, dyPx) {
    const s = this.scale();
    this.cx -= dxPx / s;
    this.cy -= dyPx / s;
    this.clamp();
    this.changed();
  }

  // The view stays on the board: where it is smaller than the board it shows no space beyond an
  // edge; where it is larger, the board sits in its middle.
  clamp() {
    const b = this.base, v = this.view();
    const keep = (c, half, lo, size) => (2 * half >= size ? lo + size / 2 : Math.min(lo + size - half, Math.max(lo + half, c)));
    this.cx = keep(this.cx, v.w / 2, b.x, b.w);
    this.cy = keep(this.cy, v.h / 2, b.y, b.h);
  }

  // Starts at `zoom` around the board point (x, y) (the page's own corner of the board on a small
  // screen), within the board.
  focus(x, y, zoom) {
    if (!this.base) return;
    this.zoom = Math.min(ZOOM_MAX, Math.max(1, zoom));
    this.cx = x; this.cy = y;
    this.clamp();
    this.changed();
  }

  changed() {
    if (this.queued) return;
    this.queued = true;
    requestAnimationFrame(() => { this.queued = false; this.onChange(); });
  }

  onWheel(ev) {
    ev.preventDefault();
    const dy = ev.deltaMode === 1 ? ev.deltaY * 16 : ev.deltaY;
    this.zoomBy(Math.exp(-dy * 0.0015), ev.clientX, ev.clientY);
  }

  onDown(ev) {
    if (ev.pointerType === "mouse" && ev.button !== 0) return;
    this.pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (this.pointers.size === 1) this.drag = { x: ev.clientX, y: ev.clientY, moving: false, id: ev.pointerId };
    else if (this.pointers.size === 2) { this.drag = null; this.pinch = this.spread(); }
  }

  spread() {
    const [a, b] = [...this.pointers.values()];
    return { d: Math.hypot(a.x - b.x, a.y - b.y) || 1, x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  }

  onMove(ev) {
    if (!this.pointers.has(ev.pointerId)) return;
    this.pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (this.pointers.size === 2 && this.pinch) {
      const now = this.spread();
      this.zoomBy(now.d / this.pinch.d, now.x, now.y);
      this.panBy(now.x - this.pinch.x, now.y - this.pinch.y);
      this.pinch = now;
      this.suppressClick = true;
      return;
    }
    const d = this.drag;
    if (!d || d.id !== ev.pointerId) return;
    if (!d.moving && Math.hypot(ev.clientX - d.x, ev.clientY - d.y) < DRAG_PX) return;
    if (!d.moving) {
      d.moving = true;
      this.el.classList.add("panning");
      try { this.el.setPointerCapture(ev.pointerId); } catch (e) { /* the pointer is already gone */ }
    }
    if (this.zoom > 1) this.panBy(ev.clientX - d.x, ev.clientY - d.y);
    d.x = ev.clientX; d.y = ev.clientY;
  }

  onUp(ev) {
    if (!this.pointers.has(ev.pointerId)) return;
    this.pointers.delete(ev.pointerId);
    if (this.drag && this.drag.moving) this.suppressClick = ev.type === "pointerup";
    if (this.pointers.size < 2) this.pinch = null;
    if (!this.pointers.size) { this.drag = null; this.el.classList.remove("panning"); }
    // The click that a drag's pointerup causes comes at once; any later click is a real one.
    if (this.suppressClick) setTimeout(() => { this.suppressClick = false; }, 0);
  }
}
