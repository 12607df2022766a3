// GENERATED from vendor/goblindegook-scopa/src/engine/cards.ts by tools/build-peer.cjs (TypeScript 5.9.3).
// Upstream: https://github.com/goblindegook/scopa (MIT, see ../LICENSE). Do not edit by hand.
export const Suit = {
    DENARI: 0,
    COPPE: 1,
    BASTONI: 2,
    SPADE: 3,
};
export function denari(value) {
    return [value, Suit.DENARI];
}
export function coppe(value) {
    return [value, Suit.COPPE];
}
export function bastoni(value) {
    return [value, Suit.BASTONI];
}
export function spade(value) {
    return [value, Suit.SPADE];
}
export function isDenari(card) {
    return card[1] === Suit.DENARI;
}
export function isSettebello(card) {
    return card[0] === 7 && card[1] === Suit.DENARI;
}
export function isSame(a, b) {
    return a && b ? a[0] === b[0] && a[1] === b[1] : a === b;
}
export function hasCard(cards, card) {
    return cards.some((c) => isSame(c, card));
}
export function deck() {
    const suits = [Suit.DENARI, Suit.COPPE, Suit.BASTONI, Suit.SPADE];
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    return suits.reduce((all, suit) => all.concat(values.map((v) => [v, suit])), []);
}
