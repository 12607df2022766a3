#!/usr/bin/env bash
# Instruction counts per hand for README.md's "Bot cost": each workload under callgrind with N
# games, minus the same with 0 games (start-up), over the hands played. Deterministic on a
# shared machine. Needs valgrind. Usage: bash benches/callgrind.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --profile bench --example bot_hands --example core_hands
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Total instructions of one run: `count NAME EXAMPLE ARGS...`.
count() {
    local name=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file="$out/$name" "target/release/examples/$@" \
        >"$out/$name.txt" 2>/dev/null
    grep '^summary' "$out/$name" | awk '{print $2}'
}
per_hand() { echo $((($1 - $2) / $3)); }
g0=$(count g0 bot_hands koikoi greedy,greedy 0)
g100=$(count g100 bot_hands koikoi greedy,greedy 100)
g400=$(count g400 bot_hands koikoi greedy,greedy 400)
x4=$(count x4 bot_hands koikoi expert,greedy 4)
x8=$(count x8 bot_hands koikoi expert,greedy 8)
r0=$(count r0 core_hands koikoi 0)
r2000=$(count r2000 core_hands koikoi 2000)
r4000=$(count r4000 core_hands koikoi 4000)
m0=$(count m0 bot_hands matgo greedy,greedy 0)
m20=$(count m20 bot_hands matgo greedy,greedy 20)
s0=$(count s0 bot_hands schnapsen greedy,greedy 0)
s200=$(count s200 bot_hands schnapsen greedy,greedy 200)
sx2=$(count sx2 bot_hands schnapsen expert,greedy 2)
p0=$(count p0 core_hands pinochle 0)
p100=$(count p100 core_hands pinochle 100)
pg0=$(count pg0 bot_hands pinochle greedy,greedy,greedy,greedy 0)
pg20=$(count pg20 bot_hands pinochle greedy,greedy,greedy,greedy 20)
d0=$(count d0 core_hands dreierschnapsen 0)
d100=$(count d100 core_hands dreierschnapsen 100)
dg0=$(count dg0 bot_hands dreierschnapsen greedy,greedy,greedy 0)
dg20=$(count dg20 bot_hands dreierschnapsen greedy,greedy,greedy 20)
c0=$(count c0 core_hands scopa 0)
c500=$(count c500 core_hands scopa 500)
h0=$(count h0 core_hands hachihachi 0)
h500=$(count h500 core_hands hachihachi 500)
f0=$(count f0 core_hands hachihachi 0 5)
f100=$(count f100 core_hands hachihachi 100 5)
# From 2,000 to 4,000 games leaves out the scoring script's first runs (one per distinct hand
# end, then answered by the per-thread cache), as greedy's 100 to 400.
echo "random vs random (core_hands koikoi 2000): $(per_hand "$r2000" "$r0" 24000) a hand;" \
    "from 2000 to 4000 games: $(per_hand "$r4000" "$r2000" 24000)"
echo "greedy vs greedy (bot_hands koikoi greedy,greedy 100): $(per_hand "$g100" "$g0" 1200) a hand;" \
    "from 100 to 400 games: $(per_hand "$g400" "$g100" 3600)"
# Playouts: 15,381 in the 4-game run and 30,810 in the 8-game run (while the games are the
# same: checksums dee36e9154ce19df and 00804e73bdd3668d).
echo "expert vs greedy (bot_hands koikoi expert,greedy 4): $(per_hand "$x4" "$g0" 48) a hand," \
    "$(per_hand "$x4" "$g0" 15381) a playout; from 4 to 8 games: $(per_hand "$x8" "$x4" 15429) a playout"
echo "Matgo greedy vs greedy (bot_hands matgo greedy,greedy 20): $(per_hand "$m20" "$m0" 240) a hand"
# Schnapsen: 1,645 hands in 200 greedy games, 14 in the expert's 2 games (the same games while
# the checksums are cddbb6e85ae9ce2b and 3d38313a47db158d).
echo "Schnapsen greedy vs greedy (bot_hands schnapsen greedy,greedy 200): $(per_hand "$s200" "$s0" 1645)" \
    "a hand; expert vs greedy (bot_hands schnapsen expert,greedy 2): $(per_hand "$sx2" "$s0" 14) a hand"
# Scopa: 2,293 hands in 500 random games (checksum 79410c2ab5d22918).
echo "Scopa random vs random (core_hands scopa 500): $(per_hand "$c500" "$c0" 2293) a hand"
# Hachi-Hachi: 6,000 hands in 500 random games (twelve each).
echo "Hachi-Hachi random (core_hands hachihachi 500): $(per_hand "$h500" "$h0" 6000) a hand"
# Five at the Hachi-Hachi table (two drop out or sit out each hand): 1,200 hands in 100 games.
echo "Hachi-Hachi random, five seats (core_hands hachihachi 100 5): $(per_hand "$f100" "$f0" 1200) a hand"
echo "Pinochle random (core_hands pinochle 100): $(per_hand "$p100" "$p0" "$(grep -o '[0-9]* hands' "$out"/p100.txt | cut -d' ' -f1)") a hand;" \
    "greedy (bot_hands pinochle greedy,greedy,greedy,greedy 20): $(per_hand "$pg20" "$pg0" "$(grep -o '[0-9]* hands' "$out"/pg20.txt | cut -d' ' -f1)") a hand"
echo "Dreierschnapsen random (core_hands dreierschnapsen 100): $(per_hand "$d100" "$d0" "$(grep -o '[0-9]* hands' "$out"/d100.txt | cut -d' ' -f1)") a hand;" \
    "greedy (bot_hands dreierschnapsen greedy,greedy,greedy 20): $(per_hand "$dg20" "$dg0" "$(grep -o '[0-9]* hands' "$out"/dg20.txt | cut -d' ' -f1)") a hand"
cat "$out"/g100.txt "$out"/x4.txt "$out"/x8.txt "$out"/r2000.txt "$out"/m20.txt "$out"/s200.txt \
    "$out"/sx2.txt "$out"/c500.txt "$out"/h500.txt "$out"/p100.txt "$out"/pg20.txt \
    "$out"/d100.txt "$out"/dg20.txt
