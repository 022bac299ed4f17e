#!/usr/bin/env node
// A random bot for the starcom bot protocol (docs/bot-protocol.md), in JavaScript: it plays a
// random legal action at every decision, with no rules engine of its own.
//
// Run it in a match:  starcom match --engine "node examples/bots/random_bot.js" --engine "starcom bot --agent random"
"use strict";
const readline = require("readline");

const VERSION = "1";
let legal = [];

function say(text) {
  process.stdout.write(text + "\n");
}

function pick(list) {
  return list[Math.floor(Math.random() * list.length)];
}

const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line) => {
  const text = line.trim();
  const space = text.indexOf(" ");
  const keyword = space < 0 ? text : text.slice(0, space);
  const rest = space < 0 ? "" : text.slice(space + 1);
  if (keyword === "starcom-bot") {
    // The handshake: who we are, then ready (this bot has no options).
    say("id name random-javascript");
    say("id author the starcom project");
    say("ready " + VERSION);
  } else if (keyword === "decide") {
    legal = JSON.parse(rest).legal;
    say("play " + pick(legal));
  } else if (keyword === "illegal") {
    say("play " + pick(legal));  // our answer was refused: try another
  } else if (keyword === "quit") {
    process.exit(0);
  }
  // option, newgame, resync and gameover need nothing from a random bot
});
input.on("close", () => process.exit(0));
