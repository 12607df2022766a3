#!/usr/bin/env node
// peer_score.js — score Scopa hands with an INDEPENDENT implementation
// (goblindegook/scopa, MIT; vendored under vendor/goblindegook-scopa/).
//
// stdin : JSON lines  {"piles": [[ids seat 0], [ids seat 1]], "sweeps": [n0, n1]}
//         card id = "<suit>-<rank>", suit in coins|cups|swords|batons,
//         rank in ace|2..7|jack|knight|king
// stdout: one JSON line per input line
//         {"points":[p0,p1],"cards":[..],"coins":[..],"settebello":[..],"primiera":[..],"scope":[..]}
//         (with --raw, also "raw": the peer's own per-seat details: counts, primiera sums)
//         A malformed input line yields {"error": "..."} and the exit status becomes 1.
//
// All numbers come from the peer's code:
//   points      = peer score()[seat].total                    (untouched upstream function)
//   scope       = peer detail 'Scope' value  (score() adds it to total as-is)
//   settebello  = peer detail 'Sette Bello' value (score() adds it to total as-is)
//   cards/coins/primiera = seat in peer findWinners(...) over the peer's own
//                 'Taken' / 'Denari' / 'Primiera' detail values — the exact
//                 expression score() uses for its total.
// The harness asserts that the categories add up to the peer's total.

import { createInterface } from 'node:readline'
import { bastoni, coppe, denari, spade } from './vendor/goblindegook-scopa/js/cards.mjs'
import { findWinners, score } from './vendor/goblindegook-scopa/js/scores.mjs'

const SUIT = { coins: denari, cups: coppe, batons: bastoni, swords: spade }
const RANK = {
  ace: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, jack: 8, knight: 9, king: 10,
}

function toPeerCard(id) {
  if (typeof id !== 'string') throw new Error(`card id must be a string: ${JSON.stringify(id)}`)
  const m = /^([a-z]+)-([a-z0-9]+)$/.exec(id)
  if (!m || !(m[1] in SUIT) || !(m[2] in RANK)) throw new Error(`unknown card id: ${id}`)
  return SUIT[m[1]](RANK[m[2]]) // peer representation: [value 1..10, Suit enum]
}

function detail(seatScore, label) {
  const d = seatScore.details.find((x) => x.label === label)
  if (!d) throw new Error(`peer score has no '${label}' detail`)
  return d.value
}

function scoreLine(input) {
  if (!input || !Array.isArray(input.piles) || input.piles.length !== 2) {
    throw new Error('"piles" must be an array of two arrays')
  }
  const sweeps = input.sweeps ?? [0, 0]
  if (!Array.isArray(sweeps) || sweeps.length !== 2 || !sweeps.every((n) => Number.isInteger(n) && n >= 0)) {
    throw new Error('"sweeps" must be two non-negative integers')
  }
  const seen = new Set()
  const players = input.piles.map((ids, seat) => {
    if (!Array.isArray(ids)) throw new Error(`piles[${seat}] must be an array`)
    for (const id of ids) {
      if (seen.has(id)) throw new Error(`duplicate card id: ${id}`)
      seen.add(id)
    }
    return { id: seat, hand: [], pile: ids.map(toPeerCard), scope: sweeps[seat] }
  })

  const peer = score(players) // the peer's end-of-hand scoring

  const taken = peer.map((s) => detail(s, 'Taken'))
  const denariCount = peer.map((s) => detail(s, 'Denari'))
  const primeSum = peer.map((s) => detail(s, 'Primiera'))
  const award = (winners) => [0, 1].map((seat) => (winners.includes(seat) ? 1 : 0))

  const out = {
    points: peer.map((s) => s.total),
    cards: award(findWinners(taken)),
    coins: award(findWinners(denariCount)),
    settebello: peer.map((s) => detail(s, 'Sette Bello')),
    primiera: award(findWinners(primeSum)),
    scope: peer.map((s) => detail(s, 'Scope')),
  }
  for (const seat of [0, 1]) {
    const sum = out.cards[seat] + out.coins[seat] + out.settebello[seat] + out.primiera[seat] + out.scope[seat]
    if (sum !== out.points[seat]) {
      throw new Error(`internal: categories (${sum}) != peer total (${out.points[seat]}) for seat ${seat}`)
    }
  }
  if (RAW) {
    out.raw = { taken, denari: denariCount, primiera_sum: primeSum, sweeps: peer.map((s) => detail(s, 'Scope')) }
  }
  return out
}

const RAW = process.argv.includes('--raw')
let failed = false
const rl = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })
for await (const line of rl) {
  if (line.trim() === '') continue
  let result
  try {
    result = scoreLine(JSON.parse(line))
  } catch (e) {
    failed = true
    result = { error: String(e && e.message ? e.message : e) }
  }
  process.stdout.write(`${JSON.stringify(result)}\n`)
}
process.exitCode = failed ? 1 : 0
