//! The play screen: cards by name with suit and kind (coloured on a terminal), the table, the
//! hands, the capture piles grouped by kind, scores, calls, multipliers in force, yaku held and
//! near; the narration of events; hand results; the rule listing. Text only: the caller prints.

use super::board::{Board, Group, Row, SeatPanel, Tile};
use super::plural;
use crate::core::{Event, Game, HandResult};
use crate::deck::{CardId, CardSet, Deck};
use crate::families::matching::{MatchingGame, View, ends};
use crate::ruleset::{GameLength, Ruleset};
use crate::script::HandFacts;
use crate::yaku::Progress;
use std::fmt::Write as _;

/// ANSI colours given to a card by the position of its first kind in the deck's kinds.
const PALETTE: &[&str] = &["1;33", "32", "31", "2", "34", "35", "36", "1;34"];

/// The ANSI colour of a card: its suit's colour where the deck gives one (red hearts and
/// diamonds, spades and clubs in the terminal's own text colour, bold, as black would vanish on
/// a dark terminal), else the colour of its first kind (brights, animals, ribbons and plains).
fn ansi_colour(deck: &Deck, card: CardId) -> &'static str {
    match deck.suit_of(card).colour {
        Some("red") => "31",
        Some("black") => "1",
        Some("blue") => "34",
        Some("green") => "32",
        Some("gold") => "33",
        Some("purple") => "35",
        _ => PALETTE[super::board::tone(deck, card) % PALETTE.len()],
    }
}

/// How to draw cards and who sits where.
#[derive(Clone, Debug)]
pub struct Style {
    /// Colour cards with ANSI codes.
    pub color: bool,
    /// The players' labels by seat (`you`, `greedy`, `player 1`).
    pub labels: Vec<String>,
    /// Cards by name only, without suit and kinds (the full-screen table, whose tiles show
    /// them): a move then fits one line of the log.
    pub brief: bool,
}

impl Style {
    /// A seat's label.
    pub fn who(&self, seat: usize) -> &str {
        &self.labels[seat]
    }

    /// A verb for a seat: `you play`, `greedy plays`.
    pub fn says(&self, seat: usize, verb: &str) -> String {
        let who = self.who(seat);
        if who == "you" {
            format!("you {verb}")
        } else {
            format!("{who} {verb}s")
        }
    }

    /// A seat's possessive: `your`, `greedy's`.
    pub fn whose(&self, seat: usize) -> String {
        match self.who(seat) {
            "you" => "your".to_string(),
            who => format!("{who}'s"),
        }
    }

    /// Labels for the players: `you` for a lone human; a name that sits more than once
    /// numbered among its own (`greedy 1`, `greedy 2`), as are people in hot seat.
    pub fn for_players(players: &[String], color: bool) -> Style {
        let humans = players.iter().filter(|p| *p == "human").count();
        let labels = (0..players.len())
            .map(|s| {
                let twice = players.iter().filter(|p| **p == players[s]).count() > 1;
                if humans == 1 && players[s] == "human" {
                    "you".to_string()
                } else if twice {
                    let nth = players[..=s].iter().filter(|p| **p == players[s]).count();
                    format!("{} {nth}", players[s])
                } else {
                    players[s].clone()
                }
            })
            .collect();
        Style {
            color,
            labels,
            brief: false,
        }
    }

    /// Every seat's label with a value: `you 3, greedy 5`.
    pub fn each(&self, values: &[impl std::fmt::Display]) -> String {
        values
            .iter()
            .enumerate()
            .map(|(s, v)| format!("{} {v}", self.who(s)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn paint(&self, deck: &Deck, card: CardId, text: &str) -> String {
        if !self.color {
            return text.to_string();
        }
        format!("\x1b[{}m{text}\x1b[0m", ansi_colour(deck, card))
    }

    /// A card's short form: its name, coloured.
    pub fn name(&self, deck: &Deck, card: CardId) -> String {
        self.paint(deck, card, &deck.card(card).name)
    }

    /// A card's long form: name, suit and kinds (`Pine Poetry Ribbon (Pine, January;
    /// ribbon/poetry/red)`: a suit's own brackets are opened, so none nest). Brief: the name.
    pub fn card(&self, deck: &Deck, card: CardId) -> String {
        if self.brief {
            return self.name(deck, card);
        }
        let c = deck.card(card);
        let suit = &deck.suit_of(card).name;
        let suit = match suit.strip_suffix(')').and_then(|s| s.split_once(" (")) {
            Some((a, b)) => format!("{a}, {b}"),
            None => suit.clone(),
        };
        format!("{} ({suit}; {})", self.name(deck, card), c.kinds.join("/"))
    }

    /// Cards' short forms joined with commas.
    pub fn names(&self, deck: &Deck, cards: CardSet) -> String {
        cards
            .iter()
            .map(|c| self.name(deck, c))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The rounds of a game as players read them (`round 2 of 12`, `round 2, to 50 points`).
fn round_text(ruleset: &Ruleset, round: u32, rounds: u32) -> String {
    match ruleset.matching().map(|f| f.length) {
        Some(GameLength::Target { score, .. }) => {
            format!("round {round}, playing to {}", plural(score, "point"))
        }
        _ => format!("round {round} of {rounds}"),
    }
}

/// A capture pile grouped by kind, with counts. The groups are the kinds that come first on some
/// card (bright, animal, ribbon, plain), and a card is listed under each of them it has, marked
/// with the others (`Sake Cup (also plain)`) and after the group's own cards, so that each group's count is its kind's count.
fn pile(style: &Style, deck: &Deck, cards: CardSet) -> String {
    if cards.is_empty() {
        return "nothing".into();
    }
    let main = main_kinds(deck);
    let mut groups: Vec<String> = Vec::new();
    for (kind, of_kind) in pile_groups(deck, cards) {
        let listed: Vec<String> = of_kind
            .into_iter()
            .map(|c| {
                let also: Vec<&str> = deck
                    .card(c)
                    .kinds
                    .iter()
                    .map(String::as_str)
                    .filter(|k| *k != kind && main.contains(k))
                    .collect();
                if also.is_empty() {
                    style.name(deck, c)
                } else {
                    format!("{} (also {})", style.name(deck, c), also.join(", "))
                }
            })
            .collect();
        groups.push(format!("{kind} {}: {}", listed.len(), listed.join(", ")));
    }
    let counts: Vec<String> = deck
        .kinds
        .iter()
        .filter_map(|k| {
            let n = (k.cards & cards).len();
            (n > 0).then(|| format!("{} {n}", k.id))
        })
        .collect();
    format!(
        "{} ({})\n      {}",
        plural(cards.len(), "card"),
        counts.join(", "),
        groups.join("\n      ")
    )
}

/// The multipliers the scoring script would apply now to a 1-point hand won by `seat`.
fn multipliers(game: &MatchingGame, seat: usize) -> Vec<String> {
    let ruleset = Game::ruleset(game);
    let Some(script) = &ruleset.scoring else {
        return Vec::new();
    };
    let c = game.circumstances(seat);
    let facts = HandFacts {
        yaku: Vec::new(),
        base: 1,
        calls_self: i64::from(c.calls_self),
        calls_opponent: i64::from(c.calls_opponent),
        table_count: c.table_count,
        round: i64::from(c.round),
        rounds: i64::from(c.rounds),
        dealer: c.dealer,
        instant: false,
        exhausted: false,
        extra: Vec::new(),
    };
    script
        .score(&facts)
        .map(|o| o.steps.into_iter().map(|s| s.reason).collect())
        .unwrap_or_default()
}

/// The yaku `seat` holds and the nearest ones still in reach, as `view`'s seat sees them: each
/// missing card says where it is (its hand, the table, unseen).
fn yaku_lines(style: &Style, view: &View, seat: usize) -> Vec<String> {
    let r = view.ruleset;
    let deck = &r.deck;
    let mine = view.captured[seat];
    let held = &view.yaku[seat];
    let now = r.yaku.evaluate(mine, &view.yaku_facts(seat));
    let names: Vec<String> = now
        .iter()
        .map(|i| format!("{} {}", r.yaku.yaku[i].name, now.points[i]))
        .collect();
    let who = style.who(seat);
    let mut out = Vec::new();
    if names.is_empty() {
        out.push(format!("{who}: no yaku yet"));
    } else {
        out.push(format!(
            "{who}: {} (base {})",
            names.join(", "),
            held.base().max(now.base())
        ));
    }
    // Cards this seat may still win: everything but the other piles (and, for the viewer's
    // opponents, the viewer's hand, which they can only win from the table).
    let others = (0..view.seats())
        .filter(|&s| s != seat)
        .fold(CardSet::EMPTY, |a, s| a | view.captured[s]);
    let mut reach = deck.all() - others;
    if seat != view.seat {
        reach = reach - view.hand;
    }
    let progress = Progress::of(r, view.yaku_facts(seat));
    let mut near: Vec<(u32, usize)> = (0..r.yaku.yaku.len())
        .filter(|&i| now.mask >> i & 1 == 0)
        .filter_map(|i| progress.distance(i, mine, reach).map(|d| (d, i)))
        .filter(|&(d, _)| (1..=3).contains(&d))
        .collect();
    near.sort();
    let placed = |cards: CardSet| where_cards(style, view, cards);
    for (d, i) in near.into_iter().take(4) {
        let y = &r.yaku.yaku[i];
        let detail = if d == 1 {
            let cards = progress.completing_cards(r, i, mine, reach);
            format!("1 card away: {}", placed(cards))
        } else {
            let left = (progress.yaku[i].relevant & reach) - mine;
            if left.len() <= 6 {
                format!("{d} cards away, from: {}", placed(left))
            } else {
                format!("{d} cards away ({} such cards left)", left.len())
            }
        };
        out.push(format!("  near {}: {detail}", y.name));
    }
    out
}

/// For each seat but `viewer`, as `viewer` sees the game: the nearest yaku it does not hold
/// yet and how many cards it lacks (`greedy: Tsukimi-zake (moon viewing), 1 card away`).
pub fn opponents_nearest(style: &Style, game: &MatchingGame, viewer: usize) -> Vec<String> {
    let view = game.view(viewer);
    let r = view.ruleset;
    let mut out = Vec::new();
    for seat in (0..view.seats()).filter(|&s| s != viewer) {
        let mine = view.captured[seat];
        let others = (0..view.seats())
            .filter(|&s| s != seat)
            .fold(CardSet::EMPTY, |a, s| a | view.captured[s]);
        let reach = r.deck.all() - others - view.hand;
        let facts = view.yaku_facts(seat);
        let held = r.yaku.evaluate(mine, &facts).mask;
        let progress = Progress::of(r, facts);
        let nearest = (0..r.yaku.yaku.len())
            .filter(|&i| held >> i & 1 == 0)
            .filter_map(|i| progress.distance(i, mine, reach).map(|d| (d, i)))
            .filter(|&(d, _)| d >= 1)
            .min();
        if let Some((d, i)) = nearest {
            out.push(format!(
                "{} needs {} for {}",
                style.who(seat),
                plural(d as usize, "more card"),
                r.yaku.yaku[i].name
            ));
        }
    }
    out
}

/// What taking `cards` does for `seat`'s yaku, as `seat` sees the game: the yaku it makes
/// (`makes Tsukimi-zake (moon viewing)`) and those it brings nearer (`Sankō (three brights):
/// 1 card away after this`), from the ruleset's yaku.
pub fn advances(game: &MatchingGame, seat: usize, cards: CardSet) -> Vec<String> {
    let view = game.view(seat);
    let r = view.ruleset;
    let mine = view.captured[seat];
    let others = (0..view.seats())
        .filter(|&s| s != seat)
        .fold(CardSet::EMPTY, |a, s| a | view.captured[s]);
    let reach = r.deck.all() - others;
    let facts = view.yaku_facts(seat);
    let held = r.yaku.evaluate(mine, &facts).mask;
    let after = r.yaku.evaluate(mine | cards, &facts).mask;
    let progress = Progress::of(r, facts);
    let mut out = Vec::new();
    for (i, y) in r.yaku.yaku.iter().enumerate() {
        if held >> i & 1 == 1 {
            continue;
        }
        if after >> i & 1 == 1 {
            out.push(format!("it makes {}", y.name));
            continue;
        }
        let before = progress.distance(i, mine, reach);
        let now = progress.distance(i, mine | cards, reach);
        if let (Some(b), Some(n)) = (before, now)
            && n < b
            && n <= 3
        {
            out.push(format!(
                "{} is then {} away",
                y.name,
                plural(n as usize, "card")
            ));
        }
    }
    out
}

/// Cards' names grouped by where `view`'s seat sees them: `Moon (table), Curtain (your hand),
/// Crane (unseen)`.
fn where_cards(style: &Style, view: &View, cards: CardSet) -> String {
    let deck = &view.ruleset.deck;
    let places = [
        (view.hand, "your hand".to_string()),
        (view.table, "table".to_string()),
        (view.unseen, "unseen".to_string()),
    ];
    let mut parts: Vec<String> = Vec::new();
    for (set, place) in places {
        let here = cards & set;
        if !here.is_empty() {
            parts.push(format!("{} ({place})", style.names(deck, here)));
        }
    }
    let rest = cards - view.hand - view.table - view.unseen;
    if !rest.is_empty() {
        parts.push(style.names(deck, rest));
    }
    parts.join(", ")
}

/// The name of the ruleset's call to play on (`Koi-koi`), if it has one.
fn call_name(ruleset: &Ruleset) -> Option<&str> {
    ruleset
        .declarations
        .iter()
        .find(|d| d.effect == "continue")
        .map(|d| d.name.as_str())
}

/// What `seat` counts and has declared or earned this hand: the ruleset's tallies (junk
/// counting doubles twice, ...), declarations (shakes, bombs), turn events (kisses, stacks),
/// free draws. `short`: tallies by id (`junk 4`) rather than name (`Junk (pi) 4`).
fn seat_marks(game: &MatchingGame, view: &View, s: usize, short: bool) -> Vec<String> {
    let r = Game::ruleset(game);
    let c = game.circumstances(s);
    let mut parts: Vec<String> = crate::yaku::tallies(r, view.captured[s], &c)
        .into_iter()
        .zip(&r.tallies)
        .map(|((_, n), t)| {
            if short {
                format!("{} {n}", t.id.replace('_', " "))
            } else {
                format!("{} {n}", t.name)
            }
        })
        .collect();
    // A combination announced at the deal (a teyaku), scored at the hand's end: public, and
    // kept beside the seat rather than only in the narration, which scrolls away.
    if let Some(d) = r
        .matching()
        .and_then(|f| f.dealt_yaku.get(usize::from(view.marks.dealt[s])))
    {
        parts.push(format!("{} (dealt)", d.name));
    }
    // Playing or dropping out is said once, as where the seat stands this hand.
    if view.marks.sits_out(s) {
        parts.push("sits this hand out".to_string());
    } else if view.marks.playing >> s & 1 == 1 {
        parts.push("plays this hand".to_string());
    }
    for (i, d) in r.declarations.iter().enumerate() {
        let n = view.marks.declared(s, i);
        if n > 0 && !matches!(d.effect.as_str(), "continue" | "play" | "drop") {
            parts.push(format!("{} x{n}", d.name));
        }
    }
    if let Some(f) = r.matching() {
        for (i, e) in f.turn_events.iter().enumerate() {
            let n = view.marks.fired(s, i);
            if n > 0 {
                parts.push(format!("{} x{n}", e.name));
            }
        }
    }
    if view.marks.free_draws[s] > 0 {
        parts.push(format!(
            "{} to draw without playing",
            plural(usize::from(view.marks.free_draws[s]), "turn")
        ));
    }
    parts
}

/// Lines about the whole table: calls, the table count, each seat's tallies and marks, hands
/// without a winner before this one, the multipliers in force. On the full-screen table
/// (`board`) each seat's tallies are in its panel, and calls only once there are some.
fn notes(style: &Style, game: &MatchingGame, view: &View, board: bool) -> Vec<String> {
    let r = Game::ruleset(game);
    let seats = view.seats();
    let mut out = Vec::new();
    if let Some(name) = call_name(r)
        && (!board || view.calls.iter().any(|c| *c > 0))
    {
        out.push(format!(
            "{name} calls this hand: {}",
            style.each(view.calls)
        ));
    }
    if has_table_count(r) {
        // Where the count multiplies every point (a field), the multiplier is said, so that it
        // stays on the table after the deal's narration has scrolled away.
        if r.matching().is_some_and(|f| f.table_multiplies) {
            out.push(format!(
                "table count at the deal: {} (every point x{})",
                view.table_count,
                view.table_count.max(1)
            ));
        } else {
            out.push(format!("table count at the deal: {}", view.table_count));
        }
    }
    for s in (0..seats).filter(|_| !board) {
        let parts = seat_marks(game, view, s, false);
        if !parts.is_empty() {
            out.push(format!("{}: {}", style.who(s), parts.join(" · ")));
        }
    }
    // Values carried from the last hand, by their names: one for the table, or each seat's.
    for (def, (_, values)) in r.carry.iter().zip(view.carried.iter()) {
        let shown = if def.per_seat {
            style.each(values)
        } else {
            values[0].to_string()
        };
        // A value the deal sets is this hand's (and the next deal's); the others came from the
        // last hand.
        let when = if def.deal.is_some() { "" } else { " (carried)" };
        out.push(format!("{}{when}: {shown}", def.name));
    }
    if let Some(f) = r.matching().filter(|f| f.teams.any()) {
        let teams: Vec<String> = (0..f.teams.count(seats))
            .map(|t| {
                let names: Vec<&str> = f.teams.members(t, seats).map(|s| style.who(s)).collect();
                names.join(" and ")
            })
            .collect();
        out.push(format!("partners: {}", teams.join(" against ")));
    }
    if view.draws_before > 0 {
        out.push(format!(
            "{} in a row without a winner before this one",
            plural(view.draws_before as usize, "hand")
        ));
    }
    for s in 0..seats {
        let m = multipliers(game, s);
        if !m.is_empty() {
            out.push(format!(
                "multipliers in force if {} now: {}",
                style.says(s, "win"),
                m.join("; ")
            ));
        }
    }
    out
}

/// Whether a yaku line says no yaku is held.
fn now_empty(held: &str) -> bool {
    held == "no yaku yet"
}

/// The full-screen table for `seat`: the same facts as [`screen`], as a [`Board`].
/// A build's label for `seat`: its value, whether it is multiple, and its owner.
fn build_label(style: &Style, b: &crate::families::matching::build::Build, seat: usize) -> String {
    let owner = if usize::from(b.owner) == seat {
        "yours".to_string()
    } else {
        style.who(usize::from(b.owner)).to_string()
    };
    format!(
        "build of {} ({}{owner})",
        b.value,
        if b.multiple { "multiple, " } else { "" }
    )
}

pub fn board(style: &Style, game: &MatchingGame, seat: usize) -> Board {
    let view = game.view(seat);
    let r = Game::ruleset(game);
    let deck = &r.deck;
    let seats = view.seats();
    let panel = |s: usize| {
        let mut summary = plural(Game::scores(game)[s], "point");
        if s != seat {
            summary.push_str(&format!(" · {} in hand", plural(view.hand_size(s), "card")));
        }
        if s == view.dealer {
            summary.push_str(" · dealer");
        }
        SeatPanel {
            name: style.who(s).to_string(),
            summary,
            hidden: if s == seat { 0 } else { view.hand_size(s) },
            groups: pile_groups(deck, view.captured[s])
                .into_iter()
                .map(|(kind, cards)| Group {
                    label: format!("{kind} {}", cards.len()),
                    tiles: cards.iter().map(|&c| Tile::of(deck, c)).collect(),
                })
                .collect(),
            lines: {
                // The yaku held, without the seat's name (its panel's), with what it counts.
                let mut lines = yaku_lines(style, &view, s);
                let who = format!("{}: ", style.who(s));
                if let Some(first) = lines.first_mut() {
                    let held = first.strip_prefix(&who).unwrap_or(first).to_string();
                    let marks = seat_marks(game, &view, s, true);
                    *first = match (now_empty(&held), marks.is_empty()) {
                        (true, false) => marks.join(" · "),
                        (_, true) => held,
                        (false, false) => format!("{held} · {}", marks.join(" · ")),
                    };
                }
                lines
            },
        }
    };
    let others = (1..seats).map(|k| panel((seat + k) % seats)).collect();
    // Builds (`[flow.build]`) lie apart, each under its value and owner.
    let built = crate::families::matching::build::in_builds(view.builds);
    let mut center = Row {
        title: format!("table ({}) · stock {}", view.table.len(), view.stock_size),
        tiles: Tile::all(deck, view.table - built),
        hidden: 0,
        aside: None,
        piles: view
            .builds
            .iter()
            .map(|b| (build_label(style, b, seat), Tile::all(deck, b.cards)))
            .collect(),
    };
    // The card being resolved (played or drawn, choosing what to capture) is shown face up.
    if let crate::families::matching::Phase::CaptureChoice { card, .. } = view.phase {
        center.title = format!("{} · {} chooses", center.title, deck.card(card).name);
    }
    Board {
        // The dealer is said in its panel.
        title: format!("{} · {}", r.name, round_text(r, view.round, view.rounds)),
        scores: style.each(Game::scores(game)),
        others,
        center,
        notes: notes(style, game, &view, true),
        me: Some(panel(seat)),
        hand: Row {
            title: format!("{} hand", style.whose(seat)),
            tiles: Tile::all(deck, game.hand(seat)),
            hidden: 0,
            aside: None,
            piles: Vec::new(),
        },
    }
}

/// The kinds that come first on some card (bright, animal, ribbon, plain): the groups a pile is
/// shown in.
fn main_kinds(deck: &Deck) -> Vec<&str> {
    deck.kinds
        .iter()
        .map(|k| k.id.as_str())
        .filter(|k| {
            deck.cards
                .iter()
                .any(|c| c.kinds.first().map(String::as_str) == Some(k))
        })
        .collect()
}

/// A pile's cards by [`main_kinds`], each group with the cards that have the kind (a card of two
/// such kinds is in both groups): first those whose first kind it is, then the others.
fn pile_groups(deck: &Deck, cards: CardSet) -> Vec<(&str, Vec<CardId>)> {
    main_kinds(deck)
        .into_iter()
        .filter_map(|kind| {
            let mut of_kind: Vec<CardId> = cards
                .iter()
                .filter(|&c| deck.card(c).kinds.iter().any(|k| k == kind))
                .collect();
            of_kind.sort_by_key(|&c| deck.card(c).kinds.first().map(String::as_str) != Some(kind));
            (!of_kind.is_empty()).then_some((kind, of_kind))
        })
        .collect()
}

/// The whole screen for `seat` (or for a spectator, showing every hand, when `seat` is `None`).
pub fn screen(style: &Style, game: &MatchingGame, seat: Option<usize>) -> String {
    let me = seat.unwrap_or(0);
    let view = game.view(me);
    let r = Game::ruleset(game);
    let deck = &r.deck;
    let seats = view.seats();
    let others: Vec<usize> = (1..seats).map(|k| (me + k) % seats).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n=== {} · {} · dealer: {} · scores: {}",
        r.name,
        round_text(r, view.round, view.rounds),
        style.who(view.dealer),
        style.each(Game::scores(game))
    );
    for line in notes(style, game, &view, false) {
        let _ = writeln!(out, "{line}");
    }
    let held: Vec<String> = others
        .iter()
        .map(|&s| {
            let n = match seat {
                Some(_) => view.hand_size(s),
                None => game.hand(s).len() as usize,
            };
            format!("{} {}", style.says(s, "hold"), plural(n, "card"))
        })
        .collect();
    let _ = writeln!(
        out,
        "stock: {} · {} in hand",
        plural(view.stock_size, "card"),
        held.join(", ")
    );
    let _ = writeln!(out, "table ({}):", view.table.len());
    let hand = game.hand(me);
    // While the player chooses what a card captures: the choices, by number, each as its cards.
    let choices: Vec<CardSet> = match view.phase {
        crate::families::matching::Phase::CaptureChoice { .. } if game.to_act() == Some(me) => {
            game.legal().iter().filter_map(|a| a.taken()).collect()
        }
        _ => Vec::new(),
    };
    // The loose cards; a build's cards are listed under it, below.
    let loose = view.table - crate::families::matching::build::in_builds(view.builds);
    for c in loose.iter() {
        let card = style.card(deck, c);
        if !choices.is_empty() {
            // Which choices take it, by their number in the question below.
            let taking: Vec<String> = choices
                .iter()
                .enumerate()
                .filter(|(_, set)| set.contains(c))
                .map(|(i, _)| (i + 1).to_string())
                .collect();
            if taking.is_empty() {
                let _ = writeln!(out, "    {card}");
            } else {
                let _ = writeln!(out, "    {card}  <- choice {}", taking.join(", "));
            }
            continue;
        }
        // Which hand cards would take it, by their number in the hand below.
        let takers: Vec<String> = hand
            .iter()
            .enumerate()
            .filter(|&(_, h)| crate::families::matching::matches(r, loose, h).contains(c))
            .map(|(i, _)| (i + 1).to_string())
            .collect();
        if takers.is_empty() || seat.is_none() {
            let _ = writeln!(out, "    {card}");
        } else {
            let _ = writeln!(out, "    {card}  <- your {}", takers.join(", "));
        }
    }
    // Builds (`[flow.build]`): each pile's value and owner, and the hand cards of its value that
    // would take it whole; its cards are among those above.
    let build_rule = r.matching().and_then(|f| f.build.as_ref());
    for b in view.builds {
        let takers: Vec<String> = match (build_rule, seat) {
            (Some(rule), Some(_)) if choices.is_empty() => {
                let takers = rule.of_value(hand, b.value);
                hand.iter()
                    .enumerate()
                    .filter(|&(_, h)| takers.contains(h))
                    .map(|(i, _)| (i + 1).to_string())
                    .collect()
            }
            _ => Vec::new(),
        };
        // While choosing: the choices that take it (whole).
        let taking: Vec<String> = choices
            .iter()
            .enumerate()
            .filter(|(_, set)| set.contains_all(b.cards))
            .map(|(i, _)| (i + 1).to_string())
            .collect();
        let line = format!(
            "    {}: {}",
            build_label(style, b, me),
            style.names(deck, b.cards)
        );
        if !taking.is_empty() {
            let _ = writeln!(out, "{line}  <- choice {}", taking.join(", "));
        } else if takers.is_empty() {
            let _ = writeln!(out, "{line}");
        } else {
            let _ = writeln!(out, "{line}  <- your {}", takers.join(", "));
        }
    }
    for s in std::iter::once(me).chain(others.iter().copied()) {
        let _ = writeln!(
            out,
            "{} captures: {}",
            style.whose(s),
            pile(style, deck, view.captured[s])
        );
    }
    let _ = writeln!(out, "yaku:");
    for s in std::iter::once(me).chain(others.iter().copied()) {
        for line in yaku_lines(style, &view, s) {
            let _ = writeln!(out, "  {line}");
        }
    }
    let hands: Vec<usize> = match seat {
        Some(s) => vec![s],
        None => (0..seats).collect(),
    };
    for s in hands {
        let _ = writeln!(out, "{} hand:", style.whose(s));
        for (i, c) in game.hand(s).iter().enumerate() {
            let _ = writeln!(
                out,
                "  {:>2}. {:<52} {}",
                i + 1,
                style.card(deck, c),
                deck.id_of(c)
            );
        }
    }
    out
}

/// True when the ruleset counts something on the table at the deal (shown on the screen).
fn has_table_count(ruleset: &Ruleset) -> bool {
    ruleset.matching().is_some_and(|f| f.table_count.is_some())
}

/// The move log's line for a seat that sits out the hand ([`Event::SatOut`]).
pub fn sat_out_line(style: &Style, player: usize) -> String {
    match style.who(player) {
        "you" => "you sit out: your partner plays alone".to_string(),
        who => format!("{who} sits out: the partner plays alone"),
    }
}

/// One line per event.
pub fn narrate(style: &Style, game: &dyn Game, events: &[Event]) -> String {
    let r = game.ruleset();
    let deck = &r.deck;
    let mut out = String::new();
    for e in events {
        match e {
            Event::Deal { round, dealer } => {
                let _ = writeln!(
                    out,
                    "\n--- {} · {}",
                    round_text(r, *round, game.rounds()),
                    style.says(*dealer, "deal")
                );
            }
            Event::Redeal { reason } => {
                let _ = writeln!(out, "redeal: {reason}");
            }
            Event::SatOut { player } => {
                let _ = writeln!(out, "{}", sat_out_line(style, *player));
            }
            Event::Declared { player, decl, .. } => {
                if let Some(d) = r.declarations.get(decl.0 as usize) {
                    let _ = writeln!(out, "{}: {}", style.who(*player), d.name);
                }
            }
            Event::Played {
                player,
                card,
                captured,
            }
            | Event::Drew {
                player,
                card,
                captured,
            } => {
                let verb = if matches!(e, Event::Played { .. }) {
                    "play"
                } else {
                    "draw"
                };
                let taken: CardSet = captured.iter().copied().collect();
                let what = if taken.is_empty() {
                    " to the table".to_string()
                } else {
                    format!(", capturing {}", style.names(deck, taken))
                };
                let _ = writeln!(
                    out,
                    "{} {}{what}",
                    style.says(*player, verb),
                    style.card(deck, *card)
                );
            }
            Event::PlayedSet {
                player,
                cards,
                combination,
            } => {
                let set: CardSet = cards.iter().copied().collect();
                let _ = writeln!(
                    out,
                    "{} {} ({combination})",
                    style.says(*player, "play"),
                    style.names(deck, set)
                );
            }
            Event::Built {
                player,
                card,
                cards,
                value,
            } => {
                let on: CardSet = cards.iter().copied().collect();
                let _ = writeln!(
                    out,
                    "{} {} on {}, building {value}",
                    style.says(*player, "play"),
                    style.card(deck, *card),
                    style.names(deck, on)
                );
            }
            Event::BonusTaken { player, card } => {
                let _ = writeln!(
                    out,
                    "{} bonus card {} to the pile",
                    style.says(*player, "take"),
                    style.card(deck, *card)
                );
            }
            Event::Stacked { player, cards } => {
                let set: CardSet = cards.iter().copied().collect();
                let _ = writeln!(
                    out,
                    "{}: {} stay on the table as a stack",
                    style.who(*player),
                    style.names(deck, set)
                );
            }
            Event::TurnEvent { player, name, .. } => {
                let _ = writeln!(out, "{}: {name}", style.who(*player));
            }
            Event::DealBonus(given) => {
                let crate::core::DealBonusGiven {
                    player,
                    name,
                    cards,
                    times,
                    ..
                } = &**given;
                let set: CardSet = cards.iter().copied().collect();
                let times = if *times > 1 {
                    format!(" x{times}")
                } else {
                    String::new()
                };
                let _ = if set.is_empty() {
                    writeln!(
                        out,
                        "{}: {name}{times} (the dealt table)",
                        style.who(*player)
                    )
                } else {
                    writeln!(
                        out,
                        "{} {} from the dealt table: {name}{times}",
                        style.says(*player, "take"),
                        style.names(deck, set)
                    )
                };
            }
            Event::TableTaken { player, cards } => {
                let set: CardSet = cards.iter().copied().collect();
                let _ = writeln!(
                    out,
                    "{} the table's last cards: {}",
                    style.says(*player, "take"),
                    style.names(deck, set)
                );
            }
            Event::Given { from, to, cards } => {
                let set: CardSet = cards.iter().copied().collect();
                let _ = writeln!(
                    out,
                    "{} {} to {}",
                    style.says(*from, "give"),
                    style.names(deck, set),
                    style.who(*to)
                );
            }
            Event::TrickWon { player, .. } => {
                let _ = writeln!(out, "{} the trick", style.says(*player, "take"));
            }
            Event::Shown { player, cards } => {
                let set: CardSet = cards.iter().copied().collect();
                let _ = writeln!(
                    out,
                    "{} {}",
                    style.says(*player, "show"),
                    style.names(deck, set)
                );
            }
            Event::HandCount { points, .. } => {
                let _ = writeln!(out, "counted: {}", style.each(points));
            }
            Event::Bid { player, amount } => {
                let _ = writeln!(out, "{} {amount}", style.says(*player, "bid"));
            }
            Event::Melded { player, points, .. } => {
                let _ = writeln!(out, "{}: {points}", style.says(*player, "meld"));
            }
            Event::YakuFormed { player, yaku, base } => {
                let names: Vec<&str> = yaku
                    .iter()
                    .filter_map(|id| r.yaku.yaku.iter().find(|y| &y.id == id))
                    .map(|y| y.name.as_str())
                    .collect();
                let _ = writeln!(
                    out,
                    "{} {} (base {base})",
                    style.says(*player, "make"),
                    names.join(", ")
                );
            }
            Event::HandEnded { round, .. } => {
                if let Some(h) = game.history().iter().find(|h| h.round == *round) {
                    out.push_str(&hand_result(style, Some(r), h));
                }
            }
            Event::GameEnded { scores } => {
                // Where the lowest total wins, the winner is found on the scores turned around.
                let ranked: Vec<i64> = if r.lowest_wins() {
                    scores.iter().map(|&s| -s).collect()
                } else {
                    scores.clone()
                };
                let _ = writeln!(
                    out,
                    "\n=== game over: {}{}",
                    style.each(scores),
                    winner_text(style, &ranked)
                );
            }
        }
    }
    out
}

/// ` · you win` for the one highest score, ` · a draw` when it is shared.
pub fn winner_text(style: &Style, scores: &[i64]) -> String {
    let top = scores.iter().copied().max().unwrap_or(0);
    let at_top: Vec<usize> = (0..scores.len()).filter(|&s| scores[s] == top).collect();
    match at_top.as_slice() {
        [one] => format!(" · {}", style.says(*one, "win")),
        _ => " · a draw".to_string(),
    }
}

/// A finished hand: who won, how, the yaku, the multipliers and the points; with the ruleset,
/// each yaku's description under it, so that every point says why it was scored.
pub fn hand_result(style: &Style, ruleset: Option<&Ruleset>, h: &HandResult) -> String {
    let mut out = String::new();
    let how = match h.end {
        e if e == ends::STOP => "stopped",
        e if e == ends::INSTANT => "instant win at the deal",
        e if e == ends::BOTH_INSTANT => "more than one hand held an instant win: no points",
        e if e == ends::EXHAUSTED => "the hands ran out: no points",
        e if e == ends::EXHAUSTED_DEALER => "the hands ran out: the dealer scores",
        e if e == ends::COUNTED_OUT => "counted out: the target reached in the hand",
        e => e.0,
    };
    match h.winner {
        Some(w) => {
            let _ = writeln!(
                out,
                "round {} won by {} ({how}): {}",
                h.round,
                style.who(w),
                plural(h.points[w], "point")
            );
        }
        None => {
            let _ = writeln!(out, "round {}: {how}", h.round);
        }
    }
    if let Some(o) = &h.outcome {
        // Label and points per row, the points aligned after the longest label.
        let mut rows: Vec<(String, i64)> =
            o.yaku.iter().map(|y| (y.name.clone(), y.points)).collect();
        // What each yaku takes, in the ruleset's words, printed under its row.
        let why: Vec<String> = o
            .yaku
            .iter()
            .map(|y| {
                ruleset
                    .and_then(|r| r.yaku.yaku.iter().find(|d| d.id == y.id))
                    .map_or_else(String::new, |d| d.description.trim().to_string())
            })
            .collect();
        // A hand settled seat by seat has each seat's steps, not one winner's base.
        let by_seat = !o.seats.is_empty() && o.yaku.is_empty() && o.base == 0;
        if !by_seat {
            let label = if o.yaku.len() > 1 {
                "base (the yaku added up)"
            } else {
                "base"
            };
            rows.push((label.to_string(), o.base));
        }
        for s in &o.steps {
            let reason = match s.seat {
                Some(seat) => format!("{}: {}", style.who(seat), s.reason),
                None => s.reason.clone(),
            };
            rows.push((reason, s.total));
        }
        if o.opponent != 0 {
            rows.push(("each other player".to_string(), o.opponent));
        }
        if by_seat {
            for (seat, points) in h.points.iter().enumerate() {
                rows.push((format!("{} this hand", style.who(seat)), *points));
            }
        }
        // Each loser's payment, when the rules settle each separately.
        for (seat, pay) in o.payments.iter().enumerate() {
            if Some(seat) != h.winner {
                rows.push((style.says(seat, "pay"), *pay));
            }
        }
        let width = rows
            .iter()
            .map(|(l, _)| l.chars().count())
            .max()
            .unwrap_or(0)
            .max(40);
        for (i, (label, points)) in rows.into_iter().enumerate() {
            let _ = writeln!(out, "    {label:<width$} {points:>4}");
            if let Some(why) = why.get(i).filter(|w| !w.is_empty()) {
                let _ = writeln!(out, "      {why}");
            }
        }
    }
    out
}

/// The scores and every finished hand, for the `score` command: each hand's winner and how it
/// ended, its yaku with their points, the multipliers and calls, what each seat scored in it
/// and the running totals after it.
pub fn score(style: &Style, game: &dyn Game) -> String {
    let mut out = String::new();
    let history = game.history();
    let scores = game.scores();
    let _ = writeln!(out, "scores: {}", style.each(scores));
    if history.is_empty() {
        let _ = writeln!(out, "no hand is finished yet");
        return out;
    }
    let _ = writeln!(out, "after {}:", plural(history.len(), "hand"));
    // The totals after each hand, counted back from the scores now.
    let mut totals: Vec<Vec<i64>> = vec![scores.to_vec(); history.len()];
    for k in (0..history.len().saturating_sub(1)).rev() {
        let next = &history[k + 1].points;
        totals[k] = totals[k + 1]
            .iter()
            .enumerate()
            .map(|(s, t)| t - next.get(s).copied().unwrap_or(0))
            .collect();
    }
    let call = call_name(game.ruleset());
    for (h, total) in history.iter().zip(&totals) {
        let how = match h.end {
            e if e == ends::STOP => "stopped",
            e if e == ends::INSTANT => "instant win",
            e if e == ends::BOTH_INSTANT => "two instant wins",
            e if e == ends::EXHAUSTED => "the hands ran out",
            e if e == ends::EXHAUSTED_DEALER => "the hands ran out, the dealer scores",
            e if e == ends::COUNTED_OUT => "counted out",
            e => e.0,
        };
        let who = match h.winner {
            Some(w) => style.says(w, "win"),
            None => "no winner".to_string(),
        };
        let _ = writeln!(out, "\nround {}: {who} ({how})", h.round);
        if let Some(o) = &h.outcome {
            if !o.yaku.is_empty() {
                let yaku: Vec<String> = o
                    .yaku
                    .iter()
                    .map(|y| format!("{} {}", y.name, y.points))
                    .collect();
                let sum = if yaku.len() > 1 {
                    format!(" = {}", o.base)
                } else {
                    String::new()
                };
                let _ = writeln!(out, "  yaku: {}{sum}", yaku.join(", "));
            }
            if !o.steps.is_empty() {
                let steps: Vec<String> = o
                    .steps
                    .iter()
                    .map(|s| match s.seat {
                        Some(seat) => format!("{}: {} ({})", style.who(seat), s.reason, s.total),
                        None => format!("{} ({})", s.reason, s.total),
                    })
                    .collect();
                let _ = writeln!(out, "  then: {}", steps.join("; "));
            }
        }
        let calls: Vec<String> = h
            .calls
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(s, n)| {
                format!(
                    "{} called {} {}",
                    style.who(s),
                    call.unwrap_or("to play on"),
                    plural(n, "time")
                )
            })
            .collect();
        if !calls.is_empty() {
            let _ = writeln!(out, "  calls: {}", calls.join(", "));
        }
        let points: Vec<String> = h
            .points
            .iter()
            .enumerate()
            .map(|(s, p)| match p {
                0 => format!("{} 0", style.who(s)),
                p => format!("{} {p:+}", style.who(s)),
            })
            .collect();
        let _ = writeln!(out, "  this hand: {}", points.join(", "));
        let _ = writeln!(out, "  total: {}", style.each(total));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Action;
    use crate::ruleset;

    /// A build lies apart on the table: the board draws it as a pile under its value and
    /// owner, not among the loose cards, and the terminal lists its cards once, under it, with
    /// the hand cards of its value that would take it whole.
    #[test]
    fn a_build_is_drawn_apart_under_its_value_and_owner() {
        let r = std::sync::Arc::new(ruleset::load("cassino").value.unwrap());
        let options = crate::core::StartOptions {
            seed: 3,
            ..Default::default()
        };
        let mut game = crate::families::matching::start(r, options).unwrap();
        // Play, building whenever a build is offered, until one lies on the table.
        let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(3);
        for _ in 0..400 {
            if !game.builds().is_empty() || game.to_act().is_none() {
                break;
            }
            let legal = game.legal();
            match legal.iter().find(|a| matches!(a, Action::Build { .. })) {
                Some(&a) => game.apply(a).unwrap(),
                None => game.apply_uniform(&mut rng).unwrap(),
            }
        }
        let b = game.builds()[0];
        let owner = usize::from(b.owner);
        let style = Style {
            color: false,
            labels: vec!["you".into(), "greedy".into()],
            brief: false,
        };
        let board = board(&style, &game, owner);
        let deck = &game.ruleset().deck;
        let loose: CardSet = board.center.tiles.iter().map(|t| t.card).collect();
        assert!((loose & b.cards).is_empty(), "build cards not loose");
        assert_eq!(loose | b.cards, game.table());
        assert_eq!(board.center.piles.len(), 1);
        let (label, tiles) = &board.center.piles[0];
        assert_eq!(label, &format!("build of {} (yours)", b.value));
        assert_eq!(tiles.iter().map(|t| t.card).collect::<CardSet>(), b.cards);
        let whole = screen(&style, &game, Some(owner));
        // The table's lines, up to the captures.
        let at = whole.find("table (").unwrap();
        let text = &whole[at..at + whole[at..].find("captures:").unwrap()];
        for c in b.cards.iter() {
            let name = &deck.card(c).name;
            assert_eq!(
                text.matches(name.as_str()).count(),
                1,
                "{name} once:\n{text}"
            );
        }
        assert!(
            text.contains(&format!("build of {} (yours): ", b.value)),
            "{text}"
        );
    }

    /// French cards are coloured by suit on a terminal (red hearts, spades in the text colour,
    /// bold), flower cards by kind.
    #[test]
    fn french_cards_are_coloured_by_suit_and_flower_cards_by_kind() {
        let style = Style {
            color: true,
            labels: Vec::new(),
            brief: false,
        };
        let french = ruleset::load_deck("french-52").value.unwrap();
        let card = |d: &Deck, id: &str| d.card_by_id(id).unwrap();
        assert_eq!(
            style.name(&french, card(&french, "hearts-king")),
            "\x1b[31mKing of Hearts\x1b[0m"
        );
        assert_eq!(
            style.name(&french, card(&french, "spades-two")),
            "\x1b[1mTwo of Spades\x1b[0m"
        );
        let flowers = ruleset::load_deck("hanafuda").value.unwrap();
        // The crane's first kind is `bright`, the first of the deck's kinds: palette 0.
        assert_eq!(
            style.name(&flowers, card(&flowers, "pine-crane")),
            "\x1b[1;33mCrane and Sun\x1b[0m"
        );
    }

    /// A meld is narrated with the verb agreeing: "you meld", "greedy melds".
    #[test]
    fn melds_are_narrated_with_the_verb_agreeing() {
        let r = std::sync::Arc::new(ruleset::load("schnapsen").value.unwrap());
        let game = crate::families::start(r, Default::default()).unwrap();
        let style = Style {
            color: false,
            labels: vec!["you".into(), "greedy".into()],
            brief: false,
        };
        let melded = |player| Event::Melded {
            player,
            melds: vec!["marriage".into()],
            cards: Vec::new(),
            points: 20,
        };
        let text = narrate(&style, &*game, &[melded(0), melded(1)]);
        assert!(text.contains("you meld: 20"), "{text}");
        assert!(text.contains("greedy melds: 20"), "{text}");
    }

    #[test]
    fn a_hand_result_aligns_its_points_after_the_longest_reason() {
        let r = ruleset::load("koikoi").value.unwrap();
        let style = Style {
            color: false,
            labels: vec!["you".into(), "greedy".into()],
            brief: false,
        };
        let long = "x2: a reason much longer than forty characters, as scripts may write";
        let outcome = crate::yaku::HandOutcome {
            yaku: Vec::new(),
            base: 6,
            steps: vec![crate::script::ScoreStep {
                reason: long.into(),
                total: 12,
                seat: None,
            }],
            total: 12,
            opponent: 0,
            payments: Vec::new(),
            seats: Vec::new(),
            winner: None,
            carry: Vec::new(),
        };
        let _ = &r;
        let h = HandResult {
            round: 1,
            dealer: Some(0),
            winner: Some(0),
            end: ends::STOP,
            outcome: Some(Box::new(outcome)),
            yaku_mask: 0,
            points: crate::core::PerSeat::from_slice(&[12, 0]),
            calls: crate::core::PerSeat::from_slice(&[0, 0]),
            house: 0,
            carried: crate::core::Carried::default(),
        };
        let text = hand_result(&style, None, &h);
        let ends: Vec<usize> = text.lines().skip(1).map(str::len).collect();
        assert!(
            ends.windows(2).all(|w| w[0] == w[1]),
            "points aligned:\n{text}"
        );
    }

    #[test]
    fn a_card_of_two_kinds_is_listed_under_both_and_counted_once() {
        let r = ruleset::load("koikoi").value.unwrap();
        let deck = &r.deck;
        let cards: CardSet = ["chrysanthemum-sake", "chrysanthemum-2", "pine-poetry"]
            .iter()
            .map(|id| deck.card_by_id(id).unwrap())
            .collect();
        let style = Style {
            color: false,
            labels: vec!["you".into(), "greedy".into()],
            brief: false,
        };
        let text = pile(&style, deck, cards);
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        assert_eq!(
            lines,
            [
                "3 cards (animal 1, ribbon 1, plain 2, poetry 1, red 1)",
                "animal 1: Sake Cup (also plain)",
                "ribbon 1: Pine Poetry Ribbon",
                "plain 2: Chrysanthemum Chaff 2, Sake Cup (also animal)",
            ],
            "{text}"
        );
    }
}
