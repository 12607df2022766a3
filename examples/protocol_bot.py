#!/usr/bin/env python3
"""A bot for yaku's seat protocol: JSON lines on standard input and output.

It plays any ruleset: it takes the most valuable cards it can, plays the card that captures
the most, and otherwise gives away its least valuable card. Run it with
`yaku play koikoi --players cmd:python3 examples/protocol_bot.py,greedy`.
"""
import json
import sys

cards = {}  # card id -> the card as `hello` describes it


def worth(card_id):
    """A card's largest attribute (`points`, `pips`, ...), 0 without any."""
    return max(cards.get(card_id, {}).get("values", {}).values(), default=0)


def seen(zones, name):
    """The cards of a zone that this seat sees."""
    return [c for z in zones if z["name"] == name for c in z["cards"]]


def weigh(move, table):
    action = move["action"]
    if action in ("capture", "capture_set"):
        taken = move.get("cards") or [move["card"]]
        return 1000 + sum(worth(c) for c in taken)
    if action == "play":
        suit = cards[move["card"]]["suit"]
        matches = [c for c in table if cards[c]["suit"] == suit]
        if matches:
            return 500 + worth(move["card"]) + sum(worth(c) for c in matches)
        return -worth(move["card"])
    return 0  # declarations, bets and draws: the first offered is as good as any here


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        cards = {c["id"]: c for c in message["cards"]}
    elif message["type"] == "turn":
        legal, table = message["legal"], seen(message["zones"], "table")
        best = max(range(len(legal)), key=lambda i: weigh(legal[i], table))
        print(json.dumps({"choose": best}), flush=True)
    elif message["type"] == "game_over":  # the last message: the input closes after it
        print(f"protocol_bot: game over, scores {message['scores']}", file=sys.stderr)
