//! A matching game's turn: the card played or drawn placed on the table (captured by suit or by
//! the capture rules, stacked or left), the turn's events, the end of the turn, the next
//! player and the seats sitting out, hands refilled and the cards left to the last capturer.

use super::*;
use crate::ruleset::LeftoverSeat;

impl MatchingGame {
    /// Plays or draws `card`, then goes on with the turn until a choice waits or it ends: after
    /// the hand card the draw, after the drawn card the turn's end. A loop rather than calls
    /// back and forth: a turn is the engine's commonest path.
    #[inline]
    pub(super) fn resolve(&mut self, card: CardId, from_hand: bool) {
        if self.flow.classic_turn {
            self.resolve_in::<true>(card, from_hand)
        } else {
            self.resolve_ruled(card, from_hand)
        }
    }

    /// [`MatchingGame::resolve`] for a turn with other options than Koi-Koi's, out of line so
    /// that the classic turn keeps its registers to itself.
    #[inline(never)]
    pub(super) fn resolve_ruled(&mut self, card: CardId, from_hand: bool) {
        self.resolve_in::<false>(card, from_hand)
    }

    /// [`MatchingGame::resolve`], compiled once for the Koi-Koi turn (`CLASSIC`: none of the
    /// other turn options is checked) and once for every other.
    pub(super) fn resolve_in<const CLASSIC: bool>(
        &mut self,
        mut card: CardId,
        mut from_hand: bool,
    ) {
        loop {
            if !self.place::<CLASSIC>(card, from_hand) {
                return;
            }
            match self.draw_after::<CLASSIC>(from_hand) {
                Some(drawn) => (card, from_hand) = (drawn, false),
                None => return self.finish_turn(),
            }
        }
    }

    /// Puts `card`, played or drawn, where it goes: a stack, a capture, or the table. False when
    /// the player must first choose which of its matches it takes.
    pub(super) fn place<const CLASSIC: bool>(&mut self, card: CardId, from_hand: bool) -> bool {
        if !from_hand && self.flow.stacks && self.makes_stack(card) {
            return true;
        }
        if !CLASSIC && self.ruled_captures() {
            return self.place_by_rules(card, from_hand);
        }
        let mut matches = self.candidates(card, from_hand);
        // Suits a declaration blocks pass the other players by (never in Koi-Koi's turn: a
        // ruleset with such a declaration plays the other).
        if !CLASSIC && self.marks.blocked != 0 {
            matches = matches - self.blocked_for(self.turn);
        }
        let wild = self.flow.is_wild(card, from_hand);
        // How many matches: none, one, two or more (without counting every card).
        let after_one = matches.0 & matches.0.wrapping_sub(1);
        let after_two = after_one & after_one.wrapping_sub(1);
        if matches.is_empty() {
            self.leave_on_table(card, from_hand);
            true
        } else if after_one != 0 && (after_two == 0 || wild) {
            // Two matches, or a wild card matching several: the player chooses one.
            self.phase = Phase::CaptureChoice { card, from_hand };
            false
        } else {
            // One match: take the pair. Three of a suit: the fourth card takes all (004 "three
            // cards ... are collected when the player plays the fourth card"; 002 step 1; 001).
            self.take::<CLASSIC>(card, matches, from_hand);
            true
        }
    }

    /// [`MatchingGame::place`] under the ruleset's capture rules: no capture puts the card on
    /// the table, one is made at once, several wait for the player's choice.
    // Koi-Koi's turns never come here (its `resolve` is compiled without this call): inlined
    // into the other turn only.
    #[inline]
    pub(super) fn place_by_rules(&mut self, card: CardId, from_hand: bool) -> bool {
        if self.flow.build.is_some() {
            return self.place_with_builds(card, from_hand);
        }
        let mut options = std::mem::take(&mut self.choices);
        self.capture_options_of(card, from_hand, &mut options);
        let placed = self.place_among(card, from_hand, &options);
        if placed {
            options.clear();
        }
        // Kept while the player chooses among them.
        self.choices = options;
        placed
    }

    /// [`MatchingGame::place_by_rules`] under `[flow.build]`: the builds the card may make are
    /// offered beside its captures. Out of line, as games without builds never come here.
    #[inline(never)]
    fn place_with_builds(&mut self, card: CardId, from_hand: bool) -> bool {
        let mut options = std::mem::take(&mut self.choices);
        let mut moves = std::mem::take(&mut self.build_choices);
        self.choices_of(card, from_hand, &mut options, &mut moves);
        let placed = if moves.is_empty() {
            self.place_among(card, from_hand, &options)
        } else {
            self.phase = Phase::CaptureChoice { card, from_hand };
            false
        };
        if placed {
            options.clear();
        }
        // Kept while the player chooses among them.
        self.choices = options;
        self.build_choices = moves;
        placed
    }

    /// Every choice `card`, played (`from_hand`) or drawn, offers: its captures and the trail
    /// ([`MatchingGame::capture_options_of`]) into `options`, the builds it may make
    /// (`[flow.build]`) into `moves`.
    #[inline]
    pub(super) fn choices_of(
        &self,
        card: CardId,
        from_hand: bool,
        options: &mut Vec<CardSet>,
        moves: &mut Vec<BuildMove>,
    ) {
        self.capture_options_of(card, from_hand, options);
        moves.clear();
        if from_hand && self.flow.build.is_some() {
            self.build_choices_of(card, options, moves);
        }
    }

    /// The builds `card` played from the hand may make (into `moves`), a trail offered beside
    /// them, and what a build's owner may not do taken out of `options` and `moves`: lay a card
    /// on the table, or play the last card of a build's value without taking that build.
    #[inline(never)]
    pub(super) fn build_choices_of(
        &self,
        card: CardId,
        options: &mut Vec<CardSet>,
        moves: &mut Vec<BuildMove>,
    ) {
        let Some(rule) = self.flow.build.as_ref() else {
            return;
        };
        let seat = self.turn;
        let hand = self.hands[seat] | CardSet::single(card);
        build::build_options(
            &self.flow,
            self.table,
            &self.builds,
            hand,
            seat,
            card,
            moves,
        );
        if build::bound(&self.flow, &self.builds, seat) {
            let keeps =
                |used: CardSet| build::keeps_its_cards(rule, &self.builds, hand, seat, card, used);
            options.retain(|&set| !set.is_empty() && keeps(set));
            moves.retain(|m| keeps(m.cards));
        } else if options.is_empty() && !moves.is_empty() {
            // A card that captures nothing may always be laid on the table instead.
            options.push(CardSet::EMPTY);
        }
    }

    /// The hand cards the player to act may play: all of them, except that the owner of a
    /// build bound by it plays only cards that capture or build as it must (all of them again
    /// should none do).
    #[inline(always)]
    pub(super) fn playable(&self) -> CardSet {
        let hand = self.hands[self.turn];
        if self.builds.is_empty() {
            hand
        } else {
            self.playable_with_builds(hand)
        }
    }

    #[inline(never)]
    fn playable_with_builds(&self, hand: CardSet) -> CardSet {
        if !build::bound(&self.flow, &self.builds, self.turn) {
            return hand;
        }
        let (mut options, mut moves) = (Vec::new(), Vec::new());
        let mut ok = CardSet::EMPTY;
        for c in hand.iter() {
            self.choices_of(c, true, &mut options, &mut moves);
            if !options.is_empty() || !moves.is_empty() {
                ok.insert(c);
            }
        }
        if ok.is_empty() { hand } else { ok }
    }

    /// The choices `card`, played (`from_hand`) or drawn, offers under the capture rules: its
    /// captures (builds of its value among them), then the trail when the rules allow it (an
    /// empty set).
    #[inline]
    pub(super) fn capture_options_of(&self, card: CardId, from_hand: bool, out: &mut Vec<CardSet>) {
        if !self.builds.is_empty() {
            return self.capture_options_with_builds(card, from_hand, out);
        }
        capture::options(&self.flow, self.table, card, from_hand, out);
        if from_hand && self.flow.must_capture != MustCapture::Always {
            capture::offer_trail(&self.flow, self.table, card, out);
        }
        if self.marks.blocked != 0 {
            self.keep_unblocked(out);
        }
    }

    /// The captures of `out` that take no card of a suit another player's declaration blocks;
    /// with none left but the trail, the card is simply laid on the table.
    #[cold]
    #[inline(never)]
    fn keep_unblocked(&self, out: &mut Vec<CardSet>) {
        let blocked = self.blocked_for(self.turn);
        out.retain(|set| (*set & blocked).is_empty());
        if out.iter().all(|set| set.is_empty()) {
            out.clear();
        }
    }

    /// The table cards `seat` may not capture: those of the suits another player's declaration
    /// blocks (`blocks`), unless `seat` revealed the suit too.
    pub(super) fn blocked_for(&self, seat: Seat) -> CardSet {
        let mut suits = self.marks.blocked & !self.marks.revealed[seat];
        let mut cards = CardSet::EMPTY;
        while suits != 0 {
            let i = suits.trailing_zeros() as usize;
            suits &= suits - 1;
            if let Some(suit) = self.ruleset.deck.suits.get(i) {
                cards |= suit.cards;
            }
        }
        cards
    }

    /// [`MatchingGame::capture_options_of`] with builds on the table: a build is taken whole,
    /// and a trail is laid beside the loose cards. Out of line for the games without builds.
    #[inline(never)]
    fn capture_options_with_builds(&self, card: CardId, from_hand: bool, out: &mut Vec<CardSet>) {
        build::capture_options(&self.flow, self.table, &self.builds, card, from_hand, out);
        if from_hand && self.flow.must_capture != MustCapture::Always {
            let loose = self.table - build::in_builds(&self.builds);
            capture::offer_trail(&self.flow, loose, card, out);
        }
    }

    /// `card`, waiting for a choice, is laid on the table as build `m` (one of those offered):
    /// the builds it takes in are one with it, owned by the player.
    pub(super) fn make_build(&mut self, card: CardId, m: BuildMove) {
        self.choices.clear();
        self.build_choices.clear();
        let cards = m.cards | CardSet::single(card);
        let multiple = self
            .flow
            .build
            .as_ref()
            .is_some_and(|rule| build::sets_in(rule, cards, m.value) >= 2);
        self.builds.retain(|b| (b.cards & m.cards).is_empty());
        let player = self.turn;
        self.builds.push(Build {
            cards,
            value: m.value,
            owner: player as u8,
            multiple,
        });
        self.table.insert(card);
        self.marks.turn.played = Some((card, CardSet::EMPTY));
        self.emit(|_| Event::Built {
            player,
            card,
            cards: m.cards.iter().collect(),
            value: m.value,
        });
        self.continue_turn(true);
    }

    /// `card`, waiting for a choice under the capture rules, takes `set` (one of the options),
    /// or with an empty set is laid on the table (a trail the rules allow).
    pub(super) fn take_or_trail(&mut self, card: CardId, set: CardSet, from_hand: bool) {
        self.choices.clear();
        self.build_choices.clear();
        if set.is_empty() {
            self.leave_on_table(card, from_hand);
            self.continue_turn(from_hand);
        } else {
            self.drop_taken_builds(set);
            self.take_set(card, set, from_hand);
        }
    }

    /// The builds a capture of `taken` takes apart leave the list (`[flow.build]`). Called
    /// where the capture rules take cards, before [`MatchingGame::take`], so that the month
    /// captures of the classic turn never test for builds.
    #[inline(always)]
    pub(super) fn drop_taken_builds(&mut self, taken: CardSet) {
        if !self.builds.is_empty() {
            self.drop_builds_in(taken);
        }
    }

    #[cold]
    #[inline(never)]
    fn drop_builds_in(&mut self, taken: CardSet) {
        self.builds.retain(|b| (b.cards & taken).is_empty());
    }

    /// `card`, played or drawn, captures nothing and stays on the table.
    #[inline(always)]
    pub(super) fn leave_on_table(&mut self, card: CardId, from_hand: bool) {
        self.table.insert(card);
        if from_hand {
            self.marks.turn.played = Some((card, CardSet::EMPTY));
        } else {
            self.marks.turn.drawn = Some((card, CardSet::EMPTY));
        }
        self.log_move(card, CardSet::EMPTY, from_hand);
    }

    /// [`MatchingGame::place_by_rules`] once the captures are known.
    pub(super) fn place_among(
        &mut self,
        card: CardId,
        from_hand: bool,
        options: &[CardSet],
    ) -> bool {
        match *options {
            [] => {
                self.leave_on_table(card, from_hand);
                true
            }
            [only] => {
                self.drop_taken_builds(only);
                self.take::<false>(card, only, from_hand);
                true
            }
            _ => {
                self.phase = Phase::CaptureChoice { card, from_hand };
                false
            }
        }
    }

    /// A drawn card of the suit of the pair the hand card has just taken: the three stay on the
    /// table as a stack (never on the player's last hand card: nobody could take it back).
    pub(super) fn makes_stack(&mut self, card: CardId) -> bool {
        let Some((played, took)) = self.marks.turn.played else {
            return false;
        };
        let suit = self.ruleset.deck.same_suit(card);
        if took.len() != 1
            || !(self.table & suit).is_empty()
            || !suit.contains(played)
            || !(took - suit).is_empty()
            || self.hands[self.turn].is_empty() && self.marks.free_draws[self.turn] == 0
        {
            return false;
        }
        let three = took | CardSet::single(played) | CardSet::single(card);
        self.captured[self.turn] = self.captured[self.turn] - three;
        self.table |= three;
        let p = self.turn;
        self.marks.stack_owner[self.ruleset.deck.card(card).suit % 32] = p as u8;
        self.marks.stacks[p] = self.marks.stacks[p].saturating_add(1);
        self.marks.pattern(TurnPattern::Stack);
        self.marks.turn.drawn = Some((card, CardSet::EMPTY));
        self.emit(|_| Event::Stacked {
            player: p,
            cards: three.iter().collect(),
        });
        true
    }

    #[inline]
    /// `card` takes `taken` from the table into the player's pile (`CLASSIC`: the Koi-Koi turn,
    /// where nobody asks who captured last).
    pub(super) fn take<const CLASSIC: bool>(
        &mut self,
        card: CardId,
        taken: CardSet,
        from_hand: bool,
    ) {
        self.take_inline::<CLASSIC>(card, taken, from_hand);
    }

    /// [`MatchingGame::take`], inlined where a choice between captures is applied.
    #[inline(always)]
    pub(super) fn take_inline<const CLASSIC: bool>(
        &mut self,
        card: CardId,
        taken: CardSet,
        from_hand: bool,
    ) {
        let mut taken = taken;
        if !CLASSIC {
            self.marks.last_capturer = self.turn as u8;
            if from_hand
                && !taken.is_empty()
                && let Some(values) = &self.flow.run_capture
            {
                taken |= run_from(values, card, self.table - taken);
            }
        }
        self.table = self.table - taken;
        self.captured[self.turn] |= taken;
        self.captured[self.turn].insert(card);
        if from_hand {
            self.marks.turn.played = Some((card, taken));
        } else {
            self.marks.turn.drawn = Some((card, taken));
        }
        if self.flow.stacks && taken.len() >= 3 {
            let suit = self.ruleset.deck.card(card).suit % 32;
            let owner = std::mem::replace(&mut self.marks.stack_owner[suit], NO_STACK);
            if owner != NO_STACK {
                self.marks.pattern(if usize::from(owner) == self.turn {
                    TurnPattern::OwnStackTaken
                } else {
                    TurnPattern::StackTaken
                });
            }
        }
        self.log_move(card, taken, from_hand);
    }

    /// Logs a card played or drawn and what it took, when events are logged.
    #[inline]
    pub(super) fn log_move(&mut self, card: CardId, taken: CardSet, from_hand: bool) {
        if self.ledger.log {
            self.push_move(card, taken, from_hand);
        }
    }

    /// [`MatchingGame::log_move`]'s event, out of line: simulations never log, and building the
    /// event inline made the moves too large to inline themselves.
    #[cold]
    #[inline(never)]
    pub(super) fn push_move(&mut self, card: CardId, taken: CardSet, from_hand: bool) {
        let player = self.turn;
        let captured: Vec<CardId> = taken.iter().collect();
        self.ledger.events.push(if from_hand {
            Event::Played {
                player,
                card,
                captured,
            }
        } else {
            Event::Drew {
                player,
                card,
                captured,
            }
        });
    }

    /// After the hand card: draw. After the drawn card: the turn ends.
    pub(super) fn continue_turn(&mut self, from_hand: bool) {
        match self.draw_after::<false>(from_hand) {
            Some(card) => self.resolve(card, false),
            None => self.finish_turn(),
        }
    }

    /// The card drawn after the hand card (`from_hand`), bonus cards going to the pile on the
    /// way; `None` after the drawn card, or when the stock runs out.
    #[inline]
    pub(super) fn draw_after<const CLASSIC: bool>(&mut self, from_hand: bool) -> Option<CardId> {
        if !from_hand || (!CLASSIC && !self.flow.draws) {
            return None;
        }
        loop {
            let card = *self.stock.get(self.stock_pos)?;
            self.stock_pos += 1;
            // A drawn bonus card goes to the pile and the next card is drawn.
            if !self.flow.bonus.contains(card) {
                return Some(card);
            }
            self.take_bonus(card);
        }
    }

    /// The turn's cards are down: the turn ends.
    pub(super) fn finish_turn(&mut self) {
        self.phase = Phase::Play;
        self.end_turn();
    }

    pub(super) fn take_bonus(&mut self, card: CardId) {
        let p = self.turn;
        self.captured[p].insert(card);
        self.emit(|_| Event::BonusTaken { player: p, card });
    }

    /// The turn patterns the play and the draw made together (kiss, four taken, sweep).
    pub(super) fn finish_patterns(&mut self) {
        let t = self.marks.turn;
        let deck = &self.ruleset.deck;
        if let (Some((played, took)), Some((drawn, drew))) = (t.played, t.drawn)
            && deck.same_suit(played).contains(drawn)
        {
            if took.is_empty() && drew.contains(played) {
                self.marks.pattern(TurnPattern::Kiss);
            } else if took.len() == 1 && drew.len() == 1 {
                self.marks.pattern(TurnPattern::FourTaken);
            }
        }
        let captured_now = self.captured[self.turn] - t.pile_before;
        if self.table.is_empty() && !(captured_now - self.flow.bonus).is_empty() {
            self.marks.pattern(TurnPattern::Sweep);
        }
        if self.flow.watches_laid
            && let Some(card) = self.marks.laid_before
            && captured_now.contains(card)
        {
            self.marks.pattern(TurnPattern::LastLaidTaken);
        }
    }

    /// The turn's patterns and the turn events they fire, then counting out (`[flow]
    /// count_at_once`): true when the hand ended.
    #[inline(never)]
    fn after_turn(&mut self) -> bool {
        // The patterns matter only to turn events.
        if !self.flow.turn_events.is_empty() {
            self.finish_patterns();
        }
        if self.fire_turn_events() {
            return true;
        }
        self.flow.count_at_once && self.counted_out()
    }

    /// Fires the turn events of the patterns this turn made; true when one won the hand.
    pub(super) fn fire_turn_events(&mut self) -> bool {
        if self.flow.turn_events.is_empty() {
            return false;
        }
        if self.marks.turn.patterns.iter().all(|&times| times == 0) {
            return false;
        }
        let p = self.turn;
        let [score, best_other, target] = self.score_facts(p);
        let facts = [
            i64::from(self.ledger.round),
            i64::from(self.facts_rounds()),
            i64::from(p == self.ledger.dealer),
            i64::from(self.hands[p].len()),
            i64::from(self.marks.stacks[p]),
            i64::from(self.marks.turns[p]),
            i64::from(self.cards_left()),
            score,
            best_other,
            target,
        ];
        let flow = Arc::clone(&self.flow);
        let per = flow.turn_events.len();
        let patterns = self.marks.turn.patterns;
        let pile = self.captured[p];
        // Whether event `i` happened this turn and its condition holds.
        let holds = |i: usize| {
            let e = &flow.turn_events[i];
            patterns[e.on.index()] > 0
                && e.when.as_ref().is_none_or(|w| {
                    w.truth(&Context {
                        pile,
                        facts: &facts,
                    })
                })
        };
        // `turn_events_combine = "best"`: only the one worth most counts (one that wins the
        // hand first, then the most points, then the most cards taken; the first listed of
        // equals).
        let best = flow.turn_events_best.then(|| {
            (0..per).filter(|&i| holds(i)).max_by_key(|&i| {
                let e = &flow.turn_events[i];
                let times = i64::from(patterns[e.on.index()]);
                (
                    e.wins.is_some(),
                    e.points.saturating_mul(times),
                    i64::from(e.take) * times,
                    std::cmp::Reverse(i),
                )
            })
        });
        for (i, e) in flow.turn_events.iter().enumerate() {
            let times = patterns[e.on.index()];
            let counts = match best {
                Some(best) => best == Some(i),
                None => holds(i),
            };
            if !counts {
                continue;
            }
            self.marks.fired[p * per + i] += u16::from(times);
            // The names are cloned only for a logged event (a simulation logs none).
            self.emit(|_| Event::TurnEvent {
                player: p,
                id: e.id.clone(),
                name: e.name.clone(),
            });
            for _ in 0..times {
                for _ in 0..e.take {
                    self.collect_from_others(p);
                }
            }
            if let Some(points) = e.wins {
                let special = Special::Instant(FoundYaku {
                    id: e.id.clone(),
                    name: e.name.clone(),
                    points,
                });
                let outcome = self.settle_for(p, Some(&special));
                self.end_hand(Some(p), ends::TURN_EVENT, outcome.map(Settled::Full));
                return true;
            }
        }
        false
    }

    /// Every other seat hands `to` one card: the lowest of the first `give` set its pile holds.
    pub(super) fn collect_from_others(&mut self, to: Seat) {
        let mut s = next_seat(to, self.seats);
        while s != to {
            let pile = self.captured[s];
            if let Some(card) = self
                .flow
                .give
                .iter()
                .map(|g| pile & *g)
                .find(|g| !g.is_empty())
                .and_then(|g| g.iter().next())
            {
                self.captured[s].remove(card);
                self.captured[to].insert(card);
                self.emit(|_| Event::Given {
                    from: s,
                    to,
                    cards: vec![card],
                });
            }
            s = next_seat(s, self.seats);
        }
    }

    /// The choices (`count_as`) the player must make for cards captured this turn.
    pub(super) fn pending_choices(&self) -> u64 {
        if self.flow.choices.is_empty() {
            return 0;
        }
        let p = self.turn;
        let new = self.captured[p] - self.marks.turn.pile_before;
        let card_of = |d: &DeclId| self.ruleset.declarations[d.0 as usize].card;
        // One card at a time: the first card captured this turn whose choice is not made yet.
        // `choose` decides every choice about a card at once, so all of them are offered.
        let Some(card) = self
            .flow
            .choices
            .iter()
            .enumerate()
            .find(|(i, d)| {
                self.marks.decided[p] >> i & 1 == 0 && card_of(d).is_some_and(|c| new.contains(c))
            })
            .and_then(|(_, d)| card_of(d))
        else {
            return 0;
        };
        self.flow
            .choices
            .iter()
            .filter(|d| card_of(d) == Some(card))
            .fold(0, |m, d| m | 1 << d.0)
    }

    pub(super) fn end_turn(&mut self) {
        let p = self.turn;
        let choices = self.pending_choices();
        if choices != 0 {
            self.phase = Phase::Choose;
            self.offered = choices;
            return;
        }
        // Turn events and counting out, behind one test: Koi-Koi's turn has neither.
        if self.flow.after_turn && self.after_turn() {
            return;
        }
        // The yaku table is evaluated only when the pile changed (piles only grow).
        if self.captured[p] == self.evaluated[p] {
            self.next_player();
            return;
        }
        let pile = self.captured[p];
        let table = &self.ruleset.yaku;
        // The facts are gathered only for a table that reads them: most read the pile alone
        // (and an absent fact reads as 0).
        let gathered: YakuFacts;
        let facts: &[i64] = if table.reads_facts() {
            gathered = self.circumstances(p).yaku_facts();
            &gathered
        } else {
            &[]
        };
        let improved = if self.evaluated[p] == UNEVALUATED {
            table.refresh(&mut self.yaku[p], pile, facts)
        } else {
            // Same hand, same facts: only yaku reading a newly captured card can change.
            let before = self.evaluated[p];
            let changed = (pile - before) | (before - pile);
            table.update(&mut self.yaku[p], changed, pile, facts)
        };
        self.evaluated[p] = pile;
        if !improved {
            self.next_player();
            return;
        }
        if self.ledger.log {
            let after = &self.yaku[p];
            let ids = after
                .iter()
                .map(|i| self.ruleset.yaku.yaku[i].id.clone())
                .collect();
            let base = after.base();
            self.ledger.events.push(Event::YakuFormed {
                player: p,
                yaku: ids,
                base,
            });
        }
        // The declarations after a yaku whose conditions hold are offered; with none, play
        // goes on (a threshold not reached yet).
        self.offered = self.may_declare(&self.flow.after_yaku, p);
        if self.offered == 0 {
            self.next_player();
        } else {
            self.phase = Phase::Declare;
        }
    }

    // Inline: every turn ends here.
    #[inline(always)]
    pub(super) fn next_player(&mut self) {
        self.turn = next_seat(self.turn, self.seats);
        self.phase = Phase::Play;
        self.offered = 0;
        self.begin_turn();
        if self.hands[self.turn].is_empty() && self.marks.free_draws[self.turn] == 0 {
            // A seat sitting out holds nothing: the turn passes it (a test here, where the
            // hands are empty, costs the usual turn nothing).
            if self.marks.out != 0 && self.skip_seats_out() {
                return;
            }
            // The hands are dealt again while the stock lasts (`refill`), else the hand is over.
            if !self.flow.refill || !self.refill_hands() {
                self.hands_ran_out();
            }
        }
    }

    /// Clears the instant wins of the seats sitting out; how many there were.
    #[cold]
    pub(super) fn forget_seats_out(&self, won: &mut PerSeat<u8>) -> usize {
        let mut forgotten = 0;
        for seat in (0..self.seats).filter(|&s| self.marks.sits_out(s)) {
            if won[seat] != u8::MAX {
                won[seat] = u8::MAX;
                forgotten += 1;
            }
        }
        forgotten
    }

    /// The first seat to play is the next that does not sit out.
    #[cold]
    pub(super) fn pass_seats_out(&mut self) {
        while self.marks.sits_out(self.turn) {
            self.turn = next_seat(self.turn, self.seats);
        }
    }

    /// The turn passes the seats sitting out: true when the seat it reaches has a turn to take.
    #[cold]
    #[inline(never)]
    pub(super) fn skip_seats_out(&mut self) -> bool {
        while self.marks.sits_out(self.turn) {
            self.turn = next_seat(self.turn, self.seats);
        }
        self.begin_turn();
        !(self.hands[self.turn].is_empty() && self.marks.free_draws[self.turn] == 0)
    }

    /// `[flow] refill`: when every hand is empty and the stock holds cards, each seat from the
    /// one after the dealer is dealt packets from it until its hand is full again or the stock
    /// runs out (Scopa: "When all 3 cards have been played, another distribution occurs the same
    /// way, until the deck is over", viniciocoletti.it).
    /// True when it dealt.
    #[inline(never)]
    pub(super) fn refill_hands(&mut self) -> bool {
        if self.stock_pos >= self.stock.len() || self.hands.iter().any(|h| !h.is_empty()) {
            return false;
        }
        // Every hand is empty: each gets packets in turn until it holds `hand_size`.
        let (hand_size, _) = self.flow.sizes(self.seats);
        let packet = self.flow.deal_packet.max(1);
        let mut dealt = 0;
        while dealt < hand_size && self.stock_pos < self.stock.len() {
            let k = packet.min(hand_size - dealt);
            let mut s = next_seat(self.ledger.dealer, self.seats);
            for _ in 0..self.seats {
                for _ in 0..k {
                    if let Some(&card) = self.stock.get(self.stock_pos) {
                        self.hands[s].insert(card);
                        self.stock_pos += 1;
                    }
                }
                s = next_seat(s, self.seats);
            }
            dealt += k;
        }
        if self.flow.checks_every_deal {
            self.find_refilled_combinations();
        }
        true
    }

    /// `[flow] leftover = "last_capturer"`: the table's cards go to the seat that captured last
    /// (Scopa: "the cards still on the table, if any, are assigned to the player that made the
    /// last valid capture", viniciocoletti.it); its yaku are brought up to date.
    pub(super) fn leftover_to_last_capturer(&mut self) {
        let p = usize::from(self.marks.last_capturer);
        if self.flow.leftover != Leftover::LastCapturer || p >= self.seats || self.table.is_empty()
        {
            return;
        }
        let cards = self.table;
        self.builds.clear();
        self.give_leftovers(p, cards);
    }

    /// `[[flow.leftover_to]]`, in ruleset order: the leftover cards of each rule's set go to
    /// the seat it names (the captor of a card, the last capturer, the dealer); a rule that
    /// names no seat leaves them to `leftover`.
    #[cold]
    #[inline(never)]
    pub(super) fn leftovers_by_rule(&mut self) {
        let flow = Arc::clone(&self.flow);
        for rule in &flow.leftover_rules {
            let cards = self.table & rule.cards;
            if cards.is_empty() {
                continue;
            }
            let seat = match rule.to {
                LeftoverSeat::Holder(card) => {
                    (0..self.seats).find(|&s| self.captured[s].contains(card))
                }
                LeftoverSeat::LastCapturer => {
                    Some(usize::from(self.marks.last_capturer)).filter(|&p| p < self.seats)
                }
                LeftoverSeat::Dealer => Some(self.ledger.dealer),
            };
            if let Some(p) = seat {
                self.give_leftovers(p, cards);
            }
        }
    }

    /// The table's `cards` go to `p`'s pile at the hand's end; its yaku are brought up to date.
    fn give_leftovers(&mut self, p: Seat, cards: CardSet) {
        self.table = self.table - cards;
        self.builds.retain(|b| (b.cards & cards).is_empty());
        self.captured[p] |= cards;
        self.emit(|_| Event::TableTaken {
            player: p,
            cards: cards.iter().collect(),
        });
        // Scored again for a script that reads the seats' yaku, or a screen that shows them (a
        // hand settled without a script evaluates every pile itself).
        if self.ruleset.scoring.is_some() || self.ledger.log {
            let pile = self.captured[p];
            let facts = self.circumstances(p).yaku_facts();
            self.yaku[p] = self.ruleset.yaku.evaluate(pile, &facts);
            self.evaluated[p] = pile;
        }
    }
}

/// `run_capture`: the cards of `table` that continue an unbroken ascending run of `values` from
/// `card`'s value, one a step (the lowest card of a value the table holds twice).
fn run_from(values: &[i64], card: CardId, table: CardSet) -> CardSet {
    let mut run = CardSet::EMPTY;
    let mut next = values[card.index()].saturating_add(1);
    while let Some(found) = table.iter().find(|c| values[c.index()] == next) {
        run.insert(found);
        next = next.saturating_add(1);
    }
    run
}
