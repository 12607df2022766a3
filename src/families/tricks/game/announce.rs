//! Announcements that raise the stake or set a target (`[[flow.announcement]]`): offered to the
//! seat on turn during play, in the window its rules give (fewer than `until_card` cards of its
//! own played), once a hand and after the announcement they wait for; made without ending the
//! turn. The settlement multiplies by the factors made; the scoring script reads each with its
//! side and whether that side reached its target. A game without announcements checks one
//! empty list and keeps an empty vector.

use super::*;
use crate::ruleset::{AnnounceBy, Announcement, announcement_fact, stake_of};
use crate::script::FactValue;

/// An announcement made this hand: its index in the flow's, and who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Announced {
    /// Its index in [`TricksFlow::announcements`].
    pub index: u8,
    /// The seat that made it.
    pub seat: Seat,
}

impl TricksGame {
    /// The announcements made this hand, in order.
    pub fn announced(&self) -> &[Announced] {
        &self.announced
    }

    /// What the hand's settlement is multiplied by: the product of the factors made (1 without
    /// any).
    pub fn stake(&self) -> i64 {
        stake_of((self.announced.iter()).map(|a| self.flow.announcements[a.index as usize].factor))
    }

    /// True when `seat` is on the side `by` names (`declarer`: the declarer's, its partners
    /// included; `defenders`: the other).
    fn on_side(&self, seat: Seat, by: AnnounceBy) -> bool {
        match (by, self.declarer) {
            (AnnounceBy::Any, _) => true,
            (_, None) => false,
            (AnnounceBy::Declarer, Some(d)) => self.team_of(seat) == self.team_of(d),
            (AnnounceBy::Defenders, Some(d)) => self.team_of(seat) != self.team_of(d),
        }
    }

    /// Whether `seat`, on turn in play, may make announcement `i` now, and if not why.
    fn may_announce(&self, seat: Seat, i: usize) -> Result<(), String> {
        let a = &self.flow.announcements[i];
        if !matches!(self.phase, Phase::Lead | Phase::Follow) || self.turn != seat {
            return Err("announcements are made on one's turn during play".into());
        }
        if self.announced.iter().any(|m| m.index as usize == i) {
            return Err("it has been made this hand".into());
        }
        if let Some(j) = a.after
            && !self.announced.iter().any(|m| m.index as usize == j)
        {
            return Err(format!(
                "it needs {} first",
                self.flow.announcements[j].name
            ));
        }
        if !self.on_side(seat, a.by) {
            return Err(match a.by {
                AnnounceBy::Declarer => "only the declarer's side makes it".into(),
                _ => "only the defenders make it".into(),
            });
        }
        if self.played[seat].len() >= a.until_card {
            return Err(match a.until_card {
                1 => "it is made before one's first card".into(),
                n => format!("it is made before one's card number {n}"),
            });
        }
        if !self.when_holds(a.decl, seat) {
            return Err("its `when` does not hold".into());
        }
        Ok(())
    }

    /// Appends the announcements `seat` may make now (none in a game without them).
    #[inline]
    pub(super) fn announcement_moves(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.flow.announcements.is_empty() {
            return;
        }
        for (i, a) in self.flow.announcements.iter().enumerate() {
            if self.may_announce(seat, i).is_ok() {
                out.push(Action::declare(a.decl));
            }
        }
    }

    /// The announcement made with `decl`, if `decl` makes one.
    #[inline]
    pub(super) fn announcement_of(&self, decl: DeclId) -> Option<usize> {
        if self.flow.announcements.is_empty() {
            return None;
        }
        self.flow.announcements.iter().position(|a| a.decl == decl)
    }

    /// `seat` makes announcement `i` (the turn stays with it).
    pub(super) fn announce(&mut self, seat: Seat, i: usize) -> Result<(), IllegalAction> {
        if let Err(why) = self.may_announce(seat, i) {
            let name = &self.flow.announcements[i].name;
            return Err(IllegalAction::new(format!(
                "{name} is not possible now: {why}"
            )));
        }
        self.announced.push(Announced {
            index: i as u8,
            seat,
        });
        let decl = self.flow.announcements[i].decl;
        self.emit(Event::Declared {
            player: seat,
            decl,
            card: None,
        });
        Ok(())
    }

    /// True when `seat` made an announcement that only one side may make: its side is then
    /// known to all.
    pub(super) fn announced_side(&self, seat: Seat) -> bool {
        self.announced.iter().any(|m| {
            m.seat == seat && self.flow.announcements[m.index as usize].by != AnnounceBy::Any
        })
    }

    /// The announcements for the scoring script, seen from `winner`'s side: each
    /// `#{ id, seat, side, factor, reached }`.
    pub(super) fn announcement_facts(&self, winner: Seat) -> Vec<FactValue> {
        let team = self.team_of(winner);
        let seats = self.hands.len();
        self.announced
            .iter()
            .map(|m| {
                let a = &self.flow.announcements[m.index as usize];
                let side = self.team_of(m.seat);
                let (mut points, mut tricks) = (0i64, 0u32);
                for s in (0..seats).filter(|&s| self.team_of(s) == side) {
                    points += self.points(s);
                    tricks += self.tricks[s];
                }
                let total = self.tricks_played() + self.hands[m.seat].len();
                announcement_fact(
                    a,
                    m.seat,
                    side == team,
                    a.target.reached(points, tricks, total),
                )
            })
            .collect()
    }
}

impl TricksGame {
    /// The script's outcome multiplied by the stake of the announcements made, with a step
    /// that says so (a factor of 1, a target alone, leaves it as it is).
    pub(super) fn staked(&self, o: crate::script::ScoreOutcome) -> crate::script::ScoreOutcome {
        let made: Vec<&Announcement> = (self.announced.iter())
            .map(|m| &self.flow.announcements[m.index as usize])
            .collect();
        staked(o, &made)
    }
}

/// `o` multiplied by the factors of the announcements `made` (`yaku score --announce` and the
/// game alike), with a step naming those that raised it: the totals, each seat's points and
/// payments; values carried into the next hand are left as they are.
pub fn staked(
    mut o: crate::script::ScoreOutcome,
    made: &[&Announcement],
) -> crate::script::ScoreOutcome {
    let stake = stake_of(made.iter().map(|a| a.factor));
    if stake == 1 {
        return o;
    }
    o.total = o.total.saturating_mul(stake);
    o.opponent = o.opponent.saturating_mul(stake);
    for v in o.seats.iter_mut().chain(o.pays.iter_mut()) {
        *v = v.saturating_mul(stake);
    }
    let names: Vec<&str> = (made.iter())
        .filter(|a| a.factor != 1)
        .map(|a| a.name.as_str())
        .collect();
    // The running total multiplied (a script settling every seat gives none of its own).
    let total = match (o.seats.is_empty(), o.steps.last()) {
        (false, Some(last)) => last.total.saturating_mul(stake),
        _ => o.total,
    };
    o.steps.push(crate::script::ScoreStep {
        reason: format!("{}: the stake ×{stake}", names.join(", ")),
        total,
        seat: None,
    });
    o
}
