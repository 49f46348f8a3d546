//! What `gin play` shows: the table on a player's turn, the moves as they happen, the end of a
//! hand and of the game. Every function here is pure: it takes what the player may see and
//! returns text, so that the screens can be tested as snapshots.

use std::fmt::Write as _;

use gin_ai::{Hint, Reason};
use gin_cards::{Card, CardSet};
use gin_engine::{Action, Event, Phase, PlayerView};
use gin_rules::{ByPlayer, GameResult, HandOutcome, HandScore, KnockKind, Player, Ruleset, Showing, Solver};

use crate::render::{Look, plural};

/// Who sits where, and how to speak of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Seats {
    names: ByPlayer<&'static str>,
    /// The seat spoken to as "you", if any (none at a hotseat table).
    you: Option<Player>,
}

impl Seats {
    /// A person in `human`'s seat against the computer.
    pub(super) fn versus_ai(human: Player) -> Seats {
        let mut names = ByPlayer::new("The AI", "The AI");
        names[human] = "You";
        Seats { names, you: Some(human) }
    }

    /// Two people at one terminal.
    pub(super) fn hotseat() -> Seats {
        Seats { names: ByPlayer::new("Player 1", "Player 2"), you: None }
    }

    /// The seat's name: `You`, `The AI`, `Player 1`.
    pub(super) fn name(&self, player: Player) -> &'static str {
        self.names[player]
    }

    /// `Your hand`, `Player 1's hand`.
    pub(super) fn hand_of(&self, player: Player) -> String {
        if self.you == Some(player) { "Your hand".to_owned() } else { format!("{}'s hand", self.names[player]) }
    }

    /// `you_form` when the seat is "you", else `other_form` (`draw`/`draws`).
    fn verb<'a>(&self, player: Player, you_form: &'a str, other_form: &'a str) -> &'a str {
        if self.you == Some(player) { you_form } else { other_form }
    }
}

/// A hand as it is shown: its best melds, then the unmelded cards, in the order positions count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Layout {
    /// The melds, each in play order.
    pub melds: Vec<Vec<Card>>,
    /// The unmelded cards, spades to clubs, ace to king.
    pub unmelded: Vec<Card>,
}

impl Layout {
    /// The hand grouped into a best arrangement.
    pub(super) fn of(hand: CardSet, solver: Solver) -> Layout {
        let arrangement = solver.best_arrangement(hand);
        let mut melds: Vec<Vec<Card>> =
            arrangement.melds().iter().map(|meld| meld.cards_in_order().collect()).collect();
        melds.sort_by_key(|meld| meld.first().map(|card| card.index()));
        Layout { melds, unmelded: arrangement.unmelded().iter().collect() }
    }

    /// The cards in display order: position `n` (from 1) is `order()[n - 1]`.
    pub(super) fn order(&self) -> Vec<Card> {
        self.melds.iter().flatten().chain(&self.unmelded).copied().collect()
    }

    /// Two lines: the cards (melds in brackets) and, under each card, its position.
    fn lines(&self, look: Look) -> (String, String) {
        let (mut cards, mut positions) = (String::new(), String::new());
        let mut position = 0;
        let mut group = |cards_line: &mut String, positions_line: &mut String, group: &[Card], bracket: bool| {
            if !cards_line.is_empty() {
                cards_line.push_str("  ");
                positions_line.push_str("  ");
            }
            if bracket {
                cards_line.push('[');
                positions_line.push(' ');
            }
            for (i, &card) in group.iter().enumerate() {
                if i > 0 {
                    cards_line.push(' ');
                    positions_line.push(' ');
                }
                position += 1;
                cards_line.push_str(&look.card(card));
                let _ = write!(positions_line, "{position:>2}");
            }
            if bracket {
                cards_line.push(']');
                positions_line.push(' ');
            }
        };
        for meld in &self.melds {
            group(&mut cards, &mut positions, meld, true);
        }
        if !self.unmelded.is_empty() {
            group(&mut cards, &mut positions, &self.unmelded, false);
        }
        (cards, positions.trim_end().to_owned())
    }
}

/// The table as `view`'s player sees it on its turn: scores, stock, pile, what is known of the
/// opponent, the hand in its best melds with positions, and what the hand may do now.
pub(super) fn table(view: &PlayerView<'_>, seats: &Seats, look: Look) -> String {
    let me = view.seat;
    let them = me.opponent();
    let mut out = String::new();
    let heading = format!(
        "Hand {} · {} {} · {} {} · game to {} · {} dealt",
        view.hand_number,
        seats.name(me),
        view.score.points[me],
        seats.name(them),
        view.score.points[them],
        view.rules.target,
        seats.name(view.dealer),
    );
    let _ = writeln!(out, "{}", look.bold(&heading));
    let pile = match view.pile_top() {
        Some(top) => format!("{} on top ({})", look.card(top), plural(view.discard_pile.len() as u64, "card")),
        None => "empty".to_owned(),
    };
    let _ = writeln!(out, "Stock: {} · discard pile: {pile}", plural(view.stock_size as u64, "card"));
    let known = if view.opponent_known.is_empty() {
        "nothing known from pickups".to_owned()
    } else {
        format!("known from pickups: {}", look.cards(view.opponent_known))
    };
    let _ = writeln!(
        out,
        "{} {} {} cards; {known}",
        seats.name(them),
        seats.verb(them, "hold", "holds"),
        view.opponent_cards
    );
    let layout = Layout::of(view.hand, view.rules.solver());
    let (cards, positions) = layout.lines(look);
    let _ = writeln!(out, "Your hand  {cards}");
    let _ = writeln!(out, "           {positions}");
    let _ = writeln!(out, "{}", hand_status(view, look));
    out
}

/// What the hand may do now: its deadwood and how far it is from a knock, or the knock or gin it
/// holds, with the command that makes it.
pub(super) fn hand_status(view: &PlayerView<'_>, look: Look) -> String {
    let solver = view.rules.solver();
    let limit = view.knock_limit;
    let limit_text = if limit == 0 { "gin only in this hand".to_owned() } else { format!("knock limit {limit}") };
    if view.phase != Phase::Discard || view.hand.len() != 11 {
        let deadwood = solver.min_deadwood(view.hand);
        return if deadwood == 0 {
            "Deadwood 0: gin in hand. Draw, then knock with the card you drew for gin.".to_owned()
        } else if deadwood <= limit {
            format!("Deadwood {deadwood}: you can knock after your draw ({limit_text}).")
        } else {
            format!("Deadwood {deadwood}: needs {} points less to knock ({limit_text}).", deadwood - limit)
        };
    }
    let (rules, hand, taken) = (view.rules, view.hand, view.taken_card);
    let discardable = rules.discardable(hand, taken);
    let taken_note = match taken {
        Some(taken) if !discardable.contains(taken) => {
            format!("\nYou took {} from the pile: it may not be discarded this turn.", look.card(taken))
        }
        _ => String::new(),
    };
    if rules.is_big_gin(hand) {
        return format!("BIG GIN: all 11 cards meld! Type `big` to lay them down.{taken_note}");
    }
    // The first of the legal discards that leave the least deadwood, and that deadwood.
    let best = rules.best_legal_discards(hand, taken);
    let Some((best, card)) = best.and_then(|best| best.discards.first().map(|card| (best.deadwood, card))) else {
        return String::new();
    };
    if !rules.knock_discards(hand, taken, limit).is_empty() {
        let command = format!("`k {}`", look.card(card));
        return if best == 0 {
            format!("GIN: {command} discards {} and goes gin.{taken_note}", look.card(card))
        } else {
            format!("You can knock: {command} leaves deadwood {best} ({limit_text}).{taken_note}")
        };
    }
    format!(
        "Deadwood {}; discarding {} leaves {best}: needs {} points less to knock ({limit_text}).{taken_note}",
        solver.min_deadwood(hand),
        look.card(card),
        best.saturating_sub(limit)
    )
}

/// The question put to the player to act, one line (its first word names the decision:
/// `Upcard`, `Draw:`, `Discard:`).
pub(super) fn question(view: &PlayerView<'_>, legal: &[Action], look: Look) -> String {
    let top = view.pile_top().map(|card| look.card(card)).unwrap_or_default();
    match view.phase {
        Phase::UpcardOffer => format!("Upcard {top}: t to take it, p to pass."),
        Phase::Draw if legal.contains(&Action::DrawPile) => {
            format!("Draw: s from the stock, or d to take {top} from the discard pile.")
        }
        Phase::Draw => "Draw: s from the stock (both players passed the upcard).".to_owned(),
        Phase::Discard => {
            let big = if legal.contains(&Action::BigGin) { ", big for big gin" } else { "" };
            format!("Discard: a card by name or position 1-{}; k and a card to knock{big}.", view.hand.len())
        }
        Phase::LayOff | Phase::Over => String::new(),
    }
}

/// The moves in `events` as `viewer` may see them, one sentence per turn:
/// `The AI draws from the stock and discards 9C.`
pub(super) fn narrate(events: &[Event], viewer: Player, seats: &Seats, look: Look) -> Vec<String> {
    let mut sentences = Vec::new();
    let mut current: Option<(Player, Vec<String>)> = None;
    let flush = |current: &mut Option<(Player, Vec<String>)>, sentences: &mut Vec<String>| {
        if let Some((player, phrases)) = current.take() {
            sentences.push(format!("{} {}.", seats.name(player), phrases.join(" and ")));
        }
    };
    for event in events {
        let seen = event.seen_by(viewer);
        let Some((player, phrase)) = phrase(&seen, seats, look) else {
            if let Event::StockRebuilt { size } = seen {
                flush(&mut current, &mut sentences);
                sentences.push(format!("The stock is rebuilt from the discard pile: {size} cards."));
            }
            continue;
        };
        match &mut current {
            Some((who, phrases)) if *who == player => phrases.push(phrase),
            _ => {
                flush(&mut current, &mut sentences);
                current = Some((player, vec![phrase]));
            }
        }
    }
    flush(&mut current, &mut sentences);
    sentences
}

/// A player's move as a verb phrase: `draws from the stock`, `discards 9C`.
fn phrase(event: &Event, seats: &Seats, look: Look) -> Option<(Player, String)> {
    let verb = |player, you, other| seats.verb(player, you, other);
    Some(match event {
        Event::TookUpcard { player, card } => {
            (*player, format!("{} the upcard {}", verb(*player, "take", "takes"), look.card(*card)))
        }
        Event::PassedUpcard { player } => (*player, format!("{} the upcard", verb(*player, "pass", "passes"))),
        Event::DrewStock { player, card: Some(card) } => {
            (*player, format!("{} {} from the stock", verb(*player, "draw", "draws"), look.card(*card)))
        }
        Event::DrewStock { player, card: None } => {
            (*player, format!("{} from the stock", verb(*player, "draw", "draws")))
        }
        Event::DrewPile { player, card } => {
            (*player, format!("{} {} from the discard pile", verb(*player, "take", "takes"), look.card(*card)))
        }
        Event::Discarded { player, card } => {
            (*player, format!("{} {}", verb(*player, "discard", "discards"), look.card(*card)))
        }
        Event::Knocked { player, kind, discard, shown } => {
            let discard = discard.map(|card| format!(", discarding {}", look.card(card))).unwrap_or_default();
            let text = match kind {
                KnockKind::Knock => {
                    format!("{} with deadwood {}{discard}", verb(*player, "knock", "knocks"), shown.deadwood())
                }
                KnockKind::Gin => format!("{} gin{discard}", verb(*player, "go", "goes")),
                KnockKind::BigGin => format!("{} big gin, all 11 cards melded", verb(*player, "go", "goes")),
            };
            (*player, text)
        }
        _ => return None,
    })
}

/// Everything the end of a hand shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct HandEnd {
    /// The hand's number.
    pub number: u32,
    /// The knocker, if anyone knocked.
    pub knocker: Option<Player>,
    /// Each player's cards as shown (the showdown of a knock; for a dead hand, each hand's best
    /// arrangement).
    pub shown: ByPlayer<Showing>,
    /// The result, with where its points come from.
    pub score: HandScore,
    /// The game's hand points after it.
    pub points: ByPlayer<u32>,
}

impl HandEnd {
    /// The end of the hand that `event` reports (`None` unless it is [`Event::HandEnded`]): the
    /// showdown it carries, or for a dead hand both players' cards `hands` in their best melds.
    pub(super) fn of(event: &Event, number: u32, hands: ByPlayer<CardSet>, solver: Solver) -> Option<HandEnd> {
        let Event::HandEnded { score, points, showdown } = event else { return None };
        let (knocker, shown) = match showdown {
            Some(showdown) => (Some(showdown.knocker), showdown.shown),
            None => {
                let best = |player: Player| {
                    let arrangement = solver.best_arrangement(hands[player]);
                    Showing::of_arrangement(&arrangement).expect("ten cards hold at most three melds")
                };
                (None, ByPlayer::from_fn(best))
            }
        };
        Some(HandEnd { number, knocker, shown, score: *score, points: *points })
    }
}

/// The end of a hand: both hands with their melds, the layoffs, both deadwood counts, the result
/// and the points.
pub(super) fn hand_end(end: &HandEnd, rules: &Ruleset, seats: &Seats, look: Look) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", look.bold(&format!("── Hand {} is over ──", end.number)));
    let order = match end.knocker {
        Some(knocker) => [knocker, knocker.opponent()],
        None => Player::ALL,
    };
    let width = Player::ALL.iter().map(|&p| seats.name(p).len()).max().unwrap_or(0) + 1;
    for player in order {
        let shown = &end.shown[player];
        let melds = if shown.melds().is_empty() { "no melds".to_owned() } else { look.melds(shown.melds()) };
        let mut line = format!("{:<width$} {melds}", format!("{}:", seats.name(player)));
        if !shown.laid_off().is_empty() {
            let _ = write!(line, "  laid off {}", look.cards(shown.laid_off()));
        }
        let _ = write!(line, "  deadwood {} = {}", look.cards(shown.unmelded()), shown.deadwood());
        if shown.unmelded().is_empty() {
            line = line.replace("deadwood none = 0", "deadwood 0");
        }
        let _ = writeln!(out, "{line}");
    }
    let result = hand_result(end, seats);
    let _ = writeln!(out, "{}", look.bold(&result));
    let _ = writeln!(
        out,
        "Score: {} {} · {} {} (game to {}).",
        seats.name(Player::One),
        end.points[Player::One],
        seats.name(Player::Two),
        end.points[Player::Two],
        rules.target
    );
    out
}

/// The outcome of a hand in a sentence, with where the points come from:
/// `UNDERCUT: You score 28 points (25 undercut bonus + deadwood 3 − 0).`
pub(super) fn hand_result(end: &HandEnd, seats: &Seats) -> String {
    let score = end.score;
    match (score.outcome, score.winner) {
        (HandOutcome::Dead, _) => "DEAD HAND: nobody knocked before the stock ran out; nobody scores.".to_owned(),
        (HandOutcome::Tie, _) => "TIE: equal deadwood; nobody scores.".to_owned(),
        (outcome, Some(winner)) => {
            let word = match outcome {
                HandOutcome::BigGin => "BIG GIN".to_owned(),
                other => other.to_string(),
            };
            let why = end.knocker.map(|knocker| why_points(end, knocker)).unwrap_or_default();
            format!(
                "{word}: {} {} {}{why}.",
                seats.name(winner),
                seats.verb(winner, "score", "scores"),
                plural(u64::from(score.points), "point")
            )
        }
        (outcome, None) => format!("{outcome}: nobody scores."),
    }
}

/// Where a hand's points come from, as the score breaks them down: ` (deadwood 21 − 4)`,
/// ` (25 gin bonus + deadwood 9)`, ` (…, doubled by a spade upcard)`.
fn why_points(end: &HandEnd, knocker: Player) -> String {
    let score = end.score;
    let k = end.shown[knocker].deadwood();
    let d = end.shown[knocker.opponent()].deadwood();
    let text = match score.outcome {
        HandOutcome::Knock => format!("deadwood {d} − {k}"),
        HandOutcome::Undercut => format!("{} undercut bonus + deadwood {k} − {d}", score.bonus),
        HandOutcome::Gin => format!("{} gin bonus + deadwood {}", score.bonus, score.base),
        HandOutcome::BigGin => format!("{} big gin bonus + deadwood {}", score.bonus, score.base),
        HandOutcome::Tie | HandOutcome::Dead => return String::new(),
    };
    if score.doubled { format!(" ({text}, doubled by a spade upcard)") } else { format!(" ({text})") }
}

/// The end of the game: every part of the result and the winner.
pub(super) fn game_end(result: &GameResult, rules: &Ruleset, seats: &Seats, look: Look) -> String {
    let mut out = String::new();
    let winner = seats.name(result.winner);
    let headline = if seats.you == Some(result.winner) {
        "Game over: you win!".to_owned()
    } else {
        format!("Game over: {winner} wins.")
    };
    let _ = writeln!(out, "{}", look.bold(&format!("══ {headline} ══")));
    let [one, two] = Player::ALL;
    let row = |label: &str, a: String, b: String| format!("{label:<20}{a:>10}{b:>10}\n");
    out.push_str(&row("", seats.name(one).to_owned(), seats.name(two).to_owned()));
    out.push_str(&row("hand points", result.hand_points[one].to_string(), result.hand_points[two].to_string()));
    out.push_str(&row("hands won (boxes)", result.boxes[one].to_string(), result.boxes[two].to_string()));
    out.push_str(&row(
        &format!("box bonus ({} each)", rules.box_bonus),
        result.box_points[one].to_string(),
        result.box_points[two].to_string(),
    ));
    let bonus = |player: Player| if player == result.winner { result.game_bonus.to_string() } else { "-".to_owned() };
    let label = if result.shutout { "game bonus (shutout)" } else { "game bonus" };
    out.push_str(&row(label, bonus(one), bonus(two)));
    out.push_str(&row("total", result.totals[one].to_string(), result.totals[two].to_string()));
    let shutout = if result.shutout {
        format!(
            " Shutout: {} scored no hand points, so the game bonus is multiplied by {}.",
            seats.name(result.loser),
            rules.shutout_multiplier
        )
    } else {
        String::new()
    };
    let _ = writeln!(out, "{winner} {} by {}.{shutout}", seats.verb(result.winner, "win", "wins"), result.margin);
    out
}

/// An action in words, for hints: `draw from the stock`, `knock, discarding 9D (k 9D)`.
pub(super) fn describe(action: Action, view: &PlayerView<'_>, look: Look) -> String {
    let top = view.pile_top().map(|card| look.card(card)).unwrap_or_default();
    match action {
        Action::TakeUpcard => format!("take the upcard {top} (t)"),
        Action::PassUpcard => "pass the upcard (p)".to_owned(),
        Action::DrawStock => "draw from the stock (s)".to_owned(),
        Action::DrawPile => format!("take {top} from the discard pile (d)"),
        Action::Discard { card } => format!("discard {}", look.card(card)),
        Action::Knock { discard } => {
            let gin = view.rules.solver().min_deadwood(view.hand.without(discard)) == 0;
            let verb = if gin { "go gin" } else { "knock" };
            format!("{verb}, discarding {} (k {})", look.card(discard), look.card(discard))
        }
        Action::BigGin => "go big gin (big)".to_owned(),
        Action::LayOff => "lay off".to_owned(),
    }
}

/// A reason behind a hint, in a sentence with the cards as `QS` (the caller puts them in its
/// A hint: what `advisor` (the level's name) would do, then its reasons, most important first.
pub(super) fn hint(hint: &Hint, advisor: &str, view: &PlayerView<'_>, look: Look) -> Vec<String> {
    let mut lines = vec![format!("Hint: {advisor} would {}.", describe(hint.action, view, look))];
    lines.extend(hint.reasons.iter().map(|reason| format!("  - {}", self::reason(reason, look))));
    lines
}

/// One reason of a hint, in words, with its cards in `look`.
pub(super) fn reason(reason: &Reason, look: Look) -> String {
    let c = |card| look.card(card);
    match *reason {
        Reason::TakeOrDraw { card, take, stock } => format!(
            "taking {} scores {take:.1}, a stock draw {stock:.1} on average (lower is better: the deadwood \
             expected after the next draw, with a risk term for the discard)",
            c(card)
        ),
        Reason::BigGin => "all 11 cards meld: big gin".to_owned(),
        Reason::Gin { discard } => format!("discarding {} leaves gin", c(discard)),
        Reason::KnockEarly { discard, deadwood } => format!(
            "discarding {} leaves {deadwood} deadwood, and early in the hand a knock rarely meets an undercut",
            c(discard)
        ),
        Reason::HoldForGin { discard, deadwood } => format!(
            "it could knock with {deadwood} deadwood by discarding {}, but after the first turn it plays on for \
             gin: the opponent's own knocks then often meet an undercut",
            c(discard)
        ),
        Reason::Discard { card, deadwood, outlook, ahead, danger } => format!(
            "discard {}: leaves {deadwood} deadwood, about {outlook:.1} after the next draw{}; the opponent can \
             meld it with chance {:.0}%",
            c(card),
            ahead.map(|ahead| format!(" and {ahead:.1} after the one after")).unwrap_or_default(),
            100.0 * danger
        ),
        Reason::RefereeLaysOff => "the referee lays off the best way".to_owned(),
        Reason::Search { discard, knock, play_on, knocks, learned } => {
            let searched = if knocks {
                format!(
                    "knock now: knocking with {} wins the game in {:.0}% of the searched futures, playing on in {:.0}%",
                    c(discard),
                    100.0 * knock,
                    100.0 * play_on
                )
            } else {
                format!(
                    "play on: knocking with {} would win the game in {:.0}% of the searched futures, playing on in \
                     {:.0}%",
                    c(discard),
                    100.0 * knock,
                    100.0 * play_on
                )
            };
            match learned {
                // The futures' figures are biased; what self-play learned of that bias decides.
                Some(gain) => format!(
                    "{searched}; corrected for the search's bias, knocking gains {:+.1} points in 100",
                    100.0 * gain
                ),
                None => searched,
            }
        }
        Reason::SearchDiscard { card, value, expert, expert_value } => format!(
            "the search prefers discarding {} to {}: the game is won in {:.1}% of the searched futures after it, \
             {:.1}% after {}",
            c(card),
            c(expert),
            100.0 * value,
            100.0 * expert_value,
            c(expert)
        ),
    }
}

/// Positions the tests of the play screens share.
#[cfg(test)]
pub(super) mod fixtures {
    use super::*;
    use gin_engine::HandSetup;
    use gin_rules::{Meld, Showdown};

    /// docs/rules.md, V10 as it ends: player two knocks with AS 2S 3S 7H 7D 7C JC QC KC, 3H
    /// unmelded (K = 3); player one lays off 4S and undercuts. Game points after it: 90 to 40.
    pub(in crate::play) fn v10_undercut(rules: &Ruleset) -> Event {
        let meld = |text: &str| Meld::new(text.parse().unwrap(), false).unwrap();
        let knocker = Showing::new(
            "AS 2S 3S 7H 7D 7C JC QC KC 3H".parse().unwrap(),
            &[meld("AS 2S 3S"), meld("7H 7D 7C"), meld("JC QC KC")],
            CardSet::EMPTY,
        )
        .unwrap();
        let defender = Showing::new(
            "9D 9H 9S TD TH TS 4D 5D 6D 4S".parse().unwrap(),
            &[meld("9D 9H 9S"), meld("TD TH TS"), meld("4D 5D 6D")],
            "4S".parse().unwrap(),
        )
        .unwrap();
        let showdown =
            Showdown { knocker: Player::Two, kind: KnockKind::Knock, shown: ByPlayer::new(defender, knocker) };
        Event::HandEnded {
            score: showdown.score(rules, "7H".parse().unwrap()),
            points: ByPlayer::new(90, 40),
            showdown: Some(showdown),
        }
    }

    /// A standard game from `seed` after the first legal action was played `count` times.
    pub(in crate::play) fn game_after(seed: u64, count: usize) -> gin_engine::Game {
        let (mut game, _) = gin_engine::Game::new(&Ruleset::standard(), seed);
        for _ in 0..count {
            let player = game.to_act().unwrap();
            let action = game.legal_actions()[0];
            game.play(player, action).unwrap();
        }
        game
    }

    /// docs/rules.md, V10 as it is dealt: player two deals; player one holds AS 2S 3S 7H 7D 7C JC
    /// QC KC 3H and is offered 9H; player two holds 9D 9S 9C TD TH TS 4D 5D 6D 4S.
    pub(in crate::play) fn v10_setup() -> HandSetup {
        let hands = ByPlayer::new(
            "AS 2S 3S 7H 7D 7C JC QC KC 3H".parse().unwrap(),
            "9D 9S 9C TD TH TS 4D 5D 6D 4S".parse().unwrap(),
        );
        let upcard: Card = "9H".parse().unwrap();
        let dealt = hands[Player::One] | hands[Player::Two] | CardSet::from_card(upcard);
        HandSetup { dealer: Player::Two, hands, upcard, stock: (CardSet::FULL - dealt).iter().collect() }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::game_after;
    use super::*;
    use gin_engine::Game;
    use gin_rules::{Meld, Showdown};

    #[test]
    fn colour_paints_red_suits_only() {
        let look = Look { symbols: true, color: true };
        assert_eq!(look.card("7H".parse().unwrap()), "\x1b[31m7♥\x1b[0m");
        assert_eq!(look.card("7S".parse().unwrap()), "7♠");
        assert_eq!(Look::PLAIN.card("7H".parse().unwrap()), "7H");
        assert_eq!(Look::PLAIN.cards(CardSet::EMPTY), "none");
    }

    #[test]
    fn positions_sit_under_their_cards() {
        let hand: CardSet = "AS 2S 3S 7H 7D 7C 4D 9D JC QH KC".parse().unwrap();
        let layout = Layout::of(hand, Solver::ACE_LOW);
        let (cards, positions) = layout.lines(Look::PLAIN);
        assert_eq!(cards, "[AS 2S 3S]  [7H 7D 7C]  QH 4D 9D JC KC");
        assert_eq!(positions, "  1  2  3     4  5  6    7  8  9 10 11");
        assert_eq!(layout.order().len(), 11);
        assert_eq!(layout.order()[6].to_string(), "QH");
    }

    #[test]
    fn the_table_on_an_upcard_offer() {
        let game = game_after(1, 0);
        let player = game.to_act().unwrap();
        let view = game.view(player);
        insta::assert_snapshot!(table(&view, &Seats::versus_ai(player), Look::PLAIN));
        insta::assert_snapshot!(question(&view, &game.legal_actions(), Look::PLAIN));
    }

    #[test]
    fn the_table_after_a_draw() {
        // The non-dealer takes the upcard and discards; the dealer draws from the stock: 11 cards.
        let game = game_after(3, 3);
        let player = game.to_act().unwrap();
        let view = game.view(player);
        insta::assert_snapshot!(table(&view, &Seats::versus_ai(player), Look::PLAIN));
        insta::assert_snapshot!(question(&view, &game.legal_actions(), Look::PLAIN));
    }

    #[test]
    fn moves_are_told_one_turn_per_sentence() {
        let (mut game, _) = Game::new(&Ruleset::standard(), 5);
        let mut events = Vec::new();
        for _ in 0..6 {
            let player = game.to_act().unwrap();
            let action = *game.legal_actions().last().unwrap();
            events.extend(game.play(player, action).unwrap());
        }
        let viewer = Player::One;
        let told = narrate(&events, viewer, &Seats::versus_ai(viewer), Look::PLAIN).join("\n");
        insta::assert_snapshot!(told);
    }

    #[test]
    fn the_points_are_explained_by_the_scores_breakdown() {
        let meld = |text: &str| Meld::new(text.parse().unwrap(), false).unwrap();
        let gin = Showing::new(
            "AS 2S 3S 7H 7D 7C 7S JC QC KC".parse().unwrap(),
            &[meld("AS 2S 3S"), meld("7H 7D 7C 7S"), meld("JC QC KC")],
            CardSet::EMPTY,
        )
        .unwrap();
        // The defender shows no melds here: its deadwood is its whole hand, 81.
        let caught = Showing::new("9D 9H 9S TD TH TS 4D 5D 6D 9C".parse().unwrap(), &[], CardSet::EMPTY).unwrap();
        let showdown = Showdown { knocker: Player::One, kind: KnockKind::Gin, shown: ByPlayer::new(gin, caught) };
        let seats = Seats::versus_ai(Player::One);
        let line = |rules: &Ruleset, upcard: &str| {
            let score = showdown.score(rules, upcard.parse().unwrap());
            let ended = Event::HandEnded { score, points: ByPlayer::new(score.points, 0), showdown: Some(showdown) };
            let end = HandEnd::of(&ended, 1, ByPlayer::default(), rules.solver()).unwrap();
            hand_end(&end, rules, &seats, Look::PLAIN).lines().nth(3).unwrap().to_owned()
        };
        assert_eq!(line(&Ruleset::standard(), "5S"), "GIN: You score 106 points (25 gin bonus + deadwood 81).");
        let doubling = Ruleset { spade_doubles: true, ..Ruleset::oklahoma() };
        assert_eq!(
            line(&doubling, "5S"),
            "GIN: You score 212 points (25 gin bonus + deadwood 81, doubled by a spade upcard)."
        );
        assert_eq!(line(&doubling, "5H"), "GIN: You score 106 points (25 gin bonus + deadwood 81).");
    }

    #[test]
    fn a_dead_hand_shows_both_hands_in_their_best_melds() {
        let hands = ByPlayer::new(
            "AS 2S 3S 7H 7D 7C JC QC KC 3H".parse().unwrap(),
            "9D 9H 9S TD TH 4S 4D 5D 6D KH".parse().unwrap(),
        );
        let ended = Event::HandEnded { score: HandScore::dead(), points: ByPlayer::new(10, 20), showdown: None };
        let end = HandEnd::of(&ended, 2, hands, Solver::ACE_LOW).unwrap();
        assert_eq!(end.knocker, None);
        assert_eq!((end.shown[Player::One].deadwood(), end.shown[Player::Two].deadwood()), (3, 34));
        let text = hand_end(&end, &Ruleset::standard(), &Seats::hotseat(), Look::PLAIN);
        assert!(text.contains("\nPlayer 1: [7H 7D 7C] [AS 2S 3S] [JC QC KC]  deadwood 3H = 3\n"), "{text}");
        assert!(text.contains("DEAD HAND: nobody knocked"), "{text}");
        assert!(HandEnd::of(&Event::PassedUpcard { player: Player::One }, 2, hands, Solver::ACE_LOW).is_none());
    }

    #[test]
    fn reasons_read_as_sentences() {
        let card = |text: &str| text.parse::<Card>().unwrap();
        let plain = |r: &Reason| reason(r, Look::PLAIN);
        assert_eq!(plain(&Reason::Gin { discard: card("3D") }), "discarding 3D leaves gin");
        let discard = Reason::Discard { card: card("KS"), deadwood: 12, outlook: 7.25, ahead: None, danger: 0.125 };
        assert_eq!(
            plain(&discard),
            "discard KS: leaves 12 deadwood, about 7.2 after the next draw; the opponent can meld it with chance 12%"
        );
        let deep = Reason::Discard { card: card("KS"), deadwood: 12, outlook: 7.25, ahead: Some(4.5), danger: 0.5 };
        assert_eq!(
            plain(&deep),
            "discard KS: leaves 12 deadwood, about 7.2 after the next draw and 4.5 after the one after; the opponent \
             can meld it with chance 50%"
        );
        let search = Reason::Search { discard: card("9H"), knock: 0.61, play_on: 0.55, knocks: true, learned: None };
        assert_eq!(
            plain(&search),
            "knock now: knocking with 9H wins the game in 61% of the searched futures, playing on in 55%"
        );
        let hold = Reason::Search { discard: card("9H"), knock: 0.61, play_on: 0.55, knocks: false, learned: None };
        assert!(plain(&hold).starts_with("play on: knocking with 9H would win"), "{}", plain(&hold));
        let learned =
            Reason::Search { discard: card("9H"), knock: 0.61, play_on: 0.55, knocks: false, learned: Some(-0.012) };
        assert!(
            plain(&learned).ends_with("in 55%; corrected for the search's bias, knocking gains -1.2 points in 100"),
            "{}",
            plain(&learned)
        );
        let overruled =
            Reason::SearchDiscard { card: card("7C"), value: 0.534, expert: card("KS"), expert_value: 0.512 };
        assert_eq!(
            plain(&overruled),
            "the search prefers discarding 7C to KS: the game is won in 53.4% of the searched futures after it, 51.2% \
             after KS"
        );
        // Cards take the session's look, red suits in colour.
        let coloured = reason(&Reason::Gin { discard: card("3D") }, Look { symbols: true, color: true });
        assert_eq!(coloured, "discarding \x1b[31m3♦\x1b[0m leaves gin");
    }

    #[test]
    fn a_knock_and_the_end_of_a_game() {
        let rules = Ruleset::standard();
        let ended = fixtures::v10_undercut(&rules);
        let end = HandEnd::of(&ended, 4, ByPlayer::default(), rules.solver()).unwrap();
        assert_eq!((end.score.outcome, end.score.points), (HandOutcome::Undercut, 28));
        let seats = Seats::versus_ai(Player::One);
        insta::assert_snapshot!(hand_end(&end, &rules, &seats, Look::PLAIN));
        let mut score =
            gin_rules::GameScore { points: ByPlayer::new(118, 0), hands_won: ByPlayer::new(5, 0), hands: 6 };
        let result = score.result(&rules).unwrap();
        insta::assert_snapshot!(game_end(&result, &rules, &seats, Look::PLAIN));
        score.points[Player::Two] = 40;
        score.hands_won[Player::Two] = 2;
        let result = score.result(&rules).unwrap();
        insta::assert_snapshot!(game_end(&result, &rules, &Seats::hotseat(), Look::PLAIN));
    }
}
