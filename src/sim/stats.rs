//! Statistics over simulated games: win rates with Wilson intervals, means with normal 95%
//! intervals, the dealer's advantage, how rounds end, koi-koi calls; and paired differences
//! between two rulesets played on the same seeds.
//!
//! Per-round figures treat rounds as independent observations (within a game they are only
//! loosely linked, through the dealer and the score).

use super::GameResult;
use crate::engine::HandEnd;
use serde::Serialize;

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
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

impl Proportion {
    /// `count` successes in `n` trials.
    pub fn new(count: u64, n: u64) -> Proportion {
        if n == 0 {
            return Proportion {
                count,
                n,
                rate: 0.0,
                lo: 0.0,
                hi: 1.0,
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
            lo: (centre - half).max(0.0),
            hi: (centre + half).min(1.0),
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

impl Mean {
    /// The mean of `values`.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Mean {
        let (mut n, mut sum, mut sq) = (0u64, 0.0, 0.0);
        for v in values {
            n += 1;
            sum += v;
            sq += v * v;
        }
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
    /// Games won (higher final score).
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn (equal scores).
    pub draws: u64,
    /// The share of games won, with its interval.
    pub win_rate: Proportion,
    /// Mean points per round.
    pub mean_points_per_round: f64,
    /// Half-width of its 95% interval.
    pub ci95: f64,
    /// Mean final score per game, with its interval.
    pub score_per_game: Mean,
    /// Koi-koi calls made.
    pub koikoi_calls: u64,
    /// Hands in which this player called koi-koi at least once.
    pub koikoi_hands: u64,
    /// Of those, the hands the caller went on to win.
    pub koikoi_paid_off: Proportion,
}

/// How often a yaku (or instant win) was part of a winning hand.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct YakuCount {
    /// The yaku's id.
    pub id: String,
    /// Rounds it ended.
    pub rounds: u64,
    /// The share of all rounds.
    pub share: f64,
}

/// The report of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The ruleset's id.
    pub ruleset: String,
    /// Games played.
    pub games: u64,
    /// Rounds (hands) played.
    pub rounds: u64,
    /// The run's seed.
    pub seed: u64,
    /// Each player (players alternate seats; see [`super`]).
    pub seats: Vec<PlayerStats>,
    /// Dealer's points minus the other player's, per round.
    pub dealer_advantage: Mean,
    /// Rounds won by the dealer.
    pub dealer_wins: Proportion,
    /// Rounds that ended with the hands exhausted.
    pub exhausted: Proportion,
    /// Rounds ended by an instant win at the deal.
    pub instant: Proportion,
    /// How often each yaku ended a round, most frequent first.
    pub yaku: Vec<YakuCount>,
}

/// Summarizes a run.
pub fn summarize(
    ruleset: &str,
    seed: u64,
    players: &[String; 2],
    results: &[GameResult],
) -> Report {
    let rounds: Vec<&super::RoundResult> = results.iter().flat_map(|g| &g.rounds).collect();
    let n_rounds = rounds.len() as u64;
    let seats = (0..2)
        .map(|p| {
            let wins = results
                .iter()
                .filter(|g| g.scores[p] > g.scores[1 - p])
                .count() as u64;
            let losses = results
                .iter()
                .filter(|g| g.scores[p] < g.scores[1 - p])
                .count() as u64;
            let games = results.len() as u64;
            let per_round = Mean::of(rounds.iter().map(|r| r.points[p] as f64));
            let called: Vec<_> = rounds.iter().filter(|r| r.koikoi[p] > 0).collect();
            let paid = called.iter().filter(|r| r.winner == Some(p)).count() as u64;
            PlayerStats {
                player: players[p].clone(),
                wins,
                losses,
                draws: games - wins - losses,
                win_rate: Proportion::new(wins, games),
                mean_points_per_round: per_round.mean,
                ci95: per_round.ci95,
                score_per_game: Mean::of(results.iter().map(|g| g.scores[p] as f64)),
                koikoi_calls: rounds.iter().map(|r| u64::from(r.koikoi[p])).sum(),
                koikoi_hands: called.len() as u64,
                koikoi_paid_off: Proportion::new(paid, called.len() as u64),
            }
        })
        .collect();
    let mut yaku: Vec<YakuCount> = Vec::new();
    for r in &rounds {
        for id in &r.yaku {
            match yaku.iter_mut().find(|y| &y.id == id) {
                Some(y) => y.rounds += 1,
                None => yaku.push(YakuCount {
                    id: id.clone(),
                    rounds: 1,
                    share: 0.0,
                }),
            }
        }
    }
    for y in &mut yaku {
        y.share = y.rounds as f64 / n_rounds.max(1) as f64;
    }
    yaku.sort_by(|a, b| b.rounds.cmp(&a.rounds).then_with(|| a.id.cmp(&b.id)));
    let count = |f: &dyn Fn(&super::RoundResult) -> bool| {
        Proportion::new(rounds.iter().filter(|r| f(r)).count() as u64, n_rounds)
    };
    Report {
        ruleset: ruleset.to_string(),
        games: results.len() as u64,
        rounds: n_rounds,
        seed,
        seats,
        dealer_advantage: Mean::of(
            rounds
                .iter()
                .map(|r| (r.points[r.dealer] - r.points[1 - r.dealer]) as f64),
        ),
        dealer_wins: count(&|r| r.winner == Some(r.dealer)),
        exhausted: count(&|r| matches!(r.end, HandEnd::Exhausted | HandEnd::ExhaustedDealer)),
        instant: count(&|r| matches!(r.end, HandEnd::Instant | HandEnd::BothInstant)),
        yaku,
    }
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
    /// The first ruleset's report.
    pub a: Report,
    /// The second's.
    pub b: Report,
    /// The paired differences.
    pub differences: Vec<Difference>,
}

/// Compares two runs of the same seeds game by game.
pub fn compare(a: Report, b: Report, ra: &[GameResult], rb: &[GameResult]) -> Comparison {
    type Measure = (String, Box<dyn Fn(&GameResult) -> f64>);
    let per_round = |g: &GameResult, f: &dyn Fn(&super::RoundResult) -> f64| {
        if g.rounds.is_empty() {
            0.0
        } else {
            g.rounds.iter().map(f).sum::<f64>() / g.rounds.len() as f64
        }
    };
    let mut measures: Vec<Measure> = Vec::new();
    for p in 0..2 {
        let name = &a.seats[p].player;
        measures.push((
            format!("player {} ({name}) wins", p + 1),
            Box::new(move |g| f64::from(u8::from(g.scores[p] > g.scores[1 - p]))),
        ));
        measures.push((
            format!("player {} ({name}) points per round", p + 1),
            Box::new(move |g| per_round(g, &|r| r.points[p] as f64)),
        ));
    }
    measures.push((
        "dealer advantage per round".into(),
        Box::new(move |g| per_round(g, &|r| (r.points[r.dealer] - r.points[1 - r.dealer]) as f64)),
    ));
    measures.push((
        "points per round, both players".into(),
        Box::new(move |g| per_round(g, &|r| (r.points[0] + r.points[1]) as f64)),
    ));
    measures.push((
        "rounds per game".into(),
        Box::new(|g| g.rounds.len() as f64),
    ));
    measures.push((
        "share of rounds exhausted".into(),
        Box::new(move |g| {
            per_round(g, &|r| {
                f64::from(u8::from(matches!(
                    r.end,
                    HandEnd::Exhausted | HandEnd::ExhaustedDealer
                )))
            })
        }),
    ));
    measures.push((
        "koi-koi calls per round".into(),
        Box::new(move |g| per_round(g, &|r| f64::from(r.koikoi[0] + r.koikoi[1]))),
    ));
    let differences = measures
        .into_iter()
        .map(|(measure, f)| Difference {
            measure,
            a: Mean::of(ra.iter().map(&f)).mean,
            b: Mean::of(rb.iter().map(&f)).mean,
            diff: Mean::of(ra.iter().zip(rb).map(|(x, y)| f(y) - f(x))),
        })
        .collect();
    Comparison { a, b, differences }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_known_values() {
        // 50 of 100: 0.4038..0.5962 (standard tables).
        let p = Proportion::new(50, 100);
        assert!((p.lo - 0.4038).abs() < 1e-3 && (p.hi - 0.5962).abs() < 1e-3);
        let zero = Proportion::new(0, 10);
        assert_eq!(zero.lo, 0.0);
        assert!((zero.hi - 0.2775).abs() < 1e-3);
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
