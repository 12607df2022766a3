//! A trick game's melds in words for the rule sheet: each meld's cards and points, a pattern
//! of cards alike, and the moment a meld is shown.

use super::{capitalized, join_and, join_or, points_words};
use crate::deck::Deck;
use crate::expr::number_word;

/// A meld in words: its cards and points.
pub(super) fn meld_words(m: &crate::ruleset::Meld, deck: &Deck) -> String {
    use crate::ruleset::MeldSuit;
    let kinds: Vec<String> = m.kinds.iter().map(|&k| deck.kinds[k].id.clone()).collect();
    let cards: Vec<String> = m.cards.iter().map(|&c| deck.card(c).name.clone()).collect();
    if m.pattern != crate::ruleset::MeldPattern::Listed {
        return format!(
            "{}: {} (class {}).",
            capitalized(&pattern_words(m, &kinds)),
            points_words(m.points),
            m.class
        );
    }
    let what = match m.suit {
        MeldSuit::Mixed => String::new(),
        MeldSuit::Trump => format!("{} of trumps", join_and(&kinds)),
        MeldSuit::Plain => format!("{} of one suit other than trumps", join_and(&kinds)),
        MeldSuit::Any => format!("{} of one suit", join_and(&kinds)),
        MeldSuit::Each => format!("{} of every suit", join_and(&kinds)),
        MeldSuit::Cards => join_and(&cards),
    };
    let copies = if m.copies > 1 {
        format!(", {} of each", number_word(m.copies.into()))
    } else {
        String::new()
    };
    format!(
        "{}{copies}: {} (class {}).",
        capitalized(&what),
        points_words(m.points),
        m.class
    )
}

/// A pattern meld's cards in words: "four cards of one rank (king), from any suits".
fn pattern_words(m: &crate::ruleset::Meld, kinds: &[String]) -> String {
    use crate::ruleset::{MeldPattern, MeldSuit};
    let mut of: Vec<String> = kinds.to_vec();
    of.extend(m.ranks.iter().map(|r| format!("rank {r}")));
    let of = if of.is_empty() {
        String::new()
    } else {
        format!(" ({})", join_or(&of))
    };
    match m.pattern {
        MeldPattern::Alike(n) => {
            let suits = match m.suit {
                MeldSuit::Trump => "all trumps",
                MeldSuit::Plain => "all of one suit other than trumps",
                MeldSuit::Any => "all of one suit",
                MeldSuit::Each => "at least one of each suit",
                _ => "from any suits",
            };
            format!("{} cards of one rank{of}, {suits}", number_word(n.into()))
        }
        MeldPattern::Run(n) => {
            let suit = match m.suit {
                MeldSuit::Trump => "in trumps",
                MeldSuit::Plain => "in one suit other than trumps",
                _ => "in one suit",
            };
            let copies = if m.copies > 1 {
                format!(", {} of each", number_word(m.copies.into()))
            } else {
                String::new()
            };
            format!(
                "a run of {} ranks in a row{of} {suit}{copies}",
                number_word(n.into())
            )
        }
        MeldPattern::Listed => String::new(),
    }
}

/// When a meld shown after play is shown, and when and where its points count.
pub(super) fn moment_words(m: &crate::ruleset::Meld, card: &str) -> String {
    use crate::ruleset::{MeldAddsTo, MeldMoment};
    let when = match (m.moment, m.leads_its_card) {
        (MeldMoment::Lead, true) => format!(
            "Shown on one's lead by leading one of its {card}s, the others staying shown until played"
        ),
        (MeldMoment::Lead, false) => {
            "Shown on one's lead, before leading any card (one meld a lead)".to_string()
        }
        (MeldMoment::WonTrick, _) => format!(
            "Shown by the winner of a trick before drawing, while {card}s are left to draw (one meld a trick)"
        ),
        (MeldMoment::BeforePlay, _) => "Shown before the first lead".to_string(),
    };
    let to = match m.adds_to {
        MeldAddsTo::Points => format!("its points add to the player's {card} points"),
        MeldAddsTo::Melds => "its points are meld points".to_string(),
    };
    let counts = if m.needs_trick {
        ", once the player has won a trick"
    } else {
        ""
    };
    format!("{when}; {to}{counts}.")
}
