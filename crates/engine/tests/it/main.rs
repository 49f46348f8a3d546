//! Integration tests of gin-engine, and the walks through random games they share.

mod properties;
mod runner;
mod saves;
mod vectors;

use gin_cards::CardSet;
use gin_cards::random::{self, GinRng};
use gin_engine::{Action, Game, Phase};
use gin_rules::{Meld, Showing};

/// A showing the player to act may choose for `action` (a knock, big gin or a defense) that
/// shows as little deadwood as the referee's: for the knocker a best arrangement (the solver's
/// first, the safest for random layoff weights, or any of the best); for the defender its best
/// defense, or one that keeps some of the melds of a best defense and answers the best way with
/// the rest. `None` for an action that shows nothing, or that is not legal now.
pub(crate) fn best_showing(game: &Game, action: Action, rng: &mut GinRng) -> Option<Showing> {
    let deal = game.deal();
    let held = deal.cards(game.to_act()?);
    let solver = game.rules().solver();
    let arrange = |cards: CardSet, rng: &mut GinRng| match random::below(rng, 3) {
        0 => solver.best_arrangement(cards),
        1 => {
            let weights: Vec<f64> = (0..52).map(|_| random::below(rng, 100) as f64).collect();
            solver.safest_arrangement(cards, |card| weights[usize::from(card.index())])
        }
        _ => {
            let all = solver.best_arrangements(cards);
            all[random::index(rng, all.len())]
        }
    };
    match (deal.phase(), action) {
        (Phase::Discard, Action::Knock { discard }) if held.contains(discard) => {
            Showing::of_arrangement(&arrange(held.without(discard), rng))
        }
        (Phase::Discard, Action::BigGin) => Showing::of_arrangement(&arrange(held, rng)),
        (Phase::LayOff, Action::LayOff) => {
            let knock = deal.knock()?;
            let targets = game.rules().layoff_melds(knock.kind, &knock.shown);
            let defense = solver.defend(targets, held);
            if random::below(rng, 3) == 0 {
                return defense.showing();
            }
            let own: Vec<Meld> =
                defense.arrangement.melds().iter().filter(|_| random::below(rng, 2) == 0).copied().collect();
            solver.defend_keeping(targets, held, &own).ok()
        }
        _ => None,
    }
}

/// The next move of a walk: mostly a listed action that plays well enough to reach knocks,
/// layoffs and the end of games (a knock half the time one is listed, else most often a discard
/// that keeps the least deadwood), otherwise any listed action; a third of the time a knock, big
/// gin or defense comes with the player's own showing ([`best_showing`]).
pub(crate) fn choose(game: &Game, rng: &mut GinRng) -> (Action, Option<Showing>) {
    let legal = game.legal_actions();
    let knocks: Vec<Action> =
        legal.iter().copied().filter(|a| matches!(a, Action::Knock { .. } | Action::BigGin)).collect();
    let best = match game.to_act() {
        Some(player) if game.deal().phase() == Phase::Discard => {
            game.rules().solver().best_discards(game.deal().cards(player)).discards
        }
        _ => CardSet::EMPTY,
    };
    let good: Vec<Action> =
        legal.iter().copied().filter(|a| matches!(a, Action::Discard { card } if best.contains(*card))).collect();
    let action = if !knocks.is_empty() && random::below(rng, 2) == 0 {
        knocks[random::index(rng, knocks.len())]
    } else if !good.is_empty() && random::below(rng, 4) != 0 {
        good[random::index(rng, good.len())]
    } else {
        legal[random::index(rng, legal.len())]
    };
    let showing =
        if action.shows_cards() && random::below(rng, 3) == 0 { best_showing(game, action, rng) } else { None };
    (action, showing)
}
