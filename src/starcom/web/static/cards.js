// Card glossary: every catalogue card from GET /api/cards as a tile, filtered as the player types
// (name, text, domain, kind), by domain and kind chips and by edition. The filters live in the
// address (?q=...&domain=...&kind=...&edition=...), and #key points at one card, so a view can be
// linked. Loaded after dom.js; card data only ever becomes text nodes.
"use strict";

(() => {
  // Domain colours come from app.css (--industry, --statecraft, ...), the ones the board uses.
  const domainColour = (d) =>
    getComputedStyle(document.documentElement).getPropertyValue(`--${d}`).trim() || "#c9d3f2";
  const DOMAIN_NAMES = { none: "neutral" };
  const domainName = (d) => DOMAIN_NAMES[d] || d;
  const title = (s) => s.charAt(0).toUpperCase() + s.slice(1);

  const state = { cards: [], query: "", domains: new Set(), kinds: new Set(), edition: "" };

  // What a search term is compared with: everything a player could type to find the card.
  function haystack(card) {
    return [card.name, card.text, card.domain, domainName(card.domain), card.kind, card.size || ""]
      .join(" \u0001 ").toLowerCase();
  }

  function matches(card) {
    if (state.domains.size && !state.domains.has(card.domain)) return false;
    if (state.kinds.size && !state.kinds.has(card.kind)) return false;
    if (state.edition && !(card.editions || []).includes(state.edition)) return false;
    const terms = state.query.toLowerCase().split(/\s+/).filter(Boolean);
    return terms.every((t) => card._hay.includes(t));
  }

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
      ? h("div", { class: "tile-editions" }, `${title(card.editions[0])} edition only`) : null);
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
    if (state.domains.size) q.set("domain", [...state.domains].join(","));
    if (state.kinds.size) q.set("kind", [...state.kinds].join(","));
    if (state.edition) q.set("edition", state.edition);
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
    state.domains.clear();
    state.kinds.clear();
    state.edition = "";
    $("card-search").value = "";
    $("card-edition").value = "";
    document.querySelectorAll("button.filter-chip").forEach((b) => b.setAttribute("aria-pressed", "false"));
    render();
  }

  const unique = (list) => [...new Set(list)];

  function readAddress(domains, kinds, editions) {
    const q = new URLSearchParams(location.search);
    state.query = (q.get("q") || "").slice(0, 100);
    for (const d of (q.get("domain") || "").split(",")) if (domains.includes(d)) state.domains.add(d);
    for (const k of (q.get("kind") || "").split(",")) if (kinds.includes(k)) state.kinds.add(k);
    state.edition = editions.includes(q.get("edition")) ? q.get("edition") : "";
  }

  // A link to /cards#key shows that card, marked.
  function showLinked() {
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
      data = await apiCall("GET", "/api/cards");
    } catch (e) { failed(e); return; }
    const cards = Array.isArray(data && data.cards) ? data.cards : [];
    state.cards = cards.map((c) => ({ ...c, _hay: haystack(c) }));
    const domains = unique(cards.map((c) => c.domain));
    const kinds = unique(cards.map((c) => c.kind));
    const editions = unique(cards.flatMap((c) => c.editions || []));
    readAddress(domains, kinds, editions);
    $("card-search").value = state.query;
    fill($("card-edition"), h("option", { value: "" }, "All editions"),
      editions.map((e) => h("option", { value: e, selected: e === state.edition }, title(e))));
    chips("domain-chips", domains, state.domains, domainName, domainColour);
    chips("kind-chips", kinds, state.kinds, (k) => k, null);
    render();
    showLinked();
  }

  $("card-search").addEventListener("input", (ev) => { state.query = ev.target.value; render(); });
  $("card-edition").addEventListener("change", (ev) => { state.edition = ev.target.value; render(); });
  $("card-clear").addEventListener("click", clearAll);
  load();
})();
