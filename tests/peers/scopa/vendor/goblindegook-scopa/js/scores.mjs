// GENERATED from vendor/goblindegook-scopa/src/engine/scores.ts by tools/build-peer.cjs (TypeScript 5.9.3).
// Upstream: https://github.com/goblindegook/scopa (MIT, see ../LICENSE). Do not edit by hand.
import { denari, isDenari, isSettebello } from './cards.mjs';
const PRIME_POINTS = {
    1: 16,
    2: 12,
    3: 13,
    4: 14,
    5: 15,
    6: 18,
    7: 21,
    8: 10,
    9: 10,
    10: 10,
};
export const primePoints = ([value]) => PRIME_POINTS[value] ?? 0;
const prime = (cards) => {
    const grouped = new Map();
    for (const card of cards) {
        const list = grouped.get(card[1]) ?? [];
        list.push([card, primePoints(card)]);
        grouped.set(card[1], list);
    }
    return Array.from(grouped.values())
        .map((points) => points.toSorted(([, p1], [, p2]) => p2 - p1)[0])
        .reduce(({ cards, value, ...rest }, [card, points]) => ({
        cards: [...cards, card],
        value: value + points,
        ...rest,
    }), { label: 'Primiera', cards: [], value: 0 });
};
function findWinners(totals) {
    const maximum = Math.max(...totals);
    if (maximum === 0)
        return [];
    const winners = totals.reduce((winners, total, currentIndex) => (total === maximum ? winners.concat(currentIndex) : winners), []);
    return winners.length === 1 ? winners : [];
}
export function score(players) {
    const cardTotal = players.map(({ pile }) => pile.length);
    const mostCards = findWinners(cardTotal);
    const denariTotal = players.map(({ pile }) => pile.filter(isDenari).length);
    const mostDenari = findWinners(denariTotal);
    const primes = players.map(({ pile }) => prime(pile));
    const highestPrime = findWinners(primes.map(({ value }) => value));
    return players.map(({ scope, pile }, player) => {
        const settebello = pile.some(isSettebello) ? 1 : 0;
        return {
            playerId: player,
            details: [
                { label: 'Scope', value: scope, cards: [] },
                { label: 'Taken', value: pile.length, cards: pile },
                {
                    label: 'Denari',
                    value: denariTotal[player],
                    cards: pile.filter(isDenari),
                },
                {
                    label: 'Sette Bello',
                    value: settebello,
                    cards: settebello === 1 ? [denari(7)] : [],
                },
                primes[player],
            ],
            total: scope +
                settebello +
                (mostCards.includes(player) ? 1 : 0) +
                (mostDenari.includes(player) ? 1 : 0) +
                (highestPrime.includes(player) ? 1 : 0),
        };
    });
}
export function winner(totals) {
    const best = Math.max(...totals);
    if (best < 11)
        return null;
    const leaders = totals.map((total, playerId) => (total === best ? playerId : -1)).filter((playerId) => playerId >= 0);
    return leaders.length === 1 ? leaders[0] : null;
}
// appended by tools/build-peer.cjs (not upstream): expose private helpers
export { findWinners, prime };
