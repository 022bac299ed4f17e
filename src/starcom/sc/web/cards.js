// Star Commander's card glossary (/cards/starcom, and /cards on a server whose own game it is): the
// cards of GET /api/cards?game=starcom, filtered by domain and kind chips and by edition
// (?q=...&domain=...&kind=...&edition=...). The page machinery is in the site's glossary.js; this
// describes the game's cards. Loaded after dom.js and glossary.js.
"use strict";

(() => {
  // Domain colours come from sc.css (--industry, --statecraft, ...), the ones the board uses.
  const domainColour = (d) =>
    getComputedStyle(document.documentElement).getPropertyValue(`--${d}`).trim() || "#c9d3f2";
  const DOMAIN_NAMES = { none: "neutral" };
  const domainName = (d) => DOMAIN_NAMES[d] || d;

  function stat(cls, glyph, value, words) {
    return h("span", { class: `stat ${cls}`, title: words },
      glyph ? `${glyph} ` : "", h("b", {}, value), ` ${words}`);
  }

  // One tile: name, cost, domain and kind, the numbers that apply to it, its text.
  function tile(card) {
    const has = (k) => card[k] !== null && card[k] !== undefined;
    const kind = card.size && card.kind === "ship" ? `${card.size} ${card.kind}` : card.kind;
    const kindLine = [domainName(card.domain), kind].filter(Boolean).join(" · ");
    return h("article", { class: "card-tile", id: `card-${card.key}`, style: { "--dc": domainColour(card.domain) },
      dataset: { key: card.key, domain: card.domain, kind: card.kind } },
    h("div", { class: "tile-head" },
      h("div", { class: "tile-name" }, card.name),
      has("cost") ? h("span", { class: "tile-cost", title: "price in credits" }, `${card.cost} cr`) : null),
    h("div", { class: "tile-kind" }, kindLine),
    h("div", { class: "tile-stats" },
      has("attack") ? stat("attack", "★", card.attack, "attack") : null,
      has("hp") ? stat("hp", "♥", card.hp, "hit points") : null,
      has("speed") ? stat("speed", "»", card.speed, "speed") : null,
      has("carry") && card.carry > 0 ? stat("carry", "", card.carry, "fighters carried") : null,
      has("max_dev") ? stat("max-dev", "▲", card.max_dev, "max developments") : null),
    h("p", { class: "tile-text" }, card.text || ""),
    (card.editions || []).length === 1
      ? h("div", { class: "tile-editions" }, `${titleCase(card.editions[0])} edition only`) : null);
  }

  glossaryPage({
    url: "/api/cards?game=starcom",
    tile,
    // Everything a player could type to find the card.
    words: (card) => [card.name, card.text, card.domain, domainName(card.domain), card.kind, card.size || ""],
    chips: [
      { param: "domain", box: "domain-chips", of: (c) => c.domain, label: domainName, colour: domainColour },
      { param: "kind", box: "kind-chips", of: (c) => c.kind },
    ],
    // The editions are whatever the catalogue names, so the options are built from the cards.
    select: {
      param: "edition", id: "card-edition",
      values: (cards) => cards.flatMap((c) => c.editions || []),
      options: (editions) => [h("option", { value: "" }, "All editions"),
        editions.map((e) => h("option", { value: e }, titleCase(e)))],
      has: (card, edition) => (card.editions || []).includes(edition),
    },
  });
})();
