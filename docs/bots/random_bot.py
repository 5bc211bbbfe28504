"""A meeple bot in 20 lines: it plays a random legal move (see `cmd:PATH` in
docs/bots.md). Try it: meeple autoplay GAME --bot cmd:docs/bots/random_bot.py --to-end"""

import json
import random
import sys

rng = random.Random(sys.argv[1] if len(sys.argv) > 1 else 0)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] != "move":
        continue  # the "hello" at the start of a game
    moves = message["moves"]
    # prefer a placement that keeps options open; any index into moves is a legal answer
    choice = rng.randrange(len(moves))
    print(json.dumps({"move": choice}), flush=True)
