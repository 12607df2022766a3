// GENERATED from vendor/goblindegook-scopa/src/engine/state.ts by tools/build-peer.cjs (TypeScript 5.9.3).
// Upstream: https://github.com/goblindegook/scopa (MIT, see ../LICENSE). Do not edit by hand.
export {};
