//! The statistics of a match: [`Tally`], integer counts that a [`GameObserver`] fills from a
//! game's events and that add up across games and threads in any order, and [`Figures`], the
//! rates and averages computed from them once, at the end.

use gin_cards::{Card, CardSet};
use gin_engine::{Event, GameOutcome};
use gin_rules::{ByPlayer, HandOutcome, HandScore, KnockKind, Player, Ruleset, Showdown};
use serde::Serialize;

/// The z value of a two-sided 95% confidence interval.
const Z95: f64 = 1.959_963_984_540_054;

/// One of the two agents compared: `a` or `b`, whatever seat it has in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The agent of `--a`.
    A,
    /// The agent of `--b`.
    B,
}

impl Side {
    /// Both sides, `a` first.
    pub const ALL: [Side; 2] = [Side::A, Side::B];

    /// The index of the side's tally: 0 for `a`, 1 for `b`.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }

    /// `a` or `b`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::A => "a",
            Side::B => "b",
        }
    }

    /// The seats of a game where this side sits in `seat`: who sits where.
    pub fn seated(self, seat: Player) -> ByPlayer<Side> {
        let mut sides = ByPlayer::new(self.other(), self.other());
        sides[seat] = self;
        sides
    }
}

/// One agent's counts over many games.
///
/// A "turn" is one of the agent's draws: from the stock, from the discard pile, or taking the
/// first upcard. Hand figures count completed hands only (scored or dead).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AgentTally {
    /// Games won, forfeits of the opponent included.
    pub wins: u64,
    /// Games lost, own forfeits included.
    pub losses: u64,
    /// Games lost by playing an action the referee refused.
    pub forfeits: u64,
    /// Hand points scored.
    pub points: u64,
    /// Hands won by knocking with deadwood.
    pub knocks: u64,
    /// Hands won by gin.
    pub gins: u64,
    /// Hands won by big gin.
    pub big_gins: u64,
    /// Hands won by undercutting the opponent's knock.
    pub undercuts: u64,
    /// Knocks declared with deadwood (gin not counted), whatever came of them.
    pub knocks_declared: u64,
    /// Own knocks that the opponent undercut.
    pub undercuts_suffered: u64,
    /// Turns taken.
    pub turns: u64,
    /// Hands in which the agent held a knockable hand after some draw.
    pub knockable_hands: u64,
    /// Over those hands, the sum of the number of the turn at which it first did.
    pub turns_to_knockable: u64,
    /// Cards discarded without knocking.
    pub discards: u64,
    /// Of those, the ones the opponent took from the discard pile.
    pub discards_picked_up: u64,
}

impl AgentTally {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &AgentTally) {
        // Destructured so that a new count cannot be forgotten here.
        let AgentTally {
            wins,
            losses,
            forfeits,
            points,
            knocks,
            gins,
            big_gins,
            undercuts,
            knocks_declared,
            undercuts_suffered,
            turns,
            knockable_hands,
            turns_to_knockable,
            discards,
            discards_picked_up,
        } = *other;
        self.wins += wins;
        self.losses += losses;
        self.forfeits += forfeits;
        self.points += points;
        self.knocks += knocks;
        self.gins += gins;
        self.big_gins += big_gins;
        self.undercuts += undercuts;
        self.knocks_declared += knocks_declared;
        self.undercuts_suffered += undercuts_suffered;
        self.turns += turns;
        self.knockable_hands += knockable_hands;
        self.turns_to_knockable += turns_to_knockable;
        self.discards += discards;
        self.discards_picked_up += discards_picked_up;
    }
}

/// The counts of many games: integers only, so that sums in any order give the same result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games played.
    pub games: u64,
    /// Games abandoned at the hand limit, won by nobody.
    pub abandoned: u64,
    /// Hands completed: scored, tied or dead.
    pub hands: u64,
    /// Hands that ended without a knock.
    pub dead_hands: u64,
    /// Knocks with equal deadwood where the rules score nothing.
    pub ties: u64,
    /// Turns of both players in the completed hands.
    pub turns: u64,
    /// Each side's counts, `a` first ([`Side::index`]).
    pub agents: [AgentTally; 2],
}

impl Tally {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &Tally) {
        let Tally { games, abandoned, hands, dead_hands, ties, turns, agents } = other;
        self.games += games;
        self.abandoned += abandoned;
        self.hands += hands;
        self.dead_hands += dead_hands;
        self.ties += ties;
        self.turns += turns;
        for side in Side::ALL {
            self.agents[side.index()].add(&agents[side.index()]);
        }
    }

    /// The counts of one side.
    pub fn agent(&self, side: Side) -> &AgentTally {
        &self.agents[side.index()]
    }

    fn agent_mut(&mut self, side: Side) -> &mut AgentTally {
        &mut self.agents[side.index()]
    }
}

/// The counts of the hand being played, per seat, added to the tally when the hand ends.
#[derive(Clone, Copy, Debug, Default)]
struct HandCounts {
    turns: ByPlayer<u32>,
    /// The turn at which the seat first held a knockable hand, or 0.
    knockable_at: ByPlayer<u32>,
    discards: ByPlayer<u32>,
    picked_up: ByPlayer<u32>,
    knocks_declared: ByPlayer<u32>,
}

/// Watches one game's events, as the referee saw them, and counts into a [`Tally`].
///
/// It rebuilds both hands from the deal and the cards drawn and discarded, to ask the rules after
/// each draw whether the player could knock (until it first could, in each hand); the end of a
/// hand is read from its showdown.
pub(crate) struct GameObserver<'t> {
    tally: &'t mut Tally,
    rules: &'t Ruleset,
    /// Who sits in each seat.
    sides: ByPlayer<Side>,
    knock_limit: u32,
    hand: HandCounts,
    /// The player whose discard is on top of the pile, if any.
    last_discarder: Option<Player>,
}

impl<'t> GameObserver<'t> {
    /// An observer of a game under `rules` with `sides` seated so, counting into `tally`.
    pub(crate) fn new(tally: &'t mut Tally, rules: &'t Ruleset, sides: ByPlayer<Side>) -> GameObserver<'t> {
        GameObserver { tally, rules, sides, knock_limit: 0, hand: HandCounts::default(), last_discarder: None }
    }

    /// Counts one event (with every card shown: the referee's view); `hand` gives a player's
    /// cards as the action that caused the event left them (the game's, `Deal::cards`).
    pub(crate) fn observe(&mut self, event: &Event, hand: impl Fn(Player) -> CardSet) {
        match event {
            Event::HandStarted { knock_limit, .. } => {
                self.knock_limit = *knock_limit;
                self.hand = HandCounts::default();
                self.last_discarder = None;
            }
            // A draw is an action of its own: the drawer holds eleven cards.
            Event::TookUpcard { player, card } => self.drew(*player, hand(*player), Some(*card)),
            Event::DrewStock { player, .. } => self.drew(*player, hand(*player), None),
            Event::DrewPile { player, card } => {
                if self.last_discarder == Some(player.opponent()) {
                    self.hand.picked_up[player.opponent()] += 1;
                }
                self.last_discarder = None;
                self.drew(*player, hand(*player), Some(*card));
            }
            Event::Discarded { player, .. } => {
                self.hand.discards[*player] += 1;
                self.last_discarder = Some(*player);
            }
            Event::HandEnded { score, showdown, .. } => self.hand_ended(score, showdown.as_ref()),
            _ => {}
        }
    }

    /// A player drew and holds `cards`, `taken` being the card it took from the pile if it did:
    /// one more turn, and perhaps the first knockable hand.
    fn drew(&mut self, player: Player, cards: CardSet, taken: Option<Card>) {
        self.hand.turns[player] += 1;
        if self.hand.knockable_at[player] == 0 && self.is_knockable(cards, taken) {
            self.hand.knockable_at[player] = self.hand.turns[player];
        }
    }

    /// Whether the rules let a player holding these 11 cards knock; `taken` is the card just
    /// taken from the pile, which the rules may forbid discarding.
    fn is_knockable(&self, cards: CardSet, taken: Option<Card>) -> bool {
        !self.rules.knock_discards(cards, taken, self.knock_limit).is_empty()
    }

    fn hand_ended(&mut self, score: &HandScore, showdown: Option<&Showdown>) {
        let HandScore { outcome, winner, points, .. } = *score;
        if let Some(showdown) = showdown.filter(|showdown| showdown.kind == KnockKind::Knock) {
            self.hand.knocks_declared[showdown.knocker] += 1;
        }
        let hand = self.hand;
        let sides = self.sides;
        let tally = &mut *self.tally;
        tally.hands += 1;
        match outcome {
            HandOutcome::Dead => tally.dead_hands += 1,
            HandOutcome::Tie => tally.ties += 1,
            _ => {}
        }
        for seat in Player::ALL {
            let turns = u64::from(hand.turns[seat]);
            tally.turns += turns;
            let agent = tally.agent_mut(sides[seat]);
            agent.turns += turns;
            if hand.knockable_at[seat] > 0 {
                agent.knockable_hands += 1;
                agent.turns_to_knockable += u64::from(hand.knockable_at[seat]);
            }
            agent.discards += u64::from(hand.discards[seat]);
            agent.discards_picked_up += u64::from(hand.picked_up[seat]);
            agent.knocks_declared += u64::from(hand.knocks_declared[seat]);
        }
        if let Some(winner) = winner {
            let agent = tally.agent_mut(sides[winner]);
            agent.points += u64::from(points);
            match outcome {
                HandOutcome::Knock => agent.knocks += 1,
                HandOutcome::Gin => agent.gins += 1,
                HandOutcome::BigGin => agent.big_gins += 1,
                HandOutcome::Undercut => {
                    agent.undercuts += 1;
                    tally.agent_mut(sides[winner.opponent()]).undercuts_suffered += 1;
                }
                HandOutcome::Tie | HandOutcome::Dead => {}
            }
        }
        self.hand = HandCounts::default();
    }

    /// Counts the game's end: a win and a loss, a forfeit (a loss for the forfeiter), or an
    /// abandoned game.
    pub(crate) fn finish(self, outcome: &GameOutcome) {
        let tally = self.tally;
        tally.games += 1;
        if let GameOutcome::Forfeit { player, .. } = outcome {
            tally.agent_mut(self.sides[*player]).forfeits += 1;
        }
        match outcome.winner() {
            Some(winner) => {
                tally.agent_mut(self.sides[winner]).wins += 1;
                tally.agent_mut(self.sides[winner.opponent()]).losses += 1;
            }
            None => tally.abandoned += 1,
        }
    }
}

/// The Wilson score interval for `successes` out of `trials` at 95% confidence: `[0, 1]` when
/// there are no trials.
pub fn wilson_95(successes: u64, trials: u64) -> [f64; 2] {
    if trials == 0 {
        return [0.0, 1.0];
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denominator;
    let half = Z95 / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // Clamped so that rounding cannot push the bounds past the rate at 0 or 1.
    [(center - half).clamp(0.0, p), (center + half).clamp(p, 1.0)]
}

/// `numerator / denominator`, or `None` when nothing was counted.
fn ratio(numerator: u64, denominator: u64) -> Option<f64> {
    (denominator > 0).then(|| numerator as f64 / denominator as f64)
}

/// Everything `gin sim` reports about one agent; serialized as the `a` and `b` objects of
/// `--json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentFigures {
    /// The agent's spec.
    pub name: String,
    /// Games won.
    pub wins: u64,
    /// Games lost, forfeits included.
    pub losses: u64,
    /// Games lost by forfeit.
    pub forfeits: u64,
    /// `wins / games`; abandoned games are not won.
    pub win_rate: f64,
    /// The Wilson score 95% interval of the win rate.
    pub ci95: [f64; 2],
    /// Hand points scored.
    pub points: u64,
    /// `points / hands`, over all completed hands (dead ones included).
    pub points_per_hand: Option<f64>,
    /// Hands won, all ways.
    pub hands_won: u64,
    /// Hands won by knocking with deadwood.
    pub knocks: u64,
    /// Hands won by gin.
    pub gins: u64,
    /// Hands won by big gin.
    pub big_gins: u64,
    /// Hands won by undercutting.
    pub undercuts: u64,
    /// Knocks declared with deadwood.
    pub knocks_declared: u64,
    /// Own knocks undercut.
    pub undercuts_suffered: u64,
    /// `undercuts_suffered / knocks_declared`.
    pub undercuts_suffered_per_knock: Option<f64>,
    /// Hands in which the agent could knock after some draw.
    pub knockable_hands: u64,
    /// `knockable_hands / hands`.
    pub knockable_hand_rate: Option<f64>,
    /// Over the knockable hands, the average number of the turn at which it first could knock.
    pub turns_to_knockable: Option<f64>,
    /// Cards discarded without knocking.
    pub discards: u64,
    /// Of those, the ones the opponent picked up.
    pub discards_picked_up: u64,
    /// `discards_picked_up / discards`.
    pub discard_pickup_rate: Option<f64>,
}

/// Everything `gin sim` reports, serialized as its `--json` object: no timings, no thread
/// count, so that it is the same for the same seed however it ran.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Figures {
    /// Games played.
    pub games: u64,
    /// Mirrored pairs of games.
    pub pairs: u64,
    /// The seed of the match.
    pub seed: u64,
    /// Completed hands.
    pub hands: u64,
    /// Hands that ended without a knock.
    pub dead_hands: u64,
    /// Knocks that scored nothing under the no-score tie rule.
    pub ties: u64,
    /// Games abandoned at the hand limit.
    pub abandoned: u64,
    /// Games forfeited, by either agent.
    pub forfeits: u64,
    /// The average number of turns (draws, both players together) in a completed hand.
    pub turns_per_hand: Option<f64>,
    /// The agent of `--a`.
    pub a: AgentFigures,
    /// The agent of `--b`.
    pub b: AgentFigures,
}

impl Figures {
    /// The figures of `tally`, for the agents named `names` (`a` first) in a match seeded `seed`.
    pub fn new(tally: &Tally, names: [&str; 2], seed: u64) -> Figures {
        let agent = |side: Side| {
            let counts = tally.agent(side);
            AgentFigures {
                name: names[side.index()].to_owned(),
                wins: counts.wins,
                losses: counts.losses,
                forfeits: counts.forfeits,
                win_rate: ratio(counts.wins, tally.games).unwrap_or(0.0),
                ci95: wilson_95(counts.wins, tally.games),
                points: counts.points,
                points_per_hand: ratio(counts.points, tally.hands),
                hands_won: counts.knocks + counts.gins + counts.big_gins + counts.undercuts,
                knocks: counts.knocks,
                gins: counts.gins,
                big_gins: counts.big_gins,
                undercuts: counts.undercuts,
                knocks_declared: counts.knocks_declared,
                undercuts_suffered: counts.undercuts_suffered,
                undercuts_suffered_per_knock: ratio(counts.undercuts_suffered, counts.knocks_declared),
                knockable_hands: counts.knockable_hands,
                knockable_hand_rate: ratio(counts.knockable_hands, tally.hands),
                turns_to_knockable: ratio(counts.turns_to_knockable, counts.knockable_hands),
                discards: counts.discards,
                discards_picked_up: counts.discards_picked_up,
                discard_pickup_rate: ratio(counts.discards_picked_up, counts.discards),
            }
        };
        Figures {
            games: tally.games,
            pairs: tally.games.div_ceil(2),
            seed,
            hands: tally.hands,
            dead_hands: tally.dead_hands,
            ties: tally.ties,
            abandoned: tally.abandoned,
            forfeits: tally.agent(Side::A).forfeits + tally.agent(Side::B).forfeits,
            turns_per_hand: ratio(tally.turns, tally.hands),
            a: agent(Side::A),
            b: agent(Side::B),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gin_engine::Action;
    use gin_rules::{GameScore, Meld, Showing};

    /// Feeds `events` to `observer` with the players' hands as a game would hold them, worked
    /// out from the events.
    fn feed(observer: &mut GameObserver<'_>, events: &[Event]) {
        let mut hands = ByPlayer::new(CardSet::EMPTY, CardSet::EMPTY);
        for event in events {
            match *event {
                Event::HandStarted { hands: dealt, .. } => hands = dealt.map(Option::unwrap_or_default),
                Event::TookUpcard { player, card }
                | Event::DrewPile { player, card }
                | Event::DrewStock { player, card: Some(card) } => {
                    hands[player].insert(card);
                }
                Event::Discarded { player, card } => {
                    hands[player].remove(card);
                }
                _ => {}
            }
            observer.observe(event, |player| hands[player]);
        }
    }

    fn cards(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    static STANDARD: std::sync::LazyLock<Ruleset> = std::sync::LazyLock::new(Ruleset::standard);

    /// `hand` shown with `melds` and `laid_off`.
    fn showing(hand: &str, melds: &[&str], laid_off: &str) -> Showing {
        let melds: Vec<Meld> = melds.iter().map(|meld| Meld::new(cards(meld), false).unwrap()).collect();
        Showing::new(cards(hand), &melds, cards(laid_off)).unwrap()
    }

    /// The events of `knocker`'s knock with `discard` and the end of the hand, both hands shown.
    fn showdown(knocker: Player, discard: &str, shown: ByPlayer<Showing>) -> [Event; 2] {
        let showdown = Showdown { knocker, kind: KnockKind::Knock, shown };
        let score = showdown.score(&Ruleset::standard(), card("QD"));
        let points = ByPlayer::from_fn(|player| if score.winner == Some(player) { score.points } else { 0 });
        [
            Event::Knocked {
                player: knocker,
                kind: KnockKind::Knock,
                discard: Some(card(discard)),
                shown: shown[knocker],
            },
            Event::HandEnded { score, points, showdown: Some(showdown) },
        ]
    }

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() < 1e-4
    }

    #[test]
    fn wilson_interval_matches_known_values() {
        // 50 of 100: 0.5 ± 0.0962.
        let [low, high] = wilson_95(50, 100);
        assert!(close(low, 0.4038) && close(high, 0.5962), "{low} {high}");
        // 8 of 10 (a textbook case): [0.4902, 0.9433].
        let [low, high] = wilson_95(8, 10);
        assert!(close(low, 0.4902) && close(high, 0.9433), "{low} {high}");
        // Unlike the normal approximation, it stays inside [0, 1] and is not empty at 0 or n.
        let [low, high] = wilson_95(0, 20);
        assert_eq!(low, 0.0);
        assert!(close(high, 0.1611), "{high}");
        let [low, high] = wilson_95(20, 20);
        assert!(close(low, 0.8389), "{low}");
        assert_eq!(high, 1.0);
        assert_eq!(wilson_95(0, 0), [0.0, 1.0]);
    }

    #[test]
    fn wilson_interval_contains_the_rate_and_narrows() {
        for trials in [1_u64, 2, 3, 7, 50, 1001, 1 << 40] {
            for wins in [0, 1, trials / 3, trials / 2, trials - 1, trials] {
                let [low, high] = wilson_95(wins, trials);
                let rate = wins as f64 / trials as f64;
                assert!(0.0 <= low && low <= rate && rate <= high && high <= 1.0, "{wins}/{trials}: {low} {high}");
            }
        }
        let width = |trials| {
            let [low, high] = wilson_95(trials / 2, trials);
            high - low
        };
        assert!(width(100) > width(1000) && width(1000) > width(10_000));
    }

    /// A hand where player one (seated `b` here) can knock after its first draw, and player two
    /// picks up its discard; one knocks with deadwood 1 against 21 and wins 20 points.
    fn play_hand(observer: &mut GameObserver<'_>) {
        let one = cards("AS 2S 3S 7H 7D 7C JC QC KC 9H");
        let two = cards("2H 3H 4H 5D 6D 7D 9S 2C 2D KH");
        let events = [
            Event::HandStarted {
                number: 1,
                dealer: Player::Two,
                upcard: card("QD"),
                knock_limit: 10,
                hands: ByPlayer::new(Some(one), Some(two)),
            },
            Event::PassedUpcard { player: Player::One },
            Event::PassedUpcard { player: Player::Two },
            Event::DrewStock { player: Player::One, card: Some(card("8C")) },
            Event::Discarded { player: Player::One, card: card("8C") },
            Event::DrewPile { player: Player::Two, card: card("8C") },
            Event::Discarded { player: Player::Two, card: card("KH") },
            Event::DrewStock { player: Player::One, card: Some(card("AD")) },
        ];
        let shown = ByPlayer::new(
            showing("AS 2S 3S 7H 7D 7C JC QC KC AD", &["AS 2S 3S", "7H 7D 7C", "JC QC KC"], ""),
            showing("2H 3H 4H 5D 6D 7D 9S 2C 2D 8C", &["2H 3H 4H", "5D 6D 7D"], ""),
        );
        let end = showdown(Player::One, "9H", shown);
        assert!(matches!(&end[1], Event::HandEnded { score, .. } if score.points == 20));
        let all: Vec<Event> = events.iter().chain(&end).cloned().collect();
        feed(observer, &all);
    }

    #[test]
    fn a_hand_is_counted_for_the_agent_in_each_seat() {
        let mut tally = Tally::default();
        let mut observer = GameObserver::new(&mut tally, &STANDARD, Side::B.seated(Player::One));
        play_hand(&mut observer);
        let forfeit =
            GameOutcome::Forfeit { player: Player::Two, action: Some(Action::DrawStock), reason: String::new() };
        observer.finish(&forfeit);

        assert_eq!((tally.games, tally.hands, tally.dead_hands, tally.turns, tally.abandoned), (1, 1, 0, 3, 0));
        let b = tally.agent(Side::B);
        let expected_b = AgentTally {
            wins: 1,
            points: 20,
            knocks: 1,
            knocks_declared: 1,
            turns: 2,
            knockable_hands: 1,
            turns_to_knockable: 1,
            discards: 1,
            discards_picked_up: 1,
            ..AgentTally::default()
        };
        assert_eq!(*b, expected_b);
        // Two took the 8C from the pile: a turn, and no knockable hand with the junk it holds.
        let expected_a = AgentTally { losses: 1, forfeits: 1, turns: 1, discards: 1, ..AgentTally::default() };
        assert_eq!(*tally.agent(Side::A), expected_a);

        let figures = Figures::new(&tally, ["random", "simple"], 7);
        assert_eq!(figures.forfeits, 1);
        assert_eq!(figures.b.points_per_hand, Some(20.0));
        assert_eq!(figures.b.discard_pickup_rate, Some(1.0));
        assert_eq!(figures.a.undercuts_suffered_per_knock, None);
        assert_eq!(figures.turns_per_hand, Some(3.0));
        assert_eq!((figures.a.win_rate, figures.b.win_rate), (0.0, 1.0));
    }

    #[test]
    fn undercuts_count_for_the_defender_and_against_the_knocker() {
        let mut tally = Tally::default();
        let mut observer = GameObserver::new(&mut tally, &STANDARD, Side::A.seated(Player::One));
        // docs/rules.md V10: two knocks with 3; one lays off 4S and undercuts for 28.
        let shown = ByPlayer::new(
            showing("9D 9H 9S TD TH TS 4D 5D 6D 4S", &["9D 9H 9S", "TD TH TS", "4D 5D 6D"], "4S"),
            showing("AS 2S 3S 7H 7D 7C JC QC KC 3H", &["AS 2S 3S", "7H 7D 7C", "JC QC KC"], ""),
        );
        let mut events = showdown(Player::Two, "KS", shown).to_vec();
        events.push(Event::HandEnded { score: HandScore::dead(), points: ByPlayer::new(28, 0), showdown: None });
        feed(&mut observer, &events);
        observer.finish(&GameOutcome::Abandoned { score: GameScore::default() });
        assert_eq!((tally.hands, tally.dead_hands, tally.abandoned, tally.games), (2, 1, 1, 1));
        assert_eq!((tally.agent(Side::A).undercuts, tally.agent(Side::A).points), (1, 28));
        assert_eq!((tally.agent(Side::B).knocks_declared, tally.agent(Side::B).undercuts_suffered), (1, 1));
        assert_eq!(tally.agent(Side::A).wins + tally.agent(Side::B).wins, 0);
        let figures = Figures::new(&tally, ["a", "b"], 0);
        assert_eq!(figures.b.undercuts_suffered_per_knock, Some(1.0));
        assert_eq!(figures.a.points_per_hand, Some(14.0));
    }

    #[test]
    fn the_card_just_taken_may_not_be_the_knocking_discard() {
        // Melds AS-2S-3S, 7H-7D-7C, JC-QC-KC, and 2D and KH: discarding the KH leaves 2, the 2D 10.
        let eleven = cards("AS 2S 3S 7H 7D 7C JC QC KC 2D KH");
        let strict = Ruleset::standard();
        assert!(!strict.may_discard_taken_card);
        let mut tally = Tally::default();
        let mut observer = GameObserver::new(&mut tally, &strict, Side::A.seated(Player::One));
        observer.knock_limit = 5;
        assert!(observer.is_knockable(eleven, None));
        assert!(observer.is_knockable(eleven, Some(card("2D"))));
        assert!(!observer.is_knockable(eleven, Some(card("KH"))), "the KH was just taken: it must stay");
        observer.knock_limit = 10;
        assert!(observer.is_knockable(eleven, Some(card("KH"))), "discarding the 2D leaves 10");

        let lax_rules = Ruleset { may_discard_taken_card: true, ..Ruleset::standard() };
        let mut other = Tally::default();
        let mut lax = GameObserver::new(&mut other, &lax_rules, Side::A.seated(Player::One));
        lax.knock_limit = 5;
        assert!(lax.is_knockable(eleven, Some(card("KH"))));
    }

    #[test]
    fn tallies_add_in_any_order() {
        let mut one = Tally::default();
        let mut observer = GameObserver::new(&mut one, &STANDARD, Side::A.seated(Player::Two));
        play_hand(&mut observer);
        observer.finish(&GameOutcome::Abandoned { score: GameScore::default() });
        let mut two = Tally::default();
        let mut observer = GameObserver::new(&mut two, &STANDARD, Side::B.seated(Player::Two));
        play_hand(&mut observer);
        play_hand(&mut observer);
        observer.finish(&GameOutcome::Forfeit {
            player: Player::One,
            action: Some(Action::DrawPile),
            reason: String::new(),
        });

        let (mut forward, mut backward) = (Tally::default(), Tally::default());
        for part in [&one, &two, &one] {
            forward.add(part);
        }
        for part in [&one, &one, &two] {
            backward.add(part);
        }
        assert_eq!(forward, backward);
        assert_eq!((forward.games, forward.hands, forward.abandoned), (3, 4, 2));
        // Player one wins each hand: `b` in game `one` (twice added), `a` in game `two` (two hands).
        assert_eq!(forward.agent(Side::A).points, 40);
        assert_eq!(forward.agent(Side::B).points, 2 * 20);
        assert_eq!((forward.agent(Side::A).forfeits, forward.agent(Side::A).losses), (1, 1));
        assert_eq!(forward.agent(Side::B).wins, 1);
        assert_eq!(Figures::new(&forward, ["x", "y"], 1), Figures::new(&backward, ["x", "y"], 1));
    }
}
