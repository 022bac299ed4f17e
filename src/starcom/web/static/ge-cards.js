// Galactic Empires card glossary: every card of GET /api/cards?game=ge as a tile, filtered as
// the player types (name, text, empire, kind, class), by empire and kind chips and by deck. The
// filters live in the address (?q=...&empire=...&kind=...&deck=...), and #key marks one card, so
// a view can be linked. Loaded after dom.js; card data only ever becomes text nodes.
"use strict";

(() => {
  const EMPIRE_COLOURS = {
    argonian: "#6ec1ff", krebiz: "#ff9f6e", indirigan: "#c59bff", generic: "#9df0b0", none: "#c9d3f2",
  };
  const EMPIRE_NAMES = { none: "neutral" };
  const DECKS = ["argonian", "krebiz"];
  const POINT_ORDER = ["economy", "supply", "energy", "ammunition", "research", "repair"];
  const POINT_GLYPHS = {
    economy: "❍", supply: "●", energy: "✸", ammunition: "◼", research: "❏", repair: "♦",
  };

  const empireColour = (e) => EMPIRE_COLOURS[e] || EMPIRE_COLOURS.none;
  const empireName = (e) => EMPIRE_NAMES[e] || e;
  const title = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  // "capsule_small" reads "small capsule", "asteroid_belt" reads "asteroid belt".
  function className(cls) {
    const sized = /^(capsule|cruiser)_(small|heavy)$/.exec(cls || "");
    return sized ? `${sized[2]} ${sized[1]}` : String(cls || "").replace(/_/g, " ");
  }
  // The printed type code before the name: "R/C2" of "R/C2 Doctor".
  function typeCode(card) {
    const label = String(card.label || "");
    return label.endsWith(card.name) ? label.slice(0, label.length - card.name.length).trim() : label;
  }
  function points(table) {
    return POINT_ORDER.filter((p) => table && table[p]).map((p) => `${table[p]} ${p}`).join(", ");
  }
  function pointGlyphs(table) {
    return POINT_ORDER.filter((p) => table && table[p]).map((p) => POINT_GLYPHS[p].repeat(table[p])).join("");
  }

  const state = { cards: [], query: "", empires: new Set(), kinds: new Set(), deck: "" };

  // What a search term is compared with: everything a player could type to find the card.
  function haystack(card) {
    return [card.name, card.text, card.kind, className(card["class"]), card.empire, empireName(card.empire),
      typeCode(card), card.reaction ? "reaction" : ""].join(" \u0001 ").toLowerCase();
  }

  function matches(card) {
    if (state.empires.size && !state.empires.has(card.empire)) return false;
    if (state.kinds.size && !state.kinds.has(card.kind)) return false;
    if (state.deck && !((card.copies || {})[state.deck] > 0)) return false;
    const terms = state.query.toLowerCase().split(/\s+/).filter(Boolean);
    return terms.every((t) => card._hay.includes(t));
  }

  function stat(cls, value, words, hint) {
    return h("span", { class: `stat ${cls}`, title: hint || words }, h("b", {}, value), ` ${words}`);
  }

  const SLOT_WORDS = ["no command slot", "half a command slot", "1 command slot"];

  // The numbers that apply to a card, each as a small labelled value.
  function stats(card) {
    const out = [];
    const cost = points(card.cost);
    if (cost) out.push(h("span", { class: "stat cost", title: `engagement cost: ${cost}` }, "Cost ", h("b", {}, cost)));
    const made = points(card.generates);
    if (made) out.push(h("span", { class: "stat makes", title: `points produced each turn: ${made}` },
      "Makes ", h("b", {}, made), " a turn"));
    if (card.shields) out.push(stat("hp", card.shields, card.shields === 1 ? "shield" : "shields"));
    if (card.phasers) {
      const words = card.one_shot ? "one-shot phaser" : card.phasers === 1 ? "phaser" : "phasers";
      out.push(stat("attack", card.phasers, words));
    }
    if (card.heavy) out.push(stat("attack", card.heavy, card.heavy === 1 ? "heavy weapon" : "heavy weapons"));
    if (card.card_damage) out.push(stat("card-damage", card.card_damage, "card damage"));
    if (card.duration !== null && card.duration !== undefined) {
      out.push(stat("duration", card.duration === 0 ? "this turn" : card.duration,
        card.duration === 0 ? "only" : card.duration === 1 ? "turn" : "turns", "how long it stays in play"));
    }
    if (card.passive === true) out.push(h("span", { class: "stat", title: "works even on a disengaged unit" }, "passive"));
    if (card.passive === false) out.push(h("span", { class: "stat", title: "works only while its unit is engaged" }, "non-passive"));
    if (card.slots !== null && card.slots !== undefined) {
      out.push(h("span", { class: "stat slots", title: "command need in the full edition" }, SLOT_WORDS[card.slots] || `${card.slots} half slots`));
    }
    return out;
  }

  function copiesLine(card) {
    const copies = card.copies || {};
    const parts = DECKS.filter((d) => copies[d] > 0).map((d) => `${title(d)} deck ×${copies[d]}`);
    return parts.length ? parts.join(" · ") : "in neither deck";
  }

  // One tile: name and type code, empire and kind, its numbers, its text, copies per deck.
  function tile(card) {
    const cls = className(card["class"]);
    const kind = cls && cls !== card.kind ? `${card.kind} (${cls})` : card.kind;
    const kindLine = [title(empireName(card.empire)), kind, card.reaction ? "reaction" : null].filter(Boolean).join(" · ");
    const glyphs = pointGlyphs(card.cost);
    return h("article", {
      class: "card-tile card-entry", id: `card-${card.key}`, style: { "--dc": empireColour(card.empire) },
      dataset: { key: card.key, empire: card.empire, kind: card.kind },
    },
    h("div", { class: "tile-head" },
      h("div", { class: "tile-name" }, card.name),
      h("span", { class: "tile-cost", title: `type and strength${glyphs ? "; cost " + points(card.cost) : ""}` },
        typeCode(card), glyphs ? ` ${glyphs}` : "")),
    h("div", { class: "tile-kind" }, kindLine),
    h("div", { class: "tile-stats" }, stats(card)),
    h("p", { class: "tile-text" }, card.text || ""),
    h("div", { class: "tile-editions tile-copies" }, copiesLine(card)));
  }

  function chips(boxId, values, chosen, label, colour) {
    const box = $(boxId);
    const head = box.querySelector(".chip-label");
    fill(box, head, values.map((v) => h("button", {
      type: "button", class: ["filter-chip", colour ? null : "plain"],
      style: colour ? { "--dc": colour(v) } : null, dataset: { value: v },
      "aria-pressed": chosen.has(v) ? "true" : "false",
      onclick: (ev) => {
        if (chosen.has(v)) chosen.delete(v); else chosen.add(v);
        ev.currentTarget.setAttribute("aria-pressed", chosen.has(v) ? "true" : "false");
        render();
      },
    }, title(label(v)))));
  }

  function saveToAddress() {
    const q = new URLSearchParams();
    if (state.query) q.set("q", state.query);
    if (state.empires.size) q.set("empire", [...state.empires].join(","));
    if (state.kinds.size) q.set("kind", [...state.kinds].join(","));
    if (state.deck) q.set("deck", state.deck);
    const search = q.toString();
    history.replaceState(null, "", `${location.pathname}${search ? "?" + search : ""}${location.hash}`);
  }

  function render() {
    const shown = state.cards.filter(matches);
    const total = state.cards.length;
    $("card-count").textContent = shown.length === total ? `${total} cards` : `${shown.length} of ${total} cards match`;
    fill($("card-grid"), shown.length ? shown.map(tile) : h("div", { class: "panel empty-note" },
      state.query ? `No card matches “${state.query}” with these filters. ` : "No card matches these filters. ",
      h("button", { type: "button", onclick: clearAll }, "Show every card")));
    saveToAddress();
  }

  function clearAll() {
    state.query = "";
    state.empires.clear();
    state.kinds.clear();
    state.deck = "";
    $("card-search").value = "";
    $("card-deck").value = "";
    document.querySelectorAll("button.filter-chip").forEach((b) => b.setAttribute("aria-pressed", "false"));
    render();
  }

  const unique = (list) => [...new Set(list)];

  function readAddress(empires, kinds) {
    const q = new URLSearchParams(location.search);
    state.query = (q.get("q") || "").slice(0, 100);
    for (const e of (q.get("empire") || "").split(",")) if (empires.includes(e)) state.empires.add(e);
    for (const k of (q.get("kind") || "").split(",")) if (kinds.includes(k)) state.kinds.add(k);
    state.deck = DECKS.includes(q.get("deck")) ? q.get("deck") : "";
  }

  // A link to /cards/ge#key shows that card, marked.
  function showLinked() {
    document.querySelectorAll(".card-entry.picked").forEach((e) => e.classList.remove("picked"));
    const key = decodeURIComponent(location.hash.slice(1));
    if (!key) return;
    const card = document.getElementById(`card-${key}`);
    if (!card) return;
    card.classList.add("picked");
    card.scrollIntoView({ block: "center" });
  }

  function failed(error) {
    $("card-count").textContent = "";
    fill($("card-grid"), h("div", { class: "panel load-error" },
      h("p", {}, `The cards could not be loaded: ${error.message}`),
      h("button", { type: "button", class: "primary", onclick: () => { fill($("card-grid")); load(); } }, "Try again"),
      " ", h("a", { class: "button", href: "/" }, "Back to the lobby")));
  }

  async function load() {
    $("card-count").textContent = "Loading the cards…";
    let data;
    try {
      data = await apiCall("GET", "/api/cards?game=ge");
    } catch (e) { failed(e); return; }
    const cards = Array.isArray(data && data.cards) ? data.cards : [];
    state.cards = cards.map((c) => ({ ...c, _hay: haystack(c) }));
    const empires = unique(cards.map((c) => c.empire));
    const kinds = unique(cards.map((c) => c.kind));
    readAddress(empires, kinds);
    $("card-search").value = state.query;
    $("card-deck").value = state.deck;
    chips("empire-chips", empires, state.empires, empireName, empireColour);
    chips("kind-chips", kinds, state.kinds, (k) => k, null);
    render();
    showLinked();
  }

  $("card-search").addEventListener("input", (ev) => { state.query = ev.target.value; render(); });
  $("card-deck").addEventListener("change", (ev) => { state.deck = ev.target.value; render(); });
  $("card-clear").addEventListener("click", clearAll);
  window.addEventListener("hashchange", showLinked);
  load();
})();
