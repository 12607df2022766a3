//! A trick-taking game's auction: the bids a seat may make, the next bidder, the auction won
//! and the talon taken.

use super::*;

impl TricksGame {
    /// Applies `seat`'s bid or pass (bidding on a turned-up card: [`Self::apply_turned`]).
    pub(super) fn apply_bid(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        if self.flow.auction.as_ref().is_some_and(|a| a.turned_up) {
            return self.apply_turned(seat, action);
        }
        match action {
            Action::Bet { amount } => {
                let mut bids = Vec::new();
                self.bids(&mut bids);
                if !bids.contains(&action) {
                    let a = self.flow.auction.as_ref().expect("an auction is held");
                    if let Some(c) = a.contract(amount).filter(|c| !self.may_bid(seat, c)) {
                        return Err(IllegalAction::new(format!(
                            "{} calls a partner, and you hold no card of a suit whose card you could call (none you hold, no trump)",
                            c.name
                        )));
                    }
                    let lowest = bids.iter().find_map(|b| match b {
                        Action::Bet { amount } => Some(*amount),
                        _ => None,
                    });
                    return Err(IllegalAction::new(match lowest {
                        Some(low) if a.values && a.listed.is_empty() => format!(
                            "a bid of {amount} is not possible: bid from {low} to {} in steps of {}, or pass",
                            a.maximum, a.step
                        ),
                        Some(_) if a.values => {
                            let open: Vec<String> = a
                                .plain_bids_over(self.high_bid.map(|(_, b)| b))
                                .iter()
                                .map(i64::to_string)
                                .collect();
                            format!(
                                "a bid of {amount} is not possible: bid one of {}, or pass",
                                open.join(", ")
                            )
                        }
                        Some(_) => format!(
                            "a bid of {amount} is not possible: bid a contract above the highest bid, or pass"
                        ),
                        None => "no bid is possible now: pass".to_string(),
                    }));
                }
                self.bidding.push(BidSeen {
                    seat,
                    over: self.high_bid,
                    action,
                });
                self.high_bid = Some((seat, amount));
                self.emit(Event::Bid {
                    player: seat,
                    amount,
                });
                self.next_bidder(seat);
            }
            Action::Declare { decl, card: None }
                if self.flow.auction.as_ref().is_some_and(|a| a.pass == decl) =>
            {
                self.bidding.push(BidSeen {
                    seat,
                    over: self.high_bid,
                    action,
                });
                self.passed |= 1 << seat;
                self.emit(Event::Declared {
                    player: seat,
                    decl,
                    card: None,
                });
                self.next_bidder(seat);
            }
            _ => {
                return Err(IllegalAction::new("the auction is on: bid or pass"));
            }
        }
        Ok(())
    }
    /// The bids `seat` may make now, in order: the value bids from the lowest allowed, then
    /// the named contracts that outrank the highest bid.
    pub(super) fn bids(&self, out: &mut Vec<Action>) {
        let from = out.len();
        self.bids_over(self.high_bid.map(|(_, b)| b), out);
        // A contract that calls a partner is bid only with a card to call.
        if let Some(a) = &self.flow.auction
            && a.call.is_some()
        {
            let mut k = from;
            while k < out.len() {
                let barred = match out[k] {
                    Action::Bet { amount } => a
                        .contract(amount)
                        .is_some_and(|c| !self.may_bid(self.turn, c)),
                    _ => false,
                };
                if barred {
                    out.remove(k);
                } else {
                    k += 1;
                }
            }
        }
    }

    /// The bids possible over the highest bid `high` (none yet: `None`).
    pub(super) fn bids_over(&self, high: Option<i64>, out: &mut Vec<Action>) {
        let Some(a) = &self.flow.auction else { return };
        for amount in a.plain_bids_over(high) {
            if a.contract(amount).is_none() {
                out.push(Action::Bet { amount });
            }
        }
        for c in &a.contracts {
            if high.is_none_or(|h| c.bid > h) {
                out.push(Action::Bet { amount: c.bid });
            }
        }
    }

    /// The auction moves on after `seat` bid or passed: to the next seat still bidding, or to
    /// its end.
    pub(super) fn next_bidder(&mut self, seat: Seat) {
        let seats = self.hands.len();
        let active = (0..seats).filter(|&s| !self.has_passed(s)).count();
        let a = self.flow.auction.as_ref().expect("an auction is held");
        match (active, self.high_bid) {
            (0, _) => match a.passed_out {
                PassedOut::Dealer => {
                    // Everyone passed: the dealer takes the contract at the lowest bid.
                    let d = self.ledger.dealer;
                    let minimum = a.minimum;
                    self.high_bid = Some((d, minimum));
                    self.emit(Event::Bid {
                        player: d,
                        amount: minimum,
                    });
                    self.auction_won(d);
                }
                PassedOut::Redeal => self.end_hand(self.ledger.dealer, ends::PASSED_OUT),
                PassedOut::Forehand => {
                    // Everyone passed: forehand takes the contract at the lowest bid.
                    let f = next_seat(self.ledger.dealer, seats);
                    let minimum = a.minimum;
                    self.high_bid = Some((f, minimum));
                    self.emit(Event::Bid {
                        player: f,
                        amount: minimum,
                    });
                    self.auction_won(f);
                }
            },
            (1, Some((bidder, _))) if !self.has_passed(bidder) => self.auction_won(bidder),
            _ => {
                let mut s = next_seat(seat, seats);
                while self.has_passed(s) {
                    s = next_seat(s, seats);
                }
                self.turn = s;
            }
        }
    }

    /// `seat` won the auction: it takes the talon where its contract says so (and discards as
    /// many cards), names trumps (unless its contract is played without), then the melds are
    /// shown and play begins.
    pub(super) fn auction_won(&mut self, seat: Seat) {
        self.declarer = Some(seat);
        let flow = Arc::clone(&self.flow);
        let a = flow.auction.as_ref().expect("an auction is held");
        let contract = self.high_bid.and_then(|(_, b)| a.contract(b));
        if let Some(f) = contract.and_then(|c| c.follow) {
            self.follow = f;
        }
        if contract.is_some_and(|c| c.talon) && !self.talon.is_empty() {
            // The declarer takes the talon into its hand and discards as many cards.
            self.hands[seat] |= self.talon;
            self.to_discard = self.talon.len();
            self.talon = CardSet::EMPTY;
            self.talon_taken = true;
            self.turn = seat;
            self.phase = Phase::Discard;
            return;
        }
        self.after_talon();
    }

    /// The declarer names trumps (unless its contract is played without), or play begins.
    pub(super) fn after_talon(&mut self) {
        let seat = self.declarer.expect("the auction is won");
        if self.flow.auction.as_ref().is_some_and(|a| a.turned_up) {
            // Trumps were ordered up, and the dealer has discarded.
            self.start_play();
            return;
        }
        let trumps = self.contract().is_none_or(|c| c.trumps);
        if let Some(suit) = self.contract().and_then(|c| c.trump_suit) {
            // The contract fixes its trump suit.
            self.set_trumps(suit);
            self.before_play();
        } else if self.flow.trump == TrumpRule::Declarer && trumps {
            self.turn = seat;
            self.phase = Phase::NameTrump;
        } else {
            // Trumps as dealt (fixed by the rules), or none, under the contract's rules.
            let suit = if trumps {
                self.trump_suit
            } else {
                self.ruleset.deck.suits.len()
            };
            self.set_trumps(suit);
            self.before_play();
        }
    }
}
