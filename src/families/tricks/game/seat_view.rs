//! What one seat may see of the game, built by the game from its own state (the view does not
//! read the game: the view, and the bots that read it, sit below the game).

use super::*;

impl TricksGame {
    /// What `seat` may see.
    pub fn view(&self, seat: Seat) -> TricksView<'_> {
        let game = self;
        let ruleset = game.ruleset();
        let marked_sides = !game.partner_marks().is_empty();
        let seats = game.seats();
        let other = next_seat(seat, seats);
        let mut declared = PerSeat::new(seats);
        let mut points = PerSeat::new(seats);
        let mut seen = game.hand(seat) | game.shown();
        let (won, tricks) = game.won_and_tricks();
        for s in 0..seats {
            declared[s] = game.declared_points(s);
            points[s] = game.points(s);
            seen |= won[s];
        }
        for &c in game.trick() {
            seen.insert(c);
        }
        if let Some(t) = game.trump_card() {
            seen.insert(t);
        }
        if game.talon_taken() && game.declarer() == Some(seat) {
            seen |= game.talon();
        }
        TricksView {
            ruleset,
            flow: game.flow(),
            seat,
            phase: game.phase(),
            to_act: game.to_act(),
            hand: game.hand(seat),
            other_hand_size: game.hand(other).len() as usize,
            trump_suit: game.trump_suit(),
            order: game.trick_order(),
            trump_card: game.trump_card(),
            stock_len: game.stock_len(),
            closed_by: game.closed_by(),
            strict: game.strict(),
            led: game.led(),
            best: game.best(),
            trick_len: game.trick().len(),
            trick: game.trick().iter().copied().collect(),
            seats,
            follow: game.follow_rules(),
            high_bid: game.high_bid(),
            declarer: game.declarer(),
            contract: game.contract(),
            melds: {
                let mut m = PerSeat::new(seats);
                for s in 0..seats {
                    m[s] = game.meld_points(s);
                }
                m
            },
            leader: game.leader(),
            won,
            tricks,
            declared,
            pending: game.pending_points(seat),
            shown: game.shown(),
            melded: game.melded(),
            meld_table: game.meld_table(),
            points,
            scores: game.scores(),
            round: game.round(),
            dealer: game.dealer(),
            unseen: ruleset.deck.all() - seen,
            marked_sides,
            known_partners: if marked_sides {
                game.known_partners(seat)
            } else {
                0
            },
            called: game.called(),
            sitting_out: game.sitting_out(),
        }
    }
}
