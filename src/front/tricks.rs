//! The trick-taking family's table in `yaku play`: the auction (bids, passes, the contract and
//! its declarer), the trump suit and the turned-up card, the stock (or who closed it), the melds
//! shown, the trick on the table, the hand grouped by suit in rank order, the tricks won, card
//! points (where the rules let a player look at their tricks) and melds, game points (by
//! partnership where there are partners), and every declaration available at the prompt.

use super::board::{Board, Group, Row, SeatPanel, Tile};
use super::plural;
use super::prompt::{Input, command};
use super::screen::{self, Style};
use super::table::Table;
use crate::core::{Action, Event, Game, Seat};
use crate::deck::{CardId, CardSet};
use crate::families::tricks::{Phase, TricksGame, TricksView, ends};
use crate::ruleset::{GameLength, MeldAddsTo, MeldMoment};
use std::fmt::Write as _;

const HELP: &str = "\\
at any prompt:
  a number        the numbered option (a card to play, a declaration)
  a card          by id (hearts-ace), name (Ace of Hearts) or suit:n (hearts:1)
  a declaration   on your lead, by its id or name: close, exchange, claim; a meld
                  with a card of it (`marriage hearts-king`: show the marriage and
                  lead the King); after winning a trick a meld, or pass
  a bid           in an auction: the amount (`bid 250` or `250`), or pass
  trumps          after winning an auction: the suit (`trump hearts` or `hearts`)
  rules           the rules of this game
  score           the game points and every finished hand
  hint            the move the greedy bot would make here, and why
  undo            take back your last move (against bots only); again for more
  help            this text
  quit            save the game to a file and leave (so does end of input, Ctrl-D)";

/// The trick-taking family's table.
pub struct TricksTable {
    style: Style,
}

impl TricksTable {
    /// A table for `players`.
    pub fn new(players: &[String], color: bool) -> TricksTable {
        TricksTable {
            style: Style::for_players(players, color),
        }
    }
}

fn tricks(game: &dyn Game) -> &TricksGame {
    game.as_any()
        .downcast_ref::<TricksGame>()
        .expect("the trick-taking table is used for trick-taking games")
}

/// A legal action in words.
fn action_text(style: &Style, g: &TricksGame, action: Action) -> String {
    let r = Game::ruleset(g);
    let deck = &r.deck;
    match action {
        Action::Play { card } if g.phase() == Phase::Discard => {
            format!("discard {}", style.name(deck, card))
        }
        Action::Play { card } if g.phase() == Phase::Pass => {
            format!("pass {}", style.name(deck, card))
        }
        Action::Play { card } => format!("play {}", style.name(deck, card)),
        Action::Bet { amount } => bid_text(g, amount),
        Action::Declare { decl, card } => {
            let d = &r.declarations[decl.0 as usize];
            match (d.effect.as_str(), card) {
                ("trump", Some(c)) => format!("name {} trumps", deck.suits[deck.card(c).suit].name),
                ("call", Some(c)) => format!("call the {}", style.name(deck, c)),
                (_, Some(c)) if g.flow().meld_declarations.contains(&decl) => {
                    let moment = if g.phase() == Phase::Meld {
                        MeldMoment::WonTrick
                    } else {
                        MeldMoment::Lead
                    };
                    let seat = g.to_act().unwrap_or(0);
                    let Some(shown) = g.meld_shown(seat, decl, moment, c) else {
                        return d.name.clone();
                    };
                    let meld = &g.flow().melds[shown.melded.meld as usize];
                    let others = shown.melded.cards - crate::deck::CardSet::single(c);
                    let others = match others.len() {
                        1 => style.name(deck, others.first_card().unwrap_or(c)),
                        _ => style.names(deck, others),
                    };
                    if moment == MeldMoment::Lead && meld.leads_its_card {
                        format!("{}: show {others} and lead {}", d.name, style.name(deck, c))
                    } else {
                        format!(
                            "{}: show {} ({}, {})",
                            d.name,
                            meld.name,
                            style.names(deck, shown.melded.cards),
                            plural(shown.points, "point")
                        )
                    }
                }
                _ if d.prompt.is_empty() => d.name.clone(),
                _ => format!("{} ({})", d.name, d.prompt),
            }
        }
        _ => "a move".to_string(),
    }
}

/// A bid in words: its amount, or the contract bid with it.
fn bid_text(g: &TricksGame, amount: i64) -> String {
    match g.flow().auction.as_ref().and_then(|a| a.contract(amount)) {
        Some(c) => format!("bid {} ({amount})", c.name),
        None => format!("bid {amount}"),
    }
}

/// Each side's game points: by partnership where there are partners.
fn sides_text(style: &Style, g: &TricksGame, scores: &[i64]) -> String {
    let teams = g.flow().teams;
    let seats = scores.len();
    if !teams.any() {
        return style.each(scores);
    }
    (0..teams.count(seats))
        .map(|t| {
            let names: Vec<&str> = teams.members(t, seats).map(|s| style.who(s)).collect();
            let score = teams.members(t, seats).next().map_or(0, |s| scores[s]);
            format!("{} {score}", names.join(" & "))
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// Who won the game: a seat, or a partnership (whose partners share one score).
fn sides_winner(style: &Style, g: &TricksGame, scores: &[i64]) -> String {
    let teams = g.flow().teams;
    if !teams.any() {
        if g.flow().lowest_wins {
            // The lowest total wins: the scores turned around find the winner.
            let turned: Vec<i64> = scores.iter().map(|&s| -s).collect();
            return screen::winner_text(style, &turned);
        }
        return screen::winner_text(style, scores);
    }
    let seats = scores.len();
    let totals: Vec<i64> = (0..teams.count(seats))
        .map(|t| teams.members(t, seats).next().map_or(0, |s| scores[s]))
        .collect();
    let top = totals.iter().copied().max().unwrap_or(0);
    let at_top: Vec<usize> = (0..totals.len()).filter(|&t| totals[t] == top).collect();
    match at_top.as_slice() {
        [t] => {
            let names: Vec<&str> = teams.members(*t, seats).map(|s| style.who(s)).collect();
            format!(" · {} win", names.join(" & "))
        }
        _ => " · a draw".to_string(),
    }
}

/// The auction's state in a line, while it is on or once it is won.
fn auction_text(style: &Style, g: &TricksGame, seat: Seat) -> Option<String> {
    if g.flow().auction.is_none() {
        return match (marked_sides_text(style, g, seat), announced_text(style, g)) {
            (Some(m), Some(a)) => Some(format!("{m}\n{a}")),
            (m, a) => m.or(a),
        };
    }
    let seats = Game::seats(g);
    Some(match (g.declarer(), g.high_bid()) {
        (Some(d), Some((_, bid))) => {
            let mut line = format!(
                "contract: {} by {}",
                bid_text(g, bid).trim_start_matches("bid "),
                style.who(d)
            );
            if let Some(c) = g.contract().filter(|c| !c.description.is_empty()) {
                let _ = write!(
                    line,
                    " ({}, worth {})",
                    c.description.trim_end_matches('.'),
                    c.value
                );
            }
            // The sides of the hand, with the tricks each has taken.
            let sides: [Vec<Seat>; 2] = [
                (0..seats)
                    .filter(|&s| g.team_of(s) == g.team_of(d))
                    .collect(),
                (0..seats)
                    .filter(|&s| g.team_of(s) != g.team_of(d))
                    .collect(),
            ];
            let side = |members: &[Seat]| {
                let names: Vec<&str> = members.iter().map(|&s| style.who(s)).collect();
                let tricks: u32 = members.iter().map(|&s| g.tricks(s)).sum();
                format!(
                    "{} {}",
                    names.join(" & "),
                    plural(i64::from(tricks), "trick")
                )
            };
            if let Some(c) = g.called() {
                let _ = write!(line, "\ncalled: the {}", style.name(&g.ruleset().deck, c));
            }
            if let Some(a) = announced_text(style, g) {
                let _ = write!(line, "\n{a}");
            }
            if let Some(marked) = marked_sides_text(style, g, seat) {
                let _ = write!(line, "\n{marked}");
            } else if !sides[1].is_empty() {
                let _ = write!(
                    line,
                    "\nsides: {} against {}",
                    side(&sides[0]),
                    side(&sides[1])
                );
            }
            if g.talon_taken() {
                let _ = write!(line, " · {} took the talon", style.who(d));
            }
            line
        }
        (_, high) => {
            let passed: Vec<&str> = (0..seats)
                .filter(|&s| g.has_passed(s))
                .map(|s| style.who(s))
                .collect();
            format!(
                "auction: {}{}",
                high.map_or_else(
                    || "no bid yet".to_string(),
                    |(s, b)| format!("{} by {}", bid_text(g, b), style.who(s))
                ),
                if passed.is_empty() {
                    String::new()
                } else {
                    format!(" · passed: {}", passed.join(", "))
                }
            )
        }
    })
}

/// The announcements made this hand, each with its announcer, and the stake they make:
/// `announced: Kontra (P4), Re (P3) · stake ×4`; none before the first.
fn announced_text(style: &Style, g: &TricksGame) -> Option<String> {
    if g.announced().is_empty() {
        return None;
    }
    let made: Vec<String> = (g.announced().iter())
        .map(|m| {
            let a = &g.flow().announcements[m.index as usize];
            format!("{} ({})", a.name, style.who(m.seat))
        })
        .collect();
    let mut line = format!("announced: {}", made.join(", "));
    if g.stake() != 1 {
        let _ = write!(line, " · stake ×{}", g.stake());
    }
    Some(line)
}

/// The sides where cards mark them (`partner_cards`, or a called card), as `seat` knows them:
/// each seat it knows the side of, the others as unknown until a marking card shows them.
fn marked_sides_text(style: &Style, g: &TricksGame, seat: Seat) -> Option<String> {
    if g.partner_marks().is_empty() {
        return None;
    }
    let seats = Game::seats(g);
    let team = |s: Seat| g.team_of(s);
    let first = (0..seats).find(|&s| g.marked_side() >> s & 1 != 0)?;
    let known = |s: Seat| g.knows_side(seat, s);
    let names = |on: bool| -> Vec<String> {
        (0..seats)
            .filter(|&s| known(s) && (team(s) == team(first)) == on)
            .map(|s| {
                format!(
                    "{} ({})",
                    style.who(s),
                    plural(i64::from(g.tricks(s)), "trick")
                )
            })
            .collect()
    };
    let hidden: Vec<&str> = (0..seats)
        .filter(|&s| !known(s))
        .map(|s| style.who(s))
        .collect();
    let (a, b) = (names(true), names(false));
    let mut line = format!(
        "sides: {} against {}",
        if a.is_empty() {
            "?".to_string()
        } else {
            a.join(" & ")
        },
        if b.is_empty() {
            "?".to_string()
        } else {
            b.join(" & ")
        }
    );
    if !hidden.is_empty() {
        let _ = write!(
            line,
            " · not yet known: {} (a side shows when its card is played)",
            hidden.join(", ")
        );
    }
    Some(line)
}

impl TricksTable {
    /// Where cards mark the sides: `seat`'s side, and which other seats know it.
    fn marked_side_of(&self, g: &TricksGame, seat: Seat) -> String {
        let side = if g.marked_side() >> seat & 1 != 0 {
            match g.called() {
                Some(_) => "the declarer's side",
                None => "the holders' side",
            }
        } else {
            "the other side"
        };
        let seats = Game::seats(g);
        let knowing: Vec<&str> = (0..seats)
            .filter(|&s| s != seat && g.knows_side(s, seat))
            .map(|s| self.style.who(s))
            .collect();
        let known = match knowing.len() {
            n if n + 1 == seats => "known to all".to_string(),
            0 => "known to no other seat".to_string(),
            _ => format!("known to {}", knowing.join(", ")),
        };
        format!(", on {side} ({known})")
    }
}

/// Before bidding, what the hand melds with its best suit as trumps and the bid it supports by
/// the greedy bot's estimate (its melds and a share of the card points), so that a player sees
/// what a bid rests on.
fn bidding_help(view: &crate::families::tricks::TricksView) -> Vec<String> {
    let (suit, worth) = crate::families::tricks::hand_worth(view);
    let deck = &view.ruleset.deck;
    let (points, melded) = crate::families::tricks::melds::best(
        view.meld_table,
        &view.flow.melds,
        view.hand,
        Some(suit),
    );
    let mut out = Vec::new();
    if points > 0 {
        let names: Vec<&str> = melded
            .iter()
            .map(|m| view.flow.melds[m.meld as usize].name.as_str())
            .collect();
        out.push(format!(
            "your melds with {} as trumps: {} ({points} points)",
            deck.suits[suit].name,
            names.join(", ")
        ));
    } else {
        out.push("your hand holds no meld before play".to_string());
    }
    out.push(format!(
        "the hand looks worth about {worth} with {} as trumps (melds and a share of the card points: the greedy bot's estimate)",
        deck.suits[suit].name
    ));
    out
}

/// The melds shown this hand, a line per seat, with their points.
/// `trumps: ... · ...`: the trump suit (or why there is none) and the stock, the turned-up card
/// named by `turned_up` (styled on the text screen, plain on the board).
fn trumps_and_stock(
    style: &Style,
    g: &TricksGame,
    view: &TricksView<'_>,
    turned_up: impl Fn(CardId) -> String,
) -> String {
    let deck = &g.ruleset().deck;
    let no_trumps = g.contract().is_some_and(|c| !c.trumps);
    // Trumps beyond the suit (Queens and Jacks, a left bower), highest first.
    let suit = deck.suits.get(view.trump_suit);
    let extra = view.order.trumps - suit.map_or(CardSet::EMPTY, |s| s.cards);
    let mut all: Vec<CardId> = view.order.trumps.iter().collect();
    all.sort_by_key(|&c| -view.rank(c));
    let all: Vec<&str> = all.iter().map(|&c| deck.card(c).name.as_str()).collect();
    let unnamed = g.flow().trump == crate::ruleset::TrumpRule::Declarer && view.declarer.is_none();
    let trumps = match (suit, extra.is_empty()) {
        _ if unnamed => "not named yet".to_string(),
        (Some(s), true) => s.name.clone(),
        (Some(s), false) => format!("{}, highest first: {}", s.name, all.join(", ")),
        (None, false) => all.join(", "),
        (None, true) if no_trumps => "none in this contract".to_string(),
        (None, true) => "not named yet".to_string(),
    };
    let stock = match (view.closed_by, view.trump_card) {
        (Some(c), _) => format!("the stock is closed (by {})", style.who(c)),
        (None, Some(t)) => format!(
            "turned up: {} under a stock of {}",
            turned_up(t),
            plural(view.stock_len, "card")
        ),
        (None, None) if g.flow().deal_all || g.flow().talon => "no stock".to_string(),
        (None, None) => "the stock is gone: follow suit, or trump when void".to_string(),
    };
    format!("trumps: {trumps} · {stock}")
}

fn melds_text(style: &Style, g: &TricksGame) -> Vec<String> {
    let r = Game::ruleset(g);
    (0..Game::seats(g))
        .filter(|&s| g.melded().iter().any(|(seat, _)| *seat == s))
        .map(|s| {
            let points: i64 = g
                .melded()
                .iter()
                .filter(|(seat, _)| *seat == s)
                .map(|(_, m)| g.flow().melds[m.meld as usize].points)
                .sum();
            let names: Vec<String> = g
                .melded()
                .iter()
                .filter(|(seat, _)| *seat == s)
                .map(|(_, m)| g.flow().melds[m.meld as usize].name.clone())
                .collect();
            let cards: crate::deck::CardSet = g
                .melded()
                .iter()
                .filter(|(seat, _)| *seat == s)
                .fold(crate::deck::CardSet::EMPTY, |acc, (_, m)| acc | m.cards);
            format!(
                "{} {}: {} ({})",
                style.says(s, "meld"),
                points,
                names.join(", "),
                style.names(&r.deck, cards)
            )
        })
        .collect()
}

impl Table for TricksTable {
    fn narrate(&mut self, game: &dyn Game, events: &[Event]) -> String {
        let g = tricks(game);
        let r = game.ruleset();
        let deck = &r.deck;
        let mut out = String::new();
        for e in events {
            match e {
                Event::Deal { round, dealer } => {
                    let _ = writeln!(
                        out,
                        "\n--- hand {round} · {}",
                        self.style.says(*dealer, "deal")
                    );
                }
                Event::Played { player, card, .. } => {
                    let _ = writeln!(
                        out,
                        "{} {}",
                        self.style.says(*player, "play"),
                        self.style.name(deck, *card)
                    );
                }
                Event::TrickWon { player, cards } => {
                    let points: i64 = cards.iter().map(|&c| g.card_points(c)).sum();
                    let _ = writeln!(
                        out,
                        "{} the trick ({})",
                        self.style.says(*player, "take"),
                        plural(points, "card point")
                    );
                }
                Event::Bid { player, amount } => {
                    let _ = writeln!(out, "{} {}", self.style.who(*player), bid_text(g, *amount));
                }
                Event::Melded {
                    player,
                    melds,
                    cards,
                    points,
                } => {
                    let found: Vec<&crate::ruleset::Meld> = melds
                        .iter()
                        .filter_map(|id| g.flow().melds.iter().find(|m| &m.id == id))
                        .collect();
                    let names: Vec<&str> = found.iter().map(|m| m.name.as_str()).collect();
                    // A meld shown after play names its cards (the one led among them).
                    let cards = if found.iter().any(|m| m.moment != MeldMoment::BeforePlay) {
                        format!(
                            " ({})",
                            self.style.names(
                                deck,
                                cards.iter().copied().collect::<crate::deck::CardSet>()
                            )
                        )
                    } else {
                        String::new()
                    };
                    let _ = writeln!(
                        out,
                        "{} {}: {}{cards}",
                        self.style.says(*player, "meld"),
                        plural(*points, "point"),
                        names.join(", ")
                    );
                }
                Event::SatOut { player } => {
                    let _ = writeln!(out, "{}", super::screen::sat_out_line(&self.style, *player));
                }
                // A meld's declaration is told by the meld it shows.
                Event::Declared { decl, .. } if g.flow().meld_declarations.contains(decl) => {}
                Event::Declared { player, decl, card } => {
                    let d = &r.declarations[decl.0 as usize];
                    let what = match (d.effect.as_str(), card) {
                        ("trump", Some(c)) => {
                            format!("{}: {}", d.name, deck.suits[deck.card(*c).suit].name)
                        }
                        ("exchange", Some(c)) => {
                            format!("{}: takes {}", d.name, self.style.name(deck, *c))
                        }
                        _ => d.name.clone(),
                    };
                    let _ = writeln!(out, "{}: {what}", self.style.who(*player));
                }
                Event::HandEnded {
                    round,
                    winner,
                    end,
                    points,
                } => {
                    let how = match *end {
                        e if e == ends::CLAIM => "claimed the target and had it",
                        e if e == ends::FALSE_CLAIM => {
                            "the other player claimed without the points"
                        }
                        e if e == ends::FAILED_CLOSE => "the player who closed did not make it",
                        e if e == ends::LAST_TRICK
                            && (g.flow().auction.is_some()
                                || g.flow().claim == crate::ruleset::ClaimRule::PlayOut) =>
                        {
                            "every trick played"
                        }
                        e if e == ends::LAST_TRICK => "took the last trick",
                        e if e == ends::PASSED_OUT => "everyone passed",
                        e => e.0,
                    };
                    if let Some(w) = winner {
                        let _ = writeln!(
                            out,
                            "hand {round} won by {} ({how}): {}",
                            self.style.who(*w),
                            plural(points[*w], "game point")
                        );
                        if let Some(h) = g.history().iter().find(|h| h.round == *round)
                            && let Some(o) = &h.outcome
                        {
                            for s in &o.steps {
                                let _ = writeln!(out, "    {}", s.reason);
                            }
                        }
                    }
                }
                Event::HandCount { points, tricks } => {
                    let _ = writeln!(
                        out,
                        "counted: card points {}; tricks {}",
                        self.style.each(points),
                        self.style.each(tricks)
                    );
                }
                Event::GameEnded { scores } => {
                    let _ = writeln!(
                        out,
                        "\n=== game over: {}{}",
                        sides_text(&self.style, g, scores),
                        sides_winner(&self.style, g, scores)
                    );
                }
                _ => {}
            }
        }
        out
    }

    fn screen(&self, game: &dyn Game, seat: Seat) -> String {
        let g = tricks(game);
        let view = g.view(seat);
        let r = game.ruleset();
        let deck = &r.deck;
        let mut out = String::new();
        let to = match g.flow().length {
            GameLength::Target { score, .. } => format!(" (to {score})"),
            GameLength::Rounds(n) => format!(" (hand {} of {n})", view.round),
        };
        let _ = writeln!(
            out,
            "\n=== {} · hand {} · dealer: {} · game points: {}{to}",
            r.name,
            view.round,
            self.style.who(view.dealer),
            sides_text(&self.style, g, view.scores)
        );
        if let Some(a) = auction_text(&self.style, g, seat) {
            let _ = writeln!(out, "{a}");
        }
        let turned_up = |t| self.style.name(deck, t);
        let _ = writeln!(
            out,
            "{}",
            trumps_and_stock(&self.style, g, &view, turned_up)
        );
        for line in melds_text(&self.style, g) {
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(out, "tricks won: {}", self.style.each(view.tricks));
        if view.phase == crate::families::tricks::Phase::Bid && g.to_act() == Some(seat) {
            for line in bidding_help(&view) {
                let _ = writeln!(out, "{line}");
            }
        }
        if g.flow().look_at_own_tricks {
            let pending = view.pending_points();
            let _ = writeln!(
                out,
                "your card points: {}{}",
                view.points[seat],
                if pending > 0 {
                    format!(" (+{pending} from melds, once you win a trick)")
                } else {
                    String::new()
                }
            );
        } else if g
            .flow()
            .melds
            .iter()
            .any(|m| m.adds_to == MeldAddsTo::Points)
        {
            let _ = writeln!(
                out,
                "points from your melds: {} (tricks are face down in these rules: count your card points yourself)",
                view.declared[seat]
            );
        }
        if view.led.is_some() {
            let by = g.trick_seats();
            let played: Vec<String> = g
                .trick()
                .iter()
                .enumerate()
                .map(|(k, &c)| format!("{} {}", self.style.who(by[k]), self.style.card(deck, c)))
                .collect();
            let _ = writeln!(out, "trick: {}", played.join(", "));
        }
        let _ = writeln!(out, "{} hand:", self.style.whose(seat));
        // Trumps beyond their suit are shown apart, highest first: they follow as trumps.
        let apart = view.order.trumps
            - deck
                .suits
                .get(view.trump_suit)
                .map_or(CardSet::EMPTY, |s| s.cards);
        let mut trumps: Vec<CardId> = (view.hand & view.order.trumps).iter().collect();
        if !apart.is_empty() && !trumps.is_empty() {
            trumps.sort_by_key(|&c| -view.rank(c));
            let names: Vec<String> = trumps
                .iter()
                .map(|&c| format!("{} [{}]", self.style.name(deck, c), deck.id_of(c)))
                .collect();
            let _ = writeln!(out, "  Trumps: {}", names.join(", "));
        }
        for (i, suit) in deck.suits.iter().enumerate() {
            let held = if apart.is_empty() {
                view.hand & suit.cards
            } else {
                view.hand & (suit.cards - view.order.trumps)
            };
            let mut cards: Vec<CardId> = held.iter().collect();
            if cards.is_empty() {
                continue;
            }
            cards.sort_by_key(|&c| -view.rank(c));
            let names: Vec<String> = cards
                .iter()
                .map(|&c| format!("{} [{}]", self.style.name(deck, c), deck.id_of(c)))
                .collect();
            let mark = if i == view.trump_suit {
                " (trumps)"
            } else {
                ""
            };
            let _ = writeln!(out, "  {}{mark}: {}", suit.name, names.join(", "));
        }
        out
    }

    fn standing(&self, game: &dyn Game) -> Vec<String> {
        let g = tricks(game);
        (0..game.seats())
            .map(|seat| {
                let view = g.view(seat);
                let mut line = format!(
                    "{}: {} ({} from melds), {} won",
                    self.style.who(seat),
                    plural(view.points[seat], "point"),
                    view.declared[seat],
                    plural(view.tricks[seat] as usize, "trick")
                );
                if view.melds[seat] > 0 {
                    line.push_str(&format!(", melds shown {}", view.melds[seat]));
                }
                if view.marked_sides {
                    line.push_str(&self.marked_side_of(g, seat));
                }
                line
            })
            // The announcements made, with the stake they make.
            .chain(announced_text(&self.style, g))
            .collect()
    }

    fn board(&self, game: &dyn Game, seat: Seat) -> Board {
        let g = tricks(game);
        let view = g.view(seat);
        let r = game.ruleset();
        let deck = &r.deck;
        let seats = game.seats();
        let panel = |s: usize| {
            let mut summary = format!(
                "{} game points · {} won",
                view.scores[s],
                plural(view.tricks[s] as usize, "trick")
            );
            if s != seat {
                summary.push_str(&format!(
                    " · {} in hand",
                    plural(g.hand(s).len() as usize, "card")
                ));
            }
            let mut lines = Vec::new();
            let mut groups = Vec::new();
            if s == seat && g.flow().look_at_own_tricks {
                lines.push(format!(
                    "card points {}{}",
                    view.points[s],
                    match view.pending_points() {
                        0 => String::new(),
                        p => format!(" (+{p} from melds, once you win a trick)"),
                    }
                ));
                groups.push(Group {
                    label: format!("won {}", g.won(s).len()),
                    tiles: Tile::all(deck, g.won(s)),
                });
            }
            if view.declared[s] > 0 {
                lines.push(format!("points from melds {}", view.declared[s]));
            }
            if s == seat && view.phase == crate::families::tricks::Phase::Bid {
                lines.extend(bidding_help(&view));
            }
            SeatPanel {
                name: self.style.who(s).to_string(),
                summary,
                hidden: if s == seat {
                    0
                } else {
                    g.hand(s).len() as usize
                },
                groups,
                lines,
            }
        };
        let turned_up = |t: CardId| deck.card(t).name.clone();
        let mut notes = vec![trumps_and_stock(&self.style, g, &view, turned_up)];
        if let Some(a) = auction_text(&self.style, g, seat) {
            for (i, line) in a.lines().enumerate() {
                notes.insert(i, line.to_string());
            }
        }
        notes.extend(melds_text(&self.style, g));
        let mut center = Row {
            title: "trick".to_string(),
            ..Row::default()
        };
        if let Some(l) = view.led {
            // Who played which card, in play order (the tiles alone do not say).
            let by = g.trick_seats();
            let played: Vec<String> = g
                .trick()
                .iter()
                .enumerate()
                .skip(1)
                .map(|(k, &c)| {
                    let t = Tile::of(deck, c);
                    format!("{} {}{}", self.style.who(by[k]), t.face, t.top)
                })
                .collect();
            center.title = format!(
                "trick: {} led {}",
                self.style.who(view.leader),
                deck.card(l).name
            );
            if !played.is_empty() {
                center
                    .title
                    .push_str(&format!(", then {}", played.join(", ")));
            }
            center
                .tiles
                .extend(g.trick().iter().map(|&c| Tile::of(deck, c)));
        }
        // The turned-up trump is drawn apart from the trick, under its own label: beside the
        // led card it read as a second card of the trick.
        if let Some(t) = view.trump_card {
            center.aside = Some(("turned up".to_string(), vec![Tile::of(deck, t)]));
        }
        // Bidding on a turned-up card: the card while it lies face up, or turned down.
        if let Some((t, down)) = g.turned() {
            let label = if down { "turned down" } else { "turned up" };
            center.aside = Some((label.to_string(), vec![Tile::of(deck, t)]));
        }
        // The hand by suit, highest rank first.
        let mut hand: Vec<CardId> = view.hand.iter().collect();
        hand.sort_by_key(|&c| (deck.card(c).suit, -view.rank(c)));
        Board {
            title: format!(
                "{} · hand {} · dealer: {}",
                r.name,
                view.round,
                self.style.who(view.dealer)
            ),
            scores: sides_text(&self.style, g, view.scores),
            others: (1..seats).map(|k| panel((seat + k) % seats)).collect(),
            center,
            notes,
            me: Some(panel(seat)),
            hand: Row {
                title: format!("{} hand", self.style.whose(seat)),
                tiles: hand.into_iter().map(|c| Tile::of(deck, c)).collect(),
                hidden: 0,
                aside: None,
                piles: Vec::new(),
            },
        }
    }

    fn question(&self, game: &dyn Game, legal: &[Action]) -> String {
        let g = tricks(game);
        let lead = match g.phase() {
            Phase::Bid if g.turned().is_some_and(|(_, down)| down) => {
                "the card is turned down: pass, or name another suit as trumps"
            }
            Phase::Bid if g.turned().is_some() => "pass, or order up the turned card's suit",
            Phase::Bid => "your bid",
            Phase::NameTrump => "you won the auction: name trumps",
            Phase::Call => "you won the auction: call your partner (whoever holds the card)",
            Phase::Discard if g.turned().is_none() && !g.talon_taken() => {
                "trumps were ordered up: you take the turned card and discard a card, face down"
            }
            Phase::Discard => "you took the talon: discard a card, face down",
            Phase::Pass => "choose a card to pass",
            Phase::Lead => "your lead",
            Phase::Meld => "you won the trick: show a meld before the draw, or pass",
            _ => "your card to the trick",
        };
        let options: Vec<String> = legal
            .iter()
            .enumerate()
            .map(|(i, &a)| format!("  {}) {}", i + 1, action_text(&self.style, g, a)))
            .collect();
        format!("{lead}:\n{}", options.join("\n"))
    }

    fn parse(&self, line: &str, game: &dyn Game, legal: &[Action]) -> Result<Input, String> {
        let g = tricks(game);
        let r = game.ruleset();
        let text = line.trim();
        let lower = text.to_ascii_lowercase();
        if let Some(c) = command(&lower) {
            return c;
        }
        // In an auction a number is a bid when it is one (`bid 250`, or `250`).
        let bid_text = lower.strip_prefix("bid ").unwrap_or(&lower).trim();
        if g.phase() == Phase::Bid
            && let Ok(amount) = bid_text.parse::<i64>()
            && (lower.starts_with("bid ") || amount as usize > legal.len())
        {
            let action = Action::Bet { amount };
            if legal.contains(&action) {
                return Ok(Input::Act(action));
            }
            let mut trial = game.box_clone();
            return Err(trial
                .apply(action)
                .err()
                .map_or_else(|| "that bid is not possible now".to_string(), |e| e.reason));
        }
        // Trumps by the suit's name or id (`trump hearts`, `hearts`).
        if g.phase() == Phase::NameTrump {
            let word = lower
                .strip_prefix("trump ")
                .or_else(|| lower.strip_prefix("trumps "))
                .unwrap_or(&lower)
                .trim();
            if let Some(suit) = r.deck.suits.iter().position(|s| {
                s.id.eq_ignore_ascii_case(word)
                    || s.name.eq_ignore_ascii_case(word)
                    || s.aliases.iter().any(|a| a.eq_ignore_ascii_case(word))
            }) && let Some(a) = legal.iter().copied().find(|a| {
                matches!(a, Action::Declare { card: Some(c), .. } if r.deck.card(*c).suit == suit)
            }) {
                return Ok(Input::Act(a));
            }
        }
        if let Ok(n) = text.parse::<usize>() {
            return legal
                .get(n.wrapping_sub(1))
                .copied()
                .map(Input::Act)
                .ok_or_else(|| format!("there is no option {n}: choose 1 to {}", legal.len()));
        }
        // A declaration by id or name, with a card for a marriage.
        let (word, rest) = lower.split_once(' ').unwrap_or((lower.as_str(), ""));
        let plain = |s: &str| s.to_ascii_lowercase().replace(['-', '_', ' '], "");
        if let Some(i) = r.declarations.iter().position(|d| {
            plain(&d.id) == plain(word)
                || plain(&d.name) == plain(&lower)
                || plain(&d.name) == plain(word)
        }) {
            let options: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|a| matches!(a, Action::Declare { decl, .. } if decl.0 as usize == i))
                .collect();
            let chosen = match (options.as_slice(), rest.trim()) {
                // An announcement refused: the game says why (its window, its side, its
                // `after`).
                ([], _) if r.declarations[i].effect == "announce" => {
                    let mut trial = game.box_clone();
                    return Err(trial
                        .apply(Action::declare(crate::core::DeclId(i as u8)))
                        .err()
                        .map_or_else(
                            || format!("{} is not possible now", r.declarations[i].name),
                            |e| e.reason,
                        ));
                }
                ([], _) => {
                    return Err(format!(
                        "{} is not possible now{}",
                        r.declarations[i].name,
                        match g.phase() {
                            Phase::Lead | Phase::Meld => "",
                            _ => ": declarations are made on one's lead",
                        }
                    ));
                }
                ([one], "") => *one,
                (_, "") => {
                    return Err(format!(
                        "say which card of the meld to show with the {}: {}",
                        r.declarations[i].name,
                        options
                            .iter()
                            .filter_map(|a| match a {
                                Action::Declare { card: Some(c), .. } => Some(r.deck.id_of(*c)),
                                _ => None,
                            })
                            .collect::<Vec<_>>()
                            .join(" or ")
                    ));
                }
                (_, card) => {
                    let c = super::prompt::card(card, r)?;
                    options
                        .iter()
                        .copied()
                        .find(|a| matches!(a, Action::Declare { card: Some(x), .. } if *x == c))
                        .ok_or_else(|| {
                            format!(
                                "{} cannot be shown with {}",
                                r.declarations[i].name,
                                r.deck.card(c).name
                            )
                        })?
                }
            };
            return Ok(Input::Act(chosen));
        }
        let card = super::prompt::card(text, r)?;
        let action = Action::Play { card };
        if legal.contains(&action) {
            return Ok(Input::Act(action));
        }
        // The game says why.
        let mut trial = game.box_clone();
        Err(trial.apply(action).err().map_or_else(
            || "that card cannot be played now".to_string(),
            |e| e.reason,
        ))
    }

    fn describe(&self, game: &dyn Game, action: Action) -> String {
        action_text(&self.style, tricks(game), action)
    }

    fn help(&self) -> &'static str {
        HELP
    }

    fn rules(&self, game: &dyn Game, width: usize) -> String {
        crate::sheet::text_sheet_width(game.ruleset(), width)
    }

    fn score(&self, game: &dyn Game) -> String {
        screen::score(&self.style, game)
    }

    fn finished(&self, _game: &dyn Game) -> String {
        String::new()
    }

    fn stopped(&self, _game: &dyn Game) -> String {
        String::new()
    }

    fn style(&self) -> &Style {
        &self.style
    }

    fn style_mut(&mut self) -> &mut Style {
        &mut self.style
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::{Agent, RandomAgent, agent_rng};
    use crate::core::StartOptions;
    use crate::front::fronts::for_ruleset;
    use std::sync::Arc;

    /// With 300 melds (issue 44: meld 286 was offered as meld 30, under its name with another
    /// meld's cards and points), every meld a move offers is described by its own name and
    /// points: meld `Meld N` is worth `1000 + N`, shown on winning a trick.
    #[test]
    fn every_offered_meld_is_described_as_declared_past_256_melds() {
        let deck = crate::ruleset::load("tests/rulesets/meld-moments.toml")
            .value
            .unwrap()
            .deck
            .clone();
        let ids: Vec<&str> = deck.card_ids().collect();
        let mut text = String::from(
            "[ruleset]\nid = \"many\"\nextends = \"tests/rulesets/meld-moments.toml\"\n",
        );
        let mut n = 0;
        'all: for a in 0..ids.len() {
            for b in a + 1..ids.len() {
                if n == 300 {
                    break 'all;
                }
                let _ = write!(
                    text,
                    "\n[[meld]]\nid = \"m{n:03}\"\nname = \"Meld {n}\"\ncards = [\"{}\", \"{}\"]\npoints = {}\nmoment = \"won-trick\"\ndeclaration = \"show\"\n",
                    ids[a],
                    ids[b],
                    1000 + n
                );
                n += 1;
            }
        }
        let loaded = crate::ruleset::load_str("many.toml", &text);
        let r = Arc::new(
            loaded
                .value
                .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
        );
        let table = for_ruleset(&r, &["human".into(), "random".into()], vec![], false, false);
        let mut past_256 = 0;
        for seed in 0..10 {
            let mut g = crate::families::tricks::start(
                Arc::clone(&r),
                StartOptions {
                    seed,
                    rounds: Some(1),
                    ..StartOptions::default()
                },
            )
            .unwrap();
            let mut rng = agent_rng(seed);
            let mut legal = Vec::new();
            while let Some(seat) = g.to_act() {
                g.legal_actions(&mut legal);
                for &a in &legal {
                    let said = table.describe(&g, a);
                    let Some((_, rest)) = said.split_once("show Meld ") else {
                        continue;
                    };
                    let number: i64 = rest.split(' ').next().unwrap().parse().unwrap();
                    assert!(
                        said.ends_with(&format!(", {} points)", 1000 + number)),
                        "seed {seed}: {said}"
                    );
                    past_256 += usize::from(number >= 256);
                }
                let a = RandomAgent.choose(&g, seat, &legal, &mut rng);
                g.apply(a).unwrap();
            }
        }
        assert!(past_256 > 0, "no meld past the 256th was offered");
    }
}
