//! Statistics over simulated games of every family, folded game by game in constant memory:
//! win rates with Wilson intervals, means with normal 95% intervals, the dealer's advantage,
//! how hands end, calls to play on, yaku, a house's result; and paired differences between two
//! rulesets played on the same seeds.
//!
//! A run's statistics are exact integer sums, which add up to the same totals in any order: each
//! worker folds the games it plays into statistics of its own, and the workers' statistics are
//! merged at the end, so the report is the same on any number of threads. Only a comparison's
//! paired per-game means are floating point, folded in game order.
//!
//! Per-round figures treat rounds as independent observations (within a game they are only
//! loosely linked, through the dealer and the score).

use super::GameResult;
use crate::core::{Game, HandResult, Seat};
use crate::ruleset::Ruleset;
use serde::Serialize;
use std::collections::BTreeMap;

/// The normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion with its Wilson 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Proportion {
    /// Successes.
    pub count: u64,
    /// Trials.
    pub n: u64,
    /// `count / n` (0 when `n` is 0).
    pub rate: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

impl Proportion {
    /// `count` successes in `n` trials.
    pub fn new(count: u64, n: u64) -> Proportion {
        if n == 0 {
            return Proportion {
                count,
                n,
                rate: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let nf = n as f64;
        let p = count as f64 / nf;
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * nf)) / (1.0 + z2 / nf);
        let half = Z95 * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / (1.0 + z2 / nf);
        Proportion {
            count,
            n,
            rate: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}

/// A mean with the half-width of its normal 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Mean {
    /// Observations.
    pub n: u64,
    /// Their mean.
    pub mean: f64,
    /// Half-width of the 95% interval (`mean ± ci95`).
    pub ci95: f64,
}

/// A running sum for a [`Mean`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MeanAcc {
    n: u64,
    sum: f64,
    sq: f64,
}

impl MeanAcc {
    /// Adds an observation.
    pub fn add(&mut self, v: f64) {
        self.n += 1;
        self.sum += v;
        self.sq += v * v;
    }

    /// The mean so far.
    pub fn mean(&self) -> Mean {
        Mean::from_sums(self.n, self.sum, self.sq)
    }
}

/// Exact running sums of integer observations for a [`Mean`]. The sums are the same whatever
/// the order the observations are added or the sums merged in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sums {
    n: u64,
    /// Cannot overflow: fewer than 2^64 observations of at most 2^63 each.
    sum: i128,
    /// Saturates (squares of points beyond 2^62 are no game's).
    sq: u128,
}

impl Sums {
    /// Adds an observation.
    #[inline]
    pub fn add(&mut self, v: i64) {
        self.n += 1;
        self.sum = self.sum.wrapping_add(i128::from(v));
        // |v| <= 2^63, so the square fits.
        self.sq = self.sq.saturating_add(u128::from(v.unsigned_abs()).pow(2));
    }

    /// Adds the observations of `other`.
    pub fn merge(&mut self, other: &Sums) {
        self.n += other.n;
        self.sum = self.sum.wrapping_add(other.sum);
        self.sq = self.sq.saturating_add(other.sq);
    }

    /// The mean of the observations, each divided by `scale` (observations kept as integer
    /// multiples of a fraction).
    pub fn mean_over(&self, scale: i64) -> Mean {
        let k = scale as f64;
        Mean::from_sums(self.n, self.sum as f64 / k, self.sq as f64 / (k * k))
    }
}

impl Mean {
    /// The mean of `values`.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Mean {
        let mut acc = MeanAcc::default();
        for v in values {
            acc.add(v);
        }
        acc.mean()
    }

    fn from_sums(n: u64, sum: f64, sq: f64) -> Mean {
        if n == 0 {
            return Mean {
                n,
                mean: 0.0,
                ci95: 0.0,
            };
        }
        let nf = n as f64;
        let mean = sum / nf;
        let var = if n > 1 {
            ((sq - sum * sum / nf) / (nf - 1.0)).max(0.0)
        } else {
            0.0
        };
        Mean {
            n,
            mean,
            ci95: Z95 * (var / nf).sqrt(),
        }
    }
}

/// One player's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerStats {
    /// The bot's name.
    pub player: String,
    /// Games won: the highest final score alone. Against a house (a banker game): hands won,
    /// and the bankroll at the end is `score_per_game`.
    pub wins: u64,
    /// Games lost (against a house: hands lost).
    pub losses: u64,
    /// Games drawn, the highest score shared (against a house: hands neither won nor lost,
    /// pushes and hands sat out).
    pub draws: u64,
    /// The share of games won (against a house: of hands), with its interval.
    pub win_rate: Proportion,
    /// Points per round (for games settled with a house: the net transfer per hand), with
    /// its interval.
    pub points_per_round: Mean,
    /// Mean final score per game, with its interval.
    pub score_per_game: Mean,
    /// Calls to play on made.
    pub calls: u64,
    /// Hands in which this player called at least once.
    pub call_hands: u64,
    /// Of those, the hands the caller went on to win.
    pub calls_paid_off: Proportion,
}

/// How often a yaku (or instant win) was part of a winning hand.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct YakuCount {
    /// The yaku's id.
    pub id: String,
    /// The rounds it ended (`count`) of all rounds (`n`), with the interval.
    pub share: Proportion,
}

/// How often hands ended one way.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EndCount {
    /// How (`stop`, `exhausted`, `showdown`, ...).
    pub end: String,
    /// The share of all rounds, with its interval.
    pub share: Proportion,
}

/// The version of the JSON shape of a report and a comparison (`sim --json`): 2 since every
/// interval is `count`, `n`, `rate`, `low`, `high` and every mean `n`, `mean`, `ci95`.
pub const FORMAT: u32 = 2;

/// The report of a run: the same shape for every family and seat count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The version of this shape, [`FORMAT`].
    pub format: u32,
    /// The ruleset's id.
    pub ruleset: String,
    /// The family (`matching`, `banker`).
    pub family: String,
    /// Games played.
    pub games: u64,
    /// Rounds (hands) played.
    pub rounds: u64,
    /// The run's seed.
    pub seed: u64,
    /// Each player (players rotate seats; see [`super`]).
    pub seats: Vec<PlayerStats>,
    /// How hands ended.
    pub ends: Vec<EndCount>,
    /// Dealer's points minus the other players' average, per round (games with a dealer seat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dealer_advantage: Option<Mean>,
    /// Rounds won by the dealer (games with a dealer seat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dealer_wins: Option<Proportion>,
    /// The house's result per hand (games settled with a house outside the seats).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub house: Option<Mean>,
    /// True when results are counted by hand, in chips (banker games): wins, losses and pushes
    /// are hands, and the score at the end of a game a bankroll.
    #[serde(skip)]
    pub by_hand: bool,
    /// How often each yaku ended a round, most frequent first.
    pub yaku: Vec<YakuCount>,
    /// Games that ended early because a seat's stake ran out (rulesets with stakes, whose
    /// final scores are the stakes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stake_outs: Option<Proportion>,
}

impl Report {
    /// The share of rounds that ended in one of `ends`.
    pub fn ended(&self, ends: &[&str]) -> Proportion {
        let count = self
            .ends
            .iter()
            .filter(|e| ends.contains(&e.end.as_str()))
            .map(|e| e.share.count)
            .sum();
        Proportion::new(count, self.rounds)
    }
}

/// One player's running sums.
#[derive(Clone, Copy, Debug, Default)]
struct PlayerSums {
    wins: u64,
    losses: u64,
    per_round: Sums,
    per_game: Sums,
    calls: u64,
    call_hands: u64,
    paid: u64,
}

impl PlayerSums {
    fn merge(&mut self, other: &PlayerSums) {
        self.wins += other.wins;
        self.losses += other.losses;
        self.per_round.merge(&other.per_round);
        self.per_game.merge(&other.per_game);
        self.calls += other.calls;
        self.call_hands += other.call_hands;
        self.paid += other.paid;
    }
}

/// The running statistics of a run, one game at a time, by player (not seat).
#[derive(Clone, Debug)]
pub struct Stats {
    ruleset: String,
    family: &'static str,
    against_house: bool,
    /// A house banks outside the seats: its result is reported.
    has_house: bool,
    /// The partnerships: a seat wins a game when it and its partners alone hold the top score.
    teams: crate::ruleset::Teams,
    yaku_ids: Vec<String>,
    players: Vec<String>,
    games: u64,
    rounds: u64,
    /// Each player's sums, in [`Stats::players`] order.
    by_player: Vec<PlayerSums>,
    /// Rounds by how they ended, in order of first appearance (a handful of ends: a linear
    /// search, where the same `&'static str` is found by address, beats a map's string
    /// compares on every round); sorted by name in the report.
    ends: Vec<(&'static str, u64)>,
    dealt: u64,
    /// The dealer's advantage times [`Stats::dealer_scale`], an integer.
    dealer_adv: Sums,
    /// The other players' count, by which their average divides: at least 1.
    dealer_scale: i64,
    dealer_wins: u64,
    house: Sums,
    yaku: Vec<u64>,
    special: BTreeMap<String, u64>,
    staked: bool,
    stake_outs: u64,
    /// The lowest total wins a game (`lowest_wins`).
    lowest_wins: bool,
}

impl Stats {
    /// Empty statistics for a run of `ruleset` with `players`.
    pub fn new(ruleset: &Ruleset, players: &[String]) -> Stats {
        let n = players.len();
        Stats {
            ruleset: ruleset.id.clone(),
            family: ruleset.flow.family(),
            against_house: ruleset.banker().is_some(),
            has_house: ruleset.banker().is_some_and(|f| f.has_house()),
            teams: ruleset.teams(),
            yaku_ids: ruleset.yaku.yaku.iter().map(|y| y.id.clone()).collect(),
            players: players.to_vec(),
            games: 0,
            rounds: 0,
            by_player: vec![PlayerSums::default(); n],
            ends: Vec::new(),
            dealt: 0,
            dealer_adv: Sums::default(),
            dealer_scale: n.max(2) as i64 - 1,
            dealer_wins: 0,
            house: Sums::default(),
            yaku: vec![0; ruleset.yaku.yaku.len()],
            special: BTreeMap::new(),
            staked: ruleset.matching().is_some_and(|f| f.stake.is_some()),
            stake_outs: 0,
            lowest_wins: ruleset.lowest_wins(),
        }
    }

    /// Folds in a finished game, where player `p` sat at seat `seat_of[p]`.
    pub fn add_game(&mut self, game: &dyn Game, seat_of: &[Seat]) {
        self.add_hands(seat_of, game.scores(), game.history());
    }

    /// Folds in one game's result.
    pub fn add(&mut self, g: &GameResult) {
        self.add_hands(&g.seat_of, &g.scores, &g.hands);
    }

    /// Folds in a game's final scores and hands, by seat.
    fn add_hands(&mut self, seat_of: &[Seat], scores: &[i64], hands: &[HandResult]) {
        self.games += 1;
        self.stake_outs += u64::from(self.staked && scores.iter().any(|&s| s <= 0));
        // Where the lowest total wins, a game is won and lost on the scores turned around.
        let turned: Vec<i64> = if self.lowest_wins {
            scores.iter().map(|&s| -s).collect()
        } else {
            Vec::new()
        };
        let ranked = if self.lowest_wins {
            &turned[..]
        } else {
            scores
        };
        let top = ranked.iter().copied().max().unwrap_or(0);
        for (sums, &seat) in self.by_player.iter_mut().zip(seat_of) {
            let score = scores[seat];
            // Against a house a win is a hand won (counted by hand below); the bankroll at the
            // end is `per_game`.
            if !self.against_house {
                sums.wins += u64::from(leads_alone(ranked, seat, &self.teams));
                sums.losses += u64::from(ranked[seat] < top);
            }
            sums.per_game.add(score);
        }
        for h in hands {
            self.add_hand(seat_of, h);
        }
    }

    fn add_hand(&mut self, seat_of: &[Seat], h: &HandResult) {
        self.rounds += 1;
        let end = h.end.0;
        match self
            .ends
            .iter_mut()
            .find(|(e, _)| std::ptr::eq(*e, end) || *e == end)
        {
            Some((_, n)) => *n += 1,
            None => self.ends.push((end, 1)),
        }
        for (sums, &seat) in self.by_player.iter_mut().zip(seat_of) {
            sums.per_round.add(h.points[seat]);
            if self.against_house {
                sums.wins += u64::from(h.points[seat] > 0);
                sums.losses += u64::from(h.points[seat] < 0);
            }
            let calls = h.calls[seat];
            if calls > 0 {
                sums.calls += u64::from(calls);
                sums.call_hands += 1;
                sums.paid += u64::from(h.winner == Some(seat));
            }
        }
        if let Some(d) = h.dealer {
            self.dealt += 1;
            self.dealer_adv
                .add(scaled_dealer_advantage(&h.points, d, self.dealer_scale));
            self.dealer_wins += u64::from(h.winner == Some(d));
        }
        if self.against_house {
            self.house.add(h.house);
        }
        let mut rest = h.yaku_mask;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if let Some(c) = self.yaku.get_mut(i) {
                *c += 1;
            }
        }
        // Simulations keep no explanation for ordinary stops, only the yaku mask; instant wins
        // and house-rule exhaustion keep theirs.
        if let Some(id) = h
            .outcome
            .as_ref()
            .filter(|_| h.yaku_mask == 0)
            .and_then(|o| o.yaku.first())
            .map(|y| y.id.as_str())
        {
            match self.special.get_mut(id) {
                Some(n) => *n += 1,
                None => {
                    self.special.insert(id.to_string(), 1);
                }
            }
        }
    }

    /// Adds the games of `other`, statistics of the same run (the sums are exact, so the
    /// order in which workers' statistics are merged does not matter).
    pub fn merge(&mut self, other: &Stats) {
        self.games += other.games;
        self.rounds += other.rounds;
        for (a, b) in self.by_player.iter_mut().zip(&other.by_player) {
            a.merge(b);
        }
        for (a, b) in self.yaku.iter_mut().zip(&other.yaku) {
            *a += b;
        }
        for &(end, n) in &other.ends {
            match self.ends.iter_mut().find(|(e, _)| *e == end) {
                Some((_, m)) => *m += n,
                None => self.ends.push((end, n)),
            }
        }
        self.dealt += other.dealt;
        self.dealer_adv.merge(&other.dealer_adv);
        self.dealer_wins += other.dealer_wins;
        self.house.merge(&other.house);
        for (id, n) in &other.special {
            *self.special.entry(id.clone()).or_default() += n;
        }
        self.stake_outs += other.stake_outs;
    }

    /// What wins are counted in: games, or against a house hands.
    fn counted(&self) -> u64 {
        if self.against_house {
            self.rounds
        } else {
            self.games
        }
    }

    /// The report so far.
    pub fn report(&self, seed: u64) -> Report {
        let seats = self
            .players
            .iter()
            .zip(&self.by_player)
            .map(|(player, p)| {
                let per_round = p.per_round.mean_over(1);
                PlayerStats {
                    player: player.clone(),
                    wins: p.wins,
                    losses: p.losses,
                    draws: self.counted() - p.wins - p.losses,
                    win_rate: Proportion::new(p.wins, self.counted()),
                    points_per_round: per_round,
                    score_per_game: p.per_game.mean_over(1),
                    calls: p.calls,
                    call_hands: p.call_hands,
                    calls_paid_off: Proportion::new(p.paid, p.call_hands),
                }
            })
            .collect();
        let mut yaku: Vec<YakuCount> = self
            .yaku_ids
            .iter()
            .zip(&self.yaku)
            .map(|(id, &rounds)| (id.clone(), rounds))
            .chain(self.special.iter().map(|(id, &n)| (id.clone(), n)))
            .filter(|(_, n)| *n > 0)
            .map(|(id, rounds)| YakuCount {
                id,
                share: Proportion::new(rounds, self.rounds),
            })
            .collect();
        yaku.sort_by(|a, b| {
            b.share
                .count
                .cmp(&a.share.count)
                .then_with(|| a.id.cmp(&b.id))
        });
        Report {
            format: FORMAT,
            ruleset: self.ruleset.clone(),
            family: self.family.to_string(),
            games: self.games,
            rounds: self.rounds,
            seed,
            seats,
            ends: {
                let mut ends = self.ends.clone();
                ends.sort_unstable_by_key(|&(end, _)| end);
                ends.into_iter()
                    .map(|(end, n)| EndCount {
                        end: end.to_string(),
                        share: Proportion::new(n, self.rounds),
                    })
                    .collect()
            },
            dealer_advantage: (self.dealt > 0)
                .then(|| self.dealer_adv.mean_over(self.dealer_scale)),
            dealer_wins: (self.dealt > 0).then(|| Proportion::new(self.dealer_wins, self.dealt)),
            house: (self.against_house && self.has_house).then(|| self.house.mean_over(1)),
            by_hand: self.against_house,
            yaku,
            stake_outs: self
                .staked
                .then(|| Proportion::new(self.stake_outs, self.games)),
        }
    }
}

/// The dealer's points minus the other players' average in one round, times `scale`, the
/// number of other players (at least 1), so that it is an integer. Beyond the range of `i64`
/// it saturates (points that large are no game's).
fn scaled_dealer_advantage(points: &[i64], dealer: Seat, scale: i64) -> i64 {
    let mut others = 0i64;
    for (s, &p) in points.iter().enumerate() {
        if s != dealer {
            others = others.saturating_add(p);
        }
    }
    scale.saturating_mul(points[dealer]).saturating_sub(others)
}

/// The dealer's points minus the other players' average in one round.
fn dealer_advantage(points: &[i64], dealer: Seat) -> f64 {
    let others: i64 = points.iter().sum::<i64>() - points[dealer];
    points[dealer] as f64 - others as f64 / (points.len().max(2) - 1) as f64
}

/// One measure compared between two rulesets on the same seeds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    /// What is measured.
    pub measure: String,
    /// Its mean under the first ruleset.
    pub a: f64,
    /// Its mean under the second.
    pub b: f64,
    /// `b - a`, paired game by game, with its 95% interval.
    pub diff: Mean,
}

/// Two rulesets compared.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// The version of this shape, [`FORMAT`].
    pub format: u32,
    /// The first ruleset's report.
    pub a: Report,
    /// The second's.
    pub b: Report,
    /// The paired differences.
    pub differences: Vec<Difference>,
}

/// The measures of a comparison, per game.
fn measures(players: &[String]) -> Vec<String> {
    let mut m = Vec::new();
    for (p, name) in players.iter().enumerate() {
        m.push(format!("player {} ({name}) wins", p + 1));
        m.push(format!("player {} ({name}) points per round", p + 1));
    }
    m.extend(
        [
            "dealer advantage per round",
            "points per round, all players",
            "rounds per game",
            "share of rounds exhausted",
            "calls per round",
        ]
        .map(String::from),
    );
    m
}

/// The values of [`measures`] for one game.
fn measure(g: &GameResult) -> Vec<f64> {
    let per_round = |f: &dyn Fn(&HandResult) -> f64| {
        if g.hands.is_empty() {
            0.0
        } else {
            g.hands.iter().map(f).sum::<f64>() / g.hands.len() as f64
        }
    };
    let mut v = Vec::new();
    for &seat in &g.seat_of {
        v.push(f64::from(u8::from(leads_alone(&g.scores, seat, &g.teams))));
        v.push(per_round(&|h| h.points[seat] as f64));
    }
    v.push(per_round(&|h| {
        h.dealer.map_or(0.0, |d| dealer_advantage(&h.points, d))
    }));
    v.push(per_round(&|h| h.points.iter().sum::<i64>() as f64));
    v.push(g.hands.len() as f64);
    v.push(per_round(&|h| {
        f64::from(u8::from(h.end.0.starts_with("exhausted")))
    }));
    v.push(per_round(&|h| f64::from(h.calls.iter().sum::<u32>())));
    v
}

/// Paired differences between two runs, one game at a time.
#[derive(Clone, Debug)]
pub struct Paired {
    names: Vec<String>,
    a: Vec<MeanAcc>,
    b: Vec<MeanAcc>,
    diff: Vec<MeanAcc>,
}

impl Paired {
    /// Empty differences for runs of `players`.
    pub fn new(players: &[String]) -> Paired {
        let names = measures(players);
        let n = names.len();
        Paired {
            names,
            a: vec![MeanAcc::default(); n],
            b: vec![MeanAcc::default(); n],
            diff: vec![MeanAcc::default(); n],
        }
    }

    /// Folds in game `i` of both runs.
    pub fn add(&mut self, a: &GameResult, b: &GameResult) {
        for (k, (x, y)) in measure(a).into_iter().zip(measure(b)).enumerate() {
            self.a[k].add(x);
            self.b[k].add(y);
            self.diff[k].add(y - x);
        }
    }

    /// The comparison of the two reports.
    pub fn finish(self, a: Report, b: Report) -> Comparison {
        let differences = (0..self.names.len())
            .map(|k| Difference {
                measure: self.names[k].clone(),
                a: self.a[k].mean().mean,
                b: self.b[k].mean().mean,
                diff: self.diff[k].mean(),
            })
            .collect();
        Comparison {
            format: FORMAT,
            a,
            b,
            differences,
        }
    }
}

/// True when `seat` won the game: its score is the highest, and every seat that shares it is
/// its partner.
fn leads_alone(scores: &[i64], seat: Seat, teams: &crate::ruleset::Teams) -> bool {
    let top = scores.iter().copied().max().unwrap_or(0);
    scores[seat] == top
        && (0..scores.len())
            .filter(|&s| scores[s] == top)
            .all(|s| teams.team_of(s) == teams.team_of(seat))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_known_values() {
        // 50 of 100: 0.4038..0.5962 (standard tables).
        let p = Proportion::new(50, 100);
        assert!((p.low - 0.4038).abs() < 1e-3 && (p.high - 0.5962).abs() < 1e-3);
        let zero = Proportion::new(0, 10);
        assert_eq!(zero.low, 0.0);
        assert!((zero.high - 0.2775).abs() < 1e-3);
    }

    #[test]
    fn mean_and_interval() {
        let m = Mean::of([1.0, 2.0, 3.0, 4.0]);
        assert_eq!(m.mean, 2.5);
        // sd = 1.29099, se = 0.645497
        assert!((m.ci95 - Z95 * 0.645_497).abs() < 1e-5);
        assert_eq!(Mean::of([]).n, 0);
    }
}
