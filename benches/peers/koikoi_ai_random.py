"""Random-vs-random self-play on KoiKoi-AI's Python engine (github.com/guansanghai/KoiKoi-AI,
koikoigame.py), for README.md's comparison with `yaku sim`: the loop of its
koikoilearn.Arena.__duel with koikoilearn's auto_random_action for both players.

Usage: python3 koikoi_ai_random.py KOIKOI_AI_DIR GAMES [base]
Prints hands played and hands per second of CPU time. With `base`, plays GAMES single
rounds on KoiKoiRoundStateBase, the engine without the per-action feature log that its
neural agents read. Needs numpy; torch is stubbed (only the neural features use it).
"""
import random
import sys
import time
import types

sys.modules.setdefault('torch', types.ModuleType('torch'))
sys.path.insert(0, sys.argv[1])
import koikoigame  # noqa: E402


def random_action(rs):
    if not rs.wait_action:
        return None
    if rs.state == 'discard':
        return random.choice(rs.hand[rs.turn_player])
    if rs.state in ('discard-pick', 'draw-pick'):
        return random.choice(rs.pairing_card)
    return random.choice([True, False])


def games(n):
    hands = 0
    for _ in range(n):
        gs = koikoigame.KoiKoiGameState()
        while not gs.game_over:
            if gs.round_state.round_over:
                hands += 1
                gs.new_round()
            else:
                gs.round_state.step(random_action(gs.round_state))
    return hands


def base_hands(n):
    for _ in range(n):
        rs = koikoigame.KoiKoiRoundStateBase()
        while not rs.round_over:
            action = random_action(rs)
            {'discard': rs.discard, 'discard-pick': rs.discard_pick, 'draw': rs.draw,
             'draw-pick': rs.draw_pick, 'koikoi': rs.claim_koikoi}[rs.state](action)
    return n


random.seed(1)
n = int(sys.argv[2])
start = time.process_time()
hands = base_hands(n) if sys.argv[3:] == ['base'] else games(n)
cpu = time.process_time() - start
print(f'{hands} hands in {cpu:.2f} s CPU: {hands / cpu:.0f} hands/s')
