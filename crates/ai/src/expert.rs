//! `ExpertAgent`: our own player, built on ideas that serve Mahjong AIs well, and its parameters.
//!
//! - *Outs and knock distance*: a hand is worth the deadwood it can expect after its next draw,
//!   averaged over the cards it has not seen ([`ExpertAgent`] calls this the hand's outlook), with
//!   bonuses for the chance that the next draw makes it knockable or gin.
//! - *Danger*: the chance that the opponent can meld a card we discard, from the cards it took,
//!   refused and discarded (the Mahjong safety table).
//! - *Knock policy*: knock at once early; later, with a large deadwood, wait when the undercut
//!   risk (the opponent's progress) is high; always knock for gin.
//!
//! Every weight is in [`ExpertParams`], which a JSON file or an agent spec can override.

use gin_cards::random::{self, GinRng};
use gin_cards::{Card, CardSet, Rank};
use gin_engine::{Action, Agent, Event, Phase, PlayerView};
use gin_rules::{Player, Ruleset, Solver};

use crate::Tracker;

/// Every weight of the expert agent. A JSON file may override any of them by name.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExpertParams {
    /// Weight of the deadwood left right after a discard, next to the outlook.
    pub deadwood_weight: f64,
    /// Bonus (in deadwood points) per unit of probability that the next draw makes the hand
    /// knockable.
    pub knock_outs_weight: f64,
    /// Bonus per unit of probability that the next draw makes the hand gin.
    pub gin_outs_weight: f64,
    /// Penalty (in deadwood points) per unit of probability that the opponent can meld the discard.
    pub danger_weight: f64,
    /// How much less likely the opponent holds a card related to one it refused or discarded.
    pub refusal_discount: f64,
    /// Take the pile's top card when its outlook beats drawing from the stock by at least this.
    pub take_margin: f64,
    /// The largest deadwood to knock with while the stock is large.
    pub knock_max_early: u32,
    /// The largest deadwood to knock with once the stock is small.
    pub knock_max_late: u32,
    /// The stock size under which the late knock limit applies.
    pub late_stock: u32,
    /// How many of the least-deadwood discards the draw decision weighs in full.
    pub candidates: usize,
}

impl Default for ExpertParams {
    fn default() -> ExpertParams {
        ExpertParams {
            deadwood_weight: 0.3,
            knock_outs_weight: 2.0,
            gin_outs_weight: 4.0,
            danger_weight: 3.0,
            refusal_discount: 0.5,
            take_margin: 0.0,
            knock_max_early: 10,
            knock_max_late: 10,
            late_stock: 10,
            candidates: 3,
        }
    }
}

impl ExpertParams {
    /// Reads parameters from JSON; names not given keep their defaults.
    ///
    /// # Errors
    /// The JSON error, naming an unknown parameter or a value of the wrong type.
    pub fn from_json(text: &str) -> Result<ExpertParams, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Sets one parameter by name from its text.
    ///
    /// # Errors
    /// A message naming the unknown parameter or the bad value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let mut table = serde_json::to_value(&*self).map_err(|e| e.to_string())?;
        let slot = table.get_mut(name).ok_or_else(|| {
            let names: Vec<String> = match serde_json::to_value(ExpertParams::default()) {
                Ok(serde_json::Value::Object(map)) => map.keys().cloned().collect(),
                _ => Vec::new(),
            };
            format!("has no setting `{name}` (settings: {})", names.join(", "))
        })?;
        *slot = serde_json::from_str(value).map_err(|_| format!("setting `{name}` takes a number, not `{value}`"))?;
        *self = serde_json::from_value(table).map_err(|e| format!("setting `{name}`: {e}"))?;
        Ok(())
    }
}

/// Our own player: see the module documentation.
#[derive(Clone, Debug)]
pub struct ExpertAgent {
    params: ExpertParams,
    rng: GinRng,
    tracker: Tracker,
    solver: Solver,
}

impl Default for ExpertAgent {
    fn default() -> ExpertAgent {
        ExpertAgent::new(ExpertParams::default())
    }
}

impl ExpertAgent {
    /// An expert with these parameters.
    pub fn new(params: ExpertParams) -> ExpertAgent {
        ExpertAgent { params, rng: random::seeded_rng(0), tracker: Tracker::new(Player::One), solver: Solver::ACE_LOW }
    }

    /// Its parameters.
    pub fn params(&self) -> &ExpertParams {
        &self.params
    }
}

/// What the expert knows at a decision.
struct Situation<'a> {
    solver: Solver,
    params: &'a ExpertParams,
    /// Cards not seen: in the stock or the opponent's unknown cards.
    unseen: CardSet,
    knock_limit: u32,
    /// Probability that each card (by bit) is in the opponent's hand.
    opponent: [f64; 64],
}

impl Situation<'_> {
    /// The outlook of a 10-card hand: the deadwood it can expect after its next draw (keeping
    /// the drawn card only if it helps), less bonuses for the chance of a knockable or gin hand.
    fn outlook(&self, hand: CardSet) -> f64 {
        let now = self.solver.min_deadwood(hand);
        let count = self.unseen.len().max(1) as f64;
        let (mut total, mut knockable, mut gin) = (0u32, 0u32, 0u32);
        for card in self.unseen {
            let after = self.solver.best_discards(hand.with(card)).deadwood.min(now);
            total += after;
            knockable += u32::from(after <= self.knock_limit);
            gin += u32::from(after == 0);
        }
        let p = &self.params;
        f64::from(total) / count + p.deadwood_weight * f64::from(now)
            - p.knock_outs_weight * f64::from(knockable) / count
            - p.gin_outs_weight * f64::from(gin) / count
    }

    /// The chance that the opponent can meld `card` with cards it holds.
    fn danger(&self, card: Card) -> f64 {
        let holds = |c: Card| self.opponent[usize::from(c.bit())];
        // A set: two more of the rank (at least two of the other three).
        let mut others = [0.0; 3];
        for (slot, other) in others.iter_mut().zip(CardSet::of_rank(card.rank()).without(card)) {
            *slot = holds(other);
        }
        let [a, b, c] = others;
        let set = a * b + a * c + b * c - 2.0 * a * b * c;
        // A run: two neighbours in the suit.
        let rank = i32::from(card.rank().index());
        let at = |offset: i32| {
            let r = rank + offset;
            if (0..13).contains(&r) { holds(Card::new(Rank::ALL[r as usize], card.suit())) } else { 0.0 }
        };
        let run_missing = (1.0 - at(-2) * at(-1)) * (1.0 - at(-1) * at(1)) * (1.0 - at(1) * at(2));
        1.0 - (1.0 - set) * run_missing
    }

    /// The cost of keeping `hand` (10 cards) after discarding `card`: lower is better.
    fn discard_cost(&self, hand: CardSet, card: Card) -> f64 {
        self.outlook(hand) + self.params.danger_weight * self.danger(card)
    }
}

impl ExpertAgent {
    fn situation<'a>(&'a self, view: &PlayerView<'_>) -> Situation<'a> {
        let unseen = self.tracker.unseen(view.hand);
        let known = view.opponent_known;
        let unknown_slots = view.opponent_cards.saturating_sub(known.len()) as f64;
        let base = if unseen.is_empty() { 0.0 } else { (unknown_slots / unseen.len() as f64).min(1.0) };
        // Cards next to what the opponent let go are less likely in its hand.
        let let_go = self.tracker.opponent_refused() | self.tracker.opponent_discarded();
        let mut related = CardSet::EMPTY;
        for card in let_go {
            related |= CardSet::of_rank(card.rank());
            let mask = 1u16 << card.rank().index();
            related |= CardSet::from_suit_mask(card.suit(), (mask << 1) | (mask >> 1) | (mask << 2) | (mask >> 2));
        }
        let mut opponent = [0.0; 64];
        for card in unseen {
            let discount = if related.contains(card) { self.params.refusal_discount } else { 1.0 };
            opponent[usize::from(card.bit())] = base * discount;
        }
        for card in known {
            opponent[usize::from(card.bit())] = 1.0;
        }
        Situation { solver: self.solver, params: &self.params, unseen, knock_limit: view.knock_limit, opponent }
    }

    /// Whether to take `top` (the upcard or the pile's top) rather than draw from the stock.
    ///
    /// Both sides are valued the same way: the best outlook of the 10 cards kept after this turn,
    /// counting the discard's danger. Drawing from the stock averages that over the unseen cards.
    fn should_take(&self, view: &PlayerView<'_>, top: Card) -> bool {
        let s = self.situation(view);
        let hand = view.hand;
        // The outlook is the costly part: weigh only the few discards that leave the least
        // deadwood.
        let keep_best = |cards: CardSet, not: Option<Card>| {
            let mut ranked = [(u32::MAX, None::<Card>); 11];
            for (slot, card) in ranked.iter_mut().zip(cards.iter().filter(|&card| Some(card) != not)) {
                *slot = (s.solver.min_deadwood(cards.without(card)), Some(card));
            }
            ranked.sort_unstable_by_key(|&(deadwood, _)| deadwood);
            ranked
                .iter()
                .take(self.params.candidates.max(1))
                .filter_map(|&(_, card)| card)
                .map(|card| s.discard_cost(cards.without(card), card))
                .fold(f64::INFINITY, f64::min)
        };
        let take = keep_best(hand.with(top), Some(top));
        if s.unseen.is_empty() {
            return take < s.outlook(hand);
        }
        let mut stock = 0.0;
        for card in s.unseen {
            stock += keep_best(hand.with(card), None);
        }
        stock /= s.unseen.len() as f64;
        take + self.params.take_margin < stock
    }

    fn discard_or_knock(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Action {
        if let Some(big) = legal.iter().find(|a| matches!(a, Action::BigGin { .. })) {
            return big.clone();
        }
        let s = self.situation(view);
        let hand = view.hand;
        let mut best: Option<(f64, Card)> = None;
        let mut best_knock: Option<(u32, f64, Card)> = None;
        for action in legal {
            match action {
                Action::Discard { card } => {
                    let cost = s.discard_cost(hand.without(*card), *card);
                    if best.is_none_or(|(c, _)| cost < c) {
                        best = Some((cost, *card));
                    }
                }
                Action::Knock { discard, .. } => {
                    let deadwood = s.solver.min_deadwood(hand.without(*discard));
                    let danger = s.danger(*discard);
                    if best_knock.is_none_or(|(d, g, _)| deadwood < d || (deadwood == d && danger < g)) {
                        best_knock = Some((deadwood, danger, *discard));
                    }
                }
                _ => {}
            }
        }
        if let Some((deadwood, _, discard)) = best_knock {
            let limit = if (view.stock_size as u32) < self.params.late_stock {
                self.params.knock_max_late
            } else {
                self.params.knock_max_early
            };
            if deadwood == 0 || deadwood <= limit {
                return Action::knock(discard);
            }
        }
        match best {
            Some((_, card)) => Action::Discard { card },
            None => legal[random::index(&mut self.rng, legal.len())].clone(),
        }
    }
}

impl Agent for ExpertAgent {
    fn name(&self) -> &str {
        "expert"
    }

    fn start_game(&mut self, seat: Player, rules: &Ruleset, seed: u64) {
        self.rng = random::seeded_rng(seed);
        self.tracker.reset(seat);
        self.solver = rules.solver();
    }

    fn observe(&mut self, event: &Event) {
        self.tracker.observe(event);
    }

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Action {
        let wanted = match view.phase {
            Phase::UpcardOffer => {
                let top = view.pile_top();
                if top.is_some_and(|top| self.should_take(view, top)) { Action::TakeUpcard } else { Action::PassUpcard }
            }
            Phase::Draw => {
                let top = view.pile_top();
                let may_take = legal.contains(&Action::DrawPile);
                if may_take && top.is_some_and(|top| self.should_take(view, top)) {
                    Action::DrawPile
                } else {
                    Action::DrawStock
                }
            }
            Phase::Discard => self.discard_or_knock(view, legal),
            Phase::LayOff | Phase::Over => Action::LAY_OFF_BEST,
        };
        if legal.contains(&wanted) { wanted } else { legal[random::index(&mut self.rng, legal.len())].clone() }
    }
}
