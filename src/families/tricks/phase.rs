//! What a trick-taking game waits for: read by the game, which moves from phase to phase, and
//! by a seat's view and the bots, which only look at it (a file of its own so that the view
//! need not import the game).

/// What a trick-taking game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// A player bids or passes in the auction.
    Bid,
    /// Each seat in turn sets aside the cards it passes (`[flow.pass]`), one a move.
    Pass,
    /// The auction's winner, having taken the talon, discards as many cards.
    Discard,
    /// The auction's winner names trumps.
    NameTrump,
    /// The auction's winner calls its partner's card (a contract with `call`).
    Call,
    /// The leader leads to a trick (or declares first).
    Lead,
    /// The winner of a trick may show a meld before the draw (or pass).
    Meld,
    /// The other players play to the trick.
    Follow,
    /// The game is over.
    GameOver,
}
