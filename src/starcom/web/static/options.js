// The orders a player may give, as controls: a button per legal action, labelled with the server's
// short label (its full sentence as the tooltip), the card an order is about shown on the button,
// and actions that differ only in one number folded into one slider. Every control that sends an
// action carries data-action = JSON.stringify(the action exactly as in legal[i].action).
// What differs per game comes in the options of a game's table (tables.js): which fields hold
// amounts, which buttons show their card's text and the card's numbers.
// Loaded after dom.js and seats.js, before game.js (which provides send()).
"use strict";

// Fewer values than this stay separate buttons (one click beats slide + confirm).
const GROUP_MIN = 6;
// Fields that hold a quantity wherever they appear (a game's table may name more, its
// options.amountFields); integers inside a list count as a quantity too when every option's
// sentence shows the number itself (an id or a position would show as a name).
const AMOUNT_FIELDS = new Set(["amount", "count"]);

// "P0 builds Corvette at c3" reads better in a list of P0's own orders as "Build Corvette at c3".
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

// The words on an option's button: the server's label (older servers: from the sentence).
function optionLabel(entry) {
  return typeof entry.label === "string" && entry.label ? entry.label : shortText(entry);
}

const actionKey = (action) => JSON.stringify(action);

// Integer leaves of an action that may be amounts: [{path: ["amount"] | ["targets", 1], value}].
// `fields`: the names of the fields that hold amounts.
function amountLeaves(action, fields) {
  const out = [];
  for (const [k, v] of Object.entries(action)) {
    if (Number.isInteger(v) && fields.has(k)) out.push({ path: [k], value: v, named: true });
    if (Array.isArray(v)) v.forEach((x, i) => { if (Number.isInteger(x)) out.push({ path: [k, i], value: x, named: false }); });
  }
  return out;
}

function withLeaf(action, path, value) {
  const copy = JSON.parse(JSON.stringify(action));
  if (path.length === 1) copy[path[0]] = value;
  else copy[path[0]][path[1]] = value;
  return copy;
}

// Whether every entry's sentence shows its own value as a number, the rest of the sentence being
// the same for all: then the value is a quantity the player picks, not an id or a place.
function textsShowValues(entries, path) {
  let template = null;
  for (const e of entries) {
    const value = String(path.length === 1 ? e.action[path[0]] : e.action[path[0]][path[1]]);
    const re = new RegExp(`(^|[^0-9a-z])${value}(?![0-9])`, "i");
    if (!re.test(e.text)) return false;
    const t = e.text.replace(re, "$1#");
    if (template === null) template = t;
    else if (t !== template) return false;
  }
  return true;
}

// Splits a legal list into amount groups and single options, keeping the list's order (a group
// stands where its first member stood). A group: {kind: "amount", entries (sorted by value),
// values, path}; a single: {kind: "single", entry}. `amountFields`: the fields that hold amounts
// (default AMOUNT_FIELDS).
function groupOptions(legal, amountFields) {
  const fields = amountFields ? new Set(amountFields) : AMOUNT_FIELDS;
  const buckets = new Map();
  legal.forEach((e, i) => {
    for (const leaf of amountLeaves(e.action, fields)) {
      const key = `${leaf.path.join(".")}|${actionKey(withLeaf(e.action, leaf.path, null))}`;
      if (!buckets.has(key)) buckets.set(key, { path: leaf.path, named: leaf.named, members: [] });
      buckets.get(key).members.push({ e, i, value: leaf.value });
    }
  });
  const taken = new Set();
  const groups = [];
  const candidates = [...buckets.values()].filter((b) => b.members.length >= GROUP_MIN)
    .sort((a, b) => b.members.length - a.members.length);
  for (const b of candidates) {
    const members = b.members.filter((m) => !taken.has(m.i));
    if (members.length < GROUP_MIN) continue;
    if (new Set(members.map((m) => m.value)).size !== members.length) continue;
    if (!b.named && !textsShowValues(members.map((m) => m.e), b.path)) continue;
    members.sort((x, y) => x.value - y.value);
    members.forEach((m) => taken.add(m.i));
    groups.push({ kind: "amount", path: b.path, entries: members.map((m) => m.e), values: members.map((m) => m.value),
      first: Math.min(...members.map((m) => m.i)) });
  }
  const out = [];
  legal.forEach((e, i) => {
    const g = groups.find((gr) => gr.first === i);
    if (g) out.push(g);
    if (!taken.has(i)) out.push({ kind: "single", entry: e });
  });
  return out;
}

// Labels that repeat within one list get what tells them apart: the fields whose values differ.
function distinctLabels(entries, labelOf) {
  const labels = entries.map(labelOf);
  const byLabel = new Map();
  labels.forEach((l, i) => (byLabel.get(l) || byLabel.set(l, []).get(l)).push(i));
  for (const idx of byLabel.values()) {
    if (idx.length < 2) continue;
    const keys = [...new Set(idx.flatMap((i) => Object.keys(entries[i].action)))];
    const differ = keys.filter((k) => new Set(idx.map((i) => JSON.stringify(entries[i].action[k]))).size > 1);
    idx.forEach((i) => {
      labels[i] += " (" + differ.map((k) => `${k} ${JSON.stringify(entries[i].action[k])}`).join(", ") + ")";
    });
  }
  return labels;
}

// One button for one legal action. opts: {label, primary, send (function), disabled, plain (the
// label alone), stats (card => its numbers in a few words), withText (entry => whether the button
// shows its card's text)}.
function optionButton(entry, opts) {
  const o = opts || {};
  const label = o.label || optionLabel(entry);
  const stats = o.plain || !entry.card || !o.stats ? "" : o.stats(entry.card);
  const says = !o.plain && entry.card && o.withText && o.withText(entry) ? entry.card.text : "";
  const b = h("button", {
    class: ["option", o.primary && "primary", entry.card && !o.plain && "with-card"],
    dataset: { type: entry.action.type, action: actionKey(entry.action) },
    title: entry.text, disabled: !!o.disabled, onclick: () => o.send(entry.action),
  }, stats || says ? [h("span", { class: "olabel" }, label), stats && h("span", { class: "ostats" }, stats),
    says && h("span", { class: "otext" }, says)] : label);
  if (entry.card && typeof registerPop === "function") registerPop(b, () => ({ sheet: entry.card }));
  return b;
}

// A slider, a number box and a confirm button for an amount group. The confirm button always
// carries the data-action of the value now chosen.
function amountControl(group, opts) {
  const o = opts || {};
  const { entries, values } = group;
  let at = values.length - 1;
  const preset = o.value !== undefined ? values.indexOf(o.value) : -1;
  if (preset >= 0) at = preset;
  const label = (i) => optionLabel(entries[i]);
  const confirm = h("button", { class: ["option", "confirm", "primary"], disabled: !!o.disabled,
    onclick: () => o.send(entries[at].action) });
  const range = h("input", { type: "range", min: 0, max: values.length - 1, step: 1, value: at,
    "aria-label": "amount", class: "amount-range" });
  const box = h("input", { type: "number", min: values[0], max: values[values.length - 1], value: values[at],
    "aria-label": "amount", class: "amount-number" });
  const show = (i) => {
    at = i;
    range.value = String(i);
    if (Number(box.value) !== values[i]) box.value = String(values[i]);
    fill(confirm, `✓ ${label(i)}`);
    confirm.dataset.type = entries[i].action.type;
    confirm.dataset.action = actionKey(entries[i].action);
    confirm.title = entries[i].text;
    confirm.dataset.value = String(values[i]);
  };
  range.addEventListener("input", () => show(Number(range.value)));
  box.addEventListener("input", () => {
    const want = Number(box.value);
    if (!Number.isFinite(want)) return;
    // The nearest value on offer (they need not be consecutive).
    let best = 0;
    values.forEach((v, i) => { if (Math.abs(v - want) < Math.abs(values[best] - want)) best = i; });
    show(best);
  });
  box.addEventListener("change", () => { box.value = String(values[at]); });
  show(at);
  const lo = values[0], hi = values[values.length - 1];
  const title = amountTitle(entries[0], values[0]);
  return h("div", { class: "amount", dataset: { count: entries.length, min: lo, max: hi } },
    h("div", { class: "amount-title" }, `${title} — pick ${lo}–${hi}`),
    h("div", { class: "amount-row" }, range, box),
    confirm);
}

// The group's common label with the number left out: "Railgun Turrets: Corvette +…".
function amountTitle(entry, value) {
  const l = optionLabel(entry);
  const re = new RegExp(`(^|[^0-9a-z])${value}(?![0-9])`, "i");
  return re.test(l) ? l.replace(re, "$1…") : l;
}

// The controls for a list of legal entries: buttons and amount sliders, labels made distinct.
// opts: {send, disabled, primary (entry => bool), marked (action key of the hint), amountFields,
// stats, withText (as optionButton's)}.
function optionControls(entries, opts) {
  const o = opts || {};
  const items = groupOptions(entries, o.amountFields);
  const singles = items.filter((it) => it.kind === "single").map((it) => it.entry);
  const labels = distinctLabels(singles, optionLabel);
  const labelOf = new Map(singles.map((e, i) => [e, labels[i]]));
  return items.map((it) => {
    if (it.kind === "amount") {
      const hinted = o.marked ? it.entries.findIndex((e) => actionKey(e.action) === o.marked) : -1;
      const ctl = amountControl(it, { send: o.send, disabled: o.disabled, value: hinted >= 0 ? it.values[hinted] : undefined });
      if (hinted >= 0) ctl.classList.add("hinted");
      return ctl;
    }
    const b = optionButton(it.entry, { label: labelOf.get(it.entry), send: o.send, disabled: o.disabled,
      primary: o.primary && o.primary(it.entry), plain: o.plain, stats: o.stats, withText: o.withText });
    if (o.marked && actionKey(it.entry.action) === o.marked) b.classList.add("hinted");
    return b;
  });
}

// ---------------------------------------------------------------- panels that scale

// The most option buttons a panel shows at once; the rest wait behind a second step or "more…".
const VISIBLE_MAX = 25;

// Which groups of a panel the player left open or closed, by group kind, for the page session
// (sessionStorage; a page without it keeps them in memory), and the order they were last opened
// in (the group opened last gets the room first).
const foldMemory = (() => {
  const KEY = "option-groups";
  let mem = { open: {}, recent: [] };
  try { mem = { ...mem, ...JSON.parse(sessionStorage.getItem(KEY) || "{}") }; } catch (e) { /* memory only */ }
  const save = () => { try { sessionStorage.setItem(KEY, JSON.stringify(mem)); } catch (e) { /* memory only */ } };
  return {
    isOpen: (kind, fallback) => (kind in mem.open ? !!mem.open[kind] : fallback),
    set(kind, open) {
      mem.open[kind] = !!open;
      mem.recent = mem.recent.filter((k) => k !== kind);
      if (open) mem.recent.unshift(kind);
      save();
    },
    rank: (kind) => { const i = mem.recent.indexOf(kind); return i < 0 ? Infinity : i; },
  };
})();

// A <details> group that remembers the player's own folding (not the page's) under `kind`.
// `open`: as drawn now (the remembered state, unless the panel had no room for it).
function foldGroup(kind, open, children) {
  const d = h("details", { class: "group", open, dataset: { kind } }, children);
  d.dataset.drawnOpen = open ? "1" : "0";
  d.addEventListener("toggle", () => {
    if ((d.open ? "1" : "0") === d.dataset.drawnOpen) return;  // the page drew it so
    d.dataset.drawnOpen = d.open ? "1" : "0";
    foldMemory.set(kind, d.open);
    if (d.open && typeof d.onroom === "function") d.onroom();
  });
  return d;
}

// Entries that share a key (one card, one vessel) as one unit: [{key, entries}], in list order.
function unitsBy(entries, keyOf) {
  const units = new Map();
  entries.forEach((e, i) => {
    const k = keyOf(e);
    const key = k === null || k === undefined ? `#${i}` : String(k);
    if (!units.has(key)) units.set(key, { key, entries: [] });
    units.get(key).entries.push(e);
  });
  return [...units.values()];
}

// The common ending of labels (a price: " — 3 credits"), or "".
function commonPrice(entries) {
  const ends = entries.map((e) => { const m = / — \d+ credits?( back)?$/.exec(optionLabel(e)); return m ? m[0] : ""; });
  return ends.every((x) => x === ends[0]) ? ends[0] : "";
}
