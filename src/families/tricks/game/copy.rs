//! Copying a game in place, field by field, keeping the copy's storage: a search copies one
//! deal for every action it tries.

use super::*;

impl TricksGame {
    /// Makes this game a copy of `other`, keeping this one's storage where it can (a search
    /// copies one deal for every action it tries; a fresh copy allocated each vector again).
    /// Field by field: a field added to the game must be added here, or this does not compile.
    pub fn copy_from(&mut self, other: &TricksGame) {
        self.copy_state(other, true);
    }

    /// [`TricksGame::copy_from`], the finished hands, deal orders and events left out (and
    /// emptied) unless `record`: a search's world has no use for them.
    pub(super) fn copy_state(&mut self, other: &TricksGame, record: bool) {
        let TricksGame {
            ruleset,
            ledger,
            flow,
            rng,
            orders,
            ends_with_hand,
            phase,
            turn,
            leader,
            hands,
            stock,
            stock_pos,
            trump_card,
            turned,
            turned_down,
            trump_suit,
            trick_order,
            closed_by,
            led,
            trick,
            trick_len,
            best,
            best_card,
            follow,
            passed,
            high_bid,
            declarer,
            called,
            called_absent,
            sitting_out,
            talon,
            talon_taken,
            to_discard,
            scored,
            melded,
            lead_shown,
            won,
            tricks,
            shown,
            last_trick,
            bidding,
            played,
            broken,
            reads_seat_facts,
            trick_log,
            dealt,
            reads_trump_suit,
            gave,
            announced,
        } = self;
        crate::core::share(ruleset, &other.ruleset);
        crate::core::share(flow, &other.flow);
        rng.clone_from(&other.rng);
        orders.clone_from(&other.orders);
        ends_with_hand.clone_from(&other.ends_with_hand);
        phase.clone_from(&other.phase);
        turn.clone_from(&other.turn);
        leader.clone_from(&other.leader);
        hands.clone_from(&other.hands);
        stock.clone_from(&other.stock);
        stock_pos.clone_from(&other.stock_pos);
        trump_card.clone_from(&other.trump_card);
        turned.clone_from(&other.turned);
        turned_down.clone_from(&other.turned_down);
        trump_suit.clone_from(&other.trump_suit);
        trick_order.clone_from(&other.trick_order);
        closed_by.clone_from(&other.closed_by);
        led.clone_from(&other.led);
        trick.clone_from(&other.trick);
        trick_len.clone_from(&other.trick_len);
        best.clone_from(&other.best);
        best_card.clone_from(&other.best_card);
        follow.clone_from(&other.follow);
        passed.clone_from(&other.passed);
        high_bid.clone_from(&other.high_bid);
        declarer.clone_from(&other.declarer);
        called.clone_from(&other.called);
        called_absent.clone_from(&other.called_absent);
        sitting_out.clone_from(&other.sitting_out);
        talon.clone_from(&other.talon);
        talon_taken.clone_from(&other.talon_taken);
        to_discard.clone_from(&other.to_discard);
        scored.clone_from(&other.scored);
        melded.clone_from(&other.melded);
        lead_shown.clone_from(&other.lead_shown);
        won.clone_from(&other.won);
        tricks.clone_from(&other.tricks);
        shown.clone_from(&other.shown);
        last_trick.clone_from(&other.last_trick);
        bidding.clone_from(&other.bidding);
        played.clone_from(&other.played);
        broken.clone_from(&other.broken);
        reads_seat_facts.clone_from(&other.reads_seat_facts);
        trick_log.clone_from(&other.trick_log);
        dealt.clone_from(&other.dealt);
        reads_trump_suit.clone_from(&other.reads_trump_suit);
        gave.clone_from(&other.gave);
        announced.clone_from(&other.announced);
        ledger.copy_from(&other.ledger, record);
    }
}
