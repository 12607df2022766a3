//! The rule sheet's words for an announcement of a trick-taking game (`[[flow.announcement]]`):
//! who makes it, in which window, after which other, and what it does to the stake and the
//! target.

use crate::ruleset::{AnnounceBy, Announcement, TrickCount, TricksFlow};

/// What announcement `id` is, in words (lower case, no full stop): `the defenders, on their
/// turn before their first card: doubles the stake (×2)`; `None` for an id with no
/// announcement.
pub(super) fn announce_words(flow: &TricksFlow, id: &str) -> Option<String> {
    let a = flow.announcements.iter().find(|a| a.id == id)?;
    let who = match a.by {
        AnnounceBy::Declarer => "the declarer's side",
        AnnounceBy::Defenders => "the defenders",
        AnnounceBy::Any => "any player",
    };
    let window = match a.until_card {
        1 => "before the announcer's first card".to_string(),
        2 => "before the announcer's second card".to_string(),
        3 => "before the announcer's third card".to_string(),
        n => format!("before the announcer's card number {n}"),
    };
    let mut text = format!("{who} may announce it on a turn in play, {window}, once a hand");
    if let Some(j) = a.after {
        text.push_str(&format!(", and only after {}", flow.announcements[j].name));
    }
    let effect = effect_words(a);
    text.push_str(&format!(": {effect}"));
    Some(text)
}

/// What an announcement does: multiplies the stake, sets a target, or both.
fn effect_words(a: &Announcement) -> String {
    let mut parts = Vec::new();
    match a.factor {
        1 => {}
        2 => parts.push("it doubles the hand's stake (×2)".to_string()),
        n => parts.push(format!("it multiplies the hand's stake by {n}")),
    }
    let mut target = Vec::new();
    if let Some(p) = a.target.points {
        target.push(format!("take {p} card points or more"));
    }
    match a.target.min_tricks {
        Some(TrickCount::All) => target.push("take every trick".to_string()),
        Some(TrickCount::Count(n)) => target.push(format!("take {n} tricks or more")),
        None => {}
    }
    if let Some(m) = a.target.max_tricks {
        target.push(format!("take {m} tricks or fewer"));
    }
    if !target.is_empty() {
        parts.push(format!(
            "the announcing side must then {} (the scoring says what it is worth)",
            target.join(" and ")
        ));
    }
    if parts.is_empty() {
        parts.push("the scoring says what it is worth".to_string());
    }
    parts.join("; ")
}
