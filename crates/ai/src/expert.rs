//! `ExpertAgent`: our own player, built on ideas that serve Mahjong AIs well, and its parameters.
//!
//! - *Outs* (the Mahjong advance count): a 10-card hand is worth the deadwood it can expect after
//!   its next draw (its *outlook*), averaged over the cards it has not seen, each weighted by the
//!   chance that it is still in the stock rather than the opponent's hand, less bonuses for the
//!   chance that the draw brings it to knock distance 0 (knockable) or gin distance 0 (gin).
//! - *Danger* (the Mahjong safety table): the chance that the opponent can meld a card we discard,
//!   from an estimate of its hand: the cards it took from the pile (and their meld partners, made
//!   likelier), and the cards it refused or discarded (their partners made less likely).
//! - Discards minimise outlook plus danger; the pile's top is taken when keeping it beats the
//!   average over the unseen cards of what a stock draw would leave (a two-ply comparison).
//! - *Knock policy*, tuned by self-play: in the first turns, knock with anything the rules allow;
//!   after that, only for gin. Opponents who knock as soon as they can (most bots) then knock into
//!   undercuts against a hand kept low, and gin pays its bonus without layoffs. When knocking, the
//!   best arrangement shown is the one that offers the opponent the least to lay off.
//!
//! Every weight is in [`ExpertParams`], which a JSON file or an agent spec can override.

use gin_cards::random::{self, GinRng};
use gin_cards::{Card, CardSet, Rank};
use gin_engine::{Action, Agent, Decision, Event, Phase, PlayerView};
use gin_rules::settings::{Kind, Setting, Settings};
use gin_rules::{Player, Ruleset, Showing, Solver};

use crate::picks::Picks;
use crate::{Advisor, Hint, Reason, Tracker};

const WEIGHT: Kind = Kind::Float { min: -100.0, max: 100.0 };
const DEADWOOD: Kind = Kind::Int { min: 0, max: 10 };

gin_rules::settings_struct! {
    /// Every weight of the expert agent, listed with its range and meaning in [`Settings::table`]: a
    /// JSON file (`--param FILE`) or an agent spec (`expert:danger_weight=2`) may override any of
    /// them by name.
    #[derive(Clone, Debug, PartialEq)]
    pub struct ExpertParams {
        /// Weight of the deadwood left right after a discard, next to the outlook.
        deadwood_weight: f64 = WEIGHT,
        /// Bonus (in deadwood points) per unit of probability that the next draw makes the hand
        /// knockable.
        knock_outs_weight: f64 = WEIGHT,
        /// Bonus per unit of probability that the next draw makes the hand gin.
        gin_outs_weight: f64 = WEIGHT,
        /// Penalty (in deadwood points) per unit of probability that the opponent can meld the discard.
        danger_weight: f64 = WEIGHT,
        /// How much less likely the opponent holds a card related to one it refused or discarded.
        refusal_discount: f64 = Kind::Float { min: 0.0, max: 10.0 },
        /// How much more likely the opponent holds a card that melds with one it took from the pile.
        pickup_boost: f64 = Kind::Float { min: 0.0, max: 10.0 },
        /// Take the pile's top card when its outlook beats drawing from the stock by at least this.
        take_margin: f64 = WEIGHT,
        /// The largest deadwood to knock with while the stock is large.
        knock_max_early: u32 = DEADWOOD,
        /// The largest deadwood to knock with once the stock is small.
        knock_max_late: u32 = DEADWOOD,
        /// The stock size under which the late knock limit applies.
        late_stock: u32 = Kind::Int { min: 0, max: 31 },
        /// How many of the least-deadwood discards the draw decision weighs in full (and, at
        /// `outlook_depth` 2, how many discards are weighed two draws ahead).
        candidates: usize = Kind::Int { min: 1, max: 11 },
        /// Deadwood above `high_from` counts at this fraction of its points in the outlook: against
        /// a player who knocks as soon as it can, only a hand near knock distance can undercut.
        high_slope: f64 = Kind::Float { min: 0.0, max: 10.0 },
        /// Where deadwood starts to count at `high_slope`.
        high_from: u32 = Kind::Int { min: 0, max: 100 },
        /// How many draws the discard's outlook looks ahead: 1, or 2 to weigh the best few
        /// discards by the outlook after the next draw and discard as well.
        outlook_depth: u32 = Kind::Int { min: 1, max: 2 },
    }
}

impl ExpertParams {
    /// The expert inside the search (`mc-fast` and `mc`): it weighs the chance of gin far more and
    /// the danger of a discard less than the `expert` agent does, as the low holder does. With the
    /// search's knocks, these weights win more against every careful style (`expert`, `holder`);
    /// the `expert` agent alone, which knocks by a plain rule, keeps its own.
    pub fn searching() -> ExpertParams {
        ExpertParams { gin_outs_weight: 30.0, danger_weight: 2.0, ..ExpertParams::default() }
    }

    /// The expert inside `mc`: as [`ExpertParams::searching`], and its discards look two draws
    /// ahead. That costs many times the one-draw look (docs/research/code-notes.md): `mc`'s
    /// budget has room for it, and `mc-fast` stays the cheap level.
    pub fn deep() -> ExpertParams {
        ExpertParams { outlook_depth: 2, ..ExpertParams::searching() }
    }
}

impl Default for ExpertParams {
    fn default() -> ExpertParams {
        ExpertParams {
            deadwood_weight: 0.0,
            knock_outs_weight: 2.0,
            gin_outs_weight: 4.0,
            danger_weight: 3.0,
            refusal_discount: 0.5,
            pickup_boost: 2.0,
            take_margin: 0.0,
            knock_max_early: 10,
            knock_max_late: 0,
            late_stock: 30,
            candidates: 3,
            high_slope: 1.0,
            high_from: 10,
            outlook_depth: 1,
        }
    }
}

impl Settings for ExpertParams {
    fn table() -> &'static [Setting<ExpertParams>] {
        ExpertParams::settings_table()
    }
}

/// Our own player: see the module documentation.
#[derive(Clone, Debug)]
pub struct ExpertAgent {
    params: ExpertParams,
    rng: GinRng,
    /// The game's seed for this agent; each decision reseeds `rng` from it
    /// ([`PlayerView::decision_seed`]), so a choice never depends on the ones before.
    seed: u64,
    tracker: Tracker,
    solver: Solver,
    /// Discards look one draw ahead whatever `outlook_depth` says ([`ExpertAgent::look_one_draw`]).
    one_draw: bool,
}

impl Default for ExpertAgent {
    fn default() -> ExpertAgent {
        ExpertAgent::new(ExpertParams::default())
    }
}

impl ExpertAgent {
    /// An expert with these parameters.
    pub fn new(params: ExpertParams) -> ExpertAgent {
        ExpertAgent {
            params,
            rng: random::seeded_rng(0),
            seed: 0,
            tracker: Tracker::new(Player::One),
            solver: Solver::ACE_LOW,
            one_draw: false,
        }
    }

    /// Its parameters.
    pub fn params(&self) -> &ExpertParams {
        &self.params
    }

    /// Makes the discards look one draw ahead (`true`) or as deep as `outlook_depth` says: a
    /// searcher that knows its opponent knocks at once, so that hands rarely last two more
    /// draws, looks one.
    pub(crate) fn look_one_draw(&mut self, one: bool) {
        self.one_draw = one;
    }

    /// What it has seen of the hand so far.
    pub(crate) fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    /// The cards it has not seen, and the chance that each (by bit) is in the opponent's hand.
    pub(crate) fn opponent_odds(&self, view: &PlayerView<'_>) -> (CardSet, [f64; 64]) {
        let s = self.situation(view);
        (s.unseen, s.opponent)
    }

    /// What it shows when it knocks discarding `discard`: the best arrangement that offers the
    /// opponent the least to lay off, by the chance it holds each card that would fit, times its
    /// value.
    pub(crate) fn knock_showing(&self, view: &PlayerView<'_>, discard: Card) -> Option<Showing> {
        let s = self.situation(view);
        let safest = s.solver.safest_arrangement(view.hand.without(discard), |card| {
            s.opponent[usize::from(card.bit())] * f64::from(card.value())
        });
        Showing::of_arrangement(&safest)
    }

    /// The cost of each legal plain discard (lower is better), best first.
    pub(crate) fn ranked_discards(&self, view: &PlayerView<'_>, legal: &[Action]) -> Vec<(f64, Card)> {
        self.situation(view).ranked(view.hand, legal)
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
    /// How many draws the discards look ahead now: `outlook_depth`, or 1 where the owner says
    /// hands are short ([`ExpertAgent::look_one_draw`]).
    depth: u32,
}

impl Situation<'_> {
    /// The outlook of a 10-card hand: the deadwood it can expect after its next draw (keeping
    /// the drawn card only if it helps), less bonuses for the chance of a knockable or gin hand.
    fn outlook(&self, hand: CardSet) -> f64 {
        self.outlook_over(hand, self.unseen)
    }

    /// The outlook of `hand` with the next draw among `unseen`.
    fn outlook_over(&self, hand: CardSet, unseen: CardSet) -> f64 {
        let now = self.solver.min_deadwood(hand);
        let (mut weight, mut total, mut knockable, mut gin) = (0.0, 0.0, 0.0, 0.0);
        for card in unseen {
            // A card the opponent probably holds is less likely to be drawn.
            let w = 1.0 - self.opponent[usize::from(card.bit())];
            let after = self.solver.best_discards(hand.with(card)).deadwood.min(now);
            weight += w;
            total += w * self.shaped(after);
            knockable += if after <= self.knock_limit { w } else { 0.0 };
            gin += if after == 0 { w } else { 0.0 };
        }
        if weight <= 0.0 {
            return f64::from(now) * (1.0 + self.params.deadwood_weight);
        }
        let p = &self.params;
        total / weight + p.deadwood_weight * self.shaped(now)
            - p.knock_outs_weight * knockable / weight
            - p.gin_outs_weight * gin / weight
    }

    /// The outlook two draws ahead: the mean, over the next draw, of the best outlook of the 10
    /// cards kept after it (among the few discards that leave the least deadwood).
    fn outlook_two(&self, hand: CardSet) -> f64 {
        let (mut weight, mut total) = (0.0, 0.0);
        for card in self.unseen {
            let w = 1.0 - self.opponent[usize::from(card.bit())];
            let rest = self.unseen.without(card);
            let best = self.best_kept(hand.with(card), None, |kept, _| self.outlook_over(kept, rest));
            weight += w;
            total += w * best;
        }
        if weight <= 0.0 { self.outlook(hand) } else { total / weight }
    }

    /// Every plain discard in `legal` with its cost, best first; at `outlook_depth` 2 the best
    /// `candidates` of them are weighed again two draws ahead and come first.
    fn ranked(&self, hand: CardSet, legal: &[Action]) -> Vec<(f64, Card)> {
        let mut ranked: Vec<(f64, Card)> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Discard { card } => Some((self.discard_cost(hand.without(*card), *card), *card)),
                _ => None,
            })
            .collect();
        ranked.sort_by(|x, y| x.0.total_cmp(&y.0));
        if self.depth >= 2 {
            let top = ranked.len().min(self.params.candidates.max(1));
            let mut deep: Vec<(f64, Card)> = ranked[..top]
                .iter()
                .map(|&(_, card)| {
                    (self.outlook_two(hand.without(card)) + self.params.danger_weight * self.danger(card), card)
                })
                .collect();
            deep.sort_by(|x, y| x.0.total_cmp(&y.0));
            ranked.splice(..top, deep);
        }
        ranked
    }

    /// Deadwood as the outlook counts it: points above `high_from` count at `high_slope`.
    fn shaped(&self, deadwood: u32) -> f64 {
        let high = deadwood.saturating_sub(self.params.high_from);
        f64::from(deadwood - high) + self.params.high_slope * f64::from(high)
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

    /// The best cost of the 10 cards kept from 11 (`not` may not be discarded). The outlook is
    /// the costly part: only the few discards that leave the least deadwood are weighed in full.
    fn keep_best(&self, cards: CardSet, not: Option<Card>) -> f64 {
        self.best_kept(cards, not, |kept, card| self.discard_cost(kept, card))
    }

    /// The least `value(kept, discard)` over the `candidates` discards from 11 `cards` that
    /// leave the least deadwood (`not` may not be discarded).
    fn best_kept(&self, cards: CardSet, not: Option<Card>, value: impl Fn(CardSet, Card) -> f64) -> f64 {
        let mut ranked = [(u32::MAX, None::<Card>); 11];
        for (slot, card) in ranked.iter_mut().zip(cards.iter().filter(|&card| Some(card) != not)) {
            *slot = (self.solver.min_deadwood(cards.without(card)), Some(card));
        }
        ranked.sort_unstable_by_key(|&(deadwood, _)| deadwood);
        ranked
            .iter()
            .take(self.params.candidates.max(1))
            .filter_map(|&(_, card)| card)
            .map(|card| value(cards.without(card), card))
            .fold(f64::INFINITY, f64::min)
    }

    /// The expected best cost after drawing an unseen card into `hand` (10 cards) and discarding.
    fn after_stock_draw(&self, hand: CardSet) -> f64 {
        if self.unseen.is_empty() {
            return self.outlook(hand);
        }
        let total: f64 = self.unseen.iter().map(|card| self.keep_best(hand.with(card), None)).sum();
        total / self.unseen.len() as f64
    }

    /// The cost of keeping `hand` (10 cards) after discarding `card`: lower is better.
    fn discard_cost(&self, hand: CardSet, card: Card) -> f64 {
        self.outlook(hand) + self.params.danger_weight * self.danger(card)
    }
}

impl ExpertAgent {
    fn situation<'a>(&'a self, view: &PlayerView<'_>) -> Situation<'a> {
        let (unseen, opponent) = self.tracker.opponent_chances(
            view.hand,
            view.opponent_known,
            view.opponent_cards,
            self.tracker.opponent_took(),
            (self.params.pickup_boost, self.params.refusal_discount),
        );
        let depth = if self.one_draw { 1 } else { self.params.outlook_depth };
        Situation { solver: self.solver, params: &self.params, unseen, knock_limit: view.knock_limit, opponent, depth }
    }

    /// Whether to take `top` (the upcard or the pile's top) rather than draw from the stock.
    ///
    /// Both sides are valued the same way: the best outlook of the 10 cards kept after this turn,
    /// counting the discard's danger. Drawing from the stock averages that over the unseen cards.
    fn should_take(&self, view: &PlayerView<'_>, top: Card, why: &mut Option<&mut Vec<Reason>>) -> bool {
        let s = self.situation(view);
        let hand = view.hand;
        let take = s.keep_best(hand.with(top), Some(top));
        let stock = s.after_stock_draw(hand);
        let taking = take + self.params.take_margin < stock;
        if let Some(why) = why {
            why.push(Reason::TakeOrDraw { card: top, take, stock });
        }
        taking
    }

    fn discard_or_knock(
        &mut self,
        view: &PlayerView<'_>,
        legal: &[Action],
        why: &mut Option<&mut Vec<Reason>>,
    ) -> Action {
        if legal.contains(&Action::BigGin) {
            if let Some(why) = why {
                why.push(Reason::BigGin);
            }
            return Action::BigGin;
        }
        let s = self.situation(view);
        let hand = view.hand;
        let mut best_knock: Option<(u32, f64, Card)> = None;
        for action in legal {
            if let Action::Knock { discard } = action {
                let deadwood = s.solver.min_deadwood(hand.without(*discard));
                let danger = s.danger(*discard);
                if best_knock.is_none_or(|(d, g, _)| deadwood < d || (deadwood == d && danger < g)) {
                    best_knock = Some((deadwood, danger, *discard));
                }
            }
        }
        if let Some((deadwood, _, discard)) = best_knock {
            let limit = if (view.stock_size as u32) < self.params.late_stock {
                self.params.knock_max_late
            } else {
                self.params.knock_max_early
            };
            if deadwood == 0 || deadwood <= limit {
                if let Some(why) = why {
                    why.push(if deadwood == 0 {
                        Reason::Gin { discard }
                    } else {
                        Reason::KnockEarly { discard, deadwood }
                    });
                }
                return Action::knock(discard);
            }
            if let Some(why) = why {
                why.push(Reason::HoldForGin { discard, deadwood });
            }
        }
        let ranked = s.ranked(hand, legal);
        let best = ranked.first().copied();
        if let Some(why) = why {
            for &(_, card) in ranked.iter().take(3) {
                let kept = hand.without(card);
                why.push(Reason::Discard {
                    card,
                    deadwood: s.solver.min_deadwood(kept),
                    outlook: s.outlook(kept) - self.params.deadwood_weight * f64::from(s.solver.min_deadwood(kept)),
                    ahead: (s.depth >= 2).then(|| s.outlook_two(kept)),
                    danger: s.danger(card),
                });
            }
        }
        match best {
            Some((_, card)) => Action::Discard { card },
            None => legal[random::index(&mut self.rng, legal.len())],
        }
    }
}

impl Advisor for ExpertAgent {
    fn advise(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Hint {
        let mut reasons = Vec::new();
        let action = self.decide(view, legal, &mut Some(&mut reasons));
        Hint { action, reasons }
    }
}

impl Agent for ExpertAgent {
    fn name(&self) -> &str {
        "expert"
    }

    fn start_game(&mut self, seat: Player, rules: &Ruleset, seed: u64) {
        self.seed = seed;
        self.tracker.reset(seat);
        self.solver = rules.solver();
    }

    fn observe(&mut self, event: &Event) {
        self.tracker.observe(event);
    }

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Decision {
        crate::picks::decide(self, view, legal)
    }
}
impl Picks for ExpertAgent {
    /// The action this agent plays from `view`, one of `legal`.
    fn pick(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Action {
        self.decide(view, legal, &mut None)
    }

    /// The cards it lays down with `action`, a knock, big gin or a defense it just chose (`None`: the
    /// referee's choice).
    fn shown(&mut self, view: &PlayerView<'_>, action: Action) -> Option<Showing> {
        match action {
            Action::Knock { discard } => self.knock_showing(view, discard),
            _ => None,
        }
    }
}

impl ExpertAgent {
    fn decide(&mut self, view: &PlayerView<'_>, legal: &[Action], why: &mut Option<&mut Vec<Reason>>) -> Action {
        self.rng = random::seeded_rng(view.decision_seed(self.seed));
        let wanted = match view.phase {
            Phase::UpcardOffer => {
                let top = view.pile_top();
                if top.is_some_and(|top| self.should_take(view, top, why)) {
                    Action::TakeUpcard
                } else {
                    Action::PassUpcard
                }
            }
            Phase::Draw => {
                let top = view.pile_top();
                let may_take = legal.contains(&Action::DrawPile);
                if may_take && top.is_some_and(|top| self.should_take(view, top, why)) {
                    Action::DrawPile
                } else {
                    Action::DrawStock
                }
            }
            Phase::Discard => self.discard_or_knock(view, legal, why),
            Phase::LayOff | Phase::Over => {
                if let Some(why) = why {
                    why.push(Reason::RefereeLaysOff);
                }
                Action::LayOff
            }
        };
        if legal.contains(&wanted) { wanted } else { legal[random::index(&mut self.rng, legal.len())] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::play_watched;

    /// At `outlook_depth` 2 the expert re-weighs its best `candidates` discards two draws ahead:
    /// the same cards lead the ranking, perhaps in another order, the rest keep their places, and
    /// in some positions the card it discards changes.
    #[test]
    fn the_deeper_outlook_reorders_only_the_best_few_discards() {
        let rules = Ruleset::eaai();
        let (mut compared, mut changed) = (0, 0);
        for seed in 0..3 {
            let mut shallow = ExpertAgent::new(ExpertParams::searching());
            let mut simple = crate::SimpleAgent::default();
            // The first hand: the deep expert is the shallow one, as it stands, with deeper eyes.
            play_watched(&rules, seed, &mut shallow, &mut simple, 1, |shallow, view, legal| {
                if view.phase == Phase::Discard {
                    let deep = ExpertAgent { params: ExpertParams::deep(), ..shallow.clone() };
                    let (one, two) = (shallow.ranked_discards(view, legal), deep.ranked_discards(view, legal));
                    let top = one.len().min(deep.params.candidates);
                    let cards = |ranked: &[(f64, Card)]| ranked.iter().map(|&(_, card)| card).collect::<CardSet>();
                    assert_eq!(cards(&one[..top]), cards(&two[..top]), "seed {seed}: {one:?} / {two:?}");
                    assert_eq!(one[top..], two[top..], "seed {seed}");
                    assert!(two[..top].is_sorted_by(|x, y| x.0 <= y.0), "seed {seed}: {two:?}");
                    compared += 1;
                    changed += usize::from(one[0].1 != two[0].1);
                    // The hint gives the outlook two draws ahead where the expert weighed it.
                    let aheads = |agent: &ExpertAgent| -> Vec<bool> {
                        let hint = agent.clone().advise(view, legal);
                        hint.reasons
                            .iter()
                            .filter_map(|r| match r {
                                Reason::Discard { ahead, .. } => Some(ahead.is_some()),
                                _ => None,
                            })
                            .collect()
                    };
                    let (shallow_aheads, deep_aheads) = (aheads(shallow), aheads(&deep));
                    assert!(!deep_aheads.is_empty() && deep_aheads.iter().all(|&a| a), "seed {seed}");
                    assert!(shallow_aheads.iter().all(|&a| !a), "seed {seed}");
                }
                shallow.pick(view, legal)
            });
        }
        assert!(compared >= 10, "only {compared} discards compared");
        assert!(changed > 0, "the deeper outlook never changed a discard in {compared}");
    }
}
