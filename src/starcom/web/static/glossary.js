// The machinery every game's card glossary shares (/cards/GAME, each page and its script among the
// game's own browser files): tiles filtered by a search box, chip rows and one select, the filters
// kept in the address so a view can be linked, #key marking one card. Each page's own script only
// describes its game; see glossaryPage below. Loaded after dom.js; card data only ever becomes
// text nodes.
"use strict";

const titleCase = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// game = {
//   url: where the cards come from ({cards: [...]}),
//   tile: card => element (a .card-tile with id card-KEY),
//   words: card => strings a search term is compared with,
//   chips: [{param, box, of: card => value, label?: value => text, colour?: value => css colour}],
//   select: {param, id, values: cards => choices, options?: choices => <option>s, has: (card, value) => bool},
// }
// Each chip row and the select is one address parameter (after q), in the order given.
function glossaryPage(game) {
  const sel = game.select;
  const state = { cards: [], query: "", chosen: game.chips.map(() => new Set()), choice: "" };

  function matches(card) {
    if (game.chips.some((c, i) => state.chosen[i].size && !state.chosen[i].has(c.of(card)))) return false;
    if (state.choice && !sel.has(card, state.choice)) return false;
    const terms = state.query.toLowerCase().split(/\s+/).filter(Boolean);
    return terms.every((t) => card._hay.includes(t));
  }

  function chips(chip, values, chosen) {
    const box = $(chip.box);
    const head = box.querySelector(".chip-label");
    const label = chip.label || ((v) => v);
    fill(box, head, values.map((v) => h("button", {
      type: "button", class: ["filter-chip", chip.colour ? null : "plain"],
      style: chip.colour ? { "--dc": chip.colour(v) } : null, dataset: { value: v },
      "aria-pressed": chosen.has(v) ? "true" : "false",
      onclick: (ev) => {
        if (chosen.has(v)) chosen.delete(v); else chosen.add(v);
        ev.currentTarget.setAttribute("aria-pressed", chosen.has(v) ? "true" : "false");
        render();
      },
    }, titleCase(label(v)))));
  }

  // replaceState, not pushState: filtering should not fill the back button's history.
  function saveToAddress() {
    const q = new URLSearchParams();
    if (state.query) q.set("q", state.query);
    game.chips.forEach((c, i) => { if (state.chosen[i].size) q.set(c.param, [...state.chosen[i]].join(",")); });
    if (state.choice) q.set(sel.param, state.choice);
    const search = q.toString();
    history.replaceState(null, "", `${location.pathname}${search ? "?" + search : ""}${location.hash}`);
  }

  function render() {
    const shown = state.cards.filter(matches);
    const total = state.cards.length;
    $("card-count").textContent = shown.length === total ? `${total} cards` : `${shown.length} of ${total} cards match`;
    fill($("card-grid"), shown.length ? shown.map(game.tile) : h("div", { class: "panel empty-note" },
      state.query ? `No card matches “${state.query}” with these filters. ` : "No card matches these filters. ",
      h("button", { type: "button", onclick: clearAll }, "Show every card")));
    saveToAddress();
  }

  function clearAll() {
    state.query = "";
    state.chosen.forEach((set) => set.clear());
    state.choice = "";
    $("card-search").value = "";
    $(sel.id).value = "";
    document.querySelectorAll("button.filter-chip").forEach((b) => b.setAttribute("aria-pressed", "false"));
    render();
  }

  const unique = (list) => [...new Set(list)];

  // Only values the cards really have are taken from the address: it may be hand-edited or stale.
  function readAddress(chipValues, choices) {
    const q = new URLSearchParams(location.search);
    state.query = (q.get("q") || "").slice(0, 100);
    game.chips.forEach((c, i) => {
      for (const v of (q.get(c.param) || "").split(",")) if (chipValues[i].includes(v)) state.chosen[i].add(v);
    });
    state.choice = choices.includes(q.get(sel.param)) ? q.get(sel.param) : "";
  }

  // A link to the page with #key shows that card, marked; a later #key moves the mark.
  function showLinked() {
    document.querySelectorAll(".card-tile.picked").forEach((e) => e.classList.remove("picked"));
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
      data = await apiCall("GET", game.url);
    } catch (e) { failed(e); return; }
    const cards = Array.isArray(data && data.cards) ? data.cards : [];
    state.cards = cards.map((c) => ({ ...c, _hay: game.words(c).join(" \u0001 ").toLowerCase() }));
    const chipValues = game.chips.map((c) => unique(cards.map(c.of)));
    const choices = unique(sel.values(cards));
    readAddress(chipValues, choices);
    $("card-search").value = state.query;
    if (sel.options) fill($(sel.id), sel.options(choices));
    $(sel.id).value = state.choice;
    game.chips.forEach((c, i) => chips(c, chipValues[i], state.chosen[i]));
    render();
    showLinked();
  }

  $("card-search").addEventListener("input", (ev) => { state.query = ev.target.value; render(); });
  $(sel.id).addEventListener("change", (ev) => { state.choice = ev.target.value; render(); });
  $("card-clear").addEventListener("click", clearAll);
  window.addEventListener("hashchange", showLinked);
  load();
}
