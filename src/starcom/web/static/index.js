// First page: quick game against the AI, the new-game form, open games to join, games to watch,
// links to How to play and the card glossary. Loaded after dom.js (h, fill, $, apiCall).
// Everything from the server is shown as text.
//
// No game is named here: the games, their settings and every default the form starts from (player
// count, board size, edition, AI levels) are what the server says of each game (GET /api/settings).
// Until it has answered, the form stays hidden and the Play button off.
"use strict";

// The server lists games newest first; the Watch list shows this many of them.
const WATCH_COUNT = 12;
// The form's choices; null until the server has said what the chosen game offers.
// access (online games): "invite" (by invite only, not listed) or "open" (listed in the lobby).
const form = { game: null, mode: "vs_ai", players: null, size: null, edition: null, seats: [], quickLevel: null,
  access: "invite" };
// The games the server offers (GET /api/settings): name -> {title, players, sizes, editions,
// defaults, levels, default_level, help, cards, ...}. Empty until it answered (then the form makes
// the server's own game).
const games = new Map();
// What the server told us about new games (GET /api/settings): the turn limits it accepts, its
// default and the one for quick games. null until it answered (then the server picks the default).
const limits = { quick: null, min: 1, max: null };

// An error stays until dismissed: what failed, the server's own words, and (when given) a button
// that tries the same thing again.
function showError(text, what = "", retry = null) {
  $("home-error-what").textContent = what;
  $("home-error").textContent = text;
  $("home-error").classList.remove("hidden");
  $("home-error-box").classList.remove("hidden");
  const again = $("home-error-retry");
  again.classList.toggle("hidden", !retry);
  again.onclick = retry ? () => { hideError(); retry(); } : null;
}

function hideError() {
  $("home-error-box").classList.add("hidden");
  $("home-error").classList.add("hidden");
}

// The chosen game's description, null before the server has answered.
const chosen = () => games.get(form.game) || null;

// What the chosen game starts from: the server's `defaults` of it (a server that sends none: the
// first of each list it offers, which is how the game orders them).
function gameDefaults(g) {
  const own = g.defaults && typeof g.defaults === "object" ? g.defaults : {};
  return {
    players: g.players.includes(own.players) ? own.players : g.players[0],
    size: g.sizes.includes(own.size) ? own.size : (g.sizes.length ? g.sizes[0] : null),
    edition: g.editions.includes(own.edition) ? own.edition : (g.editions[0] || null),
  };
}

// The chosen game's AI levels (the server's words for them) and the one it offers first.
const gameLevels = (g) => (Array.isArray(g.levels) ? g.levels.filter((l) => typeof l === "string") : []);
function defaultLevel(g) {
  const levels = gameLevels(g);
  return levels.includes(g.default_level) ? g.default_level : (levels[0] || null);
}

// What a seat can be: a human or the computer at one of the chosen game's levels.
function seatKinds() {
  const g = chosen();
  return [["human", "Human"], ...(g ? gameLevels(g) : []).map((l) => [`ai:${l}`, `AI · ${l}`])];
}

// The server's settings: the games and what each offers, the turn limit of quick games (shown
// next to the Play button and sent with the request); the form's turn limit starts at the
// server's default. Nothing to show without them: the error says so, with a button to ask again.
async function loadSettings() {
  let settings;
  try {
    settings = await apiCall("GET", "/api/settings");
  } catch (e) {
    $("quick-desc").textContent = "The server has not said which games it offers.";
    showError(e.message, "Could not load the games:", loadSettings);
    return;
  }
  for (const g of Array.isArray(settings.games) ? settings.games : []) {
    if (g && g.name && Array.isArray(g.players) && g.players.length) {
      games.set(g.name, { ...g, sizes: Array.isArray(g.sizes) ? g.sizes : [], editions: Array.isArray(g.editions) ? g.editions : [] });
    }
  }
  const first = games.has(settings.game) ? settings.game : games.keys().next().value;
  if (first === undefined) {
    $("quick-desc").textContent = "This server offers no game.";
    return;
  }
  chooseGame(first);
  renderGameChoice();
  const [min, max] = Array.isArray(settings.turn_limits) ? settings.turn_limits : [1, null];
  limits.min = Number.isInteger(min) ? min : 1;
  limits.max = Number.isInteger(max) ? max : null;
  const quick = Number.isInteger(settings.quick_turn_limit) ? settings.quick_turn_limit : settings.default_turn_limit;
  limits.quick = Number.isInteger(quick) ? quick : null;
  renderQuickDesc();
  const input = $("turn-limit");
  input.min = String(limits.min);
  if (limits.max !== null) input.max = String(limits.max);
  if (Number.isInteger(settings.default_turn_limit) && input.value === "") {
    input.value = String(settings.default_turn_limit);
  }
  $("new-game").classList.remove("hidden");
  $("play-ai").disabled = false;
}

// The quick game's settings: the chosen game's defaults.
function quickSettings() {
  const g = chosen();
  return { game: g.name, ...gameDefaults(g) };
}

function renderQuickDesc() {
  const g = chosen();
  if (!g) return;
  const q = quickSettings();
  const parts = [games.size > 1 ? g.title : null, `${q.players} players`, q.size ? `${q.size}×${q.size}` : null,
    q.edition ? `${q.edition} edition` : null].filter(Boolean);
  fill($("quick-desc"), `Quick game: ${parts.join(", ")}, `,
    limits.quick === null ? "the server's default turn limit"
      : h("b", { id: "quick-limit" }, `turn limit ${limits.quick}`));
}

// The game choice (shown when the server offers more than one game): one button per game.
function renderGameChoice() {
  $("game-row").classList.toggle("hidden", games.size < 2);
  fill($("game-choice"), [...games.values()].map((g) => h("button", {
    type: "button", class: g.name === form.game ? "on" : null, dataset: { v: g.name },
    onclick: () => { chooseGame(g.name); renderGameChoice(); renderQuickDesc(); },
  }, g.title)));
}

// A segmented control's buttons from a list of values; the one equal to `on` is lit.
function fillSeg(id, values, on, label, key, numeric) {
  fill($(id), values.map((v) => h("button", { type: "button", class: v === on ? "on" : null, dataset: { v: String(v) } }, label(v))));
  bindSeg(id, key, numeric);
}

// The form follows the chosen game: its player counts, board sizes (if any), editions and AI
// levels, each starting at the game's default (a choice the new game also offers is kept), and
// its own How-to-play and glossary pages.
function chooseGame(name) {
  const g = games.get(name);
  if (!g) return;
  form.game = name;
  const own = gameDefaults(g);
  if (!g.players.includes(form.players)) form.players = own.players;
  fillSeg("players", g.players, form.players, String, "players", true);
  $("size-row").classList.toggle("hidden", !g.sizes.length);
  form.size = g.sizes.includes(form.size) ? form.size : own.size;
  fillSeg("size", g.sizes, form.size, (n) => `${n}×${n}`, "size", true);
  $("edition-row").classList.toggle("hidden", !g.editions.length);
  form.edition = g.editions.includes(form.edition) ? form.edition : own.edition;
  fillSeg("edition", g.editions, form.edition, (e) => e.charAt(0).toUpperCase() + e.slice(1), "edition", false);
  const levels = gameLevels(g);
  if (!levels.includes(form.quickLevel)) form.quickLevel = defaultLevel(g);
  $("quick-level-row").classList.toggle("hidden", !levels.length);
  fillSeg("quick-level", levels, form.quickLevel, (l) => l.charAt(0).toUpperCase() + l.slice(1), "quickLevel", false);
  const takeover = $("takeover-level"), was = takeover.value;
  fill(takeover, levels.map((l) => h("option", { value: l }, `AI · ${l}`)));
  takeover.value = levels.includes(was) ? was : (defaultLevel(g) || "");
  $("turn-limit-hint").textContent = g.turn_limit_words;
  for (const [id, href] of [["help-link", g.help], ["cards-link", g.cards]]) {
    $(id).classList.toggle("hidden", !href);
    if (href) $(id).href = href;
  }
  document.querySelector(".home .title").textContent = g.title;
  // The game's own line under its title (none: no line).
  const tagline = typeof g.tagline === "string" ? g.tagline : "";
  document.querySelector(".home .tagline").textContent = tagline;
  document.querySelector(".home .tagline").classList.toggle("hidden", !tagline);
  document.title = g.title;
  defaultSeats();
  renderSeats();
}

// The form's turn limit: a whole number in the server's range, or null (empty: the server's
// default). Anything else is refused here with a message saying what to enter.
function formTurnLimit() {
  const input = $("turn-limit");
  const raw = input.value.trim();
  const range = limits.max === null ? `${limits.min} or more` : `from ${limits.min} to ${limits.max}`;
  // A number field reads "" for text that is not a number: that is a mistake, not "empty".
  if (input.validity.badInput) throw new Error(`The turn limit must be a whole number ${range}.`);
  if (raw === "") return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < limits.min || (limits.max !== null && n > limits.max)) {
    throw new Error(`The turn limit must be a whole number ${range} (it was "${raw.slice(0, 20)}").`);
  }
  return n;
}

const gamePath = (id) => `/game/${encodeURIComponent(id)}`;

// Default seat kinds follow the mode: vs AI = you + AIs at the game's default level, hot-seat and
// online = all humans.
function defaultSeats() {
  const g = chosen(), n = form.players || 0;
  const ai = g && defaultLevel(g) ? `ai:${defaultLevel(g)}` : "human";
  form.seats = Array.from({ length: n }, (_, i) => (form.mode === "vs_ai" && i > 0 ? ai : "human"));
}

// Who may join and the takeover option only mean something for online games (a player can
// join or leave them).
function renderTakeover() {
  $("access-row").classList.toggle("hidden", form.mode !== "online");
  $("takeover-row").classList.toggle("hidden", form.mode !== "online");
  $("takeover-level").disabled = !$("takeover").checked;
}

function renderSeats() {
  fill($("seats"), form.seats.map((kind, i) => {
    const sel = h("select", { dataset: { seat: i }, "aria-label": `seat P${i}`,
      onchange: () => { form.seats[i] = sel.value; } },
    seatKinds().map(([v, label]) => h("option", { value: v, selected: v === kind }, label)));
    return h("div", { class: "seat-row" }, h("span", { class: `seat-dot p${i}` }), h("span", {}, `P${i}`), sel);
  }));
}

function bindSeg(id, key, numeric) {
  const seg = $(id);
  seg.querySelectorAll("button").forEach((b) => {
    b.addEventListener("click", () => {
      seg.querySelectorAll("button").forEach((x) => x.classList.toggle("on", x === b));
      form[key] = numeric ? Number(b.dataset.v) : b.dataset.v;
      if (key === "players" || key === "mode") { defaultSeats(); renderSeats(); renderTakeover(); }
    });
  });
}

// Hot-seat: one device holds every human seat's token.
function hotseatLink(created) {
  const tokens = created.seats.map((s) => s.token || "");
  sessionStorage.setItem(`starcom-seats-${created.game_id}`, JSON.stringify(tokens));
  return `${gamePath(created.game_id)}?seats=${tokens.map(encodeURIComponent).join(",")}`;
}

// The creator's own seats: links.seats holds only those (a server that predates invite links
// listed every human seat there, and then the creator's is the first).
function ownSeats(created) {
  const seats = Object.entries(created.links.seats || {}).sort((a, b) => a[0] - b[0]);
  return created.links.invites ? seats : seats.slice(0, 1);
}

// Links to hand to other players: the one-time invites, or (older server) the other seat links.
function inviteLinks(created) {
  if (created.links.invites) return Object.entries(created.links.invites).sort((a, b) => a[0] - b[0]);
  return Object.entries(created.links.seats || {}).sort((a, b) => a[0] - b[0]).slice(1);
}

function firstSeatLink(created) {
  const own = ownSeats(created);
  return sitePath(own.length ? own[0][1] : null, gamePath(created.game_id));
}

async function create(body) {
  const created = await apiCall("POST", "/api/games", body);
  if (body.mode === "hotseat") return hotseatLink(created);
  return firstSeatLink(created);
}

async function quickPlay() {
  if (!chosen()) return;
  $("play-ai").disabled = true;
  hideError();
  try {
    const q = quickSettings();
    location.href = await create(withoutNulls({
      ...q, seed: null, turn_limit: limits.quick,
      seats: ["human", ...Array(q.players - 1).fill(`ai:${form.quickLevel}`)], mode: "vs_ai", ai_takeover: false,
    }));
  } catch (e) {
    showError(e.message, "Could not start the game:", quickPlay);
    $("play-ai").disabled = false;
  }
}

// Copy to the clipboard; without clipboard access (plain http on another host) select the text
// in its box and use the older copy command, or leave it selected for the player to copy.
async function copyLink(input, button) {
  let ok = false;
  try {
    await navigator.clipboard.writeText(input.value);
    ok = true;
  } catch (e) {
    input.focus();
    input.select();
    try { ok = document.execCommand("copy"); } catch (e2) { ok = false; }
  }
  button.textContent = ok ? "Copied" : "Press Ctrl+C";
  clearTimeout(button.timer);
  button.timer = setTimeout(() => { button.textContent = "Copy"; }, 2000);
}

function copyRow(cls, label, path, extra) {
  const input = h("input", { class: "link-text", type: "text", readOnly: true, value: location.origin + path,
    "aria-label": `${label} link`, onfocus: () => input.select() });
  const button = h("button", { type: "button", class: "copy", onclick: () => copyLink(input, button) }, "Copy");
  return h("div", { class: `link-row ${cls}` }, h("span", { class: "link-label" }, label), input, button, extra);
}

// What the invites do, told truthfully for the creator's choice: a listed game's free seats are
// anyone's from the lobby (an invite keeps one for a named player); an invite-only game is not
// listed, so its invites are the only way in.
function inviteWords(listed) {
  return listed
    ? "Listed under Open online games: anyone can take a free seat from the lobby. " +
      "An invite seats the player you send it to, once (if nobody took the seat first)."
    : "By invite only: the game is not listed in the lobby. Each invite seats one player, once. " +
      "Keep them private: whoever opens one first gets the seat.";
}

// Online game created: the creator's own seat link (to play now), one invite link per other human
// seat (to send to a friend; each seats one player once), and the spectators' link. The box is
// brought into view (on a phone it sits under the form), with the seat link at its top.
function showLinks(created) {
  const own = ownSeats(created), invites = inviteLinks(created);
  const spectate = sitePath(created.links.spectate, gamePath(created.game_id));
  const box = $("links");
  fill(box,
    h("h2", {}, "Your game is ready"),
    own.map(([seat, link]) => h("div", { class: "link-row own", dataset: { seat } },
      h("span", { class: "link-label" }, `You (P${seat})`),
      h("a", { href: sitePath(link, gamePath(created.game_id)) }, `Play as P${seat}: ${location.origin}${link}`))),
    invites.length ? [
      h("h3", {}, "Invite links: send one to each friend"),
      h("p", { class: "muted small invite-words" }, inviteWords(created.listed === true)),
      invites.map(([seat, link]) => copyRow("invite", `P${seat}`, sitePath(link, gamePath(created.game_id)))),
    ] : null,
    h("h3", {}, "Spectators"),
    copyRow("spectate", "Watch", spectate, h("a", { href: spectate }, "Open")));
  box.dataset.game = created.game_id;
  box.dataset.listed = String(created.listed === true);
  box.classList.remove("hidden");
  box.scrollIntoView({ block: "nearest" });
}

async function createFromForm() {
  hideError();
  let turnLimit;
  try {
    turnLimit = formTurnLimit();
  } catch (e) {
    showError(e.message, "Check the form:");
    $("turn-limit").focus();
    return;
  }
  const g = chosen();
  if (!g) return;
  const body = withoutNulls({
    game: g.name, players: form.players, size: g.sizes.length ? form.size : null,
    edition: g.editions.length ? form.edition : null, seed: null, turn_limit: turnLimit,
    seats: form.seats.slice(), mode: form.mode, ai_takeover: false,
  });
  if (form.mode === "online") body.listed = form.access === "open";
  if (form.mode === "online" && $("takeover").checked) {
    body.ai_takeover = true;
    body.takeover_level = $("takeover-level").value;
  }
  if (!body.seats.includes("human")) {
    showError("At least one seat must be human: set one of the seats to Human.", "Check the form:");
    return;
  }
  $("create").disabled = true;
  try {
    if (form.mode !== "online") { location.href = await create(body); return; }
    showLinks(await apiCall("POST", "/api/games", body));
    refreshLists();
  } catch (e) {
    showError(e.message, "Could not create the game:", createFromForm);
  } finally {
    $("create").disabled = false;
  }
}

// A request body without the settings left to the server (null: a game without sizes or editions,
// or the server's default seed).
function withoutNulls(body) {
  return Object.fromEntries(Object.entries(body).filter(([k, v]) => v !== null || k === "seed" || k === "turn_limit"));
}

function describeGame(g) {
  const title = games.size > 1 && g.title ? `${g.title} · ` : "";
  return `${title}${g.players} players · ${g.size ? `${g.size}×${g.size} · ` : ""}${g.edition ? `${g.edition} · ` : ""}` +
    `${String(g.mode).replace("_", " ")}` +
    (g.over ? " · finished" : ` · turn ${g.turn ?? 0}`) + (g.damaged ? " · damaged" : "") +
    (g.mode === "online" && g.listed === false ? " · by invite only" : "") +
    (g.takeover_level ? ` · AI (${g.takeover_level}) stands in for leavers` : "");
}

async function join(id) {
  try {
    const seat = await apiCall("POST", `/api/games/${encodeURIComponent(id)}/join`, {});
    location.href = sitePath(seat.link, `${gamePath(id)}?seat=${encodeURIComponent(seat.token)}`);
  } catch (e) {
    showError(e.message, "Could not join that game:");
    refreshLists();
  }
}

async function refreshLists() {
  try {
    const open = (await apiCall("GET", "/api/games?open=1")).games || [];
    fill($("open-games"), open.length ? open.map((g) => h("li", {},
      h("span", {}, `${describeGame(g)} · free: ${(g.free_seats || []).map((s) => "P" + s).join(", ")}`),
      h("button", { class: "primary", onclick: () => join(g.game_id) }, "Join")))
      : h("li", { class: "muted" }, "No open games. Create an online game open to anyone, or one by invite only and send its invite links."));
    const all = (await apiCall("GET", "/api/games")).games || [];
    fill($("all-games"), all.length ? all.slice(0, WATCH_COUNT).map((g) => h("li", {},
      h("span", {}, describeGame(g)),
      h("a", { href: (g.over ? "/replay/" : "/game/") + encodeURIComponent(g.game_id) }, g.over ? "Replay" : "Spectate")))
      : h("li", { class: "muted" }, "No games yet."));
  } catch (e) {
    fill($("open-games"), h("li", { class: "muted" },
      `Could not load the games: ${e.message}. Trying again in a few seconds.`));
  }
}

// A saved game file, read here and sent to the server, which checks every action and stores it
// as a finished game: its replay page opens.
async function openSavedGame(ev) {
  const file = ev.target.files && ev.target.files[0];
  ev.target.value = "";  // choosing the same file again fires change again
  if (!file) return;
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch (e) {
    showError(`${file.name} is not a saved game (not JSON: ${e.message}).`, "Could not open the file:");
    return;
  }
  try {
    const opened = await apiCall("POST", "/api/replays", record);
    location.href = sitePath(opened.links && opened.links.replay, `/replay/${encodeURIComponent(opened.game_id)}`);
  } catch (e) {
    showError(e.message, `Could not open ${file.name}:`);
  }
}

bindSeg("mode", "mode", false);
bindSeg("access", "access", false);
renderTakeover();
// The form is driven by its buttons; Enter in it must not submit (and reload) the page.
$("new-game").addEventListener("submit", (ev) => ev.preventDefault());
$("takeover").addEventListener("change", renderTakeover);
$("play-ai").addEventListener("click", quickPlay);
$("create").addEventListener("click", createFromForm);
$("home-error-close").addEventListener("click", hideError);
$("open-file").addEventListener("change", openSavedGame);
loadSettings();
refreshLists();
setInterval(refreshLists, 5000);
