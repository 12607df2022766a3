//! The worlds a trick-taking seat imagines: the hidden cards dealt again consistently with what
//! it has seen (the cards shown, the suits a seat could not follow, what its bids say of its
//! hand).

use super::*;

impl TricksGame {
    /// A game in the state `seat` sees, with what it cannot see dealt at random from `rng`: the
    /// other hand (holding the marriage cards it showed) and the stock (the turned-up trump
    /// stays last). The game ends with the hand in progress.
    pub fn determinized(&self, seat: Seat, rng: &mut Xoshiro256PlusPlus) -> TricksGame {
        let mut world = self.clone();
        self.deal_hidden(seat, rng, &mut world);
        world
    }

    /// [`TricksGame::determinized`] into `world`, whose vectors serve again: the same draws and
    /// the same game (a search deals again for every round of playouts).
    pub fn determinize_into(&self, seat: Seat, rng: &mut Xoshiro256PlusPlus, world: &mut Self) {
        world.copy_state(self, false);
        self.deal_hidden(seat, rng, world);
    }

    /// Deals what `seat` cannot see into `world`, a copy of this game, and makes it a world
    /// that ends with the hand in progress.
    pub(super) fn deal_hidden(&self, seat: Seat, rng: &mut Xoshiro256PlusPlus, world: &mut Self) {
        let seats = self.hands.len();
        // Every other hand keeps the cards it showed (marriages, melds); the rest of them and
        // the stock under the turned-up trump are dealt again.
        let mut hidden = CardSet::EMPTY;
        for s in (1..seats).map(|k| (seat + k) % seats) {
            hidden |= self.hands[s] - self.known_in(seat, s);
        }
        for &c in &self.stock[self.stock_pos..] {
            if Some(c) != self.trump_card {
                hidden.insert(c);
            }
        }
        // The talon is hidden from all but the declarer who took it.
        let talon_hidden = !(self.talon_taken && self.declarer == Some(seat));
        if talon_hidden {
            hidden |= self.talon;
        }
        let mut pool = [CardId(0); CardSet::CAPACITY];
        let n = hidden.len() as usize;
        for (slot, card) in pool.iter_mut().zip(hidden.iter()) {
            *slot = card;
        }
        shuffle(&mut pool, n, rng);
        self.deal_pool(seat, &pool[..n], talon_hidden, world);
        // Where the others bid or passed, the world should hold hands that would have bid so:
        // deal again (a bounded number of times) until one agrees, else keep the closest.
        if self.reads_bidding(seat) {
            let mut misfit = self.bidding_misfit(seat, world);
            let mut best = pool;
            let mut tries = 1;
            while misfit > 0 && tries < WORLD_TRIES {
                shuffle(&mut pool, n, rng);
                self.deal_pool(seat, &pool[..n], talon_hidden, world);
                let m = self.bidding_misfit_below(seat, world, misfit);
                if m < misfit {
                    misfit = m;
                    best = pool;
                }
                tries += 1;
            }
            if misfit > 0 {
                self.deal_pool(seat, &best[..n], talon_hidden, world);
            }
        }
        self.keep_called_from_declarer(seat, hidden, rng, world);
        // A world's dealt hands are what its seats hold and played (the viewer's own as they
        // were), and its talon as dealt the world's: never the real deal's hidden cards.
        if let Some(dealt) = &mut world.dealt {
            for s in (1..seats).map(|k| (seat + k) % seats) {
                dealt.hands[s] = world.hands[s] | self.played[s];
            }
            if talon_hidden {
                dealt.talon = world.talon;
            }
        }
        // While the seats set aside the cards they pass, the others' choices are hidden: each
        // sets aside as many of its dealt cards in the world.
        if self.phase == Phase::Pass {
            for s in (1..seats).map(|k| (seat + k) % seats) {
                let k = self.gave[s].len() as usize;
                world.gave[s] = world.hands[s].iter().take(k).collect();
            }
        }
        world.orders = Vec::new().into_iter();
        world.rng = Xoshiro256PlusPlus::seed_from_u64(rng.next_u64());
        world.ledger.log = false;
        world.ends_with_hand = true;
        // A playout reads only the hand in progress (its result is the history's next entry):
        // the finished hands' results and deal orders are not copied for every action tried.
        world.ledger.events.clear();
        world.ledger.history.clear();
        world.ledger.dealt_orders.clear();
    }

    /// Deals the shuffled hidden cards `pool` into `world`: the other hands (each keeping the
    /// cards it showed), the talon where it is hidden, and the stock under the turned-up trump.
    pub(super) fn deal_pool(
        &self,
        seat: Seat,
        pool: &[CardId],
        talon_hidden: bool,
        world: &mut Self,
    ) {
        let seats = self.hands.len();
        let mut need = 0;
        for s in (1..seats).map(|k| (seat + k) % seats) {
            let known = self.known_in(seat, s);
            let k = (self.hands[s] - known).len() as usize;
            world.hands[s] = known | pool[need..need + k].iter().copied().collect::<CardSet>();
            need += k;
        }
        if talon_hidden {
            let k = self.talon.len() as usize;
            world.talon = pool[need..need + k].iter().copied().collect();
            need += k;
        }
        world.stock.clear();
        world.stock.extend_from_slice(&self.stock[..self.stock_pos]);
        world.stock.extend_from_slice(&pool[need..]);
        if let Some(t) = self.trump_card {
            world.stock.push(t);
        }
    }

    /// The cards of `other`'s hand that `seat` knows are there: those shown (melds), and those
    /// `seat` passed to it once they are passed.
    pub(super) fn known_in(&self, seat: Seat, other: Seat) -> CardSet {
        let passed = if self.phase == Phase::Pass {
            CardSet::EMPTY
        } else {
            self.gave[seat]
        };
        (self.shown | passed) & self.hands[other]
    }

    /// True when a search by `seat` deals worlds that agree with the bidding: the auction
    /// says so (`search_reads_bids`) and another seat bid or passed this hand.
    pub(super) fn reads_bidding(&self, seat: Seat) -> bool {
        self.flow
            .auction
            .as_ref()
            .is_some_and(|a| a.search_reads_bids)
            && self.bidding.iter().any(|b| b.seat != seat)
    }

    /// How far the other seats' hands in `world` are from the bids and passes they made (0:
    /// every one is what the family's bidding estimate would have done with that hand). Each
    /// seat's hand at the auction is its hand in `world` and the cards it has played since
    /// (a declarer who took the talon is judged on the hand it kept).
    pub(in crate::families::tricks) fn bidding_misfit(&self, seat: Seat, world: &Self) -> i64 {
        self.bidding_misfit_below(seat, world, i64::MAX)
    }

    /// [`TricksGame::bidding_misfit`], given up (with `bound`) once it reaches `bound`: a
    /// world no better than the best so far need not be judged to the end.
    pub(super) fn bidding_misfit_below(&self, seat: Seat, world: &Self, bound: i64) -> i64 {
        let Some(a) = &self.flow.auction else {
            return 0;
        };
        let mut legal = Vec::new();
        let mut misfit = 0;
        for s in (0..self.hands.len()).filter(|&s| s != seat) {
            let mut bids = self.bidding.iter().filter(|b| b.seat == s).peekable();
            if bids.peek().is_none() {
                continue;
            }
            // The seat's view is built once: only the highest bid differs from move to move,
            // and the hand's worth is read once.
            let mut view = world.view(s);
            view.hand = world.hands[s] | self.played[s];
            view.phase = Phase::Bid;
            let mut worth = None;
            for b in bids {
                legal.clear();
                legal.push(Action::declare(a.pass));
                self.bids_over(b.over.map(|(_, h)| h), &mut legal);
                view.high_bid = b.over;
                misfit += crate::families::tricks::greedy::bid_misfit(
                    &view, &legal, b.action, &mut worth,
                );
                if misfit >= bound {
                    return misfit;
                }
            }
        }
        misfit
    }
}
