//! The banker family's table in `yaku play`: one or more players, human or bot, against the
//! banker, hand after hand with bankrolls kept: each player's tiles and chips, the bets, the
//! showdown. The play loop is the one of every family (`cli::play`).

use super::board::{Board, Row, SeatPanel, Tile};
use super::plural;
use super::prompt::{Input, command};
use super::screen::Style;
use super::table::Table;
use crate::core::{Action, Event, Game, Seat};
use crate::deck::CardSet;
use crate::families::banker::{BankerGame, BankerHand, BankerPhase, hand_value};
use crate::ruleset::Ruleset;

const HELP: &str = "\
at any prompt:
  a number   your bet in chips (Enter: the minimum), or how many more tiles to take
  rules      the rules of this game: limits, tiles to take, how hands are valued
  score      the bankrolls and every finished hand
  hint       the choice the greedy bot would make here, and why
  undo       take back your last choice (against bots only); again for more
  help       this text
  quit       stop the session and save it (so does end of input, Ctrl-D)";

/// The banker family's table.
pub struct BankerTable {
    style: Style,
    /// Each seat's name: `player 1 (you)`, `player 2 (seed)`.
    names: Vec<String>,
    humans: Vec<bool>,
    /// A person watches as the banker and deals each hand with Enter.
    watcher: bool,
    shown_hand: u32,
    paused_hand: u32,
    seen_hands: usize,
    /// Each human's tiles when last shown, to say what a draw brought.
    tiles_seen: Vec<CardSet>,
}

impl BankerTable {
    /// A table for `players` (`human` or bots), with `labels` their names (a strategy file's own
    /// name for a bot).
    pub fn new(players: &[String], labels: Vec<String>, color: bool, watcher: bool) -> Self {
        let humans: Vec<bool> = players.iter().map(|p| p == super::HUMAN).collect();
        let count = humans.iter().filter(|h| **h).count();
        let names = labels
            .iter()
            .enumerate()
            .map(|(i, p)| match (humans[i], count) {
                (true, 1) => format!("player {} (you)", i + 1),
                (true, _) => format!("player {} (human)", i + 1),
                (false, _) => format!("player {} ({p})", i + 1),
            })
            .collect();
        BankerTable {
            style: Style::for_players(players, color),
            names,
            tiles_seen: vec![CardSet::EMPTY; players.len()],
            humans,
            watcher,
            shown_hand: 0,
            paused_hand: 0,
            seen_hands: 0,
        }
    }
}

fn banker(game: &dyn Game) -> &BankerGame {
    game.as_any()
        .downcast_ref::<BankerGame>()
        .expect("the banker table is used for banker games")
}

impl Table for BankerTable {
    fn narrate(&mut self, game: &dyn Game, _events: &[Event]) -> String {
        let g = banker(game);
        let r = game.ruleset();
        let mut out = String::new();
        let played = g.hands_played();
        for s in 0..self.humans.len() {
            let now = g.tiles(s);
            let before = self.tiles_seen[s];
            if self.humans[s] && played.len() == self.seen_hands && now.len() > before.len() {
                out.push_str(&format!("you take {}\n", tiles(r, now - before)));
            }
            self.tiles_seen[s] = now;
        }
        for h in &played[self.seen_hands..] {
            out.push_str(&showdown(r, h, &self.names));
            out.push_str(&format!("{}\n", bankrolls(g, &self.names)));
        }
        self.seen_hands = played.len();
        if g.to_act().is_some() && g.hand() != self.shown_hand {
            self.shown_hand = g.hand();
            out.push_str(&format!(
                "\n── hand {} of {} ──\n",
                g.hand(),
                g.hands_total()
            ));
        }
        out
    }

    fn pause(&mut self, game: &dyn Game) -> Option<String> {
        let g = banker(game);
        (self.watcher && g.hand() != self.paused_hand).then(|| {
            self.paused_hand = g.hand();
            "you are the banker: press Enter to deal (or type quit, score, help)".to_string()
        })
    }

    fn announce(&self, game: &dyn Game, seat: Seat, action: Action) -> Option<String> {
        let g = banker(game);
        if let (Some(k), Action::Bet { amount }) = (g.view(seat).bet_kind, action) {
            let bet = &g.flow().bets[k].name;
            return Some(match amount {
                0 => format!("{} stakes nothing on {bet}", self.names[seat]),
                n => format!("{} stakes {n} on {bet}", self.names[seat]),
            });
        }
        if let (Some(_), Action::Bet { amount }) = (g.view(seat).to_call, action) {
            let word = g.pot_action_word(seat, amount);
            return Some(match amount {
                0 => format!("{} {word}s", self.names[seat]),
                n => format!("{} {word}s {n}", self.names[seat]),
            });
        }
        if let Action::Declare { decl, .. } = action
            && let Some(d) = g.ruleset().declarations.get(decl.0 as usize)
        {
            return Some(format!("{}: {}", self.names[seat], d.name));
        }
        if let Action::PlaySet { .. } = action
            && g.flow().arrange.is_some()
        {
            // The hands stay face down until the showdown.
            return Some(format!("{} arranges their hands", self.names[seat]));
        }
        Some(format!("{} {}", self.names[seat], describe(action)))
    }

    fn screen(&self, game: &dyn Game, seat: Seat) -> String {
        let g = banker(game);
        let view = g.view(seat);
        let mine = view.tiles;
        if view.play.is_some() {
            // Hands played by actions: the hand and the banker's card are in the prompt.
            return format!(
                "{}: you have {} chips, {} bet this hand\n",
                self.names[seat],
                view.bankroll,
                g.bets().get(seat).copied().unwrap_or(0)
            );
        }
        if view.bet_kind.is_some() {
            return format!(
                "{}: you have {} chips, {} staked this hand\n",
                self.names[seat],
                view.bankroll,
                g.bets().get(seat).copied().unwrap_or(0)
            );
        }
        if let Some(owe) = view.to_call {
            let named = crate::families::banker::ranking::words(
                g.flow(),
                &crate::families::banker::ranking::rank_hand(g.flow(), mine),
            )
            .unwrap_or_else(|| points(g.ruleset(), hand_value(g.flow(), mine)));
            let bets: Vec<String> = (0..g.players())
                .filter(|&s| g.in_hand(s))
                .map(|s| format!("{} {}", self.names[s], g.bets()[s]))
                .collect();
            return format!(
                "{}: your card{} {} = {named}; you have {} chips\npot {}; put in this hand: {}; to call {owe}\n",
                self.names[seat],
                if mine.len() == 1 { "" } else { "s" },
                tiles(game.ruleset(), mine),
                view.bankroll,
                view.pot,
                bets.join(", ")
            );
        }
        if let Some(b) = g.banker_seat() {
            return format!(
                "{}: your tile{} {} = {}; you have {} chips; {} banks\n",
                self.names[seat],
                if mine.len() == 1 { "" } else { "s" },
                tiles(game.ruleset(), mine),
                points(g.ruleset(), hand_value(g.flow(), mine)),
                view.bankroll,
                self.names[b]
            );
        }
        format!(
            "{}: your tile{} {} = {}; you have {} chips\n",
            self.names[seat],
            if mine.len() == 1 { "" } else { "s" },
            tiles(game.ruleset(), mine),
            points(g.ruleset(), hand_value(g.flow(), mine)),
            view.bankroll
        )
    }

    fn board(&self, game: &dyn Game, seat: Seat) -> Board {
        let g = banker(game);
        let view = g.view(seat);
        let r = game.ruleset();
        let deck = &r.deck;
        let seats = game.seats();
        let panel = |s: usize| {
            let bet = match g.bets().get(s) {
                Some(&b) if b > 0 => format!(" · bet {b}"),
                _ => String::new(),
            };
            let role = if g.banker_seat() == Some(s) {
                "the banker · "
            } else if g.dealer_seat() == Some(s) {
                "deals · "
            } else {
                ""
            };
            let mut summary = format!("{role}{} chips{bet}", g.bankrolls()[s]);
            if s != seat && !g.flow().table_hand {
                summary.push_str(&format!(" · {}", plural(g.tiles(s).len() as usize, "tile")));
            }
            SeatPanel {
                name: self.names[s].clone(),
                summary,
                hidden: if s == seat {
                    0
                } else {
                    g.tiles(s).len() as usize
                },
                ..SeatPanel::default()
            }
        };
        // The players' chips are in their panels: the note gives the banker's (80 columns hold
        // it, where every seat's bankroll wrapped).
        let mut notes: Vec<String> = bank_note(g).into_iter().collect();
        // The last hand's showdown stays in view during the next hand's bets, said to be the
        // last hand's (it read as the hand being played).
        if let Some(last) = g.hands_played().last() {
            notes.push(format!("the last hand (hand {}):", g.hands_played().len()));
            notes.extend(showdown(r, last, &self.names).lines().map(str::to_string));
        }
        let mine = view.tiles;
        if g.flow().table_hand {
            // A table hand: the seats hold no cards; the board shows the last hand's two hands,
            // in the order dealt (a card may come twice from the shoe).
            let last = g.hands_played().last();
            let row = |title: String, cards: &[crate::deck::CardId]| Row {
                title,
                tiles: cards.iter().map(|&c| Tile::of(deck, c)).collect(),
                hidden: 0,
                aside: None,
                piles: Vec::new(),
            };
            let (player, banker) = match last {
                Some(h) => (
                    row(
                        format!(
                            "last hand, the player: {}",
                            points(
                                g.ruleset(),
                                h.players.first().and_then(|p| p.value).unwrap_or(0)
                            )
                        ),
                        h.players.first().map_or(&[][..], |p| &p.tiles[..]),
                    ),
                    row(
                        format!(
                            "last hand, the banker: {}",
                            points(g.ruleset(), h.banker_value.unwrap_or(0))
                        ),
                        &h.banker_tiles,
                    ),
                ),
                None => (
                    row("the player's hand: dealt after the bets".into(), &[]),
                    row("the banker's hand: dealt after the bets".into(), &[]),
                ),
            };
            return Board {
                title: format!("{} · hand {} of {}", r.name, view.hand, view.hands_total),
                scores: format!("stakes 0 or {} to {}", view.limits.0, view.limits.1),
                others: (1..seats).map(|k| panel((seat + k) % seats)).collect(),
                center: banker,
                notes,
                me: Some(panel(seat)),
                hand: player,
            };
        }
        Board {
            title: format!("{} · hand {} of {}", r.name, view.hand, view.hands_total),
            scores: format!("bets {} to {}", view.limits.0, view.limits.1),
            others: (1..seats).map(|k| panel((seat + k) % seats)).collect(),
            center: Row {
                title: match (g.dealer_seat(), g.banker_seat()) {
                    // A pot game: no banker, the pot in the middle.
                    (Some(_), _) => format!("the pot: {}", plural(view.pot as usize, "chip")),
                    (_, Some(b)) if g.banker_tiles().is_empty() => {
                        format!("{} banks: dealt after the bets", self.names[b])
                    }
                    (_, Some(b)) => {
                        format!("{} banks (face down until the showdown)", self.names[b])
                    }
                    _ if g.banker_tiles().is_empty() => {
                        "the banker's tiles: dealt after the bets".to_string()
                    }
                    _ => "the banker's tiles (face down until the showdown)".to_string(),
                },
                tiles: Vec::new(),
                hidden: g.banker_tiles().len() as usize,
                aside: None,
                piles: Vec::new(),
            },
            notes,
            me: Some(panel(seat)),
            hand: Row {
                title: format!(
                    "{}: {}",
                    self.names[seat],
                    points(g.ruleset(), hand_value(g.flow(), mine))
                ),
                tiles: Tile::all(deck, mine),
                hidden: 0,
                aside: None,
                piles: Vec::new(),
            },
        }
    }

    fn board_open(&self, game: &dyn Game, seat: Seat) -> Board {
        let mut board = self.board(game, seat);
        let g = banker(game);
        if board.center.hidden > 0 && !g.flow().table_hand {
            board.center.tiles = Tile::all(&game.ruleset().deck, g.banker_tiles());
            board.center.hidden = 0;
            board.center.title = "the banker's tiles".to_string();
        }
        board
    }

    fn question(&self, game: &dyn Game, legal: &[Action]) -> String {
        let g = banker(game);
        let seat = g.to_act().unwrap_or(0);
        let view = g.view(seat);
        if let Some(k) = view.bet_kind {
            let name = &g.flow().bets[k].name;
            let top = legal
                .iter()
                .filter_map(|a| match a {
                    Action::Bet { amount } => Some(*amount),
                    _ => None,
                })
                .max()
                .unwrap_or(0);
            return if top == 0 {
                format!("stake on {name}? (0: no chips left for another bet)")
            } else {
                format!(
                    "stake how many chips on {name}? (0, or {} to {top}; Enter for 0)",
                    view.limits.0
                )
            };
        }
        if let Some(owe) = view.to_call {
            let raises: Vec<i64> = legal
                .iter()
                .filter_map(|a| match a {
                    Action::Bet { amount } if *amount > owe => Some(*amount),
                    _ => None,
                })
                .collect();
            let raise = match (raises.first(), raises.last()) {
                (Some(lo), Some(hi)) => format!(", {lo} to {hi} to raise"),
                _ => String::new(),
            };
            return if owe > 0 {
                format!("put in how many chips? (0 to fold, {owe} to call{raise}; Enter to call)")
            } else {
                format!("put in how many chips? (0 to check{raise}; Enter to check)")
            };
        }
        match g.phase() {
            BankerPhase::Bet { .. } => format!(
                "bet how many chips? ({} to {}, Enter for {})",
                view.limits.0, view.limits.1, view.limits.0
            ),
            BankerPhase::Insure { .. } => format!(
                "{}\ninsurance: how many chips? (0 to {}, Enter for none)",
                play_line(g, &view),
                legal.len().saturating_sub(1)
            ),
            BankerPhase::Arrange { seat } => {
                let options: Vec<String> = legal
                    .iter()
                    .enumerate()
                    .filter_map(|(i, a)| match a {
                        Action::PlaySet { cards } => arrangement(g, g.tiles(seat), *cards)
                            .map(|w| format!("  {}) {w}", i + 1)),
                        _ => None,
                    })
                    .collect();
                format!(
                    "your cards: {}\n{}\narrange them: which? (1 to {}, Enter for the house way)",
                    tiles(g.ruleset(), view.tiles),
                    options.join("\n"),
                    legal.len()
                )
            }
            BankerPhase::Act { .. } => {
                let options: Vec<String> = legal
                    .iter()
                    .filter_map(|a| match a {
                        Action::Declare { decl, .. } => g
                            .ruleset()
                            .declarations
                            .get(decl.0 as usize)
                            .map(|d| format!("{} ({})", d.id, d.prompt)),
                        _ => None,
                    })
                    .collect();
                format!("{}\n{}?", play_line(g, &view), options.join(", "))
            }
            _ => {
                let options: Vec<String> = legal
                    .iter()
                    .filter_map(|a| match a {
                        Action::Draw { count } => Some(count.to_string()),
                        _ => None,
                    })
                    .collect();
                let mut q = format!("take how many more tiles? ({})", options.join(" or "));
                // The exact odds `yaku analyze` gives for this first hand, where they are known.
                let odds = crate::families::banker::shared_odds(g.ruleset()).and_then(|all| {
                    all.iter()
                        .find(|o| o.tiles == view.tiles)
                        .map(|o| o.by_draw.clone())
                });
                if let Some(by_draw) = odds.filter(|d| !d.is_empty()) {
                    let parts: Vec<String> = by_draw
                        .iter()
                        .map(|(d, r)| format!("take {d}: {:+.3}", r.to_f64()))
                        .collect();
                    q.push_str(&format!(
                        "\nexact result of a 1-chip bet: {}",
                        parts.join(" · ")
                    ));
                }
                q
            }
        }
    }

    fn parse(&self, line: &str, game: &dyn Game, legal: &[Action]) -> Result<Input, String> {
        let g = banker(game);
        let line = line.trim();
        let seat = g.to_act().unwrap_or(0);
        let view = g.view(seat);
        let betting = matches!(g.phase(), BankerPhase::Bet { .. } | BankerPhase::Pot { .. });
        if !line.is_empty()
            && let Some(c) = command(&line.to_ascii_lowercase())
        {
            return c;
        }
        if matches!(g.phase(), BankerPhase::Act { .. }) {
            let word = line.to_ascii_lowercase();
            let found = legal.iter().copied().find(|a| match a {
                Action::Declare { decl, .. } => g
                    .ruleset()
                    .declarations
                    .get(decl.0 as usize)
                    .is_some_and(|d| !word.is_empty() && d.id.starts_with(&word)),
                _ => false,
            });
            return found.map(Input::Act).ok_or_else(|| {
                "that is not allowed now: type one of the actions offered".to_string()
            });
        }
        if matches!(g.phase(), BankerPhase::Arrange { .. }) {
            if line.is_empty() {
                let house = crate::families::banker::best_choice(&view, legal);
                return Ok(Input::Act(house));
            }
            return match line.parse::<usize>() {
                Ok(n) if (1..=legal.len()).contains(&n) => Ok(Input::Act(legal[n - 1])),
                _ => Err(format!(
                    "type the number of an arrangement, 1 to {}, or Enter for the house way",
                    legal.len()
                )),
            };
        }
        if matches!(g.phase(), BankerPhase::Insure { .. }) {
            let amount = if line.is_empty() {
                Some(0)
            } else {
                line.parse().ok()
            };
            return match amount.map(|amount| Action::Bet { amount }) {
                Some(a) if legal.contains(&a) => Ok(Input::Act(a)),
                _ => Err("that is not allowed now: insure 0 up to half your stake".into()),
            };
        }
        let wanted = match line {
            "" if view.bet_kind.is_some() => Some(Action::Bet { amount: 0 }),
            "" if view.to_call.is_some() => Some(Action::Bet {
                amount: view.to_call.unwrap_or(0),
            }),
            "" if betting => Some(Action::Bet {
                amount: view.limits.0,
            }),
            "" => return Err("type how many more tiles to take".into()),
            _ if betting => line.parse().ok().map(|amount| Action::Bet { amount }),
            _ => line.parse().ok().map(|count| Action::Draw { count }),
        };
        match wanted {
            Some(a) if legal.contains(&a) => Ok(Input::Act(a)),
            Some(_) if view.bet_kind.is_some() => Err(format!(
                "that is not allowed now: a stake is 0 or {} to {} chips, within your bankroll",
                view.limits.0, view.limits.1
            )),
            Some(_) if view.to_call.is_some() => {
                Err("that is not allowed now: choose one of the amounts offered".into())
            }
            Some(_) if betting => Err(format!(
                "that is not allowed now: a bet is {} to {} chips",
                view.limits.0, view.limits.1
            )),
            Some(_) => Err("that is not allowed now: choose one of the numbers offered".into()),
            None => Err(format!("`{line}` is not a number or a command (type help)")),
        }
    }

    fn standing(&self, game: &dyn Game) -> Vec<String> {
        let g = banker(game);
        let r = game.ruleset();
        let Some(flow) = r.banker() else {
            return Vec::new();
        };
        let hand = |set: CardSet| {
            if set.is_empty() {
                "no cards yet".to_string()
            } else {
                format!("{} = {}", tiles(r, set), points(r, hand_value(flow, set)))
            }
        };
        let mut out: Vec<String> = (0..g.players())
            .filter(|&seat| g.in_hand(seat))
            .map(|seat| format!("{}: {}", self.style.who(seat), hand(g.tiles(seat))))
            .collect();
        if !g.banker_tiles().is_empty() {
            out.push(format!("the banker: {}", hand(g.banker_tiles())));
        }
        out
    }

    fn describe(&self, game: &dyn Game, action: Action) -> String {
        let g = banker(game);
        if let (Some(seat), Action::Bet { amount }) = (g.to_act(), action)
            && g.view(seat).to_call.is_some()
        {
            return format!("{} {amount}", g.pot_action_word(seat, amount));
        }
        // As a button or a note reads it, to the player: "bet 1", not "bets 1".
        let kind = g.to_act().and_then(|seat| g.view(seat).bet_kind);
        if let (Some(k), Action::Bet { amount }) = (kind, action) {
            let bet = &g.flow().bets[k].name;
            return match amount {
                0 => format!("stake nothing on {bet}"),
                n => format!("stake {n} on {bet}"),
            };
        }
        if let Action::Declare { decl, .. } = action
            && let Some(d) = g.ruleset().declarations.get(decl.0 as usize)
        {
            return d.id.clone();
        }
        if let (BankerPhase::Insure { .. }, Action::Bet { amount }) = (g.phase(), action) {
            return match amount {
                0 => "decline insurance".to_string(),
                n => format!("insure {n}"),
            };
        }
        if let (BankerPhase::Arrange { seat }, Action::PlaySet { cards }) = (g.phase(), action)
            && let Some(words) = arrangement(g, g.tiles(seat), cards)
        {
            return format!("arrange {words}");
        }
        match action {
            Action::Bet { amount } => format!("bet {amount}"),
            Action::Draw { count } => format!(
                "take {count} more tile{}",
                if count == 1 { "" } else { "s" }
            ),
            _ => describe(action),
        }
    }

    fn forced(&self, _game: &dyn Game, _legal: &[Action]) -> Option<Action> {
        // A bet or a draw is always asked, even when one answer is possible.
        None
    }

    fn help(&self) -> &'static str {
        HELP
    }

    fn rules(&self, game: &dyn Game, width: usize) -> String {
        crate::sheet::text_sheet_width(game.ruleset(), width)
    }

    fn score(&self, game: &dyn Game) -> String {
        let g = banker(game);
        let mut out = bankrolls(g, &self.names) + "\n";
        let history = game.history();
        if history.is_empty() {
            return out;
        }
        // Each hand's wins and losses by seat, and the chips after it, counted back from the
        // bankrolls now.
        let mut after: Vec<i64> = g.bankrolls().to_vec();
        let mut rows = Vec::new();
        for h in history.iter().rev() {
            let mut net: Vec<String> = self
                .names
                .iter()
                .zip(h.points.iter())
                .map(|(n, p)| match p {
                    0 => format!("{n} 0"),
                    p => format!("{n} {p:+}"),
                })
                .collect();
            if g.flow().pot.is_none() && g.banker_seat().is_none() {
                net.push(match h.house {
                    0 => "banker 0".to_string(),
                    p => format!("banker {p:+}"),
                });
            }
            let chips: Vec<String> = self
                .names
                .iter()
                .zip(&after)
                .map(|(n, b)| format!("{n} {b}"))
                .collect();
            rows.push(format!(
                "hand {}: {}\n  chips after it: {}\n",
                h.round,
                net.join(", "),
                chips.join(", ")
            ));
            for (b, p) in after.iter_mut().zip(h.points.iter()) {
                *b -= p;
            }
        }
        out.push_str(&format!("\nafter {}:\n", plural(history.len(), "hand")));
        for r in rows.into_iter().rev() {
            out.push_str(&r);
        }
        out
    }

    fn finished(&self, game: &dyn Game) -> String {
        let g = banker(game);
        format!(
            "\nthe session is over after {}\n{}\n",
            plural(g.hands_played().len(), "hand"),
            bankrolls(g, &self.names)
        )
    }

    fn stopped(&self, game: &dyn Game) -> String {
        let g = banker(game);
        format!(
            "\nsession stopped after {}\n{}\n",
            plural(g.hands_played().len(), "finished hand"),
            bankrolls(g, &self.names)
        )
    }

    fn style(&self) -> &Style {
        &self.style
    }

    fn style_mut(&mut self) -> &mut Style {
        &mut self.style
    }

    fn refusal(&self, reason: &str) -> String {
        reason.to_string()
    }
}

/// `1 point`, `7 points`, or the hand's name by its value (`Kabu (9)`, `[[flow.hand_name]]`).
fn points(ruleset: &crate::ruleset::Ruleset, n: i64) -> String {
    ruleset
        .banker()
        .map_or_else(|| plural(n, "point"), |f| f.value_words(n))
}

/// An arrangement of `dealt` whose first hand is `first`, in words: `High hand: A B · Low hand:
/// C D`; `None` when the game arranges no hands.
fn arrangement(
    g: &crate::families::banker::BankerGame,
    dealt: CardSet,
    first: CardSet,
) -> Option<String> {
    let arrange = g.flow().arrange.as_ref()?;
    let parts: Vec<String> = arrange
        .hands
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let cards = crate::families::banker::arrange::hand_of(first, dealt, i);
            format!("{}: {}", h.name, tiles(g.ruleset(), cards))
        })
        .collect();
    Some(parts.join(" · "))
}

fn describe(a: Action) -> String {
    match a {
        Action::Bet { amount } => format!("bets {amount}"),
        Action::Draw { count } => format!(
            "takes {count} more tile{}",
            if count == 1 { "" } else { "s" }
        ),
        _ => "acts".to_string(),
    }
}

/// Tiles as players read them: `[6:5] [3:3]`.
fn tiles(ruleset: &Ruleset, set: CardSet) -> String {
    set.iter()
        .map(|t| ruleset.deck.card(t).name.clone())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Who plays whom, for a session's first line: `3 against the banker`, `3 players, one of them
/// banking (player 2 first; the bank passes)`, `a pot among 4 players (player 1 deals first)`.
pub fn table_words(game: &BankerGame) -> String {
    let seats = game.players();
    if let Some(d) = game.dealer_seat() {
        return format!("a pot among {seats} players (player {} deals first)", d + 1);
    }
    if let Some(b) = game.banker_seat() {
        return format!(
            "{seats} players, one of them banking (player {} first; the bank passes)",
            b + 1
        );
    }
    format!("{seats} against the banker")
}

fn bankrolls(game: &BankerGame, names: &[String]) -> String {
    let mut parts: Vec<String> = names
        .iter()
        .zip(game.bankrolls())
        .map(|(n, b)| format!("{n} {b}"))
        .collect();
    if game.flow().pot.is_some() || game.banker_seat().is_some() {
        return format!("bankrolls: {}", parts.join(", "));
    }
    match game.banker_bankroll() {
        Some(b) => parts.push(format!("banker {b}")),
        None => parts.push("banker (unlimited)".into()),
    }
    format!("bankrolls: {}", parts.join(", "))
}

/// The banker's chips, for the table's notes: `None` where the bank is a seat or there is a
/// pot instead.
fn bank_note(game: &BankerGame) -> Option<String> {
    if game.flow().pot.is_some() || game.banker_seat().is_some() {
        return None;
    }
    Some(match game.banker_bankroll() {
        Some(b) => format!("the banker: {b} chips"),
        None => "the banker: unlimited chips".to_string(),
    })
}

/// Cards in the order dealt, a card held twice named twice: `Four of Hearts, Ten of Clubs`.
fn card_list(ruleset: &Ruleset, cards: &[crate::deck::CardId]) -> String {
    cards
        .iter()
        .map(|&t| ruleset.deck.card(t).name.clone())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A table hand's showdown: both hands, the drawing rules that applied, every bet.
fn table_showdown(ruleset: &Ruleset, h: &BankerHand, names: &[String]) -> String {
    let mut out = String::new();
    if let Some(p) = h.players.first() {
        out.push_str(&format!(
            "the player's hand: {} = {}\n",
            card_list(ruleset, &p.tiles),
            points(ruleset, p.value.unwrap_or(0))
        ));
    }
    out.push_str(&format!(
        "the banker's hand: {} = {}\n",
        card_list(ruleset, &h.banker_tiles),
        points(ruleset, h.banker_value.unwrap_or(0))
    ));
    if !h.rules.is_empty() {
        out.push_str(&drawing_line(h, names));
    }
    for p in &h.players {
        let bets: Vec<String> = p
            .bets
            .iter()
            .map(|b| {
                let outcome = match b.result {
                    r if r > 0 => format!("wins {r}"),
                    r if r < 0 => format!("loses {}", -r),
                    _ => "push, the stake comes back".into(),
                };
                format!("{} on {}: {outcome}", b.stake, b.bet)
            })
            .collect();
        out.push_str(&format!(
            "  {:<22} {}\n",
            names[p.seat],
            if bets.is_empty() {
                "no bet".to_string()
            } else {
                bets.join("; ")
            }
        ));
    }
    out
}

/// A pot game's end: the betting, each hand by its rank, the pot and who deals next.
fn pot_showdown(ruleset: &Ruleset, h: &BankerHand, names: &[String]) -> String {
    let set = |ts: &[crate::deck::CardId]| ts.iter().copied().collect::<CardSet>();
    let mut out = String::new();
    if !h.betting.is_empty() {
        out.push_str(&format!("betting: {}\n", h.betting.join(", ")));
    }
    for note in &h.rules {
        out.push_str(&format!("redeal: {note}\n"));
    }
    for p in &h.players {
        let hand = match (&p.hand, p.folded) {
            (_, true) => "folded".to_string(),
            (Some(name), _) => format!("{} = {name}", tiles(ruleset, set(&p.tiles))),
            (None, _) => "not shown".to_string(),
        };
        out.push_str(&format!(
            "  {:<22} {hand}, put in {}: {:+}\n",
            names[p.seat], p.bet, p.result
        ));
    }
    let winners: Vec<&str> = h.winners.iter().map(|&w| names[w].as_str()).collect();
    out.push_str(&format!(
        "the pot of {} goes to {}\n",
        h.pot,
        winners.join(" and ")
    ));
    if let Some(d) = h.bank_to {
        out.push_str(&format!("{} deals next\n", names[d]));
    }
    out
}

/// Hands played by actions, as the seat to act sees them: its hand and the banker's cards seen.
fn play_line(g: &BankerGame, view: &crate::families::banker::BankerView) -> String {
    let r = g.ruleset();
    let Some(play) = view.play else {
        return String::new();
    };
    let flow = g.flow();
    let banker = format!("the banker shows {}", card_list(r, play.banker));
    if play.cards.is_empty() {
        return banker;
    }
    let value = crate::families::banker::cards_value(flow, play.cards);
    let soft = if crate::families::banker::is_soft(flow, play.cards) {
        "soft "
    } else {
        ""
    };
    format!(
        "your hand{}: {} = {soft}{value}; {banker}",
        if play.hands > 1 {
            format!(" (one of {})", play.hands)
        } else {
            String::new()
        },
        card_list(r, play.cards)
    )
}

/// The drawing rules that applied this hand, each with whose hand it was read for where the
/// rules are a seat's or the banker's ("drawing: you: Stand on 7; banker: Draw on 0-3").
fn drawing_line(h: &BankerHand, names: &[String]) -> String {
    let by_seat = h.rule_seats.len() == h.rules.len() && h.rule_seats.iter().any(Option::is_some);
    if !by_seat {
        return format!("drawing: {}\n", h.rules.join("; "));
    }
    // A hand's rules together, in the order they applied.
    let mut parts: Vec<(Option<usize>, Vec<&str>)> = Vec::new();
    for (rule, &seat) in h.rules.iter().zip(&h.rule_seats) {
        match parts.last_mut() {
            Some((whose, rules)) if *whose == seat => rules.push(rule),
            _ => parts.push((seat, vec![rule])),
        }
    }
    let said: Vec<String> = parts
        .iter()
        .map(|(seat, rules)| {
            let who = match seat {
                Some(s) => names.get(*s).map_or("a player", String::as_str),
                None => "banker",
            };
            format!("{who}: {}", rules.join(", "))
        })
        .collect();
    format!("drawing: {}\n", said.join("; "))
}

/// The showdown of hands played by actions: the banker's hand, then each hand of each seat.
fn play_showdown(ruleset: &Ruleset, h: &BankerHand, names: &[String]) -> String {
    let mut out = String::new();
    if !h.rules.is_empty() {
        out.push_str(&drawing_line(h, names));
    }
    out.push_str(&format!(
        "showdown: the banker has {} = {}\n",
        card_list(ruleset, &h.banker_tiles),
        points(ruleset, h.banker_value.unwrap_or(0))
    ));
    for p in &h.players {
        for hand in &p.hands {
            let done: String = hand.actions.iter().map(|a| format!(" after {a}")).collect();
            let outcome = match hand.result {
                r if r > 0 => format!("wins {r}"),
                r if r < 0 => format!("loses {}", -r),
                _ => "push, keeps the stake".into(),
            };
            let why = match hand.settled_by.as_str() {
                "compared" => String::new(),
                s => format!(" ({s})"),
            };
            out.push_str(&format!(
                "  {:<22} {} = {}, stake {}{done}: {outcome}{why}\n",
                names[p.seat],
                card_list(ruleset, &hand.cards),
                points(ruleset, hand.value),
                hand.stake
            ));
        }
        if let Some(i) = p.insurance {
            out.push_str(&format!("  {:<22} insurance: {i:+}\n", names[p.seat]));
        }
    }
    out
}

/// A hand's value with its rank, when the ruleset ranks hands (`28 points (Bust)`): the rank is
/// what the showdown compared.
fn ranked(value: String, rank: Option<&str>) -> String {
    match rank {
        Some(rank) => format!("{value} ({rank})"),
        None => value,
    }
}

/// Arranged hands in words, each with its cards and rank and, for a player's, whether it beat
/// the banker's: `High hand Cherry Red ... = Pair of 3 (wins) · Low hand ...`.
fn hands_words(ruleset: &Ruleset, hands: &[crate::families::banker::HandArranged]) -> String {
    let flow = ruleset.banker();
    hands
        .iter()
        .map(|a| {
            let name = flow
                .and_then(|f| f.arrange.as_ref())
                .and_then(|ar| ar.hands.iter().find(|h| h.id == a.hand))
                .map_or(a.hand.as_str(), |h| h.name.as_str());
            let set: CardSet = a.cards.iter().copied().collect();
            let rank = a.rank.clone().unwrap_or_else(|| points(ruleset, a.value));
            let fared = match a.outcome {
                1 => " (wins)",
                -1 => " (loses)",
                _ => "",
            };
            format!("{name} {} = {rank}{fared}", tiles(ruleset, set))
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A player's arranged hands at the showdown, and what the bet brought.
fn arranged_line(
    ruleset: &Ruleset,
    name: &str,
    hands: &[crate::families::banker::HandArranged],
    bet: i64,
    outcome: &str,
) -> String {
    format!(
        "  {name:<22} {}, bet {bet}: {outcome}\n",
        hands_words(ruleset, hands)
    )
}

fn showdown(ruleset: &Ruleset, h: &BankerHand, names: &[String]) -> String {
    if ruleset.banker().is_some_and(|f| f.table_hand) {
        return table_showdown(ruleset, h, names);
    }
    if ruleset.banker().is_some_and(|f| f.pot.is_some()) {
        return pot_showdown(ruleset, h, names);
    }
    if ruleset.banker().is_some_and(|f| f.play.is_some()) {
        return play_showdown(ruleset, h, names);
    }
    let set = |ts: &[crate::deck::CardId]| ts.iter().copied().collect::<CardSet>();
    let mut out = String::new();
    if !h.rules.is_empty() {
        out.push_str(&drawing_line(h, names));
    }
    match &h.banker_win {
        Some(win) => out.push_str(&format!(
            "the banker shows {}: {win}, and wins every bet at once\n",
            tiles(ruleset, set(&h.banker_tiles))
        )),
        None if !h.banker_arranged.is_empty() => out.push_str(&format!(
            "showdown: the banker arranges by the house way {}\n",
            hands_words(ruleset, &h.banker_arranged)
        )),
        None => out.push_str(&format!(
            "showdown: the banker has {} = {}\n",
            tiles(ruleset, set(&h.banker_tiles)),
            ranked(
                points(ruleset, h.banker_value.unwrap_or(0)),
                h.banker_hand.as_deref()
            )
        )),
    }
    if let Some(b) = h.banker_seat {
        out.push_str(&format!(
            "  {:<22} banks: {:+}\n",
            names[b], h.banker_result
        ));
    }
    for p in &h.players {
        let outcome = match p.result {
            r if r > 0 => format!("wins {r}"),
            r if r < 0 => format!("loses {}", -r),
            _ => "draw, keeps the stake".into(),
        };
        let value = p.value.map_or_else(String::new, |v| {
            format!(" = {}", ranked(points(ruleset, v), p.hand.as_deref()))
        });
        if !p.arranged.is_empty() {
            out.push_str(&arranged_line(
                ruleset,
                &names[p.seat],
                &p.arranged,
                p.bet,
                &outcome,
            ));
            continue;
        }
        out.push_str(&format!(
            "  {:<22} {}{value}, bet {}: {outcome}\n",
            names[p.seat],
            tiles(ruleset, set(&p.tiles)),
            p.bet
        ));
    }
    // After the hands, so the reason (a player's kabu) is read first.
    if let Some(to) = h.bank_to {
        out.push_str(&format!("the bank passes to {}\n", names[to]));
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::core::{Action, StartOptions};
    use std::sync::Arc;

    /// A move is described to the player who makes it, as a button reads: "bet 1", "take 1
    /// more tile", "stake 20 on Banker"; never "bets 1".
    #[test]
    fn moves_are_described_to_the_player() {
        for (name, seats) in [("oicho-kabu", 2), ("kolyesi", 3), ("baccarat", 2)] {
            let r = Arc::new(crate::ruleset::load(name).value.unwrap());
            let players = vec!["human".to_string(); seats];
            let table =
                crate::front::fronts::for_ruleset(&r, &players, players.clone(), false, false);
            let options = StartOptions {
                seed: 1,
                seats: Some(seats),
                ..Default::default()
            };
            let mut game = crate::families::start(r, options).unwrap();
            let mut legal = Vec::new();
            let mut seen = 0;
            while game.to_act().is_some() && seen < 40 {
                game.legal_actions(&mut legal);
                for &a in &legal {
                    let said = table.describe(&*game, a);
                    let first = said.split(' ').next().unwrap_or_default();
                    assert!(!first.ends_with('s') || first == "pass", "{name}: {said}");
                    if let Action::Bet { .. } | Action::Draw { .. } = a {
                        seen += 1;
                    }
                }
                game.apply(legal[0]).unwrap();
            }
            assert!(seen > 0, "{name}: no bet or draw described");
        }
    }

    /// During the next hand's bets the board still shows the last hand's showdown, said to be
    /// the last hand's (issue 45: it read as the hand being played).
    #[test]
    fn the_last_showdown_is_said_to_be_the_last_hands() {
        let r = Arc::new(crate::ruleset::load("oicho-kabu").value.unwrap());
        let players = vec!["human".to_string(); 2];
        let table = crate::front::fronts::for_ruleset(&r, &players, players.clone(), false, false);
        let options = StartOptions {
            seed: 3,
            seats: Some(2),
            ..Default::default()
        };
        let mut game = crate::families::start(r, options).unwrap();
        let mut legal = Vec::new();
        while game.history().is_empty() {
            game.legal_actions(&mut legal);
            game.apply(legal[0]).unwrap();
        }
        let seat = game.to_act().unwrap();
        let notes = table.board(&*game, seat).notes;
        let at = notes.iter().position(|n| n == "the last hand (hand 1):");
        let showdown = notes.iter().position(|n| n.starts_with("showdown: "));
        assert!(at.is_some() && at < showdown, "{notes:?}");
    }
}
