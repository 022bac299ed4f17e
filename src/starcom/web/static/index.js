// First page: quick game against the AI, the new-game form, open games to join, games to watch.
"use strict";

const SEAT_COLOURS = ["var(--p0)", "var(--p1)", "var(--p2)", "var(--p3)"];
const DEFAULT_AI = "ai:normal";
// What a seat can be: a human or the computer at one of the difficulty levels.
const SEAT_KINDS = [["human", "Human"], ["ai:easy", "AI · easy"], ["ai:normal", "AI · normal"], ["ai:hard", "AI · hard"]];
const form = { mode: "vs_ai", players: 2, size: 3, edition: "standard", seats: ["human", DEFAULT_AI],
               quickLevel: "normal" };

function $(id) { return document.getElementById(id); }

function showError(text) {
  const box = $("home-error");
  box.textContent = text;
  box.classList.remove("hidden");
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => box.classList.add("hidden"), 6000);
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method, headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) throw new Error((data && data.error) || `${method} ${path}: HTTP ${res.status}`);
  return data;
}

// Default seat kinds follow the mode: vs AI = you + AIs, hot-seat and online = all humans.
function defaultSeats() {
  const n = form.players;
  form.seats = Array.from({ length: n }, (_, i) => (form.mode === "vs_ai" && i > 0 ? DEFAULT_AI : "human"));
}

// The takeover option only means something for online games (a player can leave them).
function renderTakeover() {
  $("takeover-row").classList.toggle("hidden", form.mode !== "online");
  $("takeover-level").disabled = !$("takeover").checked;
}

function renderSeats() {
  const box = $("seats");
  box.innerHTML = "";
  form.seats.forEach((kind, i) => {
    const row = document.createElement("div");
    row.className = "seat-row";
    row.innerHTML = `<span class="seat-dot" style="background:${SEAT_COLOURS[i]}"></span><span>P${i}</span>`;
    const sel = document.createElement("select");
    sel.dataset.seat = i;
    sel.setAttribute("aria-label", `seat P${i}`);
    for (const [v, label] of SEAT_KINDS) {
      const o = document.createElement("option");
      o.value = v; o.textContent = label; o.selected = v === kind;
      sel.appendChild(o);
    }
    sel.onchange = () => { form.seats[i] = sel.value; };
    row.appendChild(sel);
    box.appendChild(row);
  });
}

function bindSeg(id, key, numeric) {
  const seg = $(id);
  seg.querySelectorAll("button").forEach((b) => {
    b.onclick = () => {
      seg.querySelectorAll("button").forEach((x) => x.classList.toggle("on", x === b));
      form[key] = numeric ? Number(b.dataset.v) : b.dataset.v;
      if (key === "players" || key === "mode") { defaultSeats(); renderSeats(); renderTakeover(); }
    };
  });
}

function hotseatLink(created) {
  const tokens = created.seats.map((s) => s.token || "");
  sessionStorage.setItem(`starcom-seats-${created.game_id}`, JSON.stringify(tokens));
  return `/game/${created.game_id}?seats=${tokens.map(encodeURIComponent).join(",")}`;
}

function firstSeatLink(created) {
  const links = created.links.seats;
  const keys = Object.keys(links).sort((a, b) => a - b);
  return keys.length ? links[keys[0]] : created.links.spectate;
}

async function create(body) {
  const created = await api("POST", "/api/games", body);
  if (body.mode === "hotseat") return hotseatLink(created);
  return firstSeatLink(created);
}

async function quickPlay() {
  $("play-ai").disabled = true;
  try {
    location.href = await create({
      players: 2, size: 3, edition: "standard", seed: null, turn_limit: null,
      seats: ["human", `ai:${form.quickLevel}`], mode: "vs_ai", ai_takeover: false,
    });
  } catch (e) {
    showError(e.message);
    $("play-ai").disabled = false;
  }
}

async function createFromForm() {
  const body = {
    players: form.players, size: form.size, edition: form.edition, seed: null, turn_limit: null,
    seats: form.seats.slice(), mode: form.mode, ai_takeover: false,
  };
  if (form.mode === "online" && $("takeover").checked) {
    body.ai_takeover = true;
    body.takeover_level = $("takeover-level").value;
  }
  if (!body.seats.includes("human")) { showError("At least one seat must be human."); return; }
  try {
    if (form.mode !== "online") { location.href = await create(body); return; }
    const created = await api("POST", "/api/games", body);
    // Online: every human seat has its own secret link to hand to a friend.
    const box = $("links");
    box.classList.remove("hidden");
    box.innerHTML = "<h2>Seat links (keep them secret)</h2>";
    for (const [seat, link] of Object.entries(created.links.seats)) {
      const row = document.createElement("div");
      row.innerHTML = `P${seat}: <a href="${link}">${location.origin}${link}</a>`;
      box.appendChild(row);
    }
    const spec = document.createElement("div");
    spec.innerHTML = `Spectators: <a href="${created.links.spectate}">${location.origin}${created.links.spectate}</a>`;
    box.appendChild(spec);
    refreshLists();
  } catch (e) { showError(e.message); }
}

function describeGame(g) {
  return `${g.players} players &middot; ${g.size}&times;${g.size} &middot; ${g.edition} &middot; ${g.mode.replace("_", " ")}` +
    (g.over ? " &middot; finished" : ` &middot; turn ${g.turn ?? 0}`) +
    (g.takeover_level ? ` &middot; AI (${g.takeover_level}) stands in for leavers` : "");
}

async function join(id) {
  try {
    const seat = await api("POST", `/api/games/${id}/join`, {});
    location.href = `/game/${id}?seat=${encodeURIComponent(seat.token)}`;
  } catch (e) { showError(e.message); refreshLists(); }
}

async function refreshLists() {
  try {
    const open = (await api("GET", "/api/games?open=1")).games || [];
    const ul = $("open-games");
    ul.innerHTML = open.length ? "" : '<li class="muted">No open games. Create an online game and share its links.</li>';
    for (const g of open) {
      const li = document.createElement("li");
      li.innerHTML = `<span>${describeGame(g)} &middot; free: ${g.free_seats.map((s) => "P" + s).join(", ")}</span>`;
      const b = document.createElement("button");
      b.textContent = "Join"; b.className = "primary"; b.onclick = () => join(g.game_id);
      li.appendChild(b);
      ul.appendChild(li);
    }
    const all = (await api("GET", "/api/games")).games || [];
    const ul2 = $("all-games");
    ul2.innerHTML = all.length ? "" : '<li class="muted">No games yet.</li>';
    for (const g of all.slice(-12).reverse()) {
      const li = document.createElement("li");
      li.innerHTML = `<span>${describeGame(g)}</span><a href="${g.over ? "/replay/" : "/game/"}${g.game_id}">${g.over ? "Replay" : "Spectate"}</a>`;
      ul2.appendChild(li);
    }
  } catch (e) {
    $("open-games").innerHTML = `<li class="muted">Could not load games: ${e.message}</li>`;
  }
}

bindSeg("mode", "mode", false);
bindSeg("players", "players", true);
bindSeg("size", "size", true);
bindSeg("edition", "edition", false);
bindSeg("quick-level", "quickLevel", false);
defaultSeats();
renderSeats();
renderTakeover();
$("takeover").onchange = renderTakeover;
$("play-ai").onclick = quickPlay;
$("create").onclick = createFromForm;
refreshLists();
setInterval(refreshLists, 5000);
