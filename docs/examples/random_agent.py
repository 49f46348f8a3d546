#!/usr/bin/env python3
"""A gin external agent (docs/protocol.md) in plain Python: it plays a random legal action.

It knocks whenever it may (gin and big gin included) and otherwise picks uniformly among the
legal actions, from a random source seeded with the game's seed, so the same games are played
the same way every time. Run it with:

    gin sim --a 'cmd:python3 docs/examples/random_agent.py' --b simple --games 100
"""

import json
import random
import sys


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message["type"]
        if kind == "start_game":
            # Version 2 is the current one; this program reads version 1 as well (it uses
            # nothing that changed), so it runs under `cmd:` and `cmd-v1:` alike.
            if message["version"] not in (1, 2):
                sys.exit(f"protocol version {message['version']} is not supported")
            rng = random.Random(message["seed"])
        elif kind == "decide":
            legal = message["legal"]
            knocks = [action for action in legal if action["type"] in ("knock", "big_gin")]
            action = rng.choice(knocks) if knocks else rng.choice(legal)
            # Echoing the decision's id lets the host tell this answer from a stray line
            # (a version-1 host numbers no decision).
            if "id" in message:
                action["id"] = message["id"]
            # One line per decision, flushed at once: the host is waiting for it.
            print(json.dumps(action), flush=True)
        elif kind == "quit":
            break
        # start_hand, event and end_game need no answer.


if __name__ == "__main__":
    main()
