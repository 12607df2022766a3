//! The banker family's checked `[flow]`: the bank, ranks and special hands, the pot, the
//! shoe, drawing rules and bets.

use super::*;

/// The largest bet of a banker game, in a rule file (`min_bet`, `max_bet`) or on the command
/// line (`--min-bet`, `--max-bet`): each bet decision lists every amount between the limits.
pub const MAX_BET: i64 = 10_000;

/// The most chips a bankroll starts with, in a rule file (`bankroll`, `banker_bankroll`): far
/// more than any session moves at [`MAX_BET`] a bet, and far from overflowing a total.
pub const MAX_BANKROLL: i64 = 1_000_000_000;

/// The flow of a banker game (Kol-ye-si and its relatives): players bet against a banker,
/// draw more tiles, and compare hand values at a showdown.
#[derive(Clone, Debug)]
pub struct BankerFlow {
    /// Players against the banker when the command line does not say.
    pub players: u32,
    /// The most players a table seats.
    pub max_players: u32,
    /// Tiles each player receives before betting.
    pub first_tiles: u32,
    /// Tiles the banker draws after the bets.
    pub banker_tiles: u32,
    /// How many more tiles a player may choose to take (e.g. 1 or 2).
    pub draw_options: Vec<u32>,
    /// The smallest bet.
    pub min_bet: i64,
    /// The largest bet.
    pub max_bet: i64,
    /// Chips each player starts with.
    pub bankroll: i64,
    /// Chips the banker starts with (`None`: the banker's purse is unlimited).
    pub banker_bankroll: Option<i64>,
    /// The most all the players' bets of one hand may add up to (`table_limit`, Oicho-Kabu's
    /// domae), hands per seat; `None`: no limit but each player's.
    pub table_limit: Option<i64>,
    /// Hands in a session.
    pub hands: u32,
    /// Conditions on the banker's first tiles that win every bet at once.
    pub banker_wins: Vec<DealCheck>,
    /// A hand's value at the showdown; the higher value wins, equal values draw.
    pub value: Program,
    /// The value's formula as written, for rule listings.
    pub value_source: String,
    /// What each card adds to a hand's `hand_points` (`card_value`, read on the card alone), by
    /// card id; all zero without it.
    pub card_points: Vec<i64>,
    /// `card_value` as written, for rule sheets.
    pub card_value_source: Option<String>,
    /// One player hand for the whole table (`table_hand = true`, as in punto banco): the seats
    /// only bet, on the ruleset's `bets`, and the drawing rules play both hands.
    pub table_hand: bool,
    /// A shoe of several packs dealt across hands (`shoe_packs`, `cut_card`); `None`: every hand
    /// is dealt from a freshly shuffled pack.
    pub shoe: Option<Shoe>,
    /// When the player's hand takes a card (`[[flow.player_draw]]`), the first rule that holds
    /// deciding; none holding: the hand stands.
    pub player_draw: Vec<DrawRule>,
    /// When the banker's hand takes a card (`[[flow.banker_draw]]`).
    pub banker_draw: Vec<DrawRule>,
    /// The bets a seat may place on a table hand (`[[flow.bet]]`), each with its own stake.
    pub bets: Vec<BetKind>,
    /// Names of hand values (`[[flow.hand_name]]`: 9 is `Kabu`), in file order.
    pub hand_names: Vec<(i64, String)>,
    /// The bank as a seat (`[flow.bank]`); `None`: the house banks.
    pub bank: Option<Bank>,
    /// Named ranks, best first (`[[flow.hand_rank]]`); empty: hands compare by `value`.
    pub ranks: Vec<HandRank>,
    /// Hands that beat only certain ranks, or call for a redeal (`[[flow.special]]`).
    pub specials: Vec<SpecialHand>,
    /// A pot game (`[flow.pot]`): no banker's hand, the seats bet into a pot.
    pub pot: Option<Pot>,
    /// When a hand is soft (`[flow] soft`, over [`scope::HAND`]): `player_soft`, `banker_soft`.
    pub soft: Option<Program>,
    /// `soft` as written.
    pub soft_source: Option<String>,
    /// Hands played by actions (`[flow.play]` and the banker declarations); `None`: the seats
    /// choose only how many cards to take.
    pub play: Option<Play>,
    /// Hands per seat: the share of a player's win against the banker the house keeps
    /// (`commission`, `[5, 100]` is 5%); `(0, 1)`: none.
    pub commission: (i64, i64),
    /// A bank among the seats: the share of the banker's net win of a hand the house keeps
    /// (`banker_commission`); `(0, 1)`: none.
    pub banker_commission: (i64, i64),
    /// Hands the seats arrange (`[flow.arrange]`): the dealt cards split into named hands,
    /// each settled against the banker's of the same name.
    pub arrange: Option<Arrange>,
}

/// The most ways to arrange one dealt hand (`[flow.arrange]`): each is a legal move, and the
/// house way and the bots weigh each one. Seven cards into five and two are 21 ways.
pub const MAX_ARRANGEMENTS: u64 = 1_000;

/// Hands the seats arrange (`[flow.arrange]`, Pai Gow's high and low hands): each player splits
/// the cards dealt into the named hands, the first ranking at least as high as the second; the
/// banker arranges by the house way; each hand is compared with the banker's of the same name.
#[derive(Clone, Debug)]
pub struct Arrange {
    /// The hands, strongest first (two: a move names the first hand's cards).
    pub hands: Vec<ArrangedHand>,
    /// The first hand must rank above the second (`order = "above"`), or at least as high.
    pub strictly_above: bool,
    /// Equal hands go to the banker (`copies = "banker"`), or neither wins them.
    pub copies_to_banker: bool,
    /// What winning every hand pays, numerator to denominator.
    pub pays: (i64, i64),
    /// The house way (`[[flow.arrange.house_way]]`): the first whose `when` holds decides.
    pub house_way: Vec<HouseWay>,
}

/// One of the hands a seat arranges.
#[derive(Clone, Debug)]
pub struct ArrangedHand {
    /// Its id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// Cards in it.
    pub cards: u32,
}

/// A rule of the house way: when `when` holds for the cards dealt, the banker takes the legal
/// arrangement whose hand `maximise` is strongest (the other hand breaking ties, then the
/// earliest arrangement).
#[derive(Clone, Debug)]
pub struct HouseWay {
    /// Its id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// When it applies (over [`scope::HAND`], all the cards dealt); always when absent.
    pub when: Option<Program>,
    /// `when` as written.
    pub when_source: Option<String>,
    /// The hand it makes strongest (an index in `hands`).
    pub maximise: usize,
    /// What the other hand must meet (over [`scope::HAND`], that hand), when an allowed
    /// arrangement meets it.
    pub keep: Option<Program>,
    /// `keep` as written.
    pub keep_source: Option<String>,
}

/// `num / den` less the `commission` share (`(5, 100)` is 5%), rounded down to whole chips: the
/// house's share is rounded up, so a 25-chip win at 5% brings 23 (Baccarat's banker bet, a
/// player's win against a banker with `commission`).
pub fn less_commission(num: i128, den: i128, (cn, cd): (i64, i64)) -> i64 {
    let num = num * i128::from(cd - cn);
    let den = den * i128::from(cd);
    i64::try_from(num.div_euclid(den)).unwrap_or(i64::MAX)
}

/// Hands played by actions (`[flow.play]`, Blackjack): each seat's hand is played one action
/// at a time (the ruleset's declarations of banker effects), the banker's shown cards seen;
/// then the banker draws by its rules and each hand is settled by the payouts.
#[derive(Clone, Debug)]
pub struct Play {
    /// The actions, in ruleset order.
    pub actions: Vec<PlayAction>,
    /// The most hands a seat may hold by splitting.
    pub split_hands: u32,
    /// The banker's cards the seats see while they act.
    pub banker_shown: u32,
    /// Read after the deal on the banker's whole hand (over [`scope::PLAY`]): when it holds,
    /// the hands are settled at once.
    pub peek: Option<Program>,
    /// `peek` as written.
    pub peek_source: Option<String>,
    /// The side bet offered before the seats act (`[flow.insurance]`).
    pub insurance: Option<Insurance>,
    /// What a hand brings, the first that holds deciding (`[[flow.payout]]`).
    pub payouts: Vec<Payout>,
}

/// What an action does to a hand played by actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayEffect {
    /// Take one card.
    Hit,
    /// Take no more.
    Stand,
    /// Stake as much again, take one card and stand.
    Double,
    /// Two cards of equal `card_value` become two hands, each with the stake and a second card.
    Split,
    /// Give up the hand and half the stake.
    Surrender,
}

impl PlayEffect {
    /// The effect of a declaration's `effect`, if it is a banker one.
    pub fn named(effect: &str) -> Option<PlayEffect> {
        Some(match effect {
            "hit" => PlayEffect::Hit,
            "stand" => PlayEffect::Stand,
            "double" => PlayEffect::Double,
            "split" => PlayEffect::Split,
            "surrender" => PlayEffect::Surrender,
            _ => return None,
        })
    }
}

/// An action of a hand played by actions: a ruleset declaration.
#[derive(Clone, Debug)]
pub struct PlayAction {
    /// The declaration it is (moves name it).
    pub decl: DeclId,
    /// What it does.
    pub effect: PlayEffect,
    /// When it may be taken (over [`scope::PLAY`]); always when absent.
    pub when: Option<Program>,
}

/// Insurance (`[flow.insurance]`): a side bet of up to half the stake.
#[derive(Clone, Debug)]
pub struct Insurance {
    /// When it is offered (over [`scope::PLAY`], the banker's shown cards).
    pub when: Program,
    /// `when` as written.
    pub when_source: String,
    /// When it wins (over [`scope::PLAY`], the banker's whole first hand).
    pub wins: Program,
    /// `wins` as written.
    pub wins_source: String,
    /// What it pays, numerator to denominator.
    pub pays: (i64, i64),
}

/// How a payout settles a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PayResult {
    /// The hand wins `pays` of its stake.
    Win,
    /// The stake comes back.
    Push,
    /// The hand loses `pays` of its stake.
    Lose,
}

/// A payout (`[[flow.payout]]`).
#[derive(Clone, Debug)]
pub struct Payout {
    /// Its id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// When it applies (over [`scope::PLAY`], both whole hands).
    pub when: Program,
    /// `when` as written.
    pub when_source: String,
    /// Win, push or lose.
    pub result: PayResult,
    /// Of the stake, numerator to denominator.
    pub pays: (i64, i64),
}

impl Payout {
    /// The chips a hand staking `stake` wins (positive) or loses: a ratio of the stake, rounded
    /// down (a win) or up (a loss) to whole chips.
    pub fn chips(&self, stake: i64) -> i64 {
        PayResult::chips(self.result, self.pays, stake)
    }
}

impl PayResult {
    /// The chips a hand staking `stake` wins (positive) or loses at `pays` of the stake,
    /// rounded down (a win) or up (a loss) to whole chips.
    pub fn chips(self, (n, d): (i64, i64), stake: i64) -> i64 {
        let whole = i128::from(stake) * i128::from(n);
        let chips = |v: i128| i64::try_from(v).unwrap_or(i64::MAX);
        match self {
            PayResult::Win => chips(whole.div_euclid(i128::from(d))),
            PayResult::Push => 0,
            PayResult::Lose => -chips((whole + i128::from(d) - 1).div_euclid(i128::from(d))),
        }
    }
}

/// How the first banker (or dealer) is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstBanker {
    /// The first seat.
    FirstSeat,
    /// The seat shown the card of highest value.
    HighCard,
    /// The seat shown the card of lowest value.
    LowCard,
}

/// The bank as one of the seats (`[flow.bank]`).
#[derive(Clone, Debug)]
pub struct Bank {
    /// How the first banker is chosen.
    pub first: FirstBanker,
    /// When the bank passes to a player after a showdown (over [`scope::SHOWDOWN`]).
    pub pass_when: Option<Program>,
    /// `pass_when` as written.
    pub pass_when_source: Option<String>,
    /// Hands one banker keeps the bank before it passes in turn (0: never in turn).
    pub pass_every: u32,
    /// The hand's winner banks (or deals) next: the pot's winner, or the player who beat the
    /// banker by most (`winner_by`).
    pub pass_to_winner: bool,
    /// Hands against a banker seat: how "beat the banker by most" is measured.
    pub winner_by: WinnerBy,
    /// Who banks next when the winners tie.
    pub winner_ties: WinnerTies,
}

/// How the player who beat the banker by most is found (`[flow.bank] winner_by`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinnerBy {
    /// The most chips won from the banker in the hand (after any commission).
    Chips,
    /// The best hand among those that beat the banker's (by the ranks, else by `value`).
    Hand,
}

/// Who banks next when several players beat the banker equally, or a pot is split
/// (`[flow.bank] winner_ties`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinnerTies {
    /// The banker (dealer) keeps the bank.
    BankerKeeps,
    /// The first of the tied winners in turn after the banker.
    FirstInTurn,
}

/// A named rank of hands (`[[flow.hand_rank]]`).
#[derive(Clone, Debug)]
pub struct HandRank {
    /// Its id.
    pub id: String,
    /// Its name, `{}` standing for the `within` value.
    pub name: String,
    /// When a hand has it (over [`scope::HAND`]).
    pub when: Program,
    /// `when` as written.
    pub when_source: String,
    /// Orders the rank's hands, higher better.
    pub within: Option<Program>,
    /// `within` as written.
    pub within_source: Option<String>,
}

impl HandRank {
    /// The rank's name for a hand whose `within` value is `within`.
    pub fn words(&self, within: i64) -> String {
        self.name.replace("{}", &within.to_string())
    }
}

/// A special hand (`[[flow.special]]`): it plays as its rank, and also beats the ranks `beats`.
#[derive(Clone, Debug)]
pub struct SpecialHand {
    /// Its id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// When a hand is this special hand (over [`scope::HAND`]).
    pub when: Program,
    /// `when` as written.
    pub when_source: String,
    /// The ranks it beats (indices into `ranks`).
    pub beats: Vec<usize>,
    /// Pot games: the hand is dealt again when every other hand still in ranks below this rank.
    pub redeal_below: Option<usize>,
}

/// A pot game (`[flow.pot]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pot {
    /// Chips each seat antes.
    pub ante: i64,
    /// Cards dealt to each seat before each betting round.
    pub rounds: Vec<u32>,
    /// The most raises in one betting round.
    pub raises: u32,
}

impl BankerFlow {
    /// True when a house banks, outside the seats: not when a seat banks (`[flow.bank]`) nor
    /// in a pot game (`[flow.pot]`), where the chips only pass between seats.
    pub fn has_house(&self) -> bool {
        self.bank.is_none() && self.pot.is_none()
    }

    /// What a player's win of `chips` against the banker brings, less `commission`.
    pub fn player_win(&self, chips: i64) -> i64 {
        if self.commission.0 == 0 {
            return chips;
        }
        less_commission(i128::from(chips), 1, self.commission)
    }

    /// What a banker seat's net win of `chips` in a hand brings, less `banker_commission`
    /// (a loss is paid whole).
    pub fn banker_win(&self, chips: i64) -> i64 {
        if chips <= 0 || self.banker_commission.0 == 0 {
            return chips;
        }
        less_commission(i128::from(chips), 1, self.banker_commission)
    }

    /// A hand's value in words: its name and value (`Kabu (9)`) when `[[flow.hand_name]]` names
    /// it, else its points (`1 point`, `7 points`).
    pub fn value_words(&self, value: i64) -> String {
        match self.hand_names.iter().find(|(v, _)| *v == value) {
            Some((_, name)) => format!("{name} ({value})"),
            None if value == 1 => "1 point".to_string(),
            None => format!("{value} points"),
        }
    }
}

/// The largest value `card_value` may give one card, either way.
pub const MAX_CARD_VALUE: i64 = 1_000_000;

/// A shoe: `packs` copies of the deck's cards shuffled together and dealt across hands, so that a
/// hand may hold two equal cards; a new shoe is shuffled before a hand when fewer than `cut`
/// cards are left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shoe {
    /// Packs in the shoe.
    pub packs: u32,
    /// Cards left behind the cut card: a hand starting with fewer left starts a new shoe.
    pub cut: u32,
}

/// What a drawing rule makes a hand do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawAction {
    /// Take one more card (and read the rules again).
    Draw,
    /// Take no more cards.
    Stand,
    /// Hands per seat: the player chooses how many more cards to take, from `draw_options`.
    Choose,
}

/// A drawing rule of a banker game: when `when` holds (over [`scope::SHOWDOWN`]), the hand
/// draws or stands.
#[derive(Clone, Debug)]
pub struct DrawRule {
    /// Its id.
    pub id: String,
    /// Its display name (`Player draws on 0-5`).
    pub name: String,
    /// When it applies.
    pub when: Program,
    /// The text of `when`, as written.
    pub when_source: String,
    /// What the hand does.
    pub action: DrawAction,
}

/// A bet a seat may place on a table hand's outcome.
#[derive(Clone, Debug)]
pub struct BetKind {
    /// Its id (`banker`).
    pub id: String,
    /// Its display name.
    pub name: String,
    /// When it wins (over [`scope::SHOWDOWN`]).
    pub wins: Program,
    /// The text of `wins`.
    pub wins_source: String,
    /// When the stake comes back, neither won nor lost (`None`: never).
    pub pushes: Option<Program>,
    /// The text of `pushes`.
    pub pushes_source: Option<String>,
    /// What a won stake pays, `numerator` to `denominator` (8 to 1 is `(8, 1)`).
    pub pays: (i64, i64),
    /// The share of a win the house keeps, `numerator / denominator` (5% is `(5, 100)`).
    pub commission: (i64, i64),
}

impl BetKind {
    /// What a won `stake` brings in whole chips: the payout less the commission, rounded down.
    pub fn won(&self, stake: i64) -> i64 {
        let (pn, pd) = self.pays;
        less_commission(
            i128::from(stake) * i128::from(pn),
            i128::from(pd),
            self.commission,
        )
    }
}
