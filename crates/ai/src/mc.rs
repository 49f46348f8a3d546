//! `McAgent`: the expert's judgement, checked by Monte Carlo search over the hidden cards.
//!
//! At each decision that matters (whether to knock, and, where enabled, which card to draw and
//! which to discard) the agent lists a few candidate actions: the expert's choice and its rivals.
//! It then samples *futures*: an opponent hand consistent with what the view shows, weighted by
//! the expert's opponent model (what it took, passed and discarded) and by what kind of player the
//! opponent has shown itself to be, and an order for the stock. Each candidate is played out in
//! every future with fast policies ([`world`]), and valued by the chance of winning the *game*
//! from the score the hand leaves ([`odds`]). The candidates share the futures (common random
//! numbers), so their differences are measured with far less noise than their values.
//!
//! The opponent model learns, over a game, the opponent's *knock threshold*: the most deadwood
//! it knocks with, from 10 (it knocks as soon as it can, like most bots) to 0 (it holds its hand
//! for gin, like `expert`), with the low holders between. It starts from a prior over the eleven
//! thresholds (`prior_knocks` at 10, `prior_holds` at 0, `prior_between` spread over 1 to 9), and
//! each observation weighs down the thresholds it contradicts: a knock with deadwood d after the
//! first turns says the threshold is at least d; the hand the opponent shows at a showdown after
//! our knock, which it kept after its last discard without knocking, says it is below that hand's
//! deadwood. Each future draws a threshold by those weights together with the opponent's hand,
//! and draws both again while they disagree (a hand it would have knocked with): so a threshold
//! loses weight the longer the opponent goes without knocking. The futures' opponent then plays
//! by that threshold, with a bot's policies at 10 and a gin hunter's below.
//!
//! The futures' estimates are biased, and not by a constant. A knock is therefore decided by a
//! learned [`calibration`]: a linear model over the two estimates (knock now, play on) and what
//! the table shows, trained by self-play on counterfactuals (`cargo xtask train-knock`) and
//! shipped as a small data file.
//! With `calibrated=false`, or without usable weights, a knock must beat playing on by
//! `knock_margin` instead.
//!
//! `mc-fast` searches only the knock: at its 200 futures the discard and draw searches lose
//! games, as the rival discards differ by far less than one future's noise and the playouts'
//! plain policies undo what the expert keeps a hand for. `mc`, with ten times the futures, also
//! searches the discard among the expert's best few, and overrules the expert only for a rival
//! that wins 0.01 of a game more (`margin`); that wins it games against `mc-fast` and the other
//! styles (docs/research/code-notes.md). The draw search stays off in both.
//!
//! The futures are split into fixed chunks with their own seeds, so the choice is the same for any
//! number of threads.

pub mod calibration;
mod odds;
mod playout;

use std::time::{Duration, Instant};

use gin_cards::random::{self, GinRng};
use gin_cards::{Card, CardSet};
use gin_engine::{Action, Agent, Deal, Decision, Event, Phase, PlayerView};
use gin_rules::settings::{Kind, Setting, SettingError, Settings};
use gin_rules::{KnockKind, Player, Ruleset, Showing};

use crate::picks::Picks;
use crate::{Advisor, ExpertAgent, ExpertParams, Hint, Reason};
use calibration::{KnockCalibration, KnockCase, KnockDecision};
use odds::WinOdds;
use playout::{Style, Table};

const GAIN: Kind = Kind::Float { min: -1.0, max: 1.0 };
const EVIDENCE: Kind = Kind::Float { min: 0.0, max: 1000.0 };

gin_rules::settings_struct! {
    /// The settings of the search, listed with their ranges and meanings in [`Settings::table`]. A
    /// JSON file (`--param FILE`) or the agent spec (`mc:samples=500,threads=2`) may override any of
    /// them by name.
    #[derive(Clone, Debug, PartialEq)]
    pub struct McParams {
        /// Futures sampled per decision (rounded up to a multiple of 8).
        samples: u32 = Kind::Int { min: 0, max: 1_000_000 },
        /// A time budget per decision in milliseconds, instead of `samples` (0: use `samples`). With a
        /// budget the number of futures depends on the machine, so choices are no longer reproducible.
        ms: u32 = Kind::Int { min: 0, max: 60_000 },
        /// Threads that share the futures of one decision (the choice does not depend on it).
        threads: u32 = Kind::Int { min: 1, max: 256 },
        /// Search the choice between the pile's top and the stock.
        search_draws: bool = Kind::Bool,
        /// Search the discard among the expert's best few.
        search_discards: bool = Kind::Bool,
        /// How many of the expert's best discards the discard search weighs.
        discard_candidates: u32 = Kind::Int { min: 1, max: 8 },
        /// The gain in the chance of winning the game that a rival needs to overrule the expert's
        /// choice (knocks are never held to it: their value is exact in each future).
        margin: f64 = GAIN,
        /// The gain in the chance of winning the game that a knock needs over playing on. The
        /// futures' errors favour knocks (the knocks chosen are those the futures overrate), and
        /// against `simple` knocking at all rarely pays: 0.05 lets through mainly the knocks that
        /// settle a game.
        knock_margin: f64 = GAIN,
        /// Prior weight of an opponent who knocks at once (the most deadwood it knocks with is 10).
        prior_knocks: f64 = EVIDENCE,
        /// Prior weight of an opponent who holds knockable hands for gin (knocks with 0).
        prior_holds: f64 = EVIDENCE,
        /// Prior weight of the thresholds between, 1 to 9 (spread evenly): players who knock with
        /// little deadwood and hold on otherwise.
        prior_between: f64 = EVIDENCE,
        /// How strongly one observation speaks: a threshold it contradicts keeps 1 / (1 + evidence)
        /// of its weight.
        evidence: f64 = EVIDENCE,
        /// Decide knocks by the learned calibration of the search's estimates
        /// (`crates/ai/data/knock-calibration.json`) instead of `knock_margin`.
        calibrated: bool = Kind::Bool,
        /// The share of this game's hands that the opponent ended by knocking (not by gin) above
        /// which the expert's discards look only one draw ahead, whatever its `outlook_depth`: against
        /// a player who knocks at once the hand rarely lasts two more draws (1: never).
        one_draw_share: f64 = Kind::Float { min: 0.0, max: 1.0 },
    }
}

impl McParams {
    /// The `mc` level: the default for play, about 2,000 futures per decision, and the discard
    /// searched among the expert's best few (a rival must win 0.01 of a game more to overrule it).
    pub fn strong() -> McParams {
        McParams { samples: 2000, search_discards: true, margin: 0.01, ..McParams::fast() }
    }

    /// The `mc-fast` level: about 200 futures per decision.
    pub fn fast() -> McParams {
        McParams {
            samples: 200,
            ms: 0,
            threads: 1,
            search_draws: false,
            search_discards: false,
            discard_candidates: 3,
            margin: 0.0,
            knock_margin: 0.05,
            prior_knocks: 1.0,
            prior_holds: 4.0,
            prior_between: 0.0,
            evidence: 20.0,
            calibrated: true,
            one_draw_share: 0.5,
        }
    }
}

impl Settings for McParams {
    fn table() -> &'static [Setting<McParams>] {
        McParams::settings_table()
    }

    fn check_together(&self) -> Result<(), SettingError> {
        if self.samples == 0 && self.ms == 0 {
            return Err(SettingError::Conflict("the search needs `samples` or `ms` above 0"));
        }
        Ok(())
    }
}

impl Default for McParams {
    fn default() -> McParams {
        McParams::strong()
    }
}

/// The most candidates one decision weighs.
const MAX_CANDIDATES: usize = 8;
/// The most virtual turns that shape a sampled opponent hand.
const MAX_FORM_TURNS: usize = 12;
/// Futures per chunk: the unit of work of a thread, each with its own seed.
const CHUNK: u32 = 8;

/// An action the search weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Candidate {
    /// Knock (or go gin), discarding this card.
    Knock(Card),
    /// Discard this card and play on.
    Discard(Card),
    /// Take the pile's top.
    TakePile,
    /// Draw from the stock.
    DrawStock,
}

/// The expert's choices, searched: see the module documentation.
#[derive(Clone, Debug)]
pub struct McAgent {
    name: &'static str,
    params: McParams,
    expert: ExpertAgent,
    rng: GinRng,
    /// The game's seed for this agent; each decision reseeds `rng` from it
    /// ([`PlayerView::decision_seed`]), so a choice never depends on the ones before.
    seed: u64,
    rules: Ruleset,
    odds: WinOdds,
    seat: Player,
    /// The current hand's knock limit.
    knock_limit: u32,
    /// What this game has shown of the opponent's knock threshold (the most deadwood it knocks
    /// with, 0 to 10): a factor per threshold on the prior, from the deadwood of its knocks and of
    /// the hands it held on to at showdowns.
    opponent_threshold: [f64; THRESHOLDS],
    /// This game's hands so far, and how many of them the opponent ended by knocking (not gin).
    hands: u32,
    opponent_knocks: u32,
    /// The learned knock decision, when `calibrated` and the weights file is usable.
    calibration: Option<KnockCalibration>,
    /// The last decision's knock case, with the knock's discard and the play-on discard: what
    /// the training plays out both ways.
    last_knock: Option<(KnockCase, Card, Card)>,
}

/// The knock thresholds the opponent model tells apart: 0 (gin only) to 10.
const THRESHOLDS: usize = 11;

impl McAgent {
    /// An agent reported as `name`, with these settings, over an expert with `expert` parameters.
    pub fn new(name: &'static str, params: McParams, expert: ExpertParams) -> McAgent {
        let rules = Ruleset::eaai();
        McAgent {
            name,
            expert: ExpertAgent::new(expert),
            rng: random::seeded_rng(0),
            seed: 0,
            odds: WinOdds::new(&rules),
            rules,
            seat: Player::One,
            knock_limit: 10,
            opponent_threshold: [1.0; THRESHOLDS],
            hands: 0,
            opponent_knocks: 0,
            calibration: if params.calibrated { KnockCalibration::shipped() } else { None },
            last_knock: None,
            params,
        }
    }

    /// Whether knocks are decided by the learned calibration (the setting is on and the weights
    /// file is usable).
    pub fn is_calibrated(&self) -> bool {
        self.calibration.is_some()
    }

    /// The last decision's knock case, if it weighed a knock against playing on.
    #[cfg(test)]
    fn last_knock_case(&self) -> Option<(KnockCase, Card, Card)> {
        self.last_knock
    }

    /// The knock decision of its last choice, if that choice weighed a knock against playing on:
    /// the two discards and the features the knock calibration is trained on
    /// (`cargo xtask train-knock`).
    pub fn last_knock(&self) -> Option<KnockDecision> {
        self.last_knock.map(|(case, knock, play_on)| KnockDecision { knock, play_on, features: case.features() })
    }

    /// The cards it lays down when it knocks from `view` discarding `discard`, whether or not it
    /// chose that knock: the expert's arrangement that offers the least to lay off (`None`: the
    /// referee's choice).
    pub fn knock_showing(&self, view: &PlayerView<'_>, discard: Card) -> Option<Showing> {
        self.expert.knock_showing(view, discard)
    }

    /// The chance of winning the game, as the search values a hand's end, from a score of `mine`
    /// to `theirs` once a hand scores `points` for this player (negative: for the opponent),
    /// under the rules of its current game.
    pub fn win_chance(&self, mine: u32, theirs: u32, points: i32) -> f64 {
        self.odds.after(mine, theirs, points)
    }

    /// Its settings.
    pub fn params(&self) -> &McParams {
        &self.params
    }

    /// The parameters of the expert it searches over.
    pub fn expert_params(&self) -> &ExpertParams {
        self.expert.params()
    }

    /// The weight of each knock threshold, prior and evidence together (not normalized).
    fn threshold_weights(&self) -> [f64; THRESHOLDS] {
        let p = &self.params;
        let between = p.prior_between.max(0.0) / (THRESHOLDS - 2) as f64;
        let mut weights: [f64; THRESHOLDS] = std::array::from_fn(|t| match t {
            0 => p.prior_holds.max(0.0),
            10 => p.prior_knocks.max(0.0),
            _ => between,
        });
        for (weight, factor) in weights.iter_mut().zip(&self.opponent_threshold) {
            *weight *= factor;
        }
        if weights.iter().sum::<f64>() <= 0.0 {
            // Nothing believed (all priors 0, or evidence against all): every threshold alike.
            weights = [1.0; THRESHOLDS];
        }
        weights
    }

    /// Whether the opponent has ended more than `one_draw_share` of this game's hands by
    /// knocking, counting a prior of two hands of which it knocked in half of one.
    fn opponent_knocks_at_once(&self) -> bool {
        (f64::from(self.opponent_knocks) + 0.5) / (f64::from(self.hands) + 2.0) > self.params.one_draw_share
    }

    /// Weighs down the thresholds an observation contradicts (`contradicts(t)`).
    fn observe_threshold(&mut self, contradicts: impl Fn(u32) -> bool) {
        let keep = 1.0 / (1.0 + self.params.evidence.max(0.0));
        for (t, factor) in (0u32..).zip(self.opponent_threshold.iter_mut()) {
            if contradicts(t) {
                *factor *= keep;
            }
        }
    }

    /// The candidates at this decision, the expert's choice first; `None` when there is nothing
    /// to search.
    fn candidates(&self, view: &PlayerView<'_>, legal: &[Action], base: Action) -> Option<Vec<Candidate>> {
        let mut list = Vec::with_capacity(MAX_CANDIDATES);
        match view.phase {
            Phase::Discard => {
                let solver = self.rules.solver();
                let knocks: CardSet = legal
                    .iter()
                    .filter_map(|a| match a {
                        Action::Knock { discard } => Some(*discard),
                        _ => None,
                    })
                    .collect();
                // Gin and big gin are not searched. The expert's ranking of the discards (two
                // draws ahead inside `mc`, the costly part) only where it is used.
                let gin = |discard: Card| solver.min_deadwood(view.hand.without(discard)) == 0;
                let ranked = match base {
                    Action::BigGin => return None,
                    Action::Knock { discard } if gin(discard) => return None,
                    Action::Knock { .. } => self.expert.ranked_discards(view, legal),
                    _ if self.params.search_discards => self.expert.ranked_discards(view, legal),
                    _ => Vec::new(),
                };
                match base {
                    Action::Knock { discard } => {
                        list.push(Candidate::Knock(discard));
                        list.extend(ranked.first().map(|&(_, card)| Candidate::Discard(card)));
                    }
                    Action::Discard { card } => {
                        list.push(Candidate::Discard(card));
                        // The knock that leaves the least deadwood, shedding the highest card.
                        let best = knocks
                            .iter()
                            .map(|card| (solver.min_deadwood(view.hand.without(card)), card))
                            .min_by_key(|&(deadwood, card)| (deadwood, u8::MAX - card.value()));
                        list.extend(best.map(|(_, card)| Candidate::Knock(card)));
                    }
                    _ => return None,
                }
                if self.params.search_discards {
                    for &(_, card) in ranked.iter().take(self.params.discard_candidates as usize) {
                        if list.len() < MAX_CANDIDATES && !list.contains(&Candidate::Discard(card)) {
                            list.push(Candidate::Discard(card));
                        }
                    }
                }
            }
            Phase::Draw if self.params.search_draws && legal.contains(&Action::DrawPile) => {
                if base == Action::DrawPile {
                    list.extend([Candidate::TakePile, Candidate::DrawStock]);
                } else {
                    list.extend([Candidate::DrawStock, Candidate::TakePile]);
                }
            }
            _ => return None,
        }
        (list.len() > 1).then_some(list)
    }

    /// Searches `candidates` and returns the one to play, and the mean value of each (the chance
    /// of winning the game, less the knock margin for knocks). With a calibration, a knock is
    /// weighed against the expert's discard by the learned gain instead.
    fn search(
        &mut self,
        view: &PlayerView<'_>,
        candidates: &[Candidate],
    ) -> Option<(Candidate, [f64; MAX_CANDIDATES])> {
        let seed = random::below(&mut self.rng, u64::MAX);
        let search = self.prepare(view, candidates)?;
        let means = search.run(seed, &self.params);
        // The expert's choice (first) stands unless a rival beats it by the margin; knocks are
        // compared without it.
        let is_knock = |c: &Candidate| matches!(c, Candidate::Knock(_));
        let pick = |indices: &mut dyn Iterator<Item = usize>| {
            let first = indices.next()?;
            Some(indices.fold(first, |best, i| {
                let margin =
                    if is_knock(&candidates[i]) || is_knock(&candidates[best]) { 0.0 } else { self.params.margin };
                if means[i] > means[best] + margin { i } else { best }
            }))
        };
        let best = pick(&mut (0..candidates.len()))?;
        let knock = candidates.iter().position(is_knock);
        let play_on = candidates.iter().position(|c| matches!(c, Candidate::Discard(_)));
        if let (Some(k), Some(p)) = (knock, play_on)
            && let (Candidate::Knock(knock_card), Candidate::Discard(play_on_card)) = (candidates[k], candidates[p])
        {
            let weights = self.threshold_weights();
            let deadwood = view.rules.solver().min_deadwood(view.hand.without(knock_card));
            let below: f64 = weights[..(deadwood as usize).min(THRESHOLDS)].iter().sum();
            let me = view.seat;
            let case = KnockCase {
                // The futures took the margin off each knock; added back, rounding may leave a
                // chance a hair above 1.
                knock: (means[k] + self.params.knock_margin).clamp(0.0, 1.0),
                play_on: means[p],
                deadwood,
                stock: view.stock_size,
                opponent_turns: self.expert.tracker().opponent_discarded().len(),
                threshold_below: below / weights.iter().sum::<f64>(),
                expert_knocks: k == 0,
                mine: view.score.points[me],
                theirs: view.score.points[me.opponent()],
            };
            self.last_knock = Some((case, knock_card, play_on_card));
            if let Some(calibration) = &self.calibration {
                let choice = if calibration.gain(&case) > 0.0 {
                    k
                } else {
                    pick(&mut (0..candidates.len()).filter(|&i| !is_knock(&candidates[i])))?
                };
                return Some((candidates[choice], means));
            }
        }
        Some((candidates[best], means))
    }

    /// The choice, with the expert's reasons and the search's in `why` when asked for.
    fn decide(&mut self, view: &PlayerView<'_>, legal: &[Action], mut why: Option<&mut Vec<Reason>>) -> Action {
        self.rng = random::seeded_rng(view.decision_seed(self.seed));
        self.last_knock = None;
        self.expert.look_one_draw(self.opponent_knocks_at_once());
        let base = match why {
            Some(_) => {
                let hint = self.expert.advise(view, legal);
                if let Some(why) = why.as_deref_mut() {
                    why.extend(hint.reasons);
                }
                hint.action
            }
            None => self.expert.pick(view, legal),
        };
        let Some(candidates) = self.candidates(view, legal, base) else {
            return base;
        };
        let Some((choice, means)) = self.search(view, &candidates) else {
            return base;
        };
        if let Some(why) = why {
            if let Some((case, discard, _)) = self.last_knock {
                let knocks = matches!(choice, Candidate::Knock(_));
                let learned = self.calibration.as_ref().map(|calibration| calibration.gain(&case));
                why.push(Reason::Search { discard, knock: case.knock, play_on: case.play_on, knocks, learned });
            }
            if let (Candidate::Discard(expert), Candidate::Discard(card)) = (candidates[0], choice)
                && card != expert
                && let Some(i) = candidates.iter().position(|&c| c == choice)
            {
                why.push(Reason::SearchDiscard { card, value: means[i], expert, expert_value: means[0] });
            }
        }
        if choice == candidates[0] {
            return base;
        }
        let action = match choice {
            Candidate::Knock(card) => Action::knock(card),
            Candidate::Discard(card) => Action::Discard { card },
            Candidate::TakePile => Action::DrawPile,
            Candidate::DrawStock => Action::DrawStock,
        };
        if legal.contains(&action) { action } else { base }
    }

    /// Everything a search of `candidates` at this decision draws its futures from; `None` when
    /// the view does not add up (nothing to search).
    fn prepare<'a>(&'a self, view: &'a PlayerView<'a>, candidates: &'a [Candidate]) -> Option<Search<'a>> {
        let (unseen, chances) = self.expert.opponent_odds(view);
        let opponent_unknown = view.opponent_cards.checked_sub(view.opponent_known.len())?;
        if unseen.len() != opponent_unknown + view.stock_size {
            return None;
        }
        let mut pool = [Card::new(gin_cards::Rank::Ace, gin_cards::Suit::Clubs); 52];
        let mut weights = [0.0; 52];
        for (i, card) in unseen.iter().enumerate() {
            pool[i] = card;
            weights[i] = chances[usize::from(card.bit())].max(1e-3);
        }
        let me = view.seat;
        // The view must deal: one filling of its hidden cards is checked here, and every future
        // fills the same places with the same number of cards. This is not `PlayerView::check`
        // (which a host runs on a view it was sent): that one fills the hidden cards in card
        // order and compares the legal actions; this one checks the search's own filling, the
        // pool its futures are drawn from, and nothing else.
        let stock_len = unseen.len() - opponent_unknown;
        let trial = view.opponent_known | pool[stock_len..unseen.len()].iter().copied().collect::<CardSet>();
        Deal::from_view(view, trial, &pool[..stock_len], 0).ok()?;
        Some(Search {
            table: Table { rules: view.rules, solver: view.rules.solver(), me },
            odds: &self.odds,
            view,
            pool,
            weights,
            pool_len: unseen.len(),
            opponent_known: view.opponent_known,
            opponent_unknown,
            thresholds: self.threshold_weights(),
            knock_margin: self.params.knock_margin,
            opponent_has_played: !self.expert.tracker().opponent_discarded().is_empty(),
            opponent_turns: self.expert.tracker().opponent_discarded().len(),
            scores: (view.score.points[me], view.score.points[me.opponent()]),
            candidates,
        })
    }

    /// Learns from a showdown what kind of player the opponent is.
    fn learn(&mut self, event: &Event) {
        let solver = self.rules.solver();
        if let Event::Knocked { player, kind: KnockKind::Knock, .. } = event
            && *player != self.seat
        {
            self.opponent_knocks += 1;
        }
        if let Event::HandEnded { .. } = event {
            self.hands += 1;
        }
        match event {
            // A knock with deadwood d (after the first turns, when some players knock with
            // anything): its threshold is at least d.
            Event::Knocked { player, shown, kind: KnockKind::Knock, .. }
                if *player != self.seat && shown.deadwood() > 0 && self.expert.tracker().draws() >= 4 =>
            {
                let deadwood = shown.deadwood();
                self.observe_threshold(|t| t < deadwood);
            }
            // The hand it held when we knocked is the one it kept after its last discard: it did
            // not knock with that deadwood, so its threshold is below it.
            Event::HandEnded { showdown: Some(showdown), .. } if showdown.knocker == self.seat => {
                let cards = showdown.shown[showdown.defender()].hand();
                let played = !self.expert.tracker().opponent_discarded().is_empty();
                let deadwood = solver.min_deadwood(cards);
                if played && cards.len() == 10 && deadwood <= self.knock_limit {
                    self.observe_threshold(|t| t >= deadwood);
                }
            }
            _ => {}
        }
    }
}

/// One decision's search: everything the futures are drawn from, shared by the threads.
struct Search<'a> {
    table: Table<'a>,
    odds: &'a WinOdds,
    /// The position searched: every future is it with its hidden cards filled in.
    view: &'a PlayerView<'a>,
    /// The unseen cards (the opponent's unknown cards and the stock) and the chance of each being
    /// in the opponent's hand.
    pool: [Card; 52],
    weights: [f64; 52],
    pool_len: usize,
    opponent_known: CardSet,
    opponent_unknown: usize,
    /// The weight of each knock threshold of the opponent (0 to 10).
    thresholds: [f64; THRESHOLDS],
    knock_margin: f64,
    opponent_has_played: bool,
    /// The opponent's discards this hand: the turns its hand has been shaped by play.
    opponent_turns: usize,
    scores: (u32, u32),
    candidates: &'a [Candidate],
}

/// A uniform draw from [0, 1).
fn unit(rng: &mut GinRng) -> f64 {
    random::below(rng, 1 << 53) as f64 / (1u64 << 53) as f64
}

impl Search<'_> {
    /// The mean value of each candidate over the futures.
    fn run(&self, seed: u64, params: &McParams) -> [f64; MAX_CANDIDATES] {
        let threads = params.threads.max(1) as usize;
        let deadline = (params.ms > 0).then(|| Instant::now() + Duration::from_millis(u64::from(params.ms)));
        let planned = if deadline.is_some() { u32::MAX / CHUNK } else { params.samples.div_ceil(CHUNK).max(1) };
        let mut totals = [0.0; MAX_CANDIDATES];
        let mut futures = 0u64;
        let mut next = 0u32;
        // Rounds of chunks; a time budget is checked between rounds.
        let round = if deadline.is_some() { threads as u32 * 2 } else { planned };
        while next < planned {
            let end = (next + round).min(planned);
            let chunks: Vec<u32> = (next..end).collect();
            let results = self.chunks(seed, &chunks, threads);
            for (sums, played) in results {
                for (total, sum) in totals.iter_mut().zip(sums) {
                    *total += sum;
                }
                futures += u64::from(played);
            }
            next = end;
            if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                break;
            }
        }
        totals.map(|total| total / futures.max(1) as f64)
    }

    /// The sums of each candidate's value over these chunks, in the chunks' order.
    fn chunks(&self, seed: u64, chunks: &[u32], threads: usize) -> Vec<([f64; MAX_CANDIDATES], u32)> {
        if threads <= 1 || chunks.len() <= 1 {
            return chunks.iter().map(|&chunk| self.chunk(random::derive_seed(seed, u64::from(chunk)))).collect();
        }
        let mut results = vec![([0.0; MAX_CANDIDATES], 0); chunks.len()];
        std::thread::scope(|scope| {
            let per = chunks.len().div_ceil(threads);
            for (slots, ids) in results.chunks_mut(per).zip(chunks.chunks(per)) {
                scope.spawn(move || {
                    for (slot, &chunk) in slots.iter_mut().zip(ids) {
                        *slot = self.chunk(random::derive_seed(seed, u64::from(chunk)));
                    }
                });
            }
        });
        results
    }

    /// The sums of each candidate's value over one chunk of futures, and how many futures were
    /// played (all of them, unless a future failed to deal, which `prepare` rules out).
    fn chunk(&self, seed: u64) -> ([f64; MAX_CANDIDATES], u32) {
        let mut rng = random::seeded_rng(seed);
        let mut sums = [0.0; MAX_CANDIDATES];
        let mut played = 0;
        for _ in 0..CHUNK {
            let Some((deal, style)) = self.sample(&mut rng) else { continue };
            played += 1;
            let styles = [Style::GIN_HUNTER, style];
            let rollout = rng.clone();
            for (sum, &candidate) in sums.iter_mut().zip(self.candidates) {
                let mut deal = deal;
                let mut rng = rollout.clone();
                let points = self.play(candidate, &mut deal, styles, &mut rng);
                *sum += self.odds.after(self.scores.0, self.scores.1, points);
                if matches!(candidate, Candidate::Knock(_)) {
                    *sum -= self.knock_margin;
                }
            }
            // Move the shared stream on, so the next future differs.
            random::below(&mut rng, 2);
        }
        (sums, played)
    }

    /// The points one candidate ends the hand with in one future, played on the referee's deal.
    fn play(&self, candidate: Candidate, deal: &mut Deal, styles: [Style; 2], rng: &mut GinRng) -> i32 {
        let t = &self.table;
        match candidate {
            Candidate::Knock(card) => {
                deal.play_unchecked(t.rules, t.me, Action::knock(card));
                if let Some(defender) = deal.to_act() {
                    deal.play_unchecked(t.rules, defender, Action::LayOff);
                }
                t.points(deal)
            }
            Candidate::Discard(card) => {
                deal.play_unchecked(t.rules, t.me, Action::Discard { card });
                t.play_out(deal, None, styles, rng)
            }
            Candidate::TakePile => t.play_out(deal, Some(true), styles, rng),
            Candidate::DrawStock => t.play_out(deal, Some(false), styles, rng),
        }
    }

    /// The virtual turns that shape a sampled opponent hand: one per discard the opponent has
    /// made this hand, whatever its style, up to [`MAX_FORM_TURNS`]. More turns make the sampled
    /// hands' deadwood match the real hands' on average, yet cost games: the knock margin (or the
    /// calibration) already stands between the futures' error and the truth
    /// (docs/research/code-notes.md).
    fn form_turns(&self) -> usize {
        self.opponent_turns.min(MAX_FORM_TURNS)
    }

    /// A knock threshold drawn by its weight.
    fn threshold(&self, rng: &mut GinRng) -> u32 {
        let total: f64 = self.thresholds.iter().sum();
        let mut at = unit(rng) * total;
        for (t, &weight) in (0u32..).zip(&self.thresholds) {
            if at < weight {
                return t;
            }
            at -= weight;
        }
        THRESHOLDS as u32 - 1
    }

    /// One future: the opponent's style, its hand and the stock's order.
    fn sample(&self, rng: &mut GinRng) -> Option<(Deal, Style)> {
        let mut pool = self.pool;
        let mut opponent = self.opponent_known;
        let mut style = Style::GIN_HUNTER;
        // Style and hand are drawn together, and drawn again when they disagree: a style that
        // rarely leaves a hand like the one the opponent must hold loses weight, as it should.
        for attempt in 0..16 {
            style = Style::knocking_with(self.threshold(rng));
            pool = self.pool;
            let mut weights = self.weights;
            let mut len = self.pool_len;
            let mut hand = self.opponent_known;
            for _ in 0..self.opponent_unknown {
                let total: f64 = weights[..len].iter().sum();
                let mut at = unit(rng) * total;
                let mut pick = len - 1;
                for (i, &w) in weights[..len].iter().enumerate() {
                    if at < w {
                        pick = i;
                        break;
                    }
                    at -= w;
                }
                hand.insert(pool[pick]);
                len -= 1;
                pool.swap(pick, len);
                weights.swap(pick, len);
            }
            // A hand played for some turns is built of melds: shape the sampled one the same way.
            let stock_len = self.pool_len - self.opponent_unknown;
            hand = self.table.form(
                style,
                hand,
                self.opponent_known,
                &mut pool[..stock_len],
                |_| 1.0,
                self.form_turns(),
                rng,
            );
            opponent = hand;
            // The hand must agree with the style: after its first discard a player holds no hand
            // it would have knocked with (a player who knocks at once, no knockable hand), and
            // nobody sits on gin.
            let deadwood = self.table.solver.min_deadwood(hand);
            let fits = deadwood > style.knock_max.min(self.view.knock_limit);
            if !self.opponent_has_played || fits || attempt == 15 {
                break;
            }
        }
        // The rest, shuffled, is the stock; a rebuilt stock (the `reshuffle` rule) takes its seed
        // from the stream without moving it on.
        let stock = &mut pool[..self.pool_len - self.opponent_unknown];
        random::shuffle(rng, stock);
        debug_assert_eq!(stock.len(), self.view.stock_size);
        let shuffle_seed = random::below(&mut rng.clone(), u64::MAX);
        let deal = Deal::from_view(self.view, opponent, stock, shuffle_seed).ok()?;
        Some((deal, style))
    }
}

impl Advisor for McAgent {
    fn advise(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Hint {
        let mut reasons = Vec::new();
        let action = self.decide(view, legal, Some(&mut reasons));
        // The search's verdicts come first: they overrule the expert's knock decision and discard.
        reasons.sort_by_key(|reason| !matches!(reason, Reason::Search { .. } | Reason::SearchDiscard { .. }));
        Hint { action, reasons }
    }
}

impl Agent for McAgent {
    fn name(&self) -> &str {
        self.name
    }

    fn start_game(&mut self, seat: Player, rules: &Ruleset, seed: u64) {
        self.expert.start_game(seat, rules, random::derive_seed(seed, 1));
        self.seed = seed;
        if *rules != self.rules {
            self.odds = WinOdds::new(rules);
            self.rules = rules.clone();
        }
        self.seat = seat;
        self.opponent_threshold = [1.0; THRESHOLDS];
        (self.hands, self.opponent_knocks) = (0, 0);
    }

    fn observe(&mut self, event: &Event) {
        if let Event::HandStarted { knock_limit, .. } = event {
            self.knock_limit = *knock_limit;
        }
        // Learn before the expert's tracker forgets the hand.
        self.learn(event);
        self.expert.observe(event);
    }

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Decision {
        crate::picks::decide(self, view, legal)
    }
}
impl Picks for McAgent {
    /// The action this agent plays from `view`, one of `legal`.
    fn pick(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Action {
        self.decide(view, legal, None)
    }

    /// A knock shows the expert's arrangement, the one that offers the least to lay off.
    fn shown(&mut self, view: &PlayerView<'_>, action: Action) -> Option<Showing> {
        self.expert.shown(view, action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::play_watched;
    use gin_engine::{MAX_HANDS, RunOptions, play_game};
    use gin_rules::ByPlayer;

    #[test]
    fn the_opponent_model_narrows_the_knock_threshold_with_what_it_sees() {
        let params = McParams { prior_knocks: 1.0, prior_holds: 1.0, prior_between: 9.0, ..McParams::fast() };
        let mut agent = McAgent::new("mc-fast", params, ExpertParams::default());
        let share = |agent: &McAgent, range: std::ops::RangeInclusive<usize>| {
            let weights = agent.threshold_weights();
            weights[range].iter().sum::<f64>() / weights.iter().sum::<f64>()
        };
        // Every threshold 1 to 9 weighs one, as much as each end.
        assert!((share(&agent, 0..=10) - 1.0).abs() < 1e-12);
        assert!((share(&agent, 4..=4) - 1.0 / 11.0).abs() < 1e-12);
        // It knocked with 6: thresholds below 6 are unlikely now.
        agent.observe_threshold(|t| t < 6);
        assert!(share(&agent, 6..=10) > 0.9, "{:?}", agent.threshold_weights());
        // At a showdown it held 8 without knocking: the threshold is 6 or 7.
        agent.observe_threshold(|t| t >= 8);
        assert!(share(&agent, 6..=7) > 0.8, "{:?}", agent.threshold_weights());
        // A new game forgets it.
        agent.start_game(Player::One, &Ruleset::eaai(), 1);
        assert!((share(&agent, 4..=4) - 1.0 / 11.0).abs() < 1e-12);
        // With no prior weight at all, every threshold is alike rather than none.
        let none = McParams { prior_knocks: 0.0, prior_holds: 0.0, prior_between: 0.0, ..McParams::fast() };
        let agent = McAgent::new("mc-fast", none, ExpertParams::default());
        assert_eq!(agent.threshold_weights(), [1.0; THRESHOLDS]);
    }

    /// Against a player who knocks at once the expert inside `mc` stops looking two draws ahead
    /// once the game has shown it; against a gin hunter it keeps looking.
    #[test]
    fn the_discards_look_one_draw_ahead_against_a_player_who_knocks_at_once() {
        let rules = Ruleset::eaai();
        for (opponent, knocks_at_once) in [("simple", true), ("expert", false)] {
            let params = McParams { samples: 16, ..McParams::strong() };
            let mut mc = McAgent::new("mc", params, ExpertParams::deep());
            let registry = crate::registry::AgentParams::default();
            let mut other = crate::registry::build(&opponent.parse().unwrap(), &registry).unwrap();
            let (mut deep, mut shallow) = (0, 0);
            play_watched(&rules, 3, &mut mc, other.as_mut(), MAX_HANDS, |mc, view, legal| {
                let hint = mc.clone().advise(view, legal);
                for reason in &hint.reasons {
                    if let Reason::Discard { ahead, .. } = reason {
                        // Two draws ahead exactly while the opponent has not shown it knocks at once.
                        assert_eq!(ahead.is_some(), !mc.opponent_knocks_at_once(), "{opponent}: {hint:?}");
                        *if ahead.is_some() { &mut deep } else { &mut shallow } += 1;
                    }
                }
                mc.pick(view, legal)
            });
            assert!(mc.hands >= 2, "{opponent}: {} hands", mc.hands);
            assert!(deep > 0, "{opponent}: the first hand looks two draws ahead");
            assert_eq!(
                mc.opponent_knocks_at_once(),
                knocks_at_once,
                "{opponent}: {} of {}",
                mc.opponent_knocks,
                mc.hands
            );
            assert_eq!(shallow > 0, knocks_at_once, "{opponent}");
            // A new game forgets it.
            mc.start_game(Player::One, &rules, 5);
            assert!(!mc.opponent_knocks_at_once());
        }
    }

    #[test]
    fn settings_are_read_by_name_and_checked() {
        let mut params = McParams::fast();
        params.set_text("samples", "64").unwrap();
        params.set_text("search_draws", "true").unwrap();
        assert_eq!((params.samples, params.search_draws), (64, true));
        let err = |name: &str, text: &str| McParams::fast().set_text(name, text).unwrap_err().to_string();
        assert!(err("sample", "64").starts_with("unknown setting `sample`; valid settings: samples, ms,"));
        assert_eq!(
            err("samples", "many"),
            r#"setting `samples` expects a whole number from 0 to 1000000, found "many""#
        );
        assert_eq!(err("threads", "0"), "setting `threads` must be from 1 to 256, found 0");
        assert_eq!(err("samples", "0"), "the search needs `samples` or `ms` above 0");
        params.set_text("ms", "5").unwrap();
        params.set_text("samples", "0").unwrap();
        assert_eq!((params.ms, params.samples), (5, 0));
        McParams::fast().validate().unwrap();
        McParams::strong().validate().unwrap();
    }

    fn play(params: McParams, seed: u64) -> gin_engine::GameRecord {
        let rules = Ruleset::eaai();
        let mut mc = McAgent::new("mc", params, ExpertParams::default());
        let mut simple = crate::SimpleAgent::default();
        play_game(&rules, seed, ByPlayer([&mut mc as &mut dyn Agent, &mut simple]), RunOptions::default())
    }

    #[test]
    fn the_hint_is_the_move_and_says_when_the_search_knocks_or_overrules_a_discard() {
        let rules = Ruleset::eaai();
        let (mut searched, mut knocks, mut overruled) = (0, 0, 0);
        for (seed, search_discards) in (0..8).zip([false, true].into_iter().cycle()) {
            let params = McParams { samples: 48, search_discards, margin: 0.01, ..McParams::fast() };
            let mut mc = McAgent::new("mc-fast", params, ExpertParams::default());
            let mut simple = crate::SimpleAgent::default();
            play_watched(&rules, seed, &mut mc, &mut simple, MAX_HANDS, |mc, view, legal| {
                let hint = mc.clone().advise(view, legal);
                let action = mc.pick(view, legal);
                assert_eq!(hint.action, action, "seed {seed}: {hint:?}");
                let expert = mc.expert.clone().pick(view, legal);
                // A discard the search prefers to the expert's says so, among the search's reasons
                // (first), with both figures.
                let is_search = |r: &&Reason| matches!(r, Reason::Search { .. } | Reason::SearchDiscard { .. });
                let overrule = hint.reasons.iter().take_while(is_search).find_map(|r| match *r {
                    Reason::SearchDiscard { card, value, expert, expert_value } => {
                        Some((card, value, expert, expert_value))
                    }
                    _ => None,
                });
                assert_eq!(
                    overrule.is_some(),
                    hint.reasons.iter().any(|r| matches!(r, Reason::SearchDiscard { .. })),
                    "{hint:?}"
                );
                match overrule {
                    Some((card, value, first, expert_value)) => {
                        assert!(search_discards, "seed {seed}: {hint:?}");
                        assert_eq!((action, expert), (Action::Discard { card }, Action::Discard { card: first }));
                        assert!(value > expert_value + 0.01, "{hint:?}");
                        overruled += 1;
                    }
                    None if matches!(action, Action::Discard { .. }) => assert_eq!(action, expert, "{hint:?}"),
                    None => {}
                }
                if let Some(&Reason::Search { discard, knock, play_on, knocks: knocked, learned }) =
                    hint.reasons.first().filter(|r| matches!(r, Reason::Search { .. }))
                {
                    searched += 1;
                    assert!((0.0..=1.0).contains(&knock) && (0.0..=1.0).contains(&play_on), "{hint:?}");
                    assert_eq!(knocked, action == Action::knock(discard), "{hint:?}");
                    // The calibration decided, and the hint gives its figure.
                    assert_eq!(learned.map(|gain| gain > 0.0), Some(knocked), "{hint:?}");
                    knocks += usize::from(knocked);
                }
                action
            });
        }
        assert!(searched > 5 && knocks > 0, "{searched} searched decisions, {knocks} knocks");
        assert!(overruled > 0, "the discard search never overruled the expert");
    }

    #[test]
    fn knocks_follow_the_calibration_or_else_the_margin() {
        let rules = Ruleset::eaai();
        let shipped = KnockCalibration::shipped().expect("the shipped weights are usable");
        let margin = McParams::fast().knock_margin;
        let (mut cases, mut disagree) = (0, 0);
        for calibrated in [true, false] {
            for seed in 0..4 {
                let params = McParams { samples: 48, calibrated, ..McParams::fast() };
                let mut mc = McAgent::new("mc-fast", params, ExpertParams::searching());
                assert_eq!(mc.is_calibrated(), calibrated);
                let mut simple = crate::SimpleAgent::default();
                play_watched(&rules, seed, &mut mc, &mut simple, MAX_HANDS, |mc, view, legal| {
                    let action = mc.pick(view, legal);
                    if let Some((case, knock, play_on)) = mc.last_knock_case() {
                        // What the training sees of the decision, and the knock it plays out.
                        let seen = KnockDecision { knock, play_on, features: case.features() };
                        assert_eq!(mc.last_knock(), Some(seen));
                        assert_eq!(mc.knock_showing(view, knock), mc.shown(view, Action::knock(knock)));
                        let by_calibration = shipped.gain(&case) > 0.0;
                        let by_margin = case.knock - margin > case.play_on;
                        let knocked = action == Action::knock(knock);
                        cases += 1;
                        disagree += usize::from(by_calibration != by_margin);
                        if calibrated {
                            assert_eq!(knocked, by_calibration, "{case:?}");
                        } else if (case.knock - margin - case.play_on).abs() > 1e-12 {
                            assert_eq!(knocked, by_margin, "{case:?}");
                        }
                    }
                    action
                });
            }
        }
        // The two rules are not the same rule.
        assert!(cases > 20 && disagree > 0, "{disagree} of {cases} decisions differ");
    }

    #[test]
    fn the_choice_does_not_depend_on_the_thread_count() {
        let params = McParams { samples: 32, search_draws: true, search_discards: true, ..McParams::fast() };
        let one = play(params.clone(), 5);
        let two = play(McParams { threads: 2, ..params.clone() }, 5);
        let three = play(McParams { threads: 3, ..params }, 5);
        assert!(one.outcome.winner().is_some());
        assert_eq!(format!("{:?}", one.events), format!("{:?}", two.events));
        assert_eq!(format!("{:?}", one.events), format!("{:?}", three.events));
    }
}
