//! What a seat of a matching game may do, and doing it: the legal actions (listed, counted,
//! by index), applying one, and the declarations made before play, after the deal or after a
//! yaku, with the reasons one is refused.

use super::*;

impl MatchingGame {
    /// The legal actions now, appended to `out` (cleared first).
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::GameOver => {}
            Phase::AfterDeal | Phase::DropOut | Phase::Declare | Phase::Choose => {
                out.extend(self.offered_decls().map(Action::declare))
            }
            Phase::Play => {
                out.extend(self.playable().iter().map(|card| Action::Play { card }));
                if self.may_act_before_play() {
                    out.extend(self.before_play_actions());
                }
            }
            Phase::CaptureChoice { .. } if self.ruled_captures() => {
                out.extend(
                    self.capture_options()
                        .iter()
                        .map(|&set| MatchingGame::take_action(set)),
                );
                if !self.build_choices.is_empty() {
                    out.extend(self.build_choices.iter().map(|m| Action::Build {
                        cards: m.cards,
                        value: m.value,
                    }));
                }
            }
            Phase::CaptureChoice { card, from_hand } => {
                out.extend(
                    self.open_candidates(card, from_hand)
                        .iter()
                        .map(|card| Action::Take { card }),
                );
            }
        }
    }

    /// The legal actions now.
    pub fn legal(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions(&mut v);
        v
    }

    /// How many legal actions there are now.
    #[inline]
    pub fn legal_count(&self) -> usize {
        match self.phase {
            Phase::GameOver => 0,
            Phase::AfterDeal | Phase::DropOut | Phase::Declare | Phase::Choose => {
                self.offered.count_ones() as usize
            }
            Phase::Play => {
                let hand = self.playable().len() as usize;
                if self.may_act_before_play() {
                    hand + self.before_play_actions().len()
                } else {
                    hand
                }
            }
            Phase::CaptureChoice { .. } if self.ruled_captures() => {
                self.capture_options().len() + self.build_choices.len()
            }
            Phase::CaptureChoice { card, from_hand } => {
                self.open_candidates(card, from_hand).len() as usize
            }
        }
    }

    /// The legal action at `index` in [`MatchingGame::legal_actions`]'s order.
    pub fn legal_action(&self, index: usize) -> Option<Action> {
        match self.phase {
            Phase::GameOver => None,
            Phase::AfterDeal | Phase::DropOut | Phase::Declare | Phase::Choose => {
                self.offered_decls().nth(index).map(Action::declare)
            }
            Phase::Play => {
                let hand = self.playable();
                match hand.nth(index) {
                    Some(card) => Some(Action::Play { card }),
                    None => self
                        .before_play_actions()
                        .get(index - hand.len() as usize)
                        .copied(),
                }
            }
            Phase::CaptureChoice { .. } if self.ruled_captures() => {
                let options = self.capture_options();
                match options.get(index) {
                    Some(&set) => Some(MatchingGame::take_action(set)),
                    None => self
                        .build_choices
                        .get(index - options.len())
                        .map(|m| Action::Build {
                            cards: m.cards,
                            value: m.value,
                        }),
                }
            }
            Phase::CaptureChoice { card, from_hand } => self
                .candidates(card, from_hand)
                .nth(index)
                .map(|card| Action::Take { card }),
        }
    }

    /// Applies the action of the seat to act.
    pub fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        let illegal = |reason: String| Err(IllegalAction { reason });
        if let Action::Play { card } | Action::Take { card } = action
            && card.index() >= self.ruleset.deck.cards.len()
        {
            return illegal(format!("there is no card number {} in this deck", card.0));
        }
        match (self.phase, action) {
            (Phase::GameOver, _) => return illegal("the game is over".into()),
            (
                Phase::Play,
                Action::Declare {
                    decl,
                    card: Some(card),
                },
            ) => {
                // Any card of the suit names it: the move is the suit's lowest card in hand.
                let held = self.hands[self.turn] & self.ruleset.deck.same_suit(card);
                let card = held.iter().next().unwrap_or(card);
                let legal = self.before_play_actions();
                let wanted = Action::Declare {
                    decl,
                    card: Some(card),
                };
                if !legal.contains(&wanted) {
                    return illegal(self.refused_before_play(decl, card));
                }
                self.declare_before_play(decl, card);
            }
            (Phase::Play, Action::Draw { count: 1 }) => {
                if self.marks.free_draws[self.turn] == 0 {
                    return illegal(
                        "a turn without playing a card is not possible now: no free draws left"
                            .into(),
                    );
                }
                self.marks.free_draws[self.turn] -= 1;
                self.continue_turn(true);
            }
            (
                Phase::AfterDeal | Phase::DropOut | Phase::Declare | Phase::Choose,
                Action::Declare { decl, card: None },
            ) => {
                if self.offered >> decl.0 & 1 == 0 {
                    return illegal(self.refused(decl));
                }
                self.declare(decl);
            }
            (Phase::Play, Action::Play { card }) => {
                if !self.hands[self.turn].contains(card) {
                    let id = self.ruleset.deck.id_of(card).to_string();
                    return illegal(format!("`{id}` is not in your hand"));
                }
                if !self.builds.is_empty() && !self.playable().contains(card) {
                    let deck = &self.ruleset.deck;
                    return illegal(format!(
                        "`{}` would be laid on the table, and the owner of a build must take it or build (or keep a card of its value); play one of: {}",
                        deck.id_of(card),
                        deck.ids(self.playable()).join(", ")
                    ));
                }
                self.play(card);
            }
            (
                Phase::CaptureChoice { card, from_hand },
                Action::Take { .. } | Action::TakeSet { .. },
            ) if self.ruled_captures() => {
                // An empty set is an option only where the rules let the card be trailed.
                let set = action.taken().unwrap_or_default();
                let options = self.capture_options();
                if !options.contains(&set) {
                    let deck = &self.ruleset.deck;
                    let listed: Vec<String> =
                        options.iter().map(|s| deck.ids(*s).join(" + ")).collect();
                    return illegal(format!(
                        "`{}` cannot capture {}; choose one of: {}",
                        deck.id_of(card),
                        deck.ids(set).join(" + "),
                        listed.join(", ")
                    ));
                }
                self.take_or_trail(card, set, from_hand);
            }
            (Phase::CaptureChoice { card, .. }, Action::Build { cards, value })
                if self.ruled_captures() =>
            {
                let m = BuildMove { cards, value };
                if !self.build_choices.contains(&m) {
                    let deck = &self.ruleset.deck;
                    let listed: Vec<String> = self
                        .build_choices
                        .iter()
                        .map(|m| format!("{} on {}", m.value, deck.ids(m.cards).join(" + ")))
                        .collect();
                    return illegal(format!(
                        "`{}` cannot build {value} on {}; {}",
                        deck.id_of(card),
                        deck.ids(cards).join(" + "),
                        if listed.is_empty() {
                            "it makes no build here".to_string()
                        } else {
                            format!("the builds it may make: {}", listed.join(", "))
                        }
                    ));
                }
                self.make_build(card, m);
            }
            (Phase::CaptureChoice { card, from_hand }, Action::Take { card: target }) => {
                if !self.open_candidates(card, from_hand).contains(target) {
                    let deck = &self.ruleset.deck;
                    return illegal(format!(
                        "`{}` cannot capture `{}`; choose one of: {}",
                        deck.id_of(card),
                        deck.id_of(target),
                        deck.ids(self.open_candidates(card, from_hand)).join(", ")
                    ));
                }
                self.capture(card, target, from_hand);
            }
            (_, Action::Declare { decl, .. }) => return illegal(self.refused(decl)),
            (phase, action) => {
                return illegal(format!(
                    "{} is not possible now: {}",
                    describe_action(action),
                    self.describe_phase(phase)
                ));
            }
        }
        Ok(())
    }

    /// Applies the legal action at `index` in [`MatchingGame::legal_actions`]'s order: what
    /// `apply(legal_action(index))` does, without building the action and checking it again
    /// (the index says it is legal). Random play moves this way.
    pub fn apply_legal(&mut self, index: usize) -> Result<(), IllegalAction> {
        match self.phase {
            Phase::Play if self.builds.is_empty() => match self.hands[self.turn].nth(index) {
                Some(card) => self.play(card),
                // The moves before a play are found and checked as any other action.
                None => return self.apply_listed(index),
            },
            // A build's owner may be bound to some of the hand's cards (`playable`).
            Phase::Play => return self.apply_listed(index),
            Phase::CaptureChoice { card, from_hand } if self.ruled_captures() => {
                match self.capture_options().get(index) {
                    Some(&set) => self.take_or_trail(card, set, from_hand),
                    None => return self.apply_build_or_listed(index),
                }
            }
            Phase::CaptureChoice { card, from_hand } => {
                match self.open_candidates(card, from_hand).nth(index) {
                    Some(target) => self.capture(card, target, from_hand),
                    None => return self.apply_listed(index),
                }
            }
            Phase::AfterDeal | Phase::DropOut | Phase::Declare | Phase::Choose => {
                let offered = self.offered_decls().nth(index);
                match offered {
                    Some(decl) => self.declare(decl),
                    None => return self.apply_listed(index),
                }
            }
            Phase::GameOver => return self.apply_listed(index),
        }
        Ok(())
    }

    /// [`Game::apply_uniform`]: the usual move, a play from the hand with nothing else to do
    /// before it, is drawn among the hand's cards without counting anything else.
    #[inline(always)]
    pub fn apply_uniform(&mut self, rng: &mut Xoshiro256PlusPlus) -> Result<(), IllegalAction> {
        // Koi-Koi's path: as many tests as before builds and declarations before a play existed.
        if matches!(self.phase, Phase::Play)
            && self.flow.plain_plays
            && self.marks.free_draws[self.turn] == 0
        {
            let hand = self.hands[self.turn];
            if let Some(card) = hand.nth(uniform_index(hand.len() as usize, rng)) {
                self.play(card);
                return Ok(());
            }
        } else if matches!(self.phase, Phase::Play) && !self.may_act_before_play() {
            let hand = self.playable();
            if let Some(card) = hand.nth(uniform_index(hand.len() as usize, rng)) {
                self.play(card);
                return Ok(());
            }
        }
        let index = uniform_index(self.legal_count(), rng);
        self.apply_legal(index)
    }

    /// [`MatchingGame::apply_legal`] past the captures offered for the card waiting: the build at
    /// `index` among them (`[flow.build]`), or another listed action. Out of line, as the
    /// games without builds never come here.
    #[inline(never)]
    fn apply_build_or_listed(&mut self, index: usize) -> Result<(), IllegalAction> {
        let options = self.capture_options().len();
        match (self.phase, self.build_choices.get(index - options)) {
            (Phase::CaptureChoice { card, .. }, Some(&m)) => {
                self.make_build(card, m);
                Ok(())
            }
            _ => self.apply_listed(index),
        }
    }

    /// [`MatchingGame::apply`] of the legal action at `index`, or why there is none.
    pub(super) fn apply_listed(&mut self, index: usize) -> Result<(), IllegalAction> {
        match self.legal_action(index) {
            Some(action) => self.apply(action),
            None => Err(IllegalAction::new(format!(
                "there is no legal action number {index} now: {}",
                self.describe_phase(self.phase)
            ))),
        }
    }

    /// Plays `card` from the hand of the player to act (it holds it).
    #[inline]
    pub(super) fn play(&mut self, card: CardId) {
        self.hands[self.turn].remove(card);
        if self.flow.bonus.contains(card) {
            self.play_bonus(card);
        } else {
            self.resolve(card, true);
        }
    }

    /// `card`, waiting for a choice between its matches, captures `target` (one of them).
    pub(super) fn capture(&mut self, card: CardId, target: CardId, from_hand: bool) {
        self.take_set(card, CardSet::single(target), from_hand);
    }

    /// `card`, waiting for a choice between its captures, takes `set` (one of them).
    /// Out of line, as before builds: inlined, it made every `apply_legal` save more registers.
    #[inline(never)]
    pub(super) fn take_set(&mut self, card: CardId, set: CardSet, from_hand: bool) {
        self.take_inline::<false>(card, set, from_hand);
        self.continue_turn(from_hand);
    }

    /// The seat to act makes declaration `decl`, one of those offered.
    pub(super) fn declare(&mut self, decl: DeclId) {
        let seat = self.to_act().expect("a seat acts while the game goes on");
        self.emit(|_| Event::Declared {
            player: seat,
            decl,
            card: None,
        });
        // Only `play` and `drop` are offered while the players are found.
        if let Phase::DropOut = self.phase {
            return self.decide(seat, decl);
        }
        match self.effect(decl) {
            "swap" => {
                let dealer = self.ledger.dealer;
                let (a, b) = (self.hands[dealer], self.hands[seat]);
                self.hands[dealer] = b;
                self.hands[seat] = a;
                self.after_deal();
            }
            "keep" => self.after_deal(),
            "continue" => {
                self.calls[seat] += 1;
                self.marks.last_base[seat] = self.yaku[seat].base();
                self.count_declared(seat, decl);
                self.reevaluate_after_call(seat);
                self.next_player();
            }
            "count_as" => {
                self.count_declared(seat, decl);
                self.choose(seat, decl);
                self.end_turn();
            }
            _ => self.stop(seat),
        }
    }

    /// The declarations before playing a card the player to act may make now (`reveal`,
    /// `play_suit`, one per suit that qualifies, naming its lowest card), then a free draw.
    /// True when the ruleset has declarations before a play or the player has free draws: only
    /// then can there be moves besides the hand's cards (kept apart from
    /// [`MatchingGame::before_play_actions`] so that games without them pay one test per call).
    #[inline]
    pub(super) fn may_act_before_play(&self) -> bool {
        !self.flow.before_play.is_empty() || self.marks.free_draws[self.turn] > 0
    }

    pub(super) fn before_play_actions(&self) -> Vec<Action> {
        let p = self.turn;
        let mut out = Vec::new();
        if !self.flow.before_play.is_empty() {
            let allowed = self.may_declare(&self.flow.before_play, p);
            let hand = self.hands[p] - self.flow.bonus;
            for d in &self.flow.before_play {
                if allowed >> d.0 & 1 == 0 {
                    continue;
                }
                let decl = &self.ruleset.declarations[d.0 as usize];
                for (i, suit) in self.ruleset.deck.suits.iter().enumerate() {
                    let held = hand & suit.cards;
                    if held.len() < decl.count {
                        continue;
                    }
                    let on_table = !(self.table & suit.cards).is_empty();
                    let ok = match decl.effect.as_str() {
                        "reveal" => !on_table && self.marks.revealed[p] >> (i % 32) & 1 == 0,
                        _ => on_table,
                    };
                    if ok && let Some(card) = held.iter().next() {
                        out.push(Action::Declare {
                            decl: *d,
                            card: Some(card),
                        });
                    }
                }
            }
        }
        if self.marks.free_draws[p] > 0 {
            out.push(Action::Draw { count: 1 });
        }
        out
    }

    pub(super) fn refused_before_play(&self, decl: DeclId, card: CardId) -> String {
        let Some(d) = self.ruleset.declarations.get(decl.0 as usize) else {
            return format!("there is no declaration number {}", decl.0);
        };
        if !self.flow.before_play.contains(&decl) {
            return self.refused(decl);
        }
        let deck = &self.ruleset.deck;
        let suit = deck.suit_of(card);
        let what = match d.effect.as_str() {
            "reveal" => "and none of them on the table, not revealed before",
            _ => "and one of them on the table",
        };
        format!(
            "{} needs {} cards of one suit in your hand {what}: not so for {}",
            d.name, d.count, suit.name
        )
    }

    pub(super) fn count_declared(&mut self, seat: Seat, decl: DeclId) {
        let per = self.ruleset.declarations.len();
        if let Some(n) = self.marks.declared.get_mut(seat * per + decl.0 as usize) {
            *n = n.saturating_add(1);
        }
    }

    /// A call changed the seat's `calls` fact: its yaku are evaluated again under it, so that a
    /// yaku whose points read `calls` scores the new value at the seat's next stop; the change
    /// itself is not an improvement that offers the declarations again.
    pub(super) fn reevaluate_after_call(&mut self, seat: Seat) {
        if !self.ruleset.yaku.reads_facts() {
            return;
        }
        let pile = self.captured[seat];
        self.yaku[seat] = self
            .ruleset
            .yaku
            .evaluate(pile, &self.circumstances(seat).yaku_facts());
        self.evaluated[seat] = pile;
    }

    /// A `count_as` choice: the seat's card counts as the declaration says from now on.
    pub(super) fn choose(&mut self, seat: Seat, decl: DeclId) {
        let card = self.ruleset.declarations[decl.0 as usize].card;
        for (i, d) in self.flow.choices.iter().enumerate() {
            if self.ruleset.declarations[d.0 as usize].card == card {
                self.marks.decided[seat] |= 1 << i;
                self.marks.choices[seat] &= !(1 << i);
                if *d == decl {
                    self.marks.choices[seat] |= 1 << i;
                }
            }
        }
        // The yaku facts changed: the next evaluation starts afresh.
        self.evaluated[seat] = UNEVALUATED;
    }

    /// `reveal`: show the suit's cards and play on; `play_suit`: play them all at once onto
    /// the table's cards of the suit, taking them, then draw as usual.
    pub(super) fn declare_before_play(&mut self, decl: DeclId, card: CardId) {
        let p = self.turn;
        self.count_declared(p, decl);
        let deck = &self.ruleset.deck;
        let suit_index = deck.card(card).suit % 32;
        let suit = deck.same_suit(card);
        self.marks.revealed[p] |= 1 << suit_index;
        if self.ruleset.declarations[decl.0 as usize].blocks {
            self.marks.blocked |= 1 << suit_index;
        }
        self.emit(|_| Event::Declared {
            player: p,
            decl,
            card: Some(card),
        });
        if self.ruleset.declarations[decl.0 as usize].effect != "play_suit" {
            return;
        }
        let played = self.hands[p] & suit;
        let taken = self.table & suit;
        // Every card played at once is named in the move log, not only the one that captures.
        self.emit(|_| Event::Shown {
            player: p,
            cards: played.iter().collect(),
        });
        self.hands[p] = self.hands[p] - played;
        self.marks.free_draws[p] =
            self.marks.free_draws[p].saturating_add(played.len().saturating_sub(1) as u8);
        self.marks.pattern(TurnPattern::SuitPlayed);
        let others = played - CardSet::single(card);
        self.captured[p] |= others;
        self.drop_taken_builds(taken);
        self.take::<false>(card, taken, true);
        // Every card of the suit played counts as the play: none is left for a stack or a kiss.
        self.marks.turn.played = Some((card, taken | others));
        self.continue_turn(true);
    }

    /// A bonus card from the hand: to the pile, a card from the stock into the hand, and the
    /// turn goes on.
    pub(super) fn play_bonus(&mut self, card: CardId) {
        self.take_bonus(card);
        let p = self.turn;
        if self.stock_pos < self.stock.len() {
            let next = self.stock[self.stock_pos];
            self.stock_pos += 1;
            self.hands[p].insert(next);
        }
        if self.hands[p].is_empty() && self.marks.free_draws[p] == 0 {
            self.end_turn();
        }
    }

    /// Why declaration `decl` cannot be made now.
    pub(super) fn refused(&self, decl: DeclId) -> String {
        let Some(d) = self.ruleset.declarations.get(decl.0 as usize) else {
            return format!("there is no declaration number {}", decl.0);
        };
        let here = match self.phase {
            Phase::AfterDeal => &self.flow.after_deal,
            Phase::DropOut => &self
                .flow
                .drop_out
                .as_ref()
                .map(|d| vec![d.play, d.drop])
                .unwrap_or_default(),
            Phase::Declare => &self.flow.after_yaku,
            Phase::Choose => &self.flow.choices,
            Phase::Play => &self.flow.before_play,
            _ => &Vec::new(),
        };
        if !here.contains(&decl) {
            return format!(
                "{} is not possible now: {}",
                d.name,
                self.describe_phase(self.phase)
            );
        }
        match &d.when_source {
            Some(w) => format!("{} is not possible now: it needs `{}`", d.name, w.trim()),
            None => format!("{} is not possible now", d.name),
        }
    }

    pub(super) fn describe_phase(&self, p: Phase) -> String {
        let names = || {
            let names: Vec<&str> = self
                .offered_decls()
                .map(|d| self.ruleset.declarations[d.0 as usize].name.as_str())
                .collect();
            names.join(" or ")
        };
        match p {
            Phase::AfterDeal => format!("the player after the dealer chooses: {}", names()),
            Phase::DropOut => format!("the player decides: {}", names()),
            Phase::Play => "a card must be played from the hand".into(),
            Phase::CaptureChoice { .. } => "a table card to capture must be chosen".into(),
            Phase::Declare => format!("a declaration must be made: {}", names()),
            Phase::Choose => format!("how the captured card counts must be chosen: {}", names()),
            Phase::GameOver => "the game is over".into(),
        }
    }
}
