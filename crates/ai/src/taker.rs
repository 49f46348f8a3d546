//! `TakerAgent`: the pile taker, a simple and fast style that takes the face-up card whenever it
//! can use it.

use crate::picks::Picks;
use gin_cards::{Card, CardSet};
use gin_engine::{Action, Agent, Decision, Phase, PlayerView};
use gin_rules::Solver;

/// A pile taker.
///
/// - It takes the face-up card (the first upcard, or the pile's top) whenever the card forms a
///   meld with its hand, or would be kept: the best discard of another card leaves no more
///   deadwood than the hand holds now. Otherwise it passes or draws from the stock.
/// - It discards the card that leaves the least deadwood, the highest value on a tie (then the
///   highest rank, then the last suit), never the card just taken.
/// - It knocks as soon as it may (gin included) with the same choice of discard, and goes big gin
///   where the rules play it; the referee shows its melds and lays off for it.
///
/// It draws no random numbers: its choices depend on the position alone.
#[derive(Clone, Debug, Default)]
pub struct TakerAgent;

impl TakerAgent {
    /// A pile taker.
    pub fn new() -> TakerAgent {
        TakerAgent
    }

    /// Whether it takes `card` from the pile into `hand`.
    pub fn takes(solver: Solver, hand: CardSet, card: Card) -> bool {
        if solver.can_meld(hand, card) {
            return true;
        }
        let now = solver.min_deadwood(hand);
        let with = hand.with(card);
        hand.iter().any(|other| solver.min_deadwood(with.without(other)) <= now)
    }

    /// The best of `cards` to discard from `hand`: the least deadwood left, then the highest
    /// value, then the highest rank, then the last suit.
    fn best_discard(solver: Solver, hand: CardSet, cards: CardSet) -> Option<Card> {
        cards.iter().min_by_key(|&card| {
            let left = solver.min_deadwood(hand.without(card));
            (left, u8::MAX - card.value(), u8::MAX - card.rank().index(), u8::MAX - card.suit().index())
        })
    }

    /// The discard or knock of an 11-card hand.
    fn discard_or_knock(view: &PlayerView<'_>, legal: &[Action]) -> Option<Action> {
        if legal.contains(&Action::BigGin) {
            return Some(Action::BigGin);
        }
        let solver = view.rules.solver();
        let taken = view.taken_card.map_or(CardSet::EMPTY, CardSet::from);
        let (mut knocks, mut discards) = (CardSet::EMPTY, CardSet::EMPTY);
        for action in legal {
            match *action {
                Action::Knock { discard } => {
                    knocks.insert(discard);
                }
                Action::Discard { card } => {
                    discards.insert(card);
                }
                _ => {}
            }
        }
        if let Some(card) = TakerAgent::best_discard(solver, view.hand, knocks - taken) {
            return Some(Action::knock(card));
        }
        TakerAgent::best_discard(solver, view.hand, discards - taken).map(|card| Action::Discard { card })
    }
}

impl Agent for TakerAgent {
    fn name(&self) -> &str {
        "taker"
    }

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Decision {
        crate::picks::decide(self, view, legal)
    }
}
impl Picks for TakerAgent {
    /// The action this agent plays from `view`, one of `legal`.
    fn pick(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Action {
        let solver = view.rules.solver();
        let takes = || view.pile_top().is_some_and(|card| TakerAgent::takes(solver, view.hand, card));
        let action = match view.phase {
            Phase::UpcardOffer if takes() => Some(Action::TakeUpcard),
            Phase::UpcardOffer => Some(Action::PassUpcard),
            Phase::Draw if legal.contains(&Action::DrawPile) && takes() => Some(Action::DrawPile),
            Phase::Draw => Some(Action::DrawStock),
            Phase::Discard => TakerAgent::discard_or_knock(view, legal),
            Phase::LayOff => Some(Action::LayOff),
            Phase::Over => None,
        };
        match action {
            Some(action) if legal.contains(&action) => action,
            _ => legal.first().copied().unwrap_or(Action::LayOff),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gin_engine::{Game, GameOutcome, HandSetup, RandomAgent, RunOptions, play_game};
    use gin_rules::{ByPlayer, Player, Ruleset};

    fn cards(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    /// A hand where player one (not the dealer) holds `one`, the upcard is `upcard`, and the
    /// stock's top card is `top`.
    fn game(one: &str, upcard: &str, top: &str) -> Game {
        let (one, upcard, top) = (cards(one), card(upcard), card(top));
        let rest: Vec<Card> = (CardSet::FULL - one - CardSet::from(upcard) - CardSet::from(top)).iter().collect();
        let two: CardSet = rest[..10].iter().copied().collect();
        let stock = std::iter::once(top).chain(rest[10..].iter().copied()).collect();
        let setup = HandSetup { dealer: Player::Two, hands: ByPlayer::new(one, two), upcard, stock };
        Game::from_setup(&Ruleset::eaai(), 1, &setup).unwrap().0
    }

    fn choice(game: &Game) -> Action {
        let mut taker = TakerAgent::new();
        taker.pick(&game.view(Player::One), &game.legal_actions())
    }

    #[test]
    fn takes_the_upcard_when_it_melds_or_would_be_kept() {
        // The 4S makes a run with 2S 3S.
        assert_eq!(choice(&game("2S 3S 7H 9H JD QC KC 5D 8C TS", "4S", "AH")), Action::TakeUpcard);
        // The 2H melds with nothing but replaces the KC (2 < 10).
        assert_eq!(choice(&game("2S 3S 7H 9H JD QC KC 5D 8C TS", "2H", "AH")), Action::TakeUpcard);
        // The KH melds with nothing, but would replace a ten or a face card at equal deadwood.
        assert_eq!(choice(&game("2S 3S 7H 9H JD QC KC 5D 8C TS", "KH", "AH")), Action::TakeUpcard);
        // A low hand of melds and small cards: a lone nine would only add deadwood.
        assert_eq!(choice(&game("AS 2S 3S 4H 5H 6H 7D 8D 9D AC", "9C", "AH")), Action::PassUpcard);
    }

    #[test]
    fn discards_the_least_deadwood_highest_card_and_knocks_at_once() {
        // After a stock draw of the AH, the KC and the QC leave the same deadwood: the king goes.
        let mut g = game("2S 3S 4S 7H 8H 9H QC KC 2D 3C", "JD", "AH");
        g.play(Player::One, Action::PassUpcard).unwrap();
        g.play(Player::Two, Action::PassUpcard).unwrap();
        g.play(Player::One, Action::DrawStock).unwrap();
        // Deadwood with the AH: QC KC 2D 3C AH = 26; dropping the KC leaves 16 (no knock at 10).
        assert_eq!(choice(&g), Action::Discard { card: card("KC") });

        // Melds and the KC, then the AH drawn: it knocks at once with 1, discarding the KC.
        let mut g = game("2S 3S 4S 7H 8H 9H 5D 5C 5S KC", "JD", "AH");
        g.play(Player::One, Action::PassUpcard).unwrap();
        g.play(Player::Two, Action::PassUpcard).unwrap();
        g.play(Player::One, Action::DrawStock).unwrap();
        assert_eq!(choice(&g), Action::knock(card("KC")));
    }

    #[test]
    fn plays_only_legal_actions_against_random() {
        let mut finished = 0;
        for (rules, games) in [(Ruleset::eaai(), 150), (Ruleset::standard(), 50), (Ruleset::oklahoma(), 50)] {
            for seed in 0..games {
                let (mut taker, mut random) = (TakerAgent::new(), RandomAgent::default());
                let agents: ByPlayer<&mut dyn Agent> = if seed % 2 == 0 {
                    ByPlayer([&mut taker, &mut random])
                } else {
                    ByPlayer([&mut random, &mut taker])
                };
                let record = play_game(&rules, seed, agents, RunOptions::default());
                match record.outcome {
                    GameOutcome::Forfeit { player, action, reason } => {
                        panic!("seed {seed}: {player} {action:?}: {reason}")
                    }
                    GameOutcome::Finished { .. } => finished += 1,
                    GameOutcome::Abandoned { .. } => {}
                }
            }
        }
        assert!(finished >= 240, "{finished} of 250 games finished");
    }
}
