// Each game's table: how the game and replay pages draw a position of that game. The pages know
// no game: a game ships its own scripts and styles (its entry's serving.web, served from its
// package and listed with its settings in GET /api/settings), which register its table as
// GAME_TABLES[<the game's name>]. A page loads them the first time it meets the game (the "game"
// of a state or replay message) and draws with that table; a game without one is shown with
// PLAIN_TABLE (its orders as buttons; the log tells the rest). Loaded after dom.js and seats.js.
//
// A table, every member optional:
//   info(view, limit) -> {text, phase, title}: the top bar: the turn (bold), the phase after it
//       (may be left out) and the tooltip; limit is the game's turn limit or null
//   replayInfo(view) -> string: the replay's top line after "Replay · " (default: info's text)
//   decision(view) -> string: what the seat to move is deciding, for the banner
//   turns(view) -> number: the turns played, for the game-over screen
//   overReason(state) -> string: why the game ended, a sentence
//   victory: string: what the game-over screen tells the winner
//   options: {amountFields, withText(entry), stats(card)}: how its order buttons read (options.js)
//   render(parts, state, ctx): draws the table. parts: the page's elements for it: table (the
//       board area), side (room under the orders), players; on the game page also main and
//       groups (the orders panel), hand and handTitle, hint (the line under the guide), dialog
//       and dialogBox (a dialog over the board). state: the state message ({view, seats,
//       seat: null} on the replay page). ctx: legal (entries this page may send now), mine,
//       seat, passing, pending, replay (true on the replay page), guide (guided mode on),
//       hint ({key, action, text} of the AI's hint, or null), changes (what the table's
//       changes() found, or null), controls(entries, {primary}) -> option controls,
//       act(event, title, entries) (one entry: send it; several: a menu), openMenu,
//       closeMenu, send(action), rerender()
//   changes(before, after) -> object | null: what another seat just changed between two views
//       (shown highlighted for a moment, as ctx.changes)
//   reset(): the decision moved on (or Escape was pressed): forget what was picked on the table
//   summary(box, summary, opts): draws the game-over summary (opts.reason false: the screen
//       says why the game ended already); default: drawSummary (summary.js) over its numbers
"use strict";

const GAME_TABLES = window.GAME_TABLES || (window.GAME_TABLES = {});

// A game without its own table: the table as the game words it (the state message's "table",
// lines of text from what this seat may see), and its orders as buttons, in the server's order.
const PLAIN_TABLE = {
  render(parts, state, ctx) {
    if (parts.table) {
      parts.table.replaceChildren(...(state.table ? [h("pre", { class: "plain-table" }, state.table.join("\n"))] : []));
    }
    if (parts.main) fill(parts.main, ctx.controls(ctx.legal));
    if (parts.groups) parts.groups.replaceChildren();
    if (parts.hand) {
      parts.hand.replaceChildren();
      parts.handTitle.textContent = state.seat === null ? "Spectating" : "Your hand";
    }
  },
};

let siteSettings = null;   // GET /api/settings, asked once
const tableLoads = new Map();  // game name -> promise of its settings entry (its scripts loaded)

function serverSettings() {
  if (!siteSettings) siteSettings = apiCall("GET", "/api/settings").catch(() => ({ games: [] }));
  return siteSettings;
}

// A script or a stylesheet on the page, once it has loaded: a table's first drawing measures
// its elements, so the game's styles must apply by then.
function loadFile(tag, attrs, what) {
  return new Promise((resolve, reject) => {
    document.head.appendChild(h(tag, { ...attrs, onload: resolve,
      onerror: () => reject(new Error(`could not load ${what}`)) }));
  });
}

// The name of the game a message is about: its "game", or the server's own game for a message
// from a server that names none.
async function gameOf(msg) {
  return msg.game || (await serverSettings()).game || null;
}

// The settings entry of game `name` (null when the server does not list it), once its styles
// apply and its scripts have run, one after the other. Asked again, the same promise.
function loadTable(name) {
  const key = String(name);
  if (!tableLoads.has(key)) {
    tableLoads.set(key, serverSettings().then(async (settings) => {
      const games = Array.isArray(settings.games) ? settings.games : [];
      const game = games.find((g) => g && g.name === name) || null;
      if (!game) return null;
      try {
        await Promise.all((game.styles || []).map((href) => loadFile("link", { rel: "stylesheet", href }, href)));
        for (const src of game.scripts || []) await loadFile("script", { src }, src);
      } catch (e) {
        console.warn(`${game.title}: ${e.message}; its positions are shown without its table`);
      }
      return game;
    }));
  }
  return tableLoads.get(key);
}

// The table of game `name` (PLAIN_TABLE until its scripts ran, or when it has none).
function tableOf(name) {
  return (name && GAME_TABLES[name]) || PLAIN_TABLE;
}
