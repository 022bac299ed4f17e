#!/usr/bin/env python3
"""A random bot for the starcom bot protocol (docs/bot-protocol.md): it plays a random legal
action at every decision. It needs no rules engine: each decision lists the legal actions.

Run it in a match:  starcom match --engine "python3 examples/bots/random_bot.py" --engine "starcom bot --agent greedy"
"""
import json
import random
import sys

VERSION = "1"


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main():
    rng = random.Random()
    legal = []
    for line in sys.stdin:
        keyword, _, rest = line.strip().partition(" ")
        if keyword == "starcom-bot":  # the handshake: who we are, our options, then ready
            say("id name random-python")
            say("id author the starcom project")
            say("option name seed default none")
            say("ready " + VERSION)
        elif keyword == "option":  # option NAME VALUE
            name, _, value = rest.partition(" ")
            if name == "seed" and value != "none":
                rng.seed(value)
        elif keyword == "decide":  # our seat's view and the legal actions
            legal = json.loads(rest)["legal"]
            say("play " + rng.choice(legal))
        elif keyword == "illegal":  # our answer was refused: try another
            say("play " + rng.choice(legal))
        elif keyword == "quit":
            break
        # newgame, resync and gameover need nothing from a random bot


if __name__ == "__main__":
    main()
