//! A climbing game in play: the deal, each turn a combination that beats the
//! last play or a pass, the trick to the last unbeaten play once the others have passed, and
//! the hand to the first seat that empties its hand; the others pay the ruleset's penalty.

use crate::core::{
    Action, Event, Game, HandEnd, IllegalAction, Ledger, PerSeat, Seat, StartError, StartOptions,
    next_seat, same_family,
};
use crate::deck::{CardId, CardSet, shuffle};
use crate::ruleset::combos::Play;
use crate::ruleset::{ClimbingFlow, FirstDealer, Flow, GameLength, OddCards, PassRule, Ruleset};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::sync::Arc;

/// How a climbing hand ends: a seat went out.
pub const OUT: HandEnd = HandEnd("out");

/// A climbing game.
#[derive(Clone)]
pub struct ClimbingGame {
    pub(super) ruleset: Arc<Ruleset>,
    pub(super) flow: Arc<ClimbingFlow>,
    rng: Xoshiro256PlusPlus,
    orders: std::vec::IntoIter<Vec<CardId>>,
    pub(super) ledger: Ledger,
    /// Each seat's hand.
    pub(super) hands: PerSeat<CardSet>,
    /// The cards of the trick in play.
    pub(super) trick: CardSet,
    /// The cards of the tricks finished this hand.
    pub(super) discards: CardSet,
    /// The play to beat and who made it; `None` on a lead.
    pub(super) last: Option<(Seat, Play, CardSet)>,
    /// The seat to act; `None` once the game is over.
    pub(super) turn: Option<Seat>,
    /// Passes in a row since the last play.
    passes: u32,
    /// Seats out of this trick (`after_pass = "out"`), a bit each.
    out_of_trick: u64,
    /// The first play of the hand is still to come (it must hold the opening card).
    pub(super) opening: bool,
    /// The cards set aside unseen at the deal (`hand_size` short of the whole deck).
    aside: CardSet,
    /// This hand's opening card: the rules' `opening_lead`, or where it was not dealt, the
    /// lowest card dealt.
    opening_card: Option<CardId>,
    /// The last hand's winner.
    last_winner: Option<Seat>,
    /// A search's world: the game ends with the hand in progress.
    ends_with_hand: bool,
    /// The plays listed for a uniform move, kept for the next (no state: any content).
    scratch: Vec<(CardSet, Play)>,
}

/// Starts a game of a climbing ruleset.
pub fn start(ruleset: Arc<Ruleset>, options: StartOptions) -> Result<ClimbingGame, StartError> {
    let Flow::Climbing(flow) = &ruleset.flow else {
        return Err(StartError::Options {
            message: format!("ruleset `{}` is not a climbing game", ruleset.id),
        });
    };
    let flow = Arc::clone(flow);
    let seats = options.seats.unwrap_or(flow.players as usize);
    if !(flow.min_players as usize..=flow.max_players as usize).contains(&seats) {
        let allowed = if flow.min_players == flow.max_players {
            format!("{}", flow.players)
        } else {
            format!("{} to {}", flow.min_players, flow.max_players)
        };
        return Err(StartError::Options {
            message: format!("`{}` seats {allowed} players, not {seats}", ruleset.id),
        });
    }
    let rounds = options.rounds.unwrap_or(match flow.length {
        GameLength::Rounds(n) => n,
        GameLength::Target { max_rounds, .. } => max_rounds,
    });
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(options.seed);
    let dealer = match flow.first_dealer {
        FirstDealer::First => 0,
        FirstDealer::Random => rng.random_range(0..seats),
    };
    let dealer = options.first_dealer.map_or(dealer, |d| d.min(seats - 1));
    let mut game = ClimbingGame {
        ruleset,
        flow,
        rng,
        orders: options.deck_orders.into_iter(),
        ledger: Ledger::new(seats, 0, rounds, dealer, options.log_events),
        hands: PerSeat::new(seats),
        trick: CardSet::EMPTY,
        discards: CardSet::EMPTY,
        last: None,
        turn: None,
        passes: 0,
        out_of_trick: 0,
        opening: false,
        opening_card: None,
        aside: CardSet::EMPTY,
        last_winner: None,
        ends_with_hand: false,
        scratch: Vec::new(),
    };
    game.ledger.start_at(options.first_hand);
    game.start_hand();
    Ok(game)
}

impl ClimbingGame {
    /// What the greedy bot of `seat` reads: its hand, the play to beat, the fewest cards
    /// another seat holds.
    fn seen(&self, seat: Seat) -> super::greedy::Seen {
        super::greedy::Seen {
            hand: self.hands[seat],
            to_beat: self.last.map(|(_, p, _)| p),
            fewest_left: (0..self.hands.len())
                .filter(|&s| s != seat)
                .map(|s| self.hands[s].len())
                .min()
                .unwrap_or(0),
        }
    }

    /// Deals a hand, one card at a time from the seat after the dealer: the whole deck, or
    /// `hand_size` each with the rest set aside; cards left over go where `odd_cards` says. The
    /// holder of the opening card leads (of the lowest card dealt, where the opening card was
    /// not dealt).
    fn start_hand(&mut self) {
        self.ledger.round += 1;
        let n = self.ruleset.deck.cards.len();
        let mut deck = CardId::ALL;
        shuffle(&mut deck, n, &mut self.rng);
        let mut order = deck[..n].to_vec();
        if let Some(given) = self.orders.next().filter(|o| o.len() == n) {
            order = given;
        }
        let seats = self.hands.len();
        self.hands.fill(CardSet::EMPTY);
        let round_table = match (self.flow.hand_size, self.flow.odd_cards) {
            (Some(each), _) => each as usize * seats,
            (None, OddCards::OpeningHolder) => n - n % seats,
            (None, _) => n,
        };
        let mut s = next_seat(self.ledger.dealer, seats);
        for &c in &order[..round_table] {
            self.hands[s].insert(c);
            s = next_seat(s, seats);
        }
        let dealt =
            |hands: &PerSeat<CardSet>| (0..seats).fold(CardSet::EMPTY, |all, s| all | hands[s]);
        let lowest = |cards: CardSet| {
            let order = &self.flow.combos.order;
            cards.iter().min_by_key(|&c| order.value(c))
        };
        let holder =
            |hands: &PerSeat<CardSet>, c: CardId| (0..seats).find(|&s| hands[s].contains(c));
        if self.flow.hand_size.is_none() && round_table < n {
            // Cards left over: to the opening card's holder, or the lowest card's.
            let opener = self
                .flow
                .opening_card
                .and_then(|c| holder(&self.hands, c))
                .or_else(|| lowest(dealt(&self.hands)).and_then(|c| holder(&self.hands, c)));
            if let Some(seat) = opener {
                for &c in &order[round_table..] {
                    self.hands[seat].insert(c);
                }
            }
        }
        let in_hands = dealt(&self.hands);
        self.aside = self.ruleset.deck.all() - in_hands;
        self.opening_card = self
            .flow
            .opening_card
            .map(|c| {
                if in_hands.contains(c) {
                    Some(c)
                } else {
                    lowest(in_hands)
                }
            })
            .unwrap_or(None);
        self.ledger.dealt_orders.push(order);
        let (round, dealer) = (self.ledger.round, self.ledger.dealer);
        self.ledger.emit(|| Event::Deal { round, dealer });
        self.trick = CardSet::EMPTY;
        self.discards = CardSet::EMPTY;
        self.last = None;
        self.passes = 0;
        self.out_of_trick = 0;
        let opening_hand = self.flow.opening_every_hand || self.last_winner.is_none();
        let holder = self
            .opening_card
            .filter(|_| opening_hand)
            .and_then(|c| (0..seats).find(|&s| self.hands[s].contains(c)));
        self.opening = holder.is_some() && self.flow.opening_must_include;
        self.turn = Some(
            holder
                .or(self.last_winner.filter(|_| !self.flow.opening_every_hand))
                .unwrap_or_else(|| next_seat(dealer, seats)),
        );
    }

    /// The hand of `seat`.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }

    /// The play to beat, who made it and its cards; `None` on a lead.
    pub fn to_beat(&self) -> Option<(Seat, Play, CardSet)> {
        self.last
    }

    /// The cards of the trick in play.
    pub fn trick(&self) -> CardSet {
        self.trick
    }

    /// Seats at the table.
    pub fn seats_count(&self) -> usize {
        self.hands.len()
    }

    /// The climbing flow.
    pub fn flow(&self) -> &ClimbingFlow {
        &self.flow
    }

    /// Calls `f` with every play the seat to act may make now (passes aside).
    pub fn each_play(&self, f: &mut dyn FnMut(CardSet, Play)) {
        let Some(seat) = self.turn else { return };
        let hand = self.hands[seat];
        let led = self.last.map(|(_, p, _)| p);
        let table = &self.flow.combos;
        let must = self
            .opening_card
            .filter(|_| self.opening)
            .map_or(CardSet::EMPTY, CardSet::single);
        for k in 0..table.classes.len() {
            if must.is_empty() {
                table.each(hand, k, led, f);
            } else {
                table.each(hand, k, led, &mut |cards, play| {
                    if cards.contains_all(must) {
                        f(cards, play)
                    }
                });
            }
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.turn.is_none() {
            return;
        }
        self.each_play(&mut |cards, _| out.push(play_action(cards)));
        if self.last.is_some() {
            out.push(Action::declare(self.flow.pass));
        }
    }

    fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        let Some(seat) = self.turn else {
            return Err(IllegalAction::new("the game is over"));
        };
        match action {
            Action::Declare { decl, card: None } if decl == self.flow.pass => {
                if self.last.is_none() {
                    return Err(IllegalAction::new(
                        "you lead this trick: play a combination (a pass only answers a play)",
                    ));
                }
                self.pass(seat);
                Ok(())
            }
            Action::Play { card } => self.try_play(seat, CardSet::single(card)),
            Action::PlaySet { cards } => self.try_play(seat, cards),
            _ => Err(IllegalAction::new(
                "play cards from your hand, or pass where a play is to be beaten",
            )),
        }
    }

    /// Plays `cards` for `seat`, or says why they cannot be played.
    fn try_play(&mut self, seat: Seat, cards: CardSet) -> Result<(), IllegalAction> {
        let deck = &self.ruleset.deck;
        if cards.is_empty() {
            return Err(IllegalAction::new("choose at least one card"));
        }
        let hand = self.hands[seat];
        if !hand.contains_all(cards) {
            return Err(IllegalAction::new(format!(
                "{} not in your hand",
                deck.ids(cards - hand).join(", ")
            )));
        }
        let table = &self.flow.combos;
        let Some(play) = table.classify(cards) else {
            let sizes: Vec<String> = table
                .classes
                .iter()
                .map(|c| {
                    format!(
                        "{} ({} card{})",
                        c.name,
                        c.size,
                        if c.size == 1 { "" } else { "s" }
                    )
                })
                .collect();
            return Err(IllegalAction::new(format!(
                "those {} cards form no combination of the game: {}",
                cards.len(),
                sizes.join(", ")
            )));
        };
        if let Some(card) = self.opening_card.filter(|_| self.opening)
            && !cards.contains(card)
        {
            return Err(IllegalAction::new(format!(
                "the first play of the hand must hold {}",
                deck.card(card).name
            )));
        }
        if let Some((_, led, _)) = self.last
            && !table.beats(play, led)
        {
            let (mine, theirs) = (
                &table.classes[play.class as usize],
                &table.classes[led.class as usize],
            );
            let why = if play.class == led.class {
                format!(
                    "your {} is not higher than the {} to beat",
                    mine.name, theirs.name
                )
            } else {
                format!("a {} does not beat a {}", mine.name, theirs.name)
            };
            return Err(IllegalAction::new(format!(
                "{why}: play a higher one or pass"
            )));
        }
        self.play(seat, cards, play);
        Ok(())
    }

    /// Plays `cards`, a legal play of `play`, for `seat`.
    fn play(&mut self, seat: Seat, cards: CardSet, play: Play) {
        self.hands[seat] = self.hands[seat] - cards;
        self.trick |= cards;
        self.last = Some((seat, play, cards));
        self.passes = 0;
        self.opening = false;
        if self.ledger.log {
            let name = self.flow.combos.classes[play.class as usize].name.clone();
            self.ledger.emit(|| Event::PlayedSet {
                player: seat,
                cards: cards.iter().collect(),
                combination: name,
            });
        }
        if self.hands[seat].is_empty() {
            return self.end_hand(seat);
        }
        self.advance(seat);
    }

    /// A pass by `seat`.
    fn pass(&mut self, seat: Seat) {
        let decl = self.flow.pass;
        self.ledger.emit(|| Event::Declared {
            player: seat,
            decl,
            card: None,
        });
        self.passes += 1;
        if self.flow.pass_rule == PassRule::Out {
            self.out_of_trick |= 1 << seat;
        }
        let seats = self.hands.len() as u32;
        let (winner, _, _) = self.last.expect("a pass answers a play");
        let in_trick = seats - self.out_of_trick.count_ones();
        let done = match self.flow.pass_rule {
            PassRule::Again => self.passes >= seats - 1,
            PassRule::Out => in_trick <= 1,
        };
        if done {
            // Every other seat passed: the last play wins the trick, and its player leads.
            let cards = self.trick;
            self.ledger.emit(|| Event::TrickWon {
                player: winner,
                cards: cards.iter().collect(),
            });
            self.discards |= self.trick;
            self.trick = CardSet::EMPTY;
            self.last = None;
            self.passes = 0;
            self.out_of_trick = 0;
            self.turn = Some(winner);
        } else {
            self.advance(seat);
        }
    }

    /// The turn to the next seat still in the trick after `seat`.
    fn advance(&mut self, seat: Seat) {
        let seats = self.hands.len();
        let mut s = next_seat(seat, seats);
        while self.out_of_trick >> s & 1 == 1 {
            s = next_seat(s, seats);
        }
        self.turn = Some(s);
    }

    /// `winner` went out: the others pay the penalty for the cards they hold.
    fn end_hand(&mut self, winner: Seat) {
        let seats = self.hands.len();
        let mut points = PerSeat::<i64>::new(seats);
        for s in 0..seats {
            if s == winner {
                continue;
            }
            let paid = self.flow.penalty.int(&crate::expr::Context {
                pile: self.hands[s],
                facts: &[],
            });
            points[s] -= paid;
            if self.flow.pay_winner {
                points[winner] += paid;
            }
        }
        let result = self.ledger.result(Some(winner), OUT, points);
        self.ledger.close_hand(result);
        self.last_winner = Some(winner);
        self.ledger
            .pass_deal(self.flow.next_dealer, Some(winner), seats);
        let target = match self.flow.length {
            GameLength::Target { score, .. } => Some(score),
            GameLength::Rounds(_) => None,
        };
        if self.ends_with_hand || self.ledger.last_hand_played(target) {
            self.turn = None;
            self.ledger.end_game();
        } else {
            self.start_hand();
        }
    }

    /// A world `seat` may be in: the other hands dealt again from the cards it cannot see, each
    /// as many as it holds; the world ends with the hand in progress.
    pub fn determinized(&self, seat: Seat, rng: &mut Xoshiro256PlusPlus) -> ClimbingGame {
        let mut world = self.clone();
        self.deal_hidden(seat, rng, &mut world);
        world
    }

    fn deal_hidden(&self, seat: Seat, rng: &mut Xoshiro256PlusPlus, world: &mut ClimbingGame) {
        let hidden = Game::unseen(self, seat);
        let mut pool = [CardId(0); CardSet::CAPACITY];
        let n = hidden.len() as usize;
        for (slot, card) in pool.iter_mut().zip(hidden.iter()) {
            *slot = card;
        }
        shuffle(&mut pool, n, rng);
        let mut next = 0;
        for s in 0..self.hands.len() {
            if s == seat {
                continue;
            }
            let k = self.hands[s].len() as usize;
            world.hands[s] = pool[next..next + k].iter().copied().collect();
            next += k;
        }
        // What no hand holds in this world is what was set aside.
        world.aside = pool[next..n].iter().copied().collect();
        world.ends_with_hand = true;
        world.ledger.log = false;
        world.ledger.events.clear();
    }
}

/// The move that plays `cards`.
pub fn play_action(cards: CardSet) -> Action {
    Action::PlaySet { cards }
}

impl Game for ClimbingGame {
    fn ledger(&self) -> &Ledger {
        &self.ledger
    }
    fn ledger_mut(&mut self) -> &mut Ledger {
        &mut self.ledger
    }
    fn ruleset(&self) -> &Arc<Ruleset> {
        &self.ruleset
    }
    fn seats(&self) -> usize {
        self.hands.len()
    }
    fn to_act(&self) -> Option<Seat> {
        self.turn
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        ClimbingGame::legal_actions(self, out)
    }
    fn legal_count(&self) -> usize {
        if self.turn.is_none() {
            return 0;
        }
        let mut n = usize::from(self.last.is_some());
        self.each_play(&mut |_, _| n += 1);
        n
    }
    fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        ClimbingGame::apply(self, action)
    }
    fn apply_uniform(&mut self, rng: &mut Xoshiro256PlusPlus) -> Result<(), IllegalAction> {
        // One listing serves the draw and the move: the plays are checked as they are listed.
        let Some(seat) = self.turn else {
            return Err(IllegalAction::new("the game is over"));
        };
        let mut plays = std::mem::take(&mut self.scratch);
        plays.clear();
        self.each_play(&mut |cards, play| plays.push((cards, play)));
        let count = plays.len() + usize::from(self.last.is_some());
        let index = crate::core::uniform_index(count, rng);
        if let Some(&(cards, play)) = plays.get(index) {
            self.play(seat, cards, play);
        } else {
            self.pass(seat);
        }
        self.scratch = plays;
        Ok(())
    }
    fn zones(&self) -> Vec<(String, CardSet)> {
        let mut z = vec![
            ("trick".to_string(), self.trick),
            ("discards".to_string(), self.discards),
        ];
        for s in 0..self.hands.len() {
            z.push((format!("hand {s}"), self.hands[s]));
        }
        if !self.aside.is_empty() {
            z.push(("set aside".to_string(), self.aside));
        }
        z
    }
    fn unseen(&self, seat: Seat) -> CardSet {
        let mut unseen = self.aside;
        for (s, hand) in self.hands.iter().enumerate() {
            if s != seat {
                unseen |= *hand;
            }
        }
        unseen
    }
    fn heuristic(&self, seat: Seat, legal: &[Action], _rng: &mut Xoshiro256PlusPlus) -> Action {
        super::greedy::choose(&self.flow.combos, &self.seen(seat), legal)
    }
    fn heuristic_reasons(&self, seat: Seat, legal: &[Action], action: Action) -> Vec<String> {
        match super::greedy::choose_why(&self.flow.combos, &self.seen(seat), legal) {
            (chosen, why) if chosen == action => vec![why.words()],
            _ => Vec::new(),
        }
    }
    fn determinize(&self, seat: Seat, rng: &mut Xoshiro256PlusPlus) -> Option<Box<dyn Game>> {
        Some(Box::new(self.determinized(seat, rng)))
    }
    fn determinize_from(
        &mut self,
        source: &dyn Game,
        seat: Seat,
        rng: &mut Xoshiro256PlusPlus,
    ) -> bool {
        same_family(source, |source: &ClimbingGame| {
            self.clone_from(source);
            source.deal_hidden(seat, rng, self);
        })
    }
    fn box_clone(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }
    fn copy_from(&mut self, other: &dyn Game) -> bool {
        same_family(other, |other: &ClimbingGame| self.clone_from(other))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_dyn(&self) -> &dyn Game {
        self
    }
}
