"""Asks philhanna/pinochle (MIT, https://github.com/philhanna/pinochle) for its answers on the
hands of `yaku`'s Pinochle comparison: the meld points of each hand (`detect_meld`) and the
winner of each trick (`Trick.winner`). The peer's code is not kept in this repository: give
the folder of a checkout of it as the first argument (the folder that holds `pinochle/domain`).

Reads one JSON object on standard input, `{"melds": [{"trump": SUIT, "cards": [ID, ...]}],
"tricks": [{"trump": SUIT, "leader": SEAT, "cards": [ID, ID, ID, ID]}]}`, with yaku's card
ids (`hearts-ace`, `hearts-ace-p2`) and suit ids; writes `{"melds": [POINTS, ...],
"winners": [SEAT, ...]}`.
"""

import json
import sys

sys.path.insert(0, sys.argv[1])

from pinochle.domain.cards.card import Card  # noqa: E402
from pinochle.domain.cards.rank import Rank  # noqa: E402
from pinochle.domain.cards.suit import Suit  # noqa: E402
from pinochle.domain.meld import total_meld  # noqa: E402
from pinochle.domain.trick import Trick  # noqa: E402


def suit(name):
    return Suit[name.upper()]


def card(card_id):
    # `hearts-ace` and its second copy `hearts-ace-p2` are the same card to the peer.
    parts = card_id.split("-")
    return Card(Rank[parts[1].upper()], suit(parts[0]))


def trick_winner(t):
    trick = Trick(str(t["leader"]), suit(t["trump"]))
    for k, c in enumerate(t["cards"]):
        trick.play(str((t["leader"] + k) % 4), card(c))
    return int(trick.winner())


def main():
    asked = json.load(sys.stdin)
    json.dump(
        {
            "melds": [
                total_meld([card(c) for c in h["cards"]], suit(h["trump"]))
                for h in asked["melds"]
            ],
            "winners": [trick_winner(t) for t in asked["tricks"]],
        },
        sys.stdout,
    )


main()
