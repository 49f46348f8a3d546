//! Scoring: [`score_hand`] turns a knock into a [`HandScore`] (docs/rules.md, section 5), and
//! [`GameScore`] adds hands up to a [`GameResult`] with its bonuses (docs/rules.md, section 6).

use std::fmt;

use gin_cards::{Card, Suit};

use crate::{ByPlayer, Player, Ruleset, TieRule};

/// What the knocker declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KnockKind {
    /// A knock with some deadwood, after a discard.
    Knock,
    /// Gin: no deadwood after the discard (rule 12).
    Gin,
    /// Big gin: all 11 cards melded, no discard (rule 13).
    BigGin,
}

/// How a hand ended. Serialized and displayed in upper snake case (`KNOCK`, `BIG_GIN` …), the
/// result kinds of the match logs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum HandOutcome {
    /// The knocker had less deadwood than the defender and scores the difference (rule 18).
    Knock,
    /// The knocker went gin (rule 20).
    Gin,
    /// The knocker went big gin (rules 13 and 20).
    BigGin,
    /// The defender had no more deadwood than the knocker and scores the undercut (rule 19).
    Undercut,
    /// D = K under [`TieRule::NoScore`]: nobody scores.
    Tie,
    /// The stock ran out, or the turn cap was reached, before anyone knocked: nobody scores
    /// (rule 21).
    Dead,
}

impl HandOutcome {
    /// The outcome's name in the logs: `KNOCK`, `GIN`, `BIG_GIN`, `UNDERCUT`, `TIE` or `DEAD`.
    pub const fn as_str(self) -> &'static str {
        match self {
            HandOutcome::Knock => "KNOCK",
            HandOutcome::Gin => "GIN",
            HandOutcome::BigGin => "BIG_GIN",
            HandOutcome::Undercut => "UNDERCUT",
            HandOutcome::Tie => "TIE",
            HandOutcome::Dead => "DEAD",
        }
    }
}

impl fmt::Display for HandOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The score of one hand: how it ended, who won it, the points they score and where the points
/// come from: `points = (base + bonus) × 2` when `doubled`, else `base + bonus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandScore {
    /// How the hand ended.
    pub outcome: HandOutcome,
    /// The player who scores; `None` for a dead hand or a tie.
    pub winner: Option<Player>,
    /// The points the winner scores (0 when there is no winner).
    pub points: u32,
    /// The deadwood part: D − K for a knock, K − D for an undercut, D for gin and big gin.
    pub base: u32,
    /// The bonus: the undercut, gin or big gin bonus (0 for a plain knock).
    pub bonus: u32,
    /// Whether a spade first upcard doubled the hand (Oklahoma's `spade_doubles`).
    pub doubled: bool,
}

impl HandScore {
    /// A dead hand: no winner, no points.
    pub const fn dead() -> HandScore {
        HandScore::nobody(HandOutcome::Dead)
    }

    /// A hand that nobody scores: dead, or a tie under [`TieRule::NoScore`].
    const fn nobody(outcome: HandOutcome) -> HandScore {
        HandScore { outcome, winner: None, points: 0, base: 0, bonus: 0, doubled: false }
    }
}

/// Scores a knock (docs/rules.md, rules 18–20), with `K = knocker_deadwood` and
/// `D = defender_deadwood` after layoffs.
///
/// - Knock, K < D: the knocker scores D − K.
/// - Knock, D ≤ K: undercut, the defender scores K − D + the undercut bonus; under
///   [`TieRule::NoScore`] D = K is a [`HandOutcome::Tie`] instead, and nobody scores.
/// - Gin: the knocker scores D + the gin bonus, even when D = 0; never an undercut.
/// - Big gin: the knocker scores D + the big gin bonus; where big gin is off, it is scored as gin.
///
/// A knock with K = 0 is gin (rule 12) and is scored as gin; for gin and big gin `K` is ignored.
/// With [`Ruleset::spade_doubles`] a spade `upcard` (the hand's first upcard) doubles the points.
/// Whether the knock was legal (the knock limit) and whether layoffs were allowed is the caller's
/// business: for gin, `D` is the defender's deadwood without layoffs.
///
/// ```
/// use gin_rules::{HandOutcome, KnockKind, Player, Ruleset, score_hand};
///
/// let rules = Ruleset::standard();
/// let upcard = "7H".parse()?;
/// // docs/rules.md, V9: K = 5, D = 5 is an undercut worth 0 + 25 to the defender.
/// let score = score_hand(&rules, Player::One, KnockKind::Knock, 5, 5, upcard);
/// assert_eq!(score.outcome, HandOutcome::Undercut);
/// assert_eq!(score.winner, Some(Player::Two));
/// assert_eq!(score.points, 25);
/// # Ok::<(), gin_cards::ParseError>(())
/// ```
pub fn score_hand(
    rules: &Ruleset,
    knocker: Player,
    kind: KnockKind,
    knocker_deadwood: u32,
    defender_deadwood: u32,
    upcard: Card,
) -> HandScore {
    let (k, d) = (knocker_deadwood, defender_deadwood);
    let kind = match kind {
        KnockKind::Knock if k == 0 => KnockKind::Gin,
        KnockKind::BigGin if rules.big_gin_bonus.is_none() => KnockKind::Gin,
        kind => kind,
    };
    let (outcome, winner, base, bonus) = match kind {
        KnockKind::Gin => (HandOutcome::Gin, knocker, d, rules.gin_bonus),
        KnockKind::BigGin => (HandOutcome::BigGin, knocker, d, rules.big_gin_bonus.unwrap_or(rules.gin_bonus)),
        KnockKind::Knock if k < d => (HandOutcome::Knock, knocker, d - k, 0),
        KnockKind::Knock if k == d && rules.tie == TieRule::NoScore => return HandScore::nobody(HandOutcome::Tie),
        KnockKind::Knock => (HandOutcome::Undercut, knocker.opponent(), k - d, rules.undercut_bonus),
    };
    let doubled = rules.spade_doubles && upcard.suit() == Suit::Spades;
    let points = base.saturating_add(bonus);
    HandScore {
        outcome,
        winner: Some(winner),
        points: if doubled { points.saturating_mul(2) } else { points },
        base,
        bonus,
        doubled,
    }
}

/// The running score of a game: each player's hand points and hands won.
///
/// ```
/// use gin_rules::{ByPlayer, GameScore, HandOutcome, HandScore, Player, Ruleset};
///
/// let rules = Ruleset::standard();
/// let mut game = GameScore::default();
/// game.record(&HandScore {
///     outcome: HandOutcome::Gin,
///     winner: Some(Player::One),
///     points: 100,
///     base: 75,
///     bonus: 25,
///     doubled: false,
/// });
/// let result = game.result(&rules).expect("player 1 reached 100");
/// assert_eq!(result.winner, Player::One);
/// assert!(result.shutout);
/// // 100 hand points + one box of 25 + the game bonus of 100, doubled by the shutout.
/// assert_eq!(result.totals, ByPlayer::new(325, 0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct GameScore {
    /// Hand points per player: what counts toward the target.
    pub points: ByPlayer<u32>,
    /// Hands won per player: their boxes.
    pub hands_won: ByPlayer<u32>,
    /// Hands recorded, dead hands and ties included.
    pub hands: u32,
}

impl GameScore {
    /// Adds a hand's score: its points and a box to the winner, if any.
    pub fn record(&mut self, hand: &HandScore) {
        self.hands = self.hands.saturating_add(1);
        if let Some(winner) = hand.winner {
            self.points[winner] = self.points[winner].saturating_add(hand.points);
            self.hands_won[winner] = self.hands_won[winner].saturating_add(1);
        }
    }

    /// The player who has reached the target with more hand points than the other, if any.
    pub fn winner(&self, rules: &Ruleset) -> Option<Player> {
        Player::ALL.into_iter().find(|&player| {
            let points = self.points[player];
            points >= rules.target && points > self.points[player.opponent()]
        })
    }

    /// Whether the game is over: a player has reached the target (rule 22).
    pub fn is_over(&self, rules: &Ruleset) -> bool {
        self.winner(rules).is_some()
    }

    /// The final result with its bonuses (rules 23 and 24), once the game is over.
    pub fn result(&self, rules: &Ruleset) -> Option<GameResult> {
        let winner = self.winner(rules)?;
        let loser = winner.opponent();
        let shutout = self.points[loser] == 0;
        let game_bonus =
            if shutout { rules.game_bonus.saturating_mul(rules.shutout_multiplier) } else { rules.game_bonus };
        let box_points = self.hands_won.map(|boxes| boxes.saturating_mul(rules.box_bonus));
        let mut totals = ByPlayer::from_fn(|player| self.points[player].saturating_add(box_points[player]));
        totals[winner] = totals[winner].saturating_add(game_bonus);
        Some(GameResult {
            winner,
            loser,
            hand_points: self.points,
            boxes: self.hands_won,
            box_points,
            game_bonus,
            shutout,
            totals,
            margin: i64::from(totals[winner]) - i64::from(totals[loser]),
        })
    }
}

/// The result of a finished game, every part reported (rule 24).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct GameResult {
    /// The player who reached the target.
    pub winner: Player,
    /// The other player.
    pub loser: Player,
    /// Hand points per player, the points that count toward the target.
    pub hand_points: ByPlayer<u32>,
    /// Boxes per player: the number of hands each won.
    pub boxes: ByPlayer<u32>,
    /// Box points per player: box bonus × boxes; not counted toward the target.
    pub box_points: ByPlayer<u32>,
    /// The game bonus awarded to the winner, already multiplied on a shutout.
    pub game_bonus: u32,
    /// Whether the loser scored no hand points.
    pub shutout: bool,
    /// Totals per player: hand points + box points, and the game bonus for the winner.
    pub totals: ByPlayer<u32>,
    /// The winner's total minus the loser's; negative in the rare game where the loser's boxes
    /// outweigh the winner's lead and game bonus.
    pub margin: i64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::KnockLimit;

    const ONE: Player = Player::One;
    const TWO: Player = Player::Two;

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    /// A hand scored under `rules` with player one knocking and a non-spade upcard, its
    /// breakdown checked against its points and then left out (see [`hand`]).
    fn score(rules: &Ruleset, kind: KnockKind, k: u32, d: u32) -> HandScore {
        short(score_hand(rules, ONE, kind, k, d, card("7H")))
    }

    /// The score without its breakdown, which must add up to its points.
    fn short(score: HandScore) -> HandScore {
        let sum = score.base + score.bonus;
        assert_eq!(score.points, if score.doubled { 2 * sum } else { sum }, "{score:?}");
        HandScore { base: 0, bonus: 0, doubled: false, ..score }
    }

    /// A score to compare with [`score`] and [`short`]: the breakdown left out.
    fn hand(outcome: HandOutcome, winner: Option<Player>, points: u32) -> HandScore {
        HandScore { outcome, winner, points, base: 0, bonus: 0, doubled: false }
    }

    #[test]
    fn knock_scores_the_difference() {
        let rules = Ruleset::standard();
        assert_eq!(score(&rules, KnockKind::Knock, 4, 30), hand(HandOutcome::Knock, Some(ONE), 26));
        // The knocker may be either player.
        let by_two = short(score_hand(&rules, TWO, KnockKind::Knock, 9, 10, card("KD")));
        assert_eq!(by_two, hand(HandOutcome::Knock, Some(TWO), 1));
    }

    #[test]
    fn v9_a_tie_is_an_undercut() {
        let score = score(&Ruleset::standard(), KnockKind::Knock, 5, 5);
        assert_eq!(score, hand(HandOutcome::Undercut, Some(TWO), 25));
    }

    #[test]
    fn v8_the_knockers_arrangement_decides_the_score() {
        let rules = Ruleset::standard();
        // Three runs shown: the defender lays off everything, D = 0.
        assert_eq!(score(&rules, KnockKind::Knock, 1, 0), hand(HandOutcome::Undercut, Some(TWO), 1 + 25));
        // Three sets shown: D = 3.
        assert_eq!(score(&rules, KnockKind::Knock, 1, 3), hand(HandOutcome::Knock, Some(ONE), 2));
    }

    #[test]
    fn v10_and_v13_undercuts_after_layoffs() {
        let rules = Ruleset::standard();
        assert_eq!(score(&rules, KnockKind::Knock, 3, 0), hand(HandOutcome::Undercut, Some(TWO), 3 + 25));
        assert_eq!(score(&rules, KnockKind::Knock, 10, 9), hand(HandOutcome::Undercut, Some(TWO), 1 + 25));
    }

    #[test]
    fn v12_gin_scores_the_bonus_against_zero_deadwood() {
        let rules = Ruleset::standard();
        assert_eq!(score(&rules, KnockKind::Gin, 0, 0), hand(HandOutcome::Gin, Some(ONE), 25));
        assert_eq!(score(&rules, KnockKind::Gin, 0, 17), hand(HandOutcome::Gin, Some(ONE), 42));
    }

    #[test]
    fn a_knock_with_no_deadwood_is_gin() {
        let rules = Ruleset::standard();
        assert_eq!(score(&rules, KnockKind::Knock, 0, 0), hand(HandOutcome::Gin, Some(ONE), 25));
    }

    #[test]
    fn big_gin_scores_its_bonus_where_enabled() {
        let standard = Ruleset::standard();
        assert_eq!(score(&standard, KnockKind::BigGin, 0, 0), hand(HandOutcome::BigGin, Some(ONE), 31));
        assert_eq!(score(&standard, KnockKind::BigGin, 0, 12), hand(HandOutcome::BigGin, Some(ONE), 43));
        // Off in pagat and eaai: scored as gin with that preset's gin bonus.
        assert_eq!(score(&Ruleset::pagat(), KnockKind::BigGin, 0, 12), hand(HandOutcome::Gin, Some(ONE), 32));
        assert_eq!(score(&Ruleset::eaai(), KnockKind::BigGin, 0, 12), hand(HandOutcome::Gin, Some(ONE), 37));
    }

    #[test]
    fn pagat_bonuses() {
        let rules = Ruleset::pagat();
        assert_eq!(score(&rules, KnockKind::Gin, 0, 10), hand(HandOutcome::Gin, Some(ONE), 30));
        assert_eq!(score(&rules, KnockKind::Knock, 5, 3), hand(HandOutcome::Undercut, Some(TWO), 12));
        assert_eq!(score(&rules, KnockKind::Knock, 5, 5), hand(HandOutcome::Undercut, Some(TWO), 10));
    }

    #[test]
    fn eaai_hand_scores_match_standard() {
        let (eaai, standard) = (Ruleset::eaai(), Ruleset::standard());
        for (kind, k, d) in
            [(KnockKind::Knock, 3, 20), (KnockKind::Knock, 7, 7), (KnockKind::Knock, 9, 2), (KnockKind::Gin, 0, 14)]
        {
            assert_eq!(score(&eaai, kind, k, d), score(&standard, kind, k, d));
        }
    }

    #[test]
    fn no_score_tie_rule() {
        let rules = Ruleset { tie: TieRule::NoScore, ..Ruleset::standard() };
        assert_eq!(score(&rules, KnockKind::Knock, 5, 5), hand(HandOutcome::Tie, None, 0));
        // Only the tie changes: D < K is still an undercut, and gin is never a tie.
        assert_eq!(score(&rules, KnockKind::Knock, 5, 3), hand(HandOutcome::Undercut, Some(TWO), 27));
        assert_eq!(score(&rules, KnockKind::Gin, 0, 0), hand(HandOutcome::Gin, Some(ONE), 25));
        let mut game = GameScore::default();
        game.record(&score(&rules, KnockKind::Knock, 5, 5));
        assert_eq!(game.hands_won, ByPlayer::new(0, 0));
        assert_eq!(game.hands, 1);
    }

    #[test]
    fn v15_oklahoma_knock_limit_follows_the_upcard() {
        let rules = Ruleset::oklahoma();
        assert_eq!(rules.knock_limit, KnockLimit::Upcard);
        // An ace means gin only: a hand with deadwood 1 cannot knock.
        assert_eq!(rules.knock_limit_for(card("AC")), 0);
        assert!(1 > rules.knock_limit_for(card("AC")));
        assert_eq!(rules.knock_limit_for(card("AS")), 0);
        for face in ["TS", "JH", "QD", "KC"] {
            assert_eq!(rules.knock_limit_for(card(face)), 10, "{face}");
        }
        assert_eq!(rules.knock_limit_for(card("7D")), 7);
        assert_eq!(rules.knock_limit_for(card("2H")), 2);
        // Other presets ignore the upcard.
        assert_eq!(Ruleset::standard().knock_limit_for(card("AC")), 10);
        let seven = Ruleset { knock_limit: KnockLimit::Fixed(7), ..Ruleset::standard() };
        assert_eq!(seven.knock_limit_for(card("KS")), 7);
    }

    #[test]
    fn spade_upcard_doubles_the_hand() {
        let rules = Ruleset { spade_doubles: true, ..Ruleset::oklahoma() };
        let spade = card("7S");
        let heart = card("7H");
        let knock = |upcard| short(score_hand(&rules, ONE, KnockKind::Knock, 3, 10, upcard));
        assert_eq!(knock(spade), hand(HandOutcome::Knock, Some(ONE), 14));
        assert_eq!(knock(heart), hand(HandOutcome::Knock, Some(ONE), 7));
        let undercut = short(score_hand(&rules, ONE, KnockKind::Knock, 5, 2, spade));
        assert_eq!(undercut, hand(HandOutcome::Undercut, Some(TWO), 56));
        let gin = short(score_hand(&rules, TWO, KnockKind::Gin, 0, 6, spade));
        assert_eq!(gin, hand(HandOutcome::Gin, Some(TWO), 62));
        let big_gin = short(score_hand(&rules, TWO, KnockKind::BigGin, 0, 0, spade));
        assert_eq!(big_gin, hand(HandOutcome::BigGin, Some(TWO), 62));
        // Off in the preset itself.
        let plain = score_hand(&Ruleset::oklahoma(), ONE, KnockKind::Knock, 3, 10, spade);
        assert_eq!(plain.points, 7);
    }

    #[test]
    fn the_breakdown_says_where_the_points_come_from() {
        let rules = Ruleset { spade_doubles: true, ..Ruleset::standard() };
        let parts = |kind, k, d, upcard: &str| {
            let s = score_hand(&rules, ONE, kind, k, d, card(upcard));
            (s.base, s.bonus, s.doubled, s.points)
        };
        assert_eq!(parts(KnockKind::Knock, 4, 30, "7H"), (26, 0, false, 26));
        assert_eq!(parts(KnockKind::Knock, 8, 6, "7H"), (2, 25, false, 27));
        assert_eq!(parts(KnockKind::Gin, 0, 17, "7S"), (17, 25, true, 84));
        assert_eq!(parts(KnockKind::BigGin, 0, 3, "7D"), (3, 31, false, 34));
        assert_eq!(parts(KnockKind::Knock, 0, 9, "7H"), (9, 25, false, 34));
        let tie = score_hand(&Ruleset { tie: TieRule::NoScore, ..rules }, ONE, KnockKind::Knock, 5, 5, card("7S"));
        assert_eq!((tie.base, tie.bonus, tie.doubled, tie.points), (0, 0, false, 0));
    }

    #[test]
    fn outcome_names() {
        let all = [
            (HandOutcome::Knock, "KNOCK"),
            (HandOutcome::Gin, "GIN"),
            (HandOutcome::BigGin, "BIG_GIN"),
            (HandOutcome::Undercut, "UNDERCUT"),
            (HandOutcome::Tie, "TIE"),
            (HandOutcome::Dead, "DEAD"),
        ];
        for (outcome, name) in all {
            assert_eq!(outcome.to_string(), name);
            assert_eq!(serde_json::to_string(&outcome).unwrap(), format!("\"{name}\""));
            let back: HandOutcome = serde_json::from_str(&format!("\"{name}\"")).unwrap();
            assert_eq!(back, outcome);
        }
        assert_eq!(serde_json::to_string(&KnockKind::BigGin).unwrap(), r#""big_gin""#);
    }

    #[test]
    fn hand_score_serde() {
        let score = score_hand(&Ruleset::standard(), ONE, KnockKind::Knock, 5, 4, card("2C"));
        let json = serde_json::to_string(&score).unwrap();
        assert_eq!(json, r#"{"outcome":"UNDERCUT","winner":"two","points":26,"base":1,"bonus":25,"doubled":false}"#);
        assert_eq!(serde_json::from_str::<HandScore>(&json).unwrap(), score);
        let dead = serde_json::to_string(&HandScore::dead()).unwrap();
        assert_eq!(dead, r#"{"outcome":"DEAD","winner":null,"points":0,"base":0,"bonus":0,"doubled":false}"#);
    }

    #[test]
    fn game_to_100_with_boxes_and_game_bonus() {
        let rules = Ruleset::standard();
        let mut game = GameScore::default();
        let hands = [
            score_hand(&rules, ONE, KnockKind::Gin, 0, 20, card("3C")), // 1: 45
            score_hand(&rules, TWO, KnockKind::Knock, 2, 12, card("9S")), // 2: 10
            HandScore::dead(),
            score_hand(&rules, ONE, KnockKind::Knock, 4, 30, card("QH")), // 1: 71
            score_hand(&rules, ONE, KnockKind::Knock, 8, 6, card("4D")),  // 2: 37
        ];
        for hand in &hands {
            game.record(hand);
            assert!(!game.is_over(&rules));
            assert_eq!(game.result(&rules), None);
        }
        assert_eq!(game.points, ByPlayer::new(71, 37));
        game.record(&score_hand(&rules, ONE, KnockKind::Gin, 0, 15, card("5S"))); // 1: 111
        assert!(game.is_over(&rules));
        assert_eq!(game.winner(&rules), Some(ONE));
        assert_eq!(game.hands, 6);
        let result = game.result(&rules).unwrap();
        assert_eq!(
            result,
            GameResult {
                winner: ONE,
                loser: TWO,
                hand_points: ByPlayer::new(111, 37),
                boxes: ByPlayer::new(3, 2),
                box_points: ByPlayer::new(75, 50),
                game_bonus: 100,
                shutout: false,
                totals: ByPlayer::new(111 + 75 + 100, 37 + 50),
                margin: 286 - 87,
            }
        );
        let json = serde_json::to_string(&result).unwrap();
        assert_eq!(serde_json::from_str::<GameResult>(&json).unwrap(), result);
    }

    /// Player two wins 113–0 in two hands.
    fn shutout_game(rules: &Ruleset) -> GameScore {
        let mut game = GameScore::default();
        game.record(&score_hand(rules, TWO, KnockKind::Gin, 0, 50, card("2C")));
        game.record(&HandScore::dead());
        game.record(&score_hand(rules, TWO, KnockKind::Knock, 2, 40, card("2C")));
        game
    }

    #[test]
    fn shutout_doubles_the_game_bonus() {
        let rules = Ruleset::standard();
        let result = shutout_game(&rules).result(&rules).unwrap();
        assert_eq!(result.winner, TWO);
        assert!(result.shutout);
        assert_eq!(result.hand_points, ByPlayer::new(0, 113));
        assert_eq!(result.box_points, ByPlayer::new(0, 50));
        assert_eq!(result.game_bonus, 200);
        assert_eq!(result.totals, ByPlayer::new(0, 113 + 50 + 200));
        assert_eq!(result.margin, 363);
        // A multiplier of 1 is no shutout rule: the fact is reported, the bonus is plain.
        let no_shutout_rule = Ruleset { shutout_multiplier: 1, ..Ruleset::standard() };
        let result = shutout_game(&no_shutout_rule).result(&no_shutout_rule).unwrap();
        assert!(result.shutout);
        assert_eq!(result.game_bonus, 100);
    }

    #[test]
    fn eaai_game_has_no_bonuses() {
        let rules = Ruleset::eaai();
        let result = shutout_game(&rules).result(&rules).unwrap();
        assert_eq!(result.game_bonus, 0);
        assert_eq!(result.boxes, ByPlayer::new(0, 2));
        assert_eq!(result.box_points, ByPlayer::new(0, 0));
        assert_eq!(result.totals, ByPlayer::new(0, 113));
        assert_eq!(result.margin, 113);
    }

    #[test]
    fn margin_can_be_negative_when_boxes_outweigh() {
        let rules = Ruleset::standard();
        let mut game = GameScore::default();
        for _ in 0..9 {
            game.record(&score_hand(&rules, TWO, KnockKind::Knock, 9, 10, card("8H")));
        }
        game.record(&score_hand(&rules, ONE, KnockKind::Gin, 0, 75, card("8H")));
        let result = game.result(&rules).unwrap();
        assert_eq!(result.winner, ONE);
        assert_eq!(result.totals, ByPlayer::new(100 + 25 + 100, 9 + 9 * 25));
        assert_eq!(result.margin, -9);
    }

    #[test]
    fn oklahoma_game_runs_to_150() {
        let rules = Ruleset::oklahoma();
        let mut game = GameScore::default();
        game.record(&hand(HandOutcome::Gin, Some(ONE), 120));
        assert!(!game.is_over(&rules));
        assert!(game.is_over(&Ruleset::standard()));
        game.record(&hand(HandOutcome::Knock, Some(ONE), 30));
        assert_eq!(game.winner(&rules), Some(ONE));
    }
}
