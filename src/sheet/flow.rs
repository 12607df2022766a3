//! The parts of a rule sheet that depend on the game's flow family: one function per family,
//! registered by the family's name, so a change to a family's flow model changes only its
//! function here.

mod announce;
mod bank;
mod counting;
mod dealt;
mod events;
mod melds;
mod partners;
mod turned;

use super::{Rule, Section, capitalized, hands, in_words, join_and};
use crate::deck::{CardSet, Deck};
use crate::expr::{Lexicon, number_word};
use crate::ruleset::{
    BankerFlow, BothInstant, CaptureChoice, CaptureGroups, CaptureKind, ClaimRule, DealCheck,
    DealOn, DealTarget, Declaration, Exhausted, FirstDealer, FirstPlayer, FollowRules, GameLength,
    Leftover, MatchingFlow, MustCapture, NextDealer, Ruleset, Tally, TallyAward, TricksFlow,
    TurnEvent, TurnPattern,
};
use bank::{arrange_rules, bank_words};
use dealt::{deal_bonus_rule, every_deal_rule, leftover_rule};
use events::turn_event_rule;
use melds::{meld_words, moment_words};

/// A declaration as a rule: its name, what it does, and when it may be made.
fn declaration_rule(d: &Declaration, lex: &Lexicon, what: &str) -> Rule {
    let when = d
        .when_source
        .as_deref()
        .map_or_else(String::new, |w| format!(" Only when {}.", in_words(w, lex)));
    let prompt = if d.prompt.is_empty() {
        what.to_string()
    } else {
        d.prompt.clone()
    };
    Rule::named(&d.name, format!("{}.{when}", capitalized(&prompt)))
}

/// A family's sections of a ruleset's sheet.
type FamilySections = fn(&Ruleset, &Lexicon) -> Vec<Section>;

/// Each family's rules in words, by the name the family registry gives it
/// ([`crate::families::Family::name`]): the one place the rule sheet tells the families apart.
static FAMILY_SECTIONS: [(&str, FamilySections); 4] = [
    ("matching", |r, lex| {
        let flow: &MatchingFlow = r.matching().expect("a matching ruleset");
        let scripted = r.scoring.is_some();
        matching(flow, &r.declarations, (&r.tallies, scripted), &r.deck, lex)
    }),
    ("banker", |r, lex| {
        let flow = r.banker().expect("a banker ruleset");
        if flow.play.is_some() {
            return play_game(flow, &r.declarations, lex);
        }
        banker(flow, lex)
    }),
    ("tricks", |r, lex| {
        tricks(
            r.tricks().expect("a trick-taking ruleset"),
            &r.declarations,
            &r.deck,
            lex,
        )
    }),
    ("climbing", |r, lex| {
        let flow = r.climbing().expect("a climbing ruleset");
        let pass = r
            .declarations
            .get(flow.pass.0 as usize)
            .map_or("Pass", |d| d.name.as_str());
        super::climbing::climbing(flow, pass, &r.deck, lex)
    }),
];

/// The sections of `ruleset`'s family: the deal, the turn or the tricks, declarations and the
/// game's length.
pub(super) fn sections(ruleset: &Ruleset, lex: &Lexicon) -> Vec<Section> {
    let name = crate::families::of(ruleset).name();
    let (_, sections) = FAMILY_SECTIONS
        .iter()
        .find(|(family, _)| *family == name)
        .unwrap_or_else(|| unreachable!("family `{name}` has a rule sheet"));
    sections(ruleset, lex)
}

/// The deal, the turn, declarations, instant wins, redeals and game length of a matching game.
fn matching(
    flow: &MatchingFlow,
    declarations: &[Declaration],
    (tallies, scripted): (&[Tally], bool),
    deck: &Deck,
    lex: &Lexicon,
) -> Vec<Section> {
    let card = &lex.card_word;
    // Two players always, or a table of any size: the wording follows.
    let two = flow.max_players == 2;
    let every_hand_runs = if two {
        "both hands run"
    } else {
        "every hand runs"
    };
    // Cards left after the deal at the usual table, drawn one a turn.
    let dealt = flow.hand_size * flow.players + flow.table_size;
    let stock = deck.cards.len() as u32 > dealt;
    let order: Vec<&str> = flow
        .deal_order
        .iter()
        .map(|t| match t {
            DealTarget::Dealer => "the dealer",
            DealTarget::Others if two => "the opponent",
            DealTarget::Others => "each other player",
            DealTarget::Table => "the table",
        })
        .collect();
    let players = if flow.min_players == flow.max_players {
        format!("{} players", number_word(flow.players.into()))
    } else {
        format!(
            "{} to {} players ({} usually)",
            number_word(flow.min_players.into()),
            number_word(flow.max_players.into()),
            number_word(flow.players.into())
        )
    };
    let mut deal = vec![Rule::plain(format!(
        "For {players}. {} {card}s to each hand and {}, dealt {} at a time to {}{}.",
        capitalized(&number_word(flow.hand_size.into())),
        if flow.table_size == 0 {
            "none to the table".to_string()
        } else {
            format!(
                "{} face up on the table",
                number_word(flow.table_size.into())
            )
        },
        number_word(flow.deal_packet.into()),
        order.join(", "),
        if stock {
            "; the rest are the stock, face down".to_string()
        } else {
            String::new()
        }
    ))];
    for d in &flow.deal_sizes {
        deal.push(Rule::plain(format!(
            "With {} players: {} {card}s to each hand and {} on the table.",
            number_word(d.players.into()),
            number_word(d.hand_size.into()),
            number_word(d.table_size.into()),
        )));
    }
    deal.push(Rule::plain(match flow.first_dealer {
        FirstDealer::First => "The first player deals first.",
        FirstDealer::Random => "The first dealer is drawn at random.",
    }));
    let next = |n: NextDealer| match n {
        NextDealer::Winner => "the winner deals",
        NextDealer::Same => "the same dealer deals again",
        NextDealer::Alternate => "the deal passes to the next player",
    };
    deal.push(Rule::plain(format!(
        "After a won hand {}; after a drawn hand {}.",
        next(flow.next_dealer),
        next(flow.draw_dealer)
    )));
    if let Some(d) = &flow.drop_out {
        let pays = match d.pays {
            0 => "pays nothing".to_string(),
            n if n > 0 => format!("pays {n} points to each player"),
            n => format!("is paid {} points by each player", -n),
        };
        deal.push(Rule::plain(format!(
            "With more than {players} at the table, {players} play each hand: after the deal, \
             starting with {first} and going round, each seat decides to play or to drop out \
             until {players} play. A seat plays without being asked when the places left are as \
             many as the seats still to decide (or when it may not drop); once {players} play, \
             the others sit the hand out. A seat that drops out {pays}{times}; its hand goes \
             under the stock. Seats sitting out take no turn and score nothing else that hand.",
            players = d.players,
            first = if d.after_dealer {
                "the player after the dealer"
            } else {
                "the dealer"
            },
            times = if flow.table_multiplies {
                ", times the table count"
            } else {
                ""
            },
        )));
        for decl in [d.play, d.drop] {
            deal.push(declaration_rule(&declarations[decl.0 as usize], lex, ""));
        }
    }
    if !flow.after_deal.is_empty() {
        deal.push(Rule::plain(
            "After the deal the player after the dealer chooses:",
        ));
        for d in &flow.after_deal {
            deal.push(declaration_rule(&declarations[d.0 as usize], lex, "").under());
        }
    }
    for check in &flow.instant_wins {
        deal.push(check_rule(check, lex, |when| {
            format!(
                "instant win of {} points for a hand dealt {when}.",
                check.points
            )
        }));
    }
    for check in &flow.dealt_yaku {
        deal.push(check_rule(check, lex, |when| {
            // A penalty (negative points) says who pays whom, as a gain does.
            let points = points_words(check.points.abs());
            let paid = match (check.points < 0, flow.yaku_paid_by_others) {
                (false, true) => format!("{points} at the hand's end, from each other player,"),
                (false, false) => format!("{points} at the hand's end"),
                (true, true) => {
                    format!("the player pays each other player {points} at the hand's end")
                }
                (true, false) => format!("the player loses {points} at the hand's end"),
            };
            format!(
                "{paid} for a hand dealt {when}; the hand is played on (a hand holds the one \
                 worth most)."
            )
        }));
    }
    if !flow.instant_wins.is_empty() {
        let more = if two {
            "When both hands hold an instant win"
        } else {
            "When more than one hand holds an instant win"
        };
        deal.push(Rule::plain(match flow.both_instant {
            BothInstant::Draw => format!("{more}, the hand is a draw."),
            BothInstant::Dealer => format!("{more}, the dealer's counts."),
            BothInstant::Play => format!(
                "{more}, {} counts and the hand is played.",
                if two { "neither" } else { "none" }
            ),
        }));
    }
    // A table count that is a carried value by its id (which the deal may set): named, not
    // counted.
    let carried_count = flow
        .table_count_source
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    if let Some(id) = carried_count {
        // Named as the section below names it; player-facing text shows no ids.
        let name = lex
            .values
            .iter()
            .find(|(name, _)| name == id)
            .map_or_else(|| format!("`{id}`"), |(_, words)| words.clone());
        deal.push(Rule::named(
            "Table count",
            format!(
                "{name}, a value carried from hand to hand (below){}",
                if flow.table_multiplies {
                    "; every point of the hand is multiplied by it."
                } else {
                    "."
                }
            ),
        ));
    } else if let Some(source) = &flow.table_count_source {
        deal.push(Rule::named(
            "Table count",
            format!(
                "the scoring counts {} face up on the table at the deal{}",
                in_words(source, lex).replace(&lex.pile_words, &format!("{card}s")),
                if flow.table_multiplies {
                    "; every point of the hand is multiplied by it."
                } else {
                    "."
                }
            ),
        ));
    }
    if !flow.bonus.is_empty() {
        let names: Vec<String> = flow
            .bonus
            .iter()
            .map(|c| format!("the {}", deck.card(c).name))
            .collect();
        deal.push(Rule::named(
            "Bonus cards",
            format!(
                "{} match nothing: played or drawn, a bonus {card} goes straight to the player's \
                 pile and the player takes another {card} (from the stock into the hand after a \
                 hand {card}, or the next draw); dealt to the table, it goes to the dealer and the \
                 table is filled again.",
                capitalized(&join_and(&names))
            ),
        ));
    }
    for check in &flow.redeals {
        let place = match check.on {
            DealOn::Table => "the table is",
            DealOn::Hands => "a hand is",
            DealOn::Any => "a hand or the table is",
        };
        deal.push(check_rule(check, lex, |when| {
            format!("redeal when {place} dealt {when}.")
        }));
    }
    for bonus in &flow.deal_bonuses {
        deal.push(deal_bonus_rule(bonus, flow, deck, lex));
    }
    let suit = &lex.suit_word;
    let draws = stock && flow.draws;
    let mut turn = vec![Rule::plain(if !flow.captures.is_empty() {
        capture_words(flow, lex, draws)
    } else if draws {
        format!(
            "Play a {card} from your hand onto a table {card} of the same {suit} to capture both \
             (or leave it on the table), then turn the top {card} of the stock and do the same."
        )
    } else {
        format!(
            "Play a {card} from your hand onto a table {card} of the same {suit} to capture both \
             (or leave it on the table)."
        )
    })];
    match flow.first_player {
        FirstPlayer::Dealer => {}
        FirstPlayer::AfterDealer => turn.push(Rule::plain(
            "The player after the dealer plays first, and play goes round in seat order.",
        )),
    }
    if flow.refill && stock {
        turn.push(Rule::plain(format!(
            "When every hand is empty, each player is dealt {} {card}s again from the stock, \
             until it runs out.",
            number_word(flow.hand_size.into())
        )));
        if flow.checks_every_deal && !flow.dealt_yaku.is_empty() {
            turn.push(every_deal_rule(card));
        }
    }
    for rule in &flow.leftover_rules {
        turn.push(leftover_rule(rule, deck, lex));
    }
    if flow.leftover == Leftover::LastCapturer {
        turn.push(Rule::plain(format!(
            "When the hands are played out, the {card}s left on the table go to the last player \
             who captured."
        )));
    }
    if !flow.before_play.is_empty() {
        turn.push(Rule::plain(format!(
            "Before playing a {card}, the player to act may declare:"
        )));
        for d in &flow.before_play {
            let decl = &declarations[d.0 as usize];
            let n = number_word(decl.count.into());
            let what = match decl.effect.as_str() {
                "reveal" => format!("show {n} {card}s of one {suit} from the hand"),
                "play_suit" => format!(
                    "play {n} {card}s of one {suit} at once onto that {suit}'s table {card}"
                ),
                _ => String::new(),
            };
            let mut rule = declaration_rule(decl, lex, &what);
            counting::before_play_effects(&mut rule, decl, lex);
            turn.push(rule.under());
        }
    }
    if !flow.choices.is_empty() {
        turn.push(Rule::plain(format!(
            "A {card} that counts two ways: its player chooses when capturing it:"
        )));
    }
    for d in &flow.choices {
        let decl = &declarations[d.0 as usize];
        let the_card = decl.card.map_or_else(
            || format!("a {card}"),
            |c| format!("the {}", deck.card(c).name),
        );
        turn.push(
            declaration_rule(
                decl,
                lex,
                &format!("when capturing {the_card}, count it another way"),
            )
            .under(),
        );
    }
    if flow.run_capture.is_some() {
        let by = deck
            .attributes
            .iter()
            .find(|a| flow.run_capture.as_deref() == Some(&a.values[..]))
            .map_or("value", |a| a.id.as_str());
        turn.push(Rule::named(
            "Runs",
            format!(
                "after a {card} from the hand captures, its player also takes the table {card}s \
                 that continue an unbroken ascending run of {by} from the played {card}'s: one of \
                 {by} one higher, then one higher than that, and so on."
            ),
        ));
    }
    if flow.stacks {
        turn.push(Rule::named(
            "Stacks",
            format!(
                "when the {card} drawn is of the {suit} of the pair the hand {card} has just \
                 taken, the three {card}s stay on the table as a stack until the {suit}'s fourth \
                 {card} takes them (never on a player's last hand {card})."
            ),
        ));
    }
    for event in &flow.turn_events {
        turn.push(turn_event_rule(event, lex, two, flow.count_at_once));
    }
    if flow
        .turn_events
        .iter()
        .any(|e| e.take > 0 && e.wins.is_none())
        && !flow.give.is_empty()
    {
        turn.push(Rule::named(
            "Giving cards",
            format!(
                "a player who gives a {card} gives {}.",
                give_words(flow, deck)
            ),
        ));
    }
    if flow.teams.any() {
        let seats = flow.players as usize;
        let teams: Vec<String> = (0..flow.teams.count(seats))
            .map(|t| {
                let list: Vec<String> = flow
                    .teams
                    .members(t, seats)
                    .map(|s| format!("seat {}", s + 1))
                    .collect();
                list.join(" and ")
            })
            .collect();
        turn.push(Rule::plain(format!(
            "Partners: {}. Partners score together and share one score.",
            teams.join(" against ")
        )));
    }
    if !flow.wild.is_empty() {
        let names: Vec<String> = flow
            .wild
            .iter()
            .map(|c| format!("the {}", deck.card(c).name))
            .collect();
        turn.push(Rule::plain(format!(
            "Wild: {} matches any {card}.",
            names.join(" and ")
        )));
    }
    if flow.after_yaku.is_empty() {
        turn.push(Rule::plain("Making a yaku does not end the hand."));
    } else {
        turn.push(Rule::plain(
            "When a turn makes a new yaku or improves one, the player declares:",
        ));
        for d in &flow.after_yaku {
            let decl = &declarations[d.0 as usize];
            let what = match decl.effect.as_str() {
                "continue" => "play on for more",
                _ => "stop and score",
            };
            turn.push(declaration_rule(decl, lex, what).under());
        }
    }
    turn.push(Rule::plain(match flow.exhausted {
        Exhausted::Draw => {
            format!("When {every_hand_runs} out with no one stopping, the hand is a draw.")
        }
        Exhausted::DealerScores(p) => {
            format!(
                "When {every_hand_runs} out with no one stopping, the dealer scores {p} points."
            )
        }
        Exhausted::Settle if !scripted => format!(
            "When the hands run out with no one stopping, every {} scores its own yaku, the \
             points of its turn events and the points for the hand's end below.{}",
            if flow.teams.any() {
                "partnership (the partners' captures together)"
            } else {
                "player"
            },
            if flow.yaku_paid_by_others {
                " Each other player pays a player its yaku, dealt combinations and turn events; \
                 a player who stops is paid so too, without the points for the hand's end."
            } else if flow.after_yaku.is_empty() {
                ""
            } else {
                " A player who stops scores so too, without the points for the hand's end."
            }
        ),
        Exhausted::Settle => "When the hands run out with no one stopping, every player is \
                              scored on their own captures, as the scoring steps below say."
            .to_string(),
    }));
    if !scripted {
        for tally in tallies {
            match tally.award {
                Some(TallyAward::Most(p)) => turn.push(Rule::named(
                    format!("Most {}", tally.name.to_lowercase()),
                    format!(
                        "at the end of the hand, {} to the one {} ahead on {} ({}); nobody \
                         scores it on a tie.",
                        points_words(p),
                        if flow.teams.any() {
                            "partnership"
                        } else {
                            "player"
                        },
                        tally.name.to_lowercase(),
                        in_words(&tally.source, lex)
                    ),
                )),
                Some(TallyAward::Par(par)) => turn.push(Rule::named(
                    &tally.name,
                    format!(
                        "at the end of the hand, every player scores their {} less {par}.",
                        tally.name.to_lowercase()
                    ),
                )),
                None => {}
            }
        }
    }
    let length = match flow.length {
        GameLength::Rounds(n) => format!("A game is {}; the highest total wins.", hands(n)),
        GameLength::Target { score, max_rounds } if flow.target_ties_play_on => format!(
            "A game ends when a player reaches {score} points and leads alone (hands go on while \
             the leaders are tied; after {max_rounds} hands it ends anyway)."
        ),
        GameLength::Target { score, max_rounds } => format!(
            "A game ends when a player reaches {score} points (or after {max_rounds} hands)."
        ),
    };
    turn.push(Rule::plain(length));
    turn.extend(counting::counting_out_rule(flow));
    if let Some(stake) = flow.stake {
        turn.push(Rule::plain(format!(
            "Each player starts with a stake of {stake} points: the winner of a hand takes its \
             points from each loser, who pays what it has left, and the game ends when a \
             player's stake runs out."
        )));
    }
    vec![
        Section {
            heading: "Deal".to_string(),
            rules: deal,
        },
        Section {
            heading: "Play".to_string(),
            rules: turn,
        },
    ]
}

/// The deal, tricks, follow rules, declarations and game length of a trick-taking game.
fn tricks(
    flow: &TricksFlow,
    declarations: &[Declaration],
    deck: &Deck,
    lex: &Lexicon,
) -> Vec<Section> {
    let card = &lex.card_word;
    let packets: Vec<String> = flow
        .deal_packets
        .iter()
        .map(|n| number_word((*n).into()))
        .collect();
    // `one at a time`, or the packets in order: `three, then two at a time`.
    let packets = if packets.windows(2).all(|w| w[0] == w[1]) {
        packets
            .first()
            .cloned()
            .unwrap_or_else(|| "one".to_string())
    } else {
        packets.join(", then ")
    };
    let closing = declarations.iter().any(|d| d.effect == "close");
    let gone = if closing { "gone or closed" } else { "gone" };
    let mut deal = Vec::new();
    if flow.min_players != flow.max_players {
        deal.push(Rule::plain(format!(
            "{} to {} players; {} by default.",
            capitalized(&number_word(flow.min_players.into())),
            number_word(flow.max_players.into()),
            number_word(flow.players.into())
        )));
    } else if flow.players != 2 {
        deal.push(Rule::plain(format!(
            "{} players.",
            capitalized(&number_word(flow.players.into()))
        )));
    }
    if flow.teams.any() {
        let seats = flow.players as usize;
        let teams: Vec<String> = (0..flow.teams.count(seats))
            .map(|t| {
                let members: Vec<String> = flow
                    .teams
                    .members(t, seats)
                    .map(|s| format!("{}", s + 1))
                    .collect();
                format!("seats {}", join_and(&members))
            })
            .collect();
        deal.push(Rule::named(
            "Partnerships",
            format!(
                "{}. Partners pool the tricks they win and share one score.",
                capitalized(&teams.join(" against "))
            ),
        ));
    }
    if !flow.partner_cards.is_empty() {
        deal.push(Rule::named(
            "Partnerships",
            partners::partner_cards_words(flow.partner_cards, deck),
        ));
    }
    if flow.talon {
        deal.push(Rule::plain(format!(
            "{} {card}s to each player, dealt {packets} at a time, the player after the dealer first; \
             the {card}s left lie face down as the talon. There is no stock and no {card} turned up.",
            capitalized(&number_word(flow.hand_size.into())),
        )));
    } else if flow.deal_all {
        deal.push(Rule::plain(format!(
            "The whole deck is dealt, {packets} at a time, the player after the dealer first: {} {card}s each at a table of {}. There is no stock.",
            number_word(flow.hand_size.into()),
            number_word(flow.players.into())
        )));
    } else {
        deal.push(Rule::plain(format!(
            "{} {card}s to each player, dealt {packets} at a time, the player after the dealer first; \
             the next {card} is turned up for trumps and the stock laid across it.",
            capitalized(&number_word(flow.hand_size.into())),
        )));
    }
    if let Some(p) = &flow.passing {
        let ways: Vec<String> = p
            .directions
            .iter()
            .map(|d| match d {
                crate::ruleset::PassDirection::Left => "to the next player (left)",
                crate::ruleset::PassDirection::Right => "to the player before (right)",
                crate::ruleset::PassDirection::Across => "to the player opposite (across)",
                crate::ruleset::PassDirection::Keep => "no passing",
            })
            .map(str::to_string)
            .collect();
        let cycle = if ways.len() == 1 {
            format!("every hand {}", ways[0])
        } else {
            format!(
                "by hand, in turn: {} (then again from the first)",
                ways.join("; ")
            )
        };
        deal.push(Rule::named(
            "Passing",
            format!(
                "After the deal each player chooses {} {card}{} from their hand and passes {} face down, {cycle}; a player picks up the {card}s passed to them only after passing their own.",
                number_word(p.cards.into()),
                if p.cards == 1 { "" } else { "s" },
                if p.cards == 1 { "it" } else { "them" },
            ),
        ));
    }
    match flow.trump {
        crate::ruleset::TrumpRule::None => {
            deal.push(Rule::plain("There are no trumps.".to_string()));
        }
        crate::ruleset::TrumpRule::Fixed(suit) => {
            deal.push(Rule::plain(format!(
                "{} are always trumps.",
                deck.suits.get(suit).map_or("", |s| s.name.as_str())
            )));
        }
        _ => {}
    }
    let flow_suit = match flow.trump {
        crate::ruleset::TrumpRule::Fixed(suit) => Some(suit),
        crate::ruleset::TrumpRule::None => Some(deck.suits.len()),
        _ => None,
    };
    if let Some(words) = super::trick_order::order_words(flow, deck, 0, flow_suit) {
        deal.push(Rule::named("Trumps", format!("{}.", capitalized(&words))));
    }
    if let Some(a) = &flow.auction {
        deal.push(auction_rule(flow, a, declarations));
        for c in &a.contracts {
            let mut what = format!("bid at {}", c.bid);
            if let Some(f) = c.follow {
                let words = follow_words(f, false, "gone");
                let words = words.trim_end_matches('.');
                let mut chars = words.chars();
                let words: String = chars
                    .next()
                    .map(|c| c.to_lowercase().chain(chars).collect())
                    .unwrap_or_default();
                what.push_str(&format!("; {words}"));
            }
            let suit = match c.trump_suit {
                Some(suit) => Some(suit),
                None if !c.trumps => Some(deck.suits.len()),
                None => flow_suit,
            };
            let own = (c.orders > 0)
                .then(|| super::trick_order::order_words(flow, deck, c.orders, suit))
                .flatten();
            if let Some(suit) = c.trump_suit {
                what.push_str(&format!(
                    "; {} are trumps",
                    deck.suits.get(suit).map_or("", |s| s.name.as_str())
                ));
            }
            if !c.trumps && own.is_none() {
                what.push_str("; played without trumps");
            }
            if let Some(own) = own {
                what.push_str(&format!("; {own}"));
            }
            if c.talon && flow.talon {
                what.push_str("; the declarer takes the talon and discards as many cards");
            }
            if let Some(lead) = c.first_lead {
                what.push_str(match lead {
                    crate::ruleset::FirstLead::Declarer => "; the declarer leads",
                    crate::ruleset::FirstLead::AfterDealer => "; the player after the dealer leads",
                });
            }
            if let Some(call) = &c.call {
                what.push_str(&format!("; {}", partners::call_words(call, deck)));
            }
            if c.alone {
                what.push_str("; the declarer plays alone: its partner lays its cards down unplayed and sits out the hand, and each trick has one card fewer");
            }
            if let Some(goal) = goal_words(&c.goal, card) {
                what.push_str(&format!("; {goal}"));
            }
            what.push_str(&format!(
                "; worth {} game point{}",
                c.value,
                if c.value == 1 { "" } else { "s" }
            ));
            if !c.description.is_empty() {
                what.push_str(&format!(". {}", c.description.trim_end_matches('.')));
            }
            deal.push(Rule::named(&c.name, format!("{}.", capitalized(&what))));
        }
    }
    let before_play =
        |m: &&crate::ruleset::Meld| m.moment == crate::ruleset::MeldMoment::BeforePlay;
    if flow.melds.iter().any(|m| before_play(&m)) {
        deal.push(Rule::plain(format!(
            "Once trumps are known, before the first lead, every player shows their melds and scores them. A {card} may serve in melds of different classes, but only once within a class; within a class the combinations worth most count."
        )));
        for m in flow.melds.iter().filter(before_play) {
            deal.push(Rule::named(&m.name, meld_words(m, deck)));
        }
    }
    deal.push(Rule::plain(match flow.next_dealer {
        NextDealer::Alternate if flow.players > 2 => "The deal passes to the next player.",
        NextDealer::Alternate => "The deal alternates.",
        NextDealer::Winner => "The winner of a hand deals the next.",
        NextDealer::Same => "The same player deals every hand.",
    }));
    let rank = &deck.attributes[flow.rank];
    let points = &deck.attributes[flow.card_points];
    let mut order: Vec<usize> = (0..deck.cards.len())
        .filter(|&i| deck.cards[i].suit == 0)
        .collect();
    order.sort_by_key(|&i| -rank.values[i]);
    // Where a card's points follow its rank alike in every suit they are said with the ranks
    // ("ace 11, ten 10"); otherwise (or where no card scores) the ranks are said alone and the
    // points by the cards that score them ("each Hearts card 1, the Queen of Spades 13").
    let same_by_rank = points.values.iter().any(|&v| v != 0)
        && (0..deck.cards.len()).all(|i| {
            order
                .iter()
                .find(|&&j| rank.values[j] == rank.values[i])
                .is_none_or(|&j| points.values[j] == points.values[i])
        });
    // Each rank once, however many copies of it a double pack has.
    let mut ranks: Vec<String> = Vec::new();
    for &i in &order {
        let name = if same_by_rank {
            deck.cards[i].kinds.first().cloned().unwrap_or_default()
        } else {
            let c = &deck.cards[i];
            if c.face.is_empty() {
                c.name.clone()
            } else {
                c.face.clone()
            }
        };
        let rank = if same_by_rank {
            format!("{name} {}", points.values[i])
        } else {
            name
        };
        if !ranks.contains(&rank) {
            ranks.push(rank);
        }
    }
    let ranks_said = if same_by_rank {
        format!("Ranks and {card} points: {}", ranks.join(", "))
    } else {
        let mut values: Vec<i64> = points.values.clone();
        values.sort_unstable_by(|a, b| b.cmp(a));
        values.dedup();
        let groups: Vec<String> = values
            .iter()
            .filter(|&&v| v != 0)
            .map(|&v| {
                let cards: CardSet = (0..deck.cards.len())
                    .filter(|&i| points.values[i] == v)
                    .map(|i| crate::deck::CardId(i as u8))
                    .collect();
                format!("{} {v}", cards_named(cards, deck, true, "and"))
            })
            .collect();
        let scored = if groups.is_empty() {
            format!("no {card} scores points")
        } else {
            format!("{card} points: {}", groups.join(", "))
        };
        format!(
            "Ranks, high to low in each suit: {}; {scored}",
            ranks.join(", ")
        )
    };
    let opening = flow.lead_rules.opening_card.map(|c| {
        format!(
            "The player holding the {} leads it to the first trick.",
            deck.card(c).name
        )
    });
    let lead = match (&flow.auction, &opening) {
        (_, Some(o)) => o.as_str(),
        (Some(a), None) if a.first_lead == crate::ruleset::FirstLead::Declarer => {
            "The declarer leads first."
        }
        _ => "The player after the dealer leads first.",
    };
    // The first trick's leader bound to lead a card of a set (an ace) when holding one.
    let from = flow.lead_rules.opening_from;
    let lead = if from.is_empty() {
        lead.to_string()
    } else {
        let names: Vec<&str> = from.iter().map(|c| deck.card(c).name.as_str()).collect();
        format!(
            "{lead} The first trick's leader leads one of these when holding any: {}.",
            names.join(", ")
        )
    };
    let mut play = if flow.players == 2 && !flow.deal_all && !flow.talon {
        vec![Rule::plain(format!(
            "{lead} A trick goes to the higher {card} of the \
             suit led or the higher trump; its winner draws first from the stock, then the other \
             player, and leads the next. {ranks_said}."
        ))]
    } else {
        let trump = if flow.trump == crate::ruleset::TrumpRule::None && flow.auction.is_none() {
            ""
        } else {
            " or the highest trump"
        };
        let draw = if flow.deal_all || flow.talon {
            ""
        } else {
            "; its winner draws first from the stock, then the others in turn"
        };
        vec![Rule::plain(format!(
            "{lead} Each player in turn plays one {card} to a trick; it goes to the highest {card} of the \
             suit led{trump}{draw}, and its winner leads the next. {ranks_said}."
        ))]
    };
    let later = flow.later_equal_wins;
    let alike_pairs = deck.cards.len() > 1
        && (0..deck.cards.len()).any(|i| {
            (i + 1..deck.cards.len())
                .any(|j| deck.alike(crate::deck::CardId(i as u8), crate::deck::CardId(j as u8)))
        });
    if later == deck.all() && !later.is_empty() {
        play.push(Rule::plain(format!(
            "Of two alike {card}s that are the best of a trick, the later played wins."
        )));
    } else if alike_pairs {
        // The cards the exception names, each once (not its copies from the other packs).
        let named: CardSet = later
            .iter()
            .filter(|&c| {
                !later
                    .iter()
                    .any(|o| o.index() < c.index() && deck.alike(o, c))
            })
            .collect();
        let except = if named.is_empty() {
            String::new()
        } else {
            format!(
                ", except {}: of two of them, the later played wins",
                cards_named(named, deck, false, "and")
            )
        };
        play.push(Rule::plain(format!(
            "Of two alike {card}s that are the best of a trick, the first played wins{except}."
        )));
    }
    play.push(Rule::plain(follow_words(
        flow.follow,
        !flow.deal_all && !flow.talon,
        gone,
    )));
    let rules = &flow.lead_rules;
    if !rules.not_on_first_trick.is_empty() {
        play.push(Rule::named(
            "First trick",
            format!(
                "No one may play {} to the first trick, led or followed, unless they hold nothing else they may play.",
                cards_named(rules.not_on_first_trick, deck, false, "or")
            ),
        ));
    }
    if !rules.until_broken.is_empty() {
        play.push(Rule::named(
            "Broken",
            format!(
                "{} may not be led until {} has been played to a trick, unless the leader holds nothing else.",
                capitalized(&cards_named(rules.until_broken, deck, false, "or")),
                cards_named(rules.broken_by, deck, false, "or")
            ),
        ));
    }
    for (index, decl) in declarations.iter().enumerate() {
        let shows: Vec<&crate::ruleset::Meld> = flow
            .melds
            .iter()
            .filter(|m| m.declaration == Some(crate::ruleset::DeclId(index as u8)))
            .collect();
        let what = match decl.effect.as_str() {
            "meld" | "marriage" => {
                use crate::ruleset::MeldMoment;
                let names: Vec<String> = shows.iter().map(|m| m.name.clone()).collect();
                let at = |moment| shows.iter().all(|m| m.moment == moment);
                let when = if at(MeldMoment::Lead) {
                    "on one's lead, "
                } else if at(MeldMoment::WonTrick) {
                    "on winning a trick, before the draw, "
                } else {
                    "at the moment each meld says, "
                };
                use crate::ruleset::{MeldNewCard, MeldReuse};
                let rules = flow.meld_table.rules();
                let reuse = match rules.reuse {
                    MeldReuse::OtherClass => format!(
                        "A {card} shown in a meld of one class does not count again in that class"
                    ),
                    MeldReuse::Grow => format!(
                        "A {card} shown in a meld counts again in a meld of another class, and in its own class only in a meld worth more than every meld of the class it was shown in (never twice in one meld, never the lower after the higher)"
                    ),
                    MeldReuse::Never => format!("A {card} shown in a meld counts in no other"),
                };
                let new_card = match rules.new_card {
                    MeldNewCard::Nothing => String::new(),
                    MeldNewCard::InClass => format!(
                        "; each meld holds a {card} not shown before in a meld of its class"
                    ),
                    MeldNewCard::FromHand => format!(
                        "; each meld holds a {card} not shown before in any meld, laid out from the hand"
                    ),
                };
                format!(
                    "{when}show one meld: {}. {reuse}{new_card}",
                    join_or(&names)
                )
            }
            "exchange" => {
                "on one's lead, exchange the lowest trump for the turned-up trump".to_string()
            }
            "close" => {
                "on one's lead, close the stock: no more drawing, follow rules at once".to_string()
            }
            "pass" if flow.auction.is_none() => "on winning a trick, show no meld".to_string(),
            "pass"
                if flow
                    .melds
                    .iter()
                    .any(|m| m.moment == crate::ruleset::MeldMoment::WonTrick) =>
            {
                "in the auction, bid no more; on winning a trick, show no meld".to_string()
            }
            "pass" => "in the auction, bid no more".to_string(),
            "trump" if flow.auction.as_ref().is_some_and(|a| a.turned_up) => {
                "in the second round, name a suit other than the turned card's as trumps".into()
            }
            "trump" => "the auction's winner names the trump suit".to_string(),
            "order_up" => "in the first round, make the turned card's suit trumps".into(),
            "call" => {
                "the declarer of a contract that calls a partner names the called card".into()
            }
            "announce" => announce::announce_words(flow, &decl.id).unwrap_or_default(),
            _ => format!("on one's lead, claim {} and count", flow.target),
        };
        // A `when` limits it in play, and the sheet says so.
        let when = decl
            .when_source
            .as_deref()
            .map_or_else(String::new, |w| format!(" Only when {}.", in_words(w, lex)));
        play.push(Rule::named(
            &decl.name,
            format!("{}.{when}", capitalized(&what)),
        ));
        for m in shows {
            play.push(Rule::named(
                &m.name,
                format!("{} {}", meld_words(m, deck), moment_words(m, card)),
            ));
        }
    }
    play.push(Rule::plain(match flow.claim {
        ClaimRule::Declare => format!(
            "A hand is won by claiming {} {card} points with them; the scoring script gives the game points.",
            flow.target
        ),
        ClaimRule::Automatic => format!(
            "A hand is won as soon as a player's tricks bring them to {} {card} points.",
            flow.target
        ),
        ClaimRule::PlayOut if flow.auction.is_none() && flow.melds.is_empty() => {
            format!("Every trick is played; the scoring script gives the game points from the {card} points each player took.")
        }
        ClaimRule::PlayOut => {
            "Every trick is played; the scoring script gives the game points from the sides' card points, melds and the contract.".to_string()
        }
    }));
    if flow.last_trick_points > 0 {
        play.push(Rule::plain(format!(
            "The last trick counts {} more points.",
            flow.last_trick_points
        )));
    }
    play.push(Rule::plain(match flow.length {
        GameLength::Rounds(n) if flow.lowest_wins => {
            format!("A game is {}; the lowest total wins.", hands(n))
        }
        GameLength::Rounds(n) => format!("A game is {}; the higher total wins.", hands(n)),
        GameLength::Target { score, max_rounds } if flow.lowest_wins => format!(
            "A game ends when a player reaches {score} points (or after {max_rounds} hands); the lowest total wins."
        ),
        GameLength::Target { score, max_rounds } => format!(
            "A game ends when a player reaches {score} game points (or after {max_rounds} hands)."
        ),
    }));
    vec![
        Section {
            heading: "Deal".to_string(),
            rules: deal,
        },
        Section {
            heading: "Play".to_string(),
            rules: play,
        },
    ]
}

/// The follow rules in words; `stock` when they apply only once the stock is `gone`.
fn follow_words(f: FollowRules, stock: bool, gone: &str) -> String {
    if f == FollowRules::FREE {
        return "No one ever has to follow suit.".to_string();
    }
    if stock && f == FollowRules::FOLLOW_TRUMP {
        return format!(
            "While the stock lasts no one has to follow suit; once it is {gone}, follow suit, and trump when void."
        );
    }
    if stock && f == FollowRules::HEAD {
        return format!(
            "While the stock lasts no one has to follow suit; once it is {gone}, follow suit and win the trick when able, and trump when void."
        );
    }
    let mut parts = Vec::new();
    if f.suit {
        parts.push(if f.head {
            "follow suit, beating the trick's best card when able (unless it has been trumped)"
        } else {
            "follow suit"
        });
    }
    if f.trump {
        parts.push(if f.overtrump {
            "when void, trump, beating a trump already played when able"
        } else {
            "when void, trump"
        });
    }
    let rules = capitalized(&parts.join("; "));
    if stock {
        format!(
            "While the stock lasts no one has to follow suit; once it is {gone}: {}.",
            parts.join("; ")
        )
    } else {
        format!("{rules}.")
    }
}

/// A contract's goal in words, if it has one.
fn goal_words(goal: &crate::ruleset::ContractGoal, card: &str) -> Option<String> {
    use crate::ruleset::TrickCount;
    if goal.is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    if let Some(p) = goal.points {
        parts.push(match goal.by_trick {
            Some(1) => format!("reach {p} {card} points with the first trick"),
            Some(k) => format!("reach {p} {card} points within the first {k} tricks"),
            None => format!("reach {p} {card} points"),
        });
    }
    match goal.min_tricks {
        Some(TrickCount::All) => parts.push("take every trick".to_string()),
        Some(TrickCount::Count(n)) => parts.push(format!("take at least {n} tricks")),
        None => {}
    }
    match goal.max_tricks {
        Some(0) => parts.push("take no trick".to_string()),
        Some(1) => parts.push("take at most one trick".to_string()),
        Some(m) => parts.push(format!("take at most {m} tricks")),
        None => {}
    }
    Some(format!(
        "the declarer's side must {}: made, it scores the contract; set, each opponent does (the hand ends as soon as it is decided)",
        join_and(&parts)
    ))
}

/// The auction of a trick-taking game in words.
fn auction_rule(
    flow: &TricksFlow,
    a: &crate::ruleset::Auction,
    declarations: &[Declaration],
) -> Rule {
    let pass = declarations
        .get(a.pass.0 as usize)
        .map_or("pass", |d| d.name.as_str());
    if a.turned_up {
        return Rule::named("Auction", turned::turned_up_words(a, declarations));
    }
    let mut text =
        String::from("Starting with the player after the dealer, each in turn bids or passes");
    if a.values && !a.listed.is_empty() {
        text.push_str(&format!(
            ": a bid is {}, each higher than the last bid",
            a.plain_bids_words()
        ));
    } else if a.values {
        text.push_str(&format!(
            ": a bid is at least {}, then at least {} over the last bid, in steps of {}",
            a.minimum, a.step, a.step
        ));
    }
    text.push_str(&format!(
        ". A player who passes ({pass}) bids no more; the auction ends when all but one have passed, and the last bidder is the declarer, whose side must make the bid."
    ));
    text.push_str(match a.passed_out {
        crate::ruleset::PassedOut::Dealer => {
            " If everyone passes, the dealer must take it at the lowest bid."
        }
        crate::ruleset::PassedOut::Redeal => {
            " If everyone passes, the hand is not played and the deal passes on."
        }
        crate::ruleset::PassedOut::Forehand => {
            " If everyone passes, the player after the dealer must take it at the lowest bid."
        }
    });
    if a.declarer_alone {
        text.push_str(
            " The declarer plays alone against all the others, who are partners for the hand and pool their tricks; each of them scores on their own.",
        );
        if a.contracts.iter().any(|c| c.call.is_some()) {
            text.push_str(" In a contract that calls a partner, the declarer and the partner play against the other two.");
        }
    }
    if flow.trump == crate::ruleset::TrumpRule::Declarer {
        text.push_str(" The declarer names trumps.");
    }
    Rule::named("Auction", text)
}

/// The drawing rules of the player's hands and the banker's, in order.
fn drawing_rules(flow: &BankerFlow, lex: &Lexicon) -> Section {
    let mut drawing = Vec::new();
    for (whose, rules) in [
        ("The player's hand", &flow.player_draw),
        ("The banker's hand", &flow.banker_draw),
    ] {
        for rule in rules.iter() {
            let verb = match rule.action {
                crate::ruleset::DrawAction::Draw => "takes a card",
                crate::ruleset::DrawAction::Stand => "stands",
                crate::ruleset::DrawAction::Choose => "leaves the choice to the player",
            };
            drawing.push(Rule::named(
                &rule.name,
                format!("{whose} {verb} when {}.", in_words(&rule.when_source, lex)),
            ));
        }
    }
    drawing.push(Rule::plain(
        "The first rule that holds decides; a hand that takes a card reads its rules again, and stands when none holds.".to_string(),
    ));
    Section {
        heading: "Drawing".to_string(),
        rules: drawing,
    }
}

/// A table hand (punto banco): the bets, the shoe, card and hand values, the drawing rules.
fn table_hand(flow: &BankerFlow, lex: &Lexicon) -> Vec<Section> {
    let card = &lex.card_word;
    let names: Vec<String> = flow.bets.iter().map(|b| b.name.clone()).collect();
    let mut play = vec![
        Rule::plain(format!(
            "One to {} players bet on one hand for the table; each starts with {} chips{}.",
            number_word(flow.max_players.into()),
            flow.bankroll,
            match flow.banker_bankroll {
                Some(b) => format!(", the banker with {b}"),
                None => ", the banker's purse is unlimited".to_string(),
            }
        )),
        Rule::plain(format!(
            "Each player stakes nothing or {} to {} chips on each bet: {}.",
            flow.min_bet,
            flow.max_bet,
            join_and(&names)
        )),
        Rule::plain(match flow.shoe {
            Some(shoe) => format!(
                "The {card}s come from a shoe of {} packs, dealt across hands; a new shoe starts when fewer than {} {card}s are left.",
                number_word(shoe.packs.into()),
                shoe.cut
            ),
            None => "Each hand is dealt from a freshly shuffled pack.".to_string(),
        }),
        Rule::plain(format!(
            "The player's hand is dealt {} {card}s and the banker's {}.",
            number_word(flow.first_tiles.into()),
            number_word(flow.banker_tiles.into())
        )),
    ];
    if let Some(source) = &flow.card_value_source {
        play.push(Rule::named(
            "Card values",
            format!("a {card} counts {}.", in_words(source, lex)),
        ));
    }
    play.push(Rule::named(
        "Hand value",
        format!(
            "{}; the higher value wins.",
            in_words(&flow.value_source, lex)
        ),
    ));
    play.push(Rule::plain(format!("A session is {}.", hands(flow.hands))));
    let drawing = drawing_rules(flow, lex);
    let bets = flow
        .bets
        .iter()
        .map(|b| {
            let commission = if b.commission.0 > 0 {
                format!(" less {}/{} commission", b.commission.0, b.commission.1)
            } else {
                String::new()
            };
            let push = b.pushes_source.as_ref().map_or_else(String::new, |p| {
                format!("; the stake comes back when {}", in_words(p, lex))
            });
            Rule::named(
                &b.name,
                format!(
                    "wins when {}, paid {} to {}{commission}{push}; otherwise the stake is lost.",
                    in_words(&b.wins_source, lex),
                    b.pays.0,
                    b.pays.1
                ),
            )
        })
        .collect();
    vec![
        Section {
            heading: "Play".to_string(),
            rules: play,
        },
        drawing,
        Section {
            heading: "Bets".to_string(),
            rules: bets,
        },
    ]
}

/// Bets, draws, the banker's instant wins, hand values and session length of a banker game.
fn banker(flow: &BankerFlow, lex: &Lexicon) -> Vec<Section> {
    if flow.table_hand {
        return table_hand(flow, lex);
    }
    if flow.pot.is_some() {
        return pot_game(flow, lex);
    }
    let card = &lex.card_word;
    let draws: Vec<String> = flow
        .draw_options
        .iter()
        .map(|n| number_word((*n).into()))
        .collect();
    let mut rules = vec![
        Rule::plain(match &flow.bank {
            // The banker is one of the seats (so there are two at least).
            Some(_) => format!(
                "Two to {} players sit at the table, one of them the banker, and the others bet against the banker; each starts with {} chips, the banker too.",
                number_word(flow.max_players.into()),
                flow.bankroll,
            ),
            None => format!(
                "One to {} players bet against the banker; each starts with {} chips{}.",
                number_word(flow.max_players.into()),
                flow.bankroll,
                match flow.banker_bankroll {
                    Some(b) => format!(", the banker with {b}"),
                    None => ", the banker's purse is unlimited".to_string(),
                }
            ),
        }),
        Rule::plain(format!(
            "Each player receives {} {card}{} and bets {} to {} chips on it{}.",
            number_word(flow.first_tiles.into()),
            if flow.first_tiles == 1 { "" } else { "s" },
            flow.min_bet,
            flow.max_bet,
            match flow.table_limit {
                Some(t) => format!(
                    "; the players' bets of a hand add up to at most {t} chips, in seat order, and a player left less than {} bets nothing that hand",
                    flow.min_bet
                ),
                None => String::new(),
            }
        )),
        Rule::plain(format!(
            "The banker takes {} {card}s.",
            number_word(flow.banker_tiles.into())
        )),
    ];
    for check in &flow.banker_wins {
        rules.push(check_rule(check, lex, |when| {
            format!("the banker wins every bet at once with {when}.")
        }));
    }
    let ruled = !flow.player_draw.is_empty() || !flow.banker_draw.is_empty();
    if let Some(arrange) = &flow.arrange {
        rules.extend(arrange_rules(flow, arrange, lex));
    } else if ruled {
        rules.push(Rule::plain(format!(
            "Each player then draws by the drawing rules below; where they leave the choice, the player takes {} more {card}s.",
            draws.join(" or ")
        )));
    } else {
        rules.push(Rule::plain(format!(
            "Each player then takes {} more {card}s.",
            draws.join(" or ")
        )));
    }
    rules.push(Rule::named(
        "Showdown",
        format!(
            "a hand's value is {}; the higher value wins the bet, equal values draw.",
            in_words(&flow.value_source, lex)
        ),
    ));
    if !flow.hand_names.is_empty() {
        let names: Vec<String> = flow
            .hand_names
            .iter()
            .map(|(v, n)| format!("{v} is {n}"))
            .collect();
        rules.push(Rule::named(
            "Names of the hands",
            format!("{}.", join_and(&names)),
        ));
    }
    if let Some(bank) = &flow.bank {
        rules.push(Rule::named(
            "The bank",
            bank_words(bank, lex, "banks", "the bank"),
        ));
    }
    let share = |(n, d): (i64, i64)| {
        if 100 % d == 0 {
            format!("{}%", n * (100 / d))
        } else {
            format!("{n}/{d}")
        }
    };
    if flow.commission.0 > 0 {
        rules.push(Rule::named(
            "Commission",
            format!(
                "the banker pays a winning bet in full and the house keeps {} of the win (the win less it rounded down to whole chips).",
                share(flow.commission)
            ),
        ));
    }
    if flow.banker_commission.0 > 0 {
        rules.push(Rule::named(
            "Banker's commission",
            format!(
                "the house keeps {} of what the banker wins in a hand, all bets together (rounded the same way); a losing hand pays none.",
                share(flow.banker_commission)
            ),
        ));
    }
    rules.extend(rank_rules(flow, lex));
    rules.push(Rule::plain(format!("A session is {}.", hands(flow.hands))));
    let mut sections = vec![Section {
        heading: "Play".to_string(),
        rules,
    }];
    if ruled {
        sections.push(drawing_rules(flow, lex));
    }
    sections
}

/// Hands played by actions (`[flow.play]`): the deal, insurance, the peek, each action and when
/// it may be taken, the banker's drawing rules and the payouts.
fn play_game(
    flow: &BankerFlow,
    declarations: &[crate::ruleset::Declaration],
    lex: &Lexicon,
) -> Vec<Section> {
    use crate::ruleset::{PayResult, PlayEffect};
    let card = &lex.card_word;
    let play = flow.play.as_ref().expect("hands played by actions");
    let mut rules = vec![
        Rule::plain(format!(
            "One to {} players bet against the banker; each starts with {} chips{}.",
            number_word(flow.max_players.into()),
            flow.bankroll,
            match flow.banker_bankroll {
                Some(b) => format!(", the banker with {b}"),
                None => ", the banker's purse is unlimited".to_string(),
            }
        )),
        Rule::plain(format!(
            "Each player bets {} to {} chips before any {card} is dealt; then each player receives {} {card}s and the banker {}, a {card} at a time round the table, from {}. The players see the banker's first {}.",
            flow.min_bet,
            flow.max_bet,
            number_word(flow.first_tiles.into()),
            number_word(flow.banker_tiles.into()),
            match flow.shoe {
                Some(s) if s.packs > 1 => format!(
                    "a shoe of {} packs, shuffled again when fewer than {} {card}s are left before a hand",
                    s.packs, s.cut
                ),
                _ => "a pack shuffled for each hand".to_string(),
            },
            if play.banker_shown == 1 {
                card.clone()
            } else {
                format!("{} {card}s", number_word(play.banker_shown.into()))
            }
        )),
        Rule::named(
            "Hand value",
            format!("{}.", in_words(&flow.value_source, lex)),
        ),
    ];
    if let Some(soft) = &flow.soft_source {
        rules.push(Rule::named(
            "Soft",
            format!("a hand is soft when {}.", in_words(soft, lex)),
        ));
    }
    if let Some(ins) = &play.insurance {
        rules.push(Rule::named(
            "Insurance",
            format!(
                "when {}, a player may stake up to half the bet on insurance, paid {} to {} when {}, else lost.",
                in_words(&ins.when_source, lex),
                ins.pays.0,
                ins.pays.1,
                in_words(&ins.wins_source, lex)
            ),
        ));
    }
    if let Some(peek) = &play.peek_source {
        rules.push(Rule::named(
            "The peek",
            format!(
                "when {}, nobody acts: every hand is settled on its first {card}s at once.",
                in_words(peek, lex)
            ),
        ));
    }
    rules.push(Rule::plain(format!(
        "Each player in turn plays each of their hands by the actions below until it stands; a hand with no action open but standing stands; a seat holds at most {} hands by splitting.",
        number_word(play.split_hands.into())
    )));
    rules.push(Rule::plain(format!("A session is {}.", hands(flow.hands))));
    let actions = play
        .actions
        .iter()
        .map(|a| {
            let d = &declarations[a.decl.0 as usize];
            let what = match a.effect {
                PlayEffect::Hit => format!("take one more {card}"),
                PlayEffect::Stand => format!("take no more {card}s"),
                PlayEffect::Double => format!("double the stake, take one more {card} and stand"),
                PlayEffect::Split => format!(
                    "split two {card}s into two hands, each with the stake and dealt a second {card}"
                ),
                PlayEffect::Surrender => "give up the hand and half the stake".to_string(),
            };
            let when = d
                .when_source
                .as_ref()
                .map_or_else(|| "always".to_string(), |w| format!("when {}", in_words(w, lex)));
            Rule::named(d.name.clone(), format!("{what}; {when}."))
        })
        .collect();
    let mut payouts: Vec<Rule> = play
        .payouts
        .iter()
        .map(|p| {
            let result = match p.result {
                PayResult::Win => format!("the hand wins {} to {}", p.pays.0, p.pays.1),
                PayResult::Push => "the stake comes back".to_string(),
                PayResult::Lose if p.pays == (1, 1) => "the hand loses its stake".to_string(),
                PayResult::Lose => format!("the hand loses {}/{} of its stake", p.pays.0, p.pays.1),
            };
            Rule::named(
                p.name.clone(),
                format!("when {}, {result}.", in_words(&p.when_source, lex)),
            )
        })
        .collect();
    payouts.push(Rule::plain(
        "The first of these that holds settles a hand; otherwise the higher hand wins 1 to 1 and equal hands push. A doubled stake counts whole.".to_string(),
    ));
    vec![
        Section {
            heading: "Play".to_string(),
            rules,
        },
        Section {
            heading: "Actions".to_string(),
            rules: actions,
        },
        drawing_rules(flow, lex),
        Section {
            heading: "Payouts".to_string(),
            rules: payouts,
        },
    ]
}

/// The ranks and special hands, when the ruleset ranks hands.
fn rank_rules(flow: &BankerFlow, lex: &Lexicon) -> Vec<Rule> {
    let mut out = Vec::new();
    if flow.ranks.is_empty() {
        return out;
    }
    let names: Vec<String> = flow
        .ranks
        .iter()
        .map(|r| match &r.within_source {
            Some(w) => format!("{} (by {})", r.name.replace("{}", "N"), in_words(w, lex)),
            None => r.name.clone(),
        })
        .collect();
    out.push(Rule::named(
        "Ranks, best first",
        format!("{}.", names.join(", ")),
    ));
    for sp in &flow.specials {
        let mut says = Vec::new();
        if !sp.beats.is_empty() {
            let beaten: Vec<String> = sp
                .beats
                .iter()
                .map(|&i| flow.ranks[i].name.replace("{}", "N"))
                .collect();
            says.push(format!(
                "beats {} though ranked below, and plays as its own rank against the rest",
                join_and(&beaten)
            ));
        }
        if let Some(b) = sp.redeal_below {
            says.push(format!(
                "calls for a redeal among the seats still in when every other hand ranks below {}",
                flow.ranks[b].name.replace("{}", "N")
            ));
        }
        out.push(Rule::named(
            sp.name.clone(),
            format!(
                "{}: it {}.",
                in_words(&sp.when_source, lex),
                says.join("; it ")
            ),
        ));
    }
    out
}

/// A pot game: antes, the deal and betting rounds, the showdown by rank.
fn pot_game(flow: &BankerFlow, lex: &Lexicon) -> Vec<Section> {
    let card = &lex.card_word;
    let pot = flow.pot.as_ref().expect("a pot game");
    let rounds: Vec<String> = pot
        .rounds
        .iter()
        .map(|n| {
            format!(
                "{} {card}{}",
                number_word((*n).into()),
                if *n == 1 { "" } else { "s" }
            )
        })
        .collect();
    let mut rules = vec![
        Rule::plain(format!(
            "Two to {} players each start with {} chips and put {} in the pot before each deal.",
            number_word(flow.max_players.into()),
            flow.bankroll,
            pot.ante
        )),
        Rule::plain(format!(
            "Each player is dealt {}, with a betting round after each deal.",
            join_and(&rounds)
        )),
        Rule::named(
            "Betting",
            format!(
                "in turn from the dealer, each player checks or bets, then calls, raises ({} to {} chips more, at most {} raises a round) or folds; a raise may not go beyond what a player still in can call.",
                flow.min_bet, flow.max_bet, pot.raises
            ),
        ),
        Rule::named(
            "Showdown",
            "the best hand still in takes the pot (shared on a tie, an odd chip to the first in turn); when all others fold, the last player in takes it.".to_string(),
        ),
    ];
    if let Some(bank) = &flow.bank {
        rules.push(Rule::named(
            "The deal",
            bank_words(bank, lex, "deals", "the deal"),
        ));
    }
    rules.extend(rank_rules(flow, lex));
    rules.push(Rule::plain(format!("A session is {}.", hands(flow.hands))));
    vec![Section {
        heading: "Play".to_string(),
        rules,
    }]
}

/// `a`, `a or b`, `a, b or c`.
fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// Which cards a player gives when a turn event takes from them: `the lowest of their ...,
/// else of their ...`.
fn give_words(flow: &MatchingFlow, deck: &Deck) -> String {
    let sets: Vec<String> = flow.give.iter().map(|&set| set_words(set, deck)).collect();
    format!("the lowest of their {}", sets.join(", else of their "))
}

/// A set of cards in words: a kind's (`pi cards`), a kind's but some (`pi cards other than
/// ssangpi and bonus cards`), one card's name, or how many cards.
fn set_words(set: CardSet, deck: &Deck) -> String {
    if let Some(only) = set.first_card().filter(|_| set.len() == 1) {
        return deck.card(only).name.clone();
    }
    let smallest_kind = deck
        .kinds
        .iter()
        .filter(|k| k.cards.contains_all(set))
        .min_by_key(|k| k.cards.len());
    let Some(kind) = smallest_kind else {
        return format!("{} {}s", set.len(), "card");
    };
    if kind.cards == set {
        return format!("{} cards", kind.id);
    }
    let rest = kind.cards.difference(set);
    let others: Vec<&str> = deck
        .kinds
        .iter()
        .filter(|k| k.id != kind.id)
        .filter(|k| {
            let inside = k.cards.intersection(kind.cards);
            !inside.is_empty() && rest.contains_all(inside)
        })
        .map(|k| k.id.as_str())
        .collect();
    let covered = deck
        .kinds
        .iter()
        .filter(|k| others.contains(&k.id.as_str()))
        .fold(CardSet::EMPTY, |acc, k| {
            acc.union(k.cards.intersection(kind.cards))
        });
    if covered == rest {
        let others: Vec<String> = others.iter().map(|o| o.to_string()).collect();
        format!("{} cards other than {} cards", kind.id, join_and(&others))
    } else {
        format!("{} of the {} cards", set.len(), kind.id)
    }
}

/// Cards in words for a trick-taking sheet, one phrase a suit taken whole (`a Hearts card`,
/// or with `each`: `each Hearts card`) or a card (`the Queen of Spades`), joined by `joiner`.
fn cards_named(set: CardSet, deck: &Deck, each: bool, joiner: &str) -> String {
    let mut parts = Vec::new();
    for suit in &deck.suits {
        let inside = set.intersection(suit.cards);
        if inside.is_empty() {
            continue;
        }
        if inside == suit.cards {
            let article = if each { "each" } else { "a" };
            parts.push(format!("{article} {} card", suit.name));
        } else {
            parts.extend(inside.iter().map(|c| format!("the {}", deck.card(c).name)));
        }
    }
    match parts.len() {
        0 => String::new(),
        1 => parts.remove(0),
        n => format!("{} {joiner} {}", parts[..n - 1].join(", "), parts[n - 1]),
    }
}

/// A deal check as a rule named after it: `sentence` given its condition in words.
fn check_rule(check: &DealCheck, lex: &Lexicon, sentence: impl Fn(&str) -> String) -> Rule {
    let when = match &check.description {
        Some(words) => words.clone(),
        None => in_words(&check.when_source, lex),
    };
    Rule::named(&check.name, sentence(&when))
}

/// `1 point`, `2 points`.
fn points_words(p: i64) -> String {
    if p == 1 {
        "1 point".to_string()
    } else {
        format!("{p} points")
    }
}

/// How a played card captures under `[[flow.capture]]`, in words: each way in precedence order.
fn capture_words(flow: &MatchingFlow, lex: &Lexicon, draws: bool) -> String {
    let card = &lex.card_word;
    let by = |b: &str| {
        if b == "suit" {
            lex.suit_word.clone()
        } else {
            b.to_string()
        }
    };
    let ways: Vec<String> = flow
        .captures
        .iter()
        .enumerate()
        .map(|(i, rule)| {
            let what = match rule.kind {
                CaptureKind::Equal => format!("one table {card} of the same {}", by(&rule.by)),
                CaptureKind::Sum => {
                    let total = rule.total_source.as_deref().map_or_else(
                        || "the played card's".to_string(),
                        |t| format!("`{}` (`played` being the played card's)", t.trim()),
                    );
                    format!(
                        "{} or more table {card}s whose {}s add up to {total} {}",
                        number_word(rule.min_cards.into()),
                        by(&rule.by),
                        by(&rule.by)
                    )
                }
            };
            if i > 0 && rule.fallback {
                format!("only when that takes nothing, {what}")
            } else if i > 0 {
                format!("or {what}")
            } else {
                what
            }
        })
        .collect();
    let choice = match flow.capture_choice {
        CaptureChoice::Player => "when it can capture in more than one way, the player chooses",
        CaptureChoice::MostCards => {
            "when it can capture in more than one way, the player chooses among those taking the most cards"
        }
    };
    // Said only where a capture may take several groups.
    let groups = match flow.capture_groups {
        CaptureGroups::One => "",
        CaptureGroups::Maximal => {
            "; one card takes at once every group it can that do not share a card (when they \
             overlap, the player chooses which)"
        }
        CaptureGroups::Any => {
            "; one card may take several groups at once, if they do not share a card"
        }
    };
    // Said only where a card that can capture need not (the default says nothing new).
    let trail = match flow.must_capture {
        MustCapture::Always => String::new(),
        MustCapture::Never => format!(
            "; a {card} from your hand that can capture may instead be laid on the table (trailed)"
        ),
        MustCapture::Equal => format!(
            "; a {card} from your hand that can capture may instead be laid on the table \
             (trailed), unless a table {card} equals it"
        ),
    };
    let then = if draws {
        format!("; then turn the top {card} of the stock and do the same")
    } else {
        String::new()
    };
    let builds = flow
        .build
        .as_ref()
        .map_or_else(String::new, |b| build_words(b, card));
    format!(
        "Play a {card} from your hand: it captures {}{groups}; {choice}; a {card} that captures nothing \
         stays on the table{trail}{then}.{builds}",
        ways.join("; ")
    )
}

/// Builds (`[flow.build]`) in words, after the captures.
fn build_words(b: &crate::ruleset::BuildRule, card: &str) -> String {
    let raise = match b.raise {
        crate::ruleset::BuildRaise::Any => {
            "; anyone may raise a single build by laying a card on it, if they hold a card of the new value, and it is theirs"
        }
        crate::ruleset::BuildRaise::Others => {
            "; another player may raise a single build by laying a card on it, if they hold a card of the new value, and it is theirs"
        }
        crate::ruleset::BuildRaise::Never => "; a build's value never changes",
    };
    let multiple = if b.multiple {
        format!(
            "; a build may hold several sets of its value, made at once or added later (a {card} of the value, or cards adding up to it, laid on it), and such a build is never raised"
        )
    } else {
        String::new()
    };
    let owner = if b.owner_trails {
        ""
    } else {
        "; while you own a build you may not lay a card on the table without capturing or building, nor play your last card of a build's value without taking that build"
    };
    format!(
        " Builds: instead, lay the {card} on table {card}s that make with it a value (at most {}, counted in {}) of another {card} you hold; the pile is yours, taken only whole and only by a {card} of its value{raise}{multiple}{owner}; one build of each value (a new build of a value takes in the one there).",
        b.most, b.by
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_family_has_one_rule_sheet() {
        for family in crate::families::FAMILIES {
            let sheets = (super::FAMILY_SECTIONS.iter())
                .filter(|(name, _)| *name == family.name())
                .count();
            assert_eq!(sheets, 1, "family `{}`", family.name());
        }
        assert_eq!(
            super::FAMILY_SECTIONS.len(),
            crate::families::FAMILIES.len()
        );
    }
}
