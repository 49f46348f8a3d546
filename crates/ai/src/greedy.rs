//! `GreedyAgent`: the heuristic player of the original Gin Rummy Java project.

use gin_cards::random::{self, GinRng};
use gin_cards::{Card, CardSet};
use gin_engine::{Action, Agent, Decision, Event, Phase, PlayerView};
use gin_rules::{Player, Ruleset};

use crate::Tracker;
use crate::picks::Picks;

/// Penalty on discarding a bridge: a card with one or two cards of its suit within two ranks.
const BRIDGE_PENALTY: i32 = 15;
/// Danger per card of the same rank the opponent took from the pile.
const RANK_DANGER: i32 = 4;
/// Danger when the opponent took two or more cards of the same suit from the pile.
const SUIT_DANGER: i32 = 3;

/// A one-ply heuristic player.
///
/// - It discards the card of highest score, where score = −10 × the deadwood left after the
///   discard + the card's deadwood value (so of two discards that leave the same deadwood the
///   higher card goes) − 15 for a bridge to a possible run (one or two cards of its suit within
///   two ranks of it in the hand) − danger: 4 per card of its rank the opponent took from the
///   pile, and 3 more when the opponent took two or more cards of its suit. Ties are broken at
///   random.
/// - It takes the upcard or the pile's top when that lowers its best deadwood at once (after its
///   best discard), and otherwise passes or draws from the stock.
/// - It knocks as soon as it may, with the best-scoring discard among those that allow a knock,
///   showing the engine's best arrangement; it goes big gin where the rules play it. As the
///   defender it lets the engine lay off the best way.
#[derive(Clone, Debug)]
pub struct GreedyAgent {
    rng: GinRng,
    /// The game's seed for this agent; each decision reseeds `rng` from it
    /// ([`PlayerView::decision_seed`]), so a choice never depends on the ones before.
    seed: u64,
    tracker: Tracker,
}

impl GreedyAgent {
    /// A greedy agent seeded with `seed` (the runner reseeds it at each game).
    pub fn new(seed: u64) -> GreedyAgent {
        GreedyAgent { rng: random::seeded_rng(seed), seed, tracker: Tracker::default() }
    }

    /// Whether taking the face-up card lowers the best deadwood at once.
    fn improves(view: &PlayerView<'_>) -> bool {
        let Some(card) = view.pile_top() else { return false };
        let solver = view.rules.solver();
        // Discarding the card just taken would give the hand back: the best discard leaves less
        // deadwood than now only if it is another card, which may be discarded.
        solver.best_discards(view.hand.with(card)).deadwood < solver.min_deadwood(view.hand)
    }

    /// The discard's score: higher is a better discard.
    fn score(&self, view: &PlayerView<'_>, card: Card) -> i32 {
        let hand = view.hand;
        let deadwood = view.rules.solver().min_deadwood(hand.without(card)) as i32;
        let mut score = -10 * deadwood + i32::from(card.value());
        if is_bridge(hand, card, view.rules.ace_high) {
            score -= BRIDGE_PENALTY;
        }
        // Cards the opponent took: this one, if it went back and forth, says nothing of danger.
        let took = self.tracker.opponent_took().without(card);
        score -= RANK_DANGER * (took & CardSet::of_rank(card.rank())).len() as i32;
        if took.suit_mask(card.suit()).count_ones() >= 2 {
            score -= SUIT_DANGER;
        }
        score
    }

    /// The best-scoring card of `cards`, ties broken at random.
    fn best(&mut self, view: &PlayerView<'_>, cards: CardSet) -> Option<Card> {
        let mut best = i32::MIN;
        let mut ties = CardSet::EMPTY;
        for card in cards {
            let score = self.score(view, card);
            if score > best {
                best = score;
                ties = CardSet::EMPTY;
            }
            if score == best {
                ties.insert(card);
            }
        }
        if ties.is_empty() {
            return None;
        }
        ties.iter().nth(random::index(&mut self.rng, ties.len()))
    }

    fn discard_or_knock(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Option<Action> {
        if legal.contains(&Action::BigGin) {
            return Some(Action::BigGin);
        }
        // Never the card just taken, even under a house rule that lists it.
        let taken = view.taken_card.map_or(CardSet::EMPTY, CardSet::from);
        let knocks: CardSet = legal
            .iter()
            .filter_map(|action| match action {
                Action::Knock { discard } => Some(*discard),
                _ => None,
            })
            .collect();
        if let Some(discard) = self.best(view, knocks - taken) {
            return Some(Action::knock(discard));
        }
        let discards: CardSet = legal
            .iter()
            .filter_map(|action| match action {
                Action::Discard { card } => Some(*card),
                _ => None,
            })
            .collect();
        self.best(view, discards - taken).map(|card| Action::Discard { card })
    }
}

impl Default for GreedyAgent {
    fn default() -> GreedyAgent {
        GreedyAgent::new(0)
    }
}

impl Agent for GreedyAgent {
    fn name(&self) -> &str {
        "greedy"
    }

    fn start_game(&mut self, seat: Player, _rules: &Ruleset, seed: u64) {
        self.seed = seed;
        self.tracker.reset(seat);
    }

    fn observe(&mut self, event: &Event) {
        self.tracker.observe(event);
    }

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Decision {
        crate::picks::decide(self, view, legal)
    }
}
impl Picks for GreedyAgent {
    /// The action this agent plays from `view`, one of `legal`.
    fn pick(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Action {
        self.rng = random::seeded_rng(view.decision_seed(self.seed));
        let action = match view.phase {
            Phase::UpcardOffer if GreedyAgent::improves(view) => Some(Action::TakeUpcard),
            Phase::UpcardOffer => Some(Action::PassUpcard),
            Phase::Draw if legal.contains(&Action::DrawPile) && GreedyAgent::improves(view) => Some(Action::DrawPile),
            Phase::Draw => Some(Action::DrawStock),
            Phase::Discard => self.discard_or_knock(view, legal),
            Phase::LayOff => Some(Action::LayOff),
            Phase::Over => None,
        };
        match action {
            Some(action) if legal.contains(&action) => action,
            _ => legal.first().copied().unwrap_or(Action::LayOff),
        }
    }
}

/// Whether `card` is a bridge to a possible run: one or two other cards of its suit in `hand`
/// lie within two ranks of it (with the ace also above the king when `ace_high`).
fn is_bridge(hand: CardSet, card: Card, ace_high: bool) -> bool {
    let mut others = u32::from(hand.without(card).suit_mask(card.suit()));
    let position = u32::from(card.rank().index());
    // Bits position-2 ..= position+2.
    let mut near = (0b1_1111 << position) >> 2;
    if ace_high {
        // The ace also sits at position 13, above the king.
        others |= (others & 1) << 13;
        if position == 0 {
            near |= 0b1_1111 << 11;
        }
    }
    let count = (others & near).count_ones();
    (1..=2).contains(&count)
}
