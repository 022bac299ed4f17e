// What happened and what was said: the changes other players made (highlighted for a moment),
// the "since your last move" strip over the board, the event log and the chat of online games.
// Loaded before game.js; its functions run on game.js's state (they are called only from there).
"use strict";

let changes = null;         // what others just changed (the table's changes(), with its time `at`)
let lastLines = [];         // the log lines since this seat's last own action
let chatLines = [];
const chatRead = new Set();  // chat lines the player has seen (the rest count as new)
let logTab = "log";         // which of the log and the chat is shown

// How long a change made by someone else stays highlighted (ms); the CSS animations have this length.
const FLASH_MS = 2200;

// What changed between two pictures of the same seat, when someone else did it: what the game's
// table finds changed (its changes(), highlighted for a moment), and the new log lines for the
// "last move" strip. The direct answer to this page's own action (one step on) is not highlighted.
function noteChanges(prev, msg, mineSent) {
  if (!prev || prev.seat !== msg.seat || msg.step <= prev.step) return;
  // This page's own action: nothing to point out, and the strip starts afresh for the next moves.
  if (mineSent && msg.step === prev.step + 1) { lastLines = []; return; }
  const table = tableOf(msg.game);
  const fresh = table.changes ? table.changes(prev.view, msg.view) : null;
  if (fresh) {
    // Moves that come in quick succession (an AI's turn) add up while the marks last.
    if (changes) {
      for (const k of Object.keys(fresh)) if (changes[k] instanceof Set) changes[k].forEach((x) => fresh[k].add(x));
    }
    changes = { ...fresh, at: Date.now() };
    clearTimeout(noteChanges.timer);
    noteChanges.timer = setTimeout(() => { changes = null; if (state) render(); }, FLASH_MS);
  }
  lastLines = lastLines.concat(newLogLines(prev.log, msg.log)).slice(-60);
}

// The lines of `now` that `before` did not have (the server keeps only the last lines: the two
// lists may be shifted).
function newLogLines(before, now) {
  for (let shift = 0; shift <= before.length; shift++) {
    const tail = before.slice(shift);
    if (tail.length <= now.length && tail.every((l, i) => l === now[i])) return now.slice(tail.length);
  }
  return now.slice(-3);
}

// What the others did since this seat's last decision, over the board: the last few log lines
// (lines about this seat itself are left to the log).
const LAST_MOVE_LINES = 4;

function renderLastMove() {
  const box = $("last-move");
  const me = state.seat === null ? null : `${seatName(state.seat)} `;
  const lines = me ? lastLines.filter((l) => !l.startsWith(me)) : lastLines;
  if (!lines.length) { box.classList.add("hidden"); return; }
  const shown = lines.slice(-LAST_MOVE_LINES);
  fill(box, h("div", { class: "lm-title" }, me ? "Since your last move" : "Latest moves"),
    lines.length > shown.length ? h("div", { class: "muted small" }, `… ${lines.length - shown.length} more in the event log`) : null,
    shown.map((l) => h("div", { class: "lm-line" }, l)));
  box.classList.toggle("fresh", !!changes);
  box.classList.remove("hidden");
}

function renderLog() {
  const box = $("log");
  const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 30;
  const n = Math.min(lastLines.length, state.log.length);
  const fresh = new Set(Array.from({ length: n }, (_, i) => state.log.length - n + i));
  fill(box, state.log.map((l, i) => h("div", { class: fresh.has(i) ? "new" : null }, l)));
  if (atBottom || !renderLog.done) box.scrollTop = box.scrollHeight;
  renderLog.done = true;
}

// ---------------------------------------------------------------- chat (online games)

function chatOpen() { return state && state.mode === "online" && state.seat !== null; }

const chatKey = (m) => `${m.step}|${m.seat}|${m.text}`;

// The chat as the state message has it (the server's last lines). Lines that came on their own
// after the newest of them stay; what the page shows first counts as read.
function mergeChat(list) {
  const merged = list.filter((m) => m && typeof m.text === "string");
  const inList = new Set(merged.map(chatKey));
  const newest = merged.length ? merged[merged.length - 1].step : 0;
  chatLines = merged.concat(chatLines.filter((m) => !inList.has(chatKey(m)) && m.step >= newest));
  if (!mergeChat.done) chatLines.forEach((m) => chatRead.add(chatKey(m)));
  mergeChat.done = true;
}

// How long a line from another seat shows over the board when the chat is not open (ms).
const CHAT_BUBBLE_MS = 8000;

function onChat(msg) {
  if (typeof msg.text !== "string") return;
  chatLines.push({ seat: msg.seat, text: msg.text, step: msg.step });
  if (chatLines.length > 100) chatLines = chatLines.slice(-100);
  if (!state) return;
  renderChat();
  if (msg.seat !== state.seat && logTab !== "chat") chatBubble(msg);
}

// A line from another seat, shown over the board for a moment (a click opens the chat).
function chatBubble(msg) {
  const box = $("chat-bubble");
  fill(box, h("b", { style: { color: seatColour(msg.seat) } }, `${seatName(msg.seat)}: `), h("span", {}, msg.text));
  box.classList.remove("hidden");
  clearTimeout(chatBubble.timer);
  chatBubble.timer = setTimeout(() => box.classList.add("hidden"), CHAT_BUBBLE_MS);
}

function renderChat() {
  const open = chatOpen();
  const tab = $("tab-chat");
  tab.classList.toggle("hidden", !open);
  if (!open && logTab === "chat") logTab = "log";
  if (logTab === "chat") chatLines.forEach((m) => chatRead.add(chatKey(m)));
  const unread = chatLines.filter((m) => !chatRead.has(chatKey(m))).length;
  tab.textContent = unread > 0 ? `Chat (${unread} new)` : "Chat";
  $("tab-log").classList.toggle("on", logTab === "log");
  tab.classList.toggle("on", logTab === "chat");
  $("log").classList.toggle("hidden", logTab !== "log");
  $("chat").classList.toggle("hidden", logTab !== "chat");
  const box = $("chat-lines");
  fill(box, chatLines.length ? chatLines.map((m) => h("div", { class: "chat-line" },
    h("b", { style: { color: seatColour(m.seat) } }, `${seatName(m.seat)}${m.seat === state.seat ? " (you)" : ""}: `),
    h("span", { class: "chat-text" }, m.text))) : h("div", { class: "muted small" }, "No messages yet. Be nice: every seat reads this."));
  box.scrollTop = box.scrollHeight;
}

function sendChat() {
  const input = $("chat-input");
  const text = input.value.trim().slice(0, 300);
  if (!text || !chatOpen()) return;
  if (wsSend({ type: "chat", text })) input.value = "";
}

function showTab(which) {
  logTab = which;
  if (which === "chat") $("chat-bubble").classList.add("hidden");
  renderChat();
  if (which === "log") $("log").scrollTop = $("log").scrollHeight;
  else $("chat-input").focus();
}
