"""A bot that breaks the protocol in one way, chosen by its argument, for the host's tests:
crash, garbage, hang, flood, early (answers out of turn), illegal (never a legal answer),
slow (over its clock), longline (one line over the size limit), version (another version),
silent (never finishes the handshake), or good (plays the first legal action)."""
import json
import sys
import time

mode = sys.argv[1]


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    keyword, _, rest = line.strip().partition(" ")
    if keyword == "starcom-bot":
        if mode == "silent":
            continue
        say("id name " + mode)
        say("option name note default none")
        if mode == "early":  # one write, so the host has the unasked line before it asks
            say("ready 1\nplay end")
        else:
            say("ready " + ("2" if mode == "version" else "1"))
    elif keyword == "option":
        sys.stderr.write(f"set {rest}\n")  # the match's --bot-logs keep this
    elif keyword == "decide":
        legal = json.loads(rest)["legal"]
        if mode == "crash":
            sys.exit(3)
        elif mode == "garbage":
            say("hello there")
        elif mode == "hang":
            time.sleep(3600)
        elif mode == "flood":
            for _ in range(50000):
                say("info spam")
            say("play " + legal[0])
        elif mode == "longline":
            say("info " + "x" * (2 << 20))
        elif mode == "illegal":
            say("play no such action")
        elif mode == "slow":
            time.sleep(0.3)
            say("play " + legal[0])
        else:
            say("play " + legal[0])
    elif keyword == "illegal":
        say("play still not an action")
    elif keyword == "quit":
        break
