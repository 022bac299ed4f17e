// Galactic Empires' card glossary (/cards/ge): the cards of GET /api/cards?game=ge, filtered by
// empire and kind chips and by deck (?q=...&empire=...&kind=...&deck=...). The page machinery is in
// glossary.js; this describes the game's cards. Loaded after dom.js and glossary.js.
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
    const parts = DECKS.filter((d) => copies[d] > 0).map((d) => `${titleCase(d)} deck ×${copies[d]}`);
    return parts.length ? parts.join(" · ") : "in neither deck";
  }

  // One tile: name and type code, empire and kind, its numbers, its text, copies per deck.
  function tile(card) {
    const cls = className(card["class"]);
    const kind = cls && cls !== card.kind ? `${card.kind} (${cls})` : card.kind;
    const kindLine = [titleCase(empireName(card.empire)), kind, card.reaction ? "reaction" : null].filter(Boolean).join(" · ");
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

  glossaryPage({
    url: "/api/cards?game=ge",
    tile,
    // Everything a player could type to find the card.
    words: (card) => [card.name, card.text, card.kind, className(card["class"]), card.empire, empireName(card.empire),
      typeCode(card), card.reaction ? "reaction" : ""],
    chips: [
      { param: "empire", box: "empire-chips", of: (c) => c.empire, label: empireName, colour: empireColour },
      { param: "kind", box: "kind-chips", of: (c) => c.kind },
    ],
    // The two decks are fixed, so their options are written in ge-cards.html.
    select: {
      param: "deck", id: "card-deck",
      values: () => DECKS,
      has: (card, deck) => (card.copies || {})[deck] > 0,
    },
  });
})();
