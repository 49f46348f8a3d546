//! `HolderAgent`: the low holder, a heuristic player that keeps its deadwood low while it waits
//! for gin, and knocks only when an undercut looks unlikely; and its parameters.
//!
//! - *An estimate of the opponent's hand*: each card it has not seen has a chance of being in the
//!   opponent's hand, raised for cards that meld with what the opponent took from the pile and
//!   lowered for cards next to what it refused or discarded (cards it took and kept are certain).
//! - *Discards* minimise a blend of the deadwood left now and the deadwood the hand can expect
//!   after its next draw (its outlook), less a bonus for the chance of gin on that draw, plus the
//!   *danger* of the discard: the chance that the opponent can meld it, in points.
//! - *Draws*: it takes the face-up card when it completes a meld without raising its deadwood, or
//!   when it lowers the deadwood and the ten cards kept after taking it cost less (by the discard
//!   cost above, `lookahead`) than the average over a stock draw's cards.
//! - *Knocks*: gin always; with deadwood, at once in the hand's first draws, and after that only
//!   when the deadwood is below an estimate of the opponent's (which falls with every draw and
//!   every card it took from the pile, less what it can expect to lay off on the melds shown) by
//!   a margin, a wider one against an opponent seen to knock with deadwood after the first draws
//!   of a hand (a player who knocks as soon as it can knocks into a low hand). Otherwise it plays
//!   on for gin with its hand kept low, ready to undercut.
//!
//! Every number is in [`HolderParams`], which an agent spec (`holder:knock_margin=2`) overrides.

use gin_cards::{Card, CardSet, Rank};
use gin_engine::{Action, Agent, Decision, Event, Phase, PlayerView};
use gin_rules::settings::{Kind, Setting, Settings};
use gin_rules::{Arrangement, KnockKind, Player, Ruleset, Showing, Solver};

use crate::Tracker;
use crate::picks::Picks;

const WEIGHT: Kind = Kind::Float { min: -100.0, max: 100.0 };
const FACTOR: Kind = Kind::Float { min: 0.0, max: 10.0 };
const POINTS: Kind = Kind::Float { min: -100.0, max: 100.0 };

gin_rules::settings_struct! {
    /// Every number of the low holder, listed with its range and meaning in [`Settings::table`]; an
    /// agent spec (`holder:knock_margin=2`) may override any of them by name.
    #[derive(Clone, Debug, PartialEq)]
    pub struct HolderParams {
        /// The weight of the outlook (the deadwood expected after the next draw) against the
        /// deadwood left now, from 0 (deadwood now only) to 1 (outlook only).
        outs_weight: f64 = Kind::Float { min: 0.0, max: 1.0 },
        /// Bonus (in deadwood points) per unit of probability that the next draw makes the hand gin.
        gin_outs_weight: f64 = WEIGHT,
        /// Penalty (in deadwood points) per unit of probability that the opponent can meld a discard.
        danger_weight: f64 = WEIGHT,
        /// Factor on the chance that the opponent holds a card that melds with one it took.
        pickup_boost: f64 = FACTOR,
        /// Factor on the chance that the opponent holds a card next to one it refused or discarded.
        refusal_discount: f64 = FACTOR,
        /// Take a face-up card that makes no meld only when the hand it leaves (its cost with
        /// `lookahead`, else its deadwood) beats a stock draw's average by more than this.
        take_margin: f64 = POINTS,
        /// In the hand's first `early_draws` draws (both players'), knock with any deadwood allowed.
        early_draws: u32 = Kind::Int { min: 0, max: 100 },
        /// After that, knock only when the deadwood is at least this much below the estimate of the
        /// opponent's.
        knock_margin: f64 = POINTS,
        /// The estimate of the opponent's deadwood at the deal.
        opponent_start: f64 = POINTS,
        /// How much the estimate falls with each draw (both players').
        opponent_per_draw: f64 = Kind::Float { min: 0.0, max: 100.0 },
        /// The least the estimate falls to with the draws.
        opponent_floor: f64 = POINTS,
        /// How much the estimate falls for each card the opponent took from the pile and kept.
        pickup_weight: f64 = POINTS,
        /// Factor on the points the opponent can expect to lay off on the melds shown, taken off the
        /// estimate.
        layoff_weight: f64 = FACTOR,
        /// The estimate is at most this many times the mean value of the opponent's last two
        /// discards (a player who sheds low cards holds little deadwood); 0 turns this off.
        discard_factor: f64 = FACTOR,
        /// Weigh a face-up card that lowers the deadwood (without a meld) by the full cost of the
        /// hand kept after taking it against the average after a stock draw, instead of by deadwood.
        lookahead: bool = Kind::Bool,
        /// The knock margin against an opponent seen to knock with deadwood after the hand's first
        /// `early_draws` draws in this game (a player who knocks as soon as it can): holding a low
        /// hand against it wins undercuts.
        knocker_margin: f64 = POINTS,
    }
}

impl Default for HolderParams {
    fn default() -> HolderParams {
        HolderParams {
            outs_weight: 1.0,
            gin_outs_weight: 30.0,
            danger_weight: 2.0,
            pickup_boost: 2.0,
            refusal_discount: 0.5,
            take_margin: 0.0,
            early_draws: 6,
            knock_margin: 5.0,
            opponent_start: 30.0,
            opponent_per_draw: 1.2,
            opponent_floor: 4.0,
            pickup_weight: 4.0,
            layoff_weight: 1.0,
            discard_factor: 2.5,
            lookahead: true,
            knocker_margin: 12.0,
        }
    }
}

impl Settings for HolderParams {
    fn table() -> &'static [Setting<HolderParams>] {
        HolderParams::settings_table()
    }
}

/// The low holder: see the module documentation.
#[derive(Clone, Debug)]
pub struct HolderAgent {
    params: HolderParams,
    tracker: Tracker,
    solver: Solver,
    /// The seat it plays.
    seat: Player,
    /// The values of the opponent's last two discards this hand, the latest first.
    opponent_sheds: [Option<u8>; 2],
    /// Whether the opponent knocked with deadwood after the first draws of a hand in this game.
    opponent_knocks_late: bool,
}

impl Default for HolderAgent {
    fn default() -> HolderAgent {
        HolderAgent::new(HolderParams::default())
    }
}

/// What the holder knows at a decision: the cards it has not seen and, for each card (by bit),
/// the chance that the opponent holds it.
struct Odds {
    unseen: CardSet,
    opponent: [f64; 64],
}

impl Odds {
    /// The chance that the opponent holds `card`.
    fn holds(&self, card: Card) -> f64 {
        self.opponent[usize::from(card.bit())]
    }

    /// The chance that the opponent can meld `card` with cards it holds: two more of its rank,
    /// or two neighbours in its suit that make a run with it.
    fn danger(&self, card: Card) -> f64 {
        let mut others = [0.0; 3];
        for (slot, other) in others.iter_mut().zip(CardSet::of_rank(card.rank()).without(card)) {
            *slot = self.holds(other);
        }
        let [a, b, c] = others;
        let set = a * b + a * c + b * c - 2.0 * a * b * c;
        let rank = i32::from(card.rank().index());
        let at = |offset: i32| {
            let r = rank + offset;
            if (0..13).contains(&r) { self.holds(Card::new(Rank::ALL[r as usize], card.suit())) } else { 0.0 }
        };
        let no_run = (1.0 - at(-2) * at(-1)) * (1.0 - at(-1) * at(1)) * (1.0 - at(1) * at(2));
        1.0 - (1.0 - set) * no_run
    }
}

impl HolderAgent {
    /// A low holder with these parameters.
    pub fn new(params: HolderParams) -> HolderAgent {
        HolderAgent {
            params,
            tracker: Tracker::new(Player::One),
            solver: Solver::ACE_LOW,
            seat: Player::One,
            opponent_sheds: [None; 2],
            opponent_knocks_late: false,
        }
    }

    /// Its parameters.
    pub fn params(&self) -> &HolderParams {
        &self.params
    }

    /// The estimate of the opponent's hand from what it took, refused and discarded.
    fn odds(&self, view: &PlayerView<'_>) -> Odds {
        let (unseen, opponent) = self.tracker.opponent_chances(
            view.hand,
            view.opponent_known,
            view.opponent_cards,
            view.opponent_known,
            (self.params.pickup_boost, self.params.refusal_discount),
        );
        Odds { unseen, opponent }
    }

    /// The cost of keeping `kept` (10 cards) after discarding `card`: lower is better.
    fn cost(&self, odds: &Odds, kept: CardSet, card: Card) -> f64 {
        let now = self.solver.min_deadwood(kept);
        let p = &self.params;
        let mut value = f64::from(now);
        if p.outs_weight > 0.0 || p.gin_outs_weight != 0.0 {
            let (mut weight, mut total, mut gin) = (0.0, 0.0, 0.0);
            for drawn in odds.unseen {
                let w = 1.0 - odds.holds(drawn);
                let after = self.solver.best_discards(kept.with(drawn)).deadwood.min(now);
                weight += w;
                total += w * f64::from(after);
                if after == 0 {
                    gin += w;
                }
            }
            if weight > 0.0 {
                value =
                    (1.0 - p.outs_weight) * value + p.outs_weight * total / weight - p.gin_outs_weight * gin / weight;
            }
        }
        value + p.danger_weight * odds.danger(card)
    }

    /// The best discard among `cards` from the 11-card `hand`, and its cost.
    fn best_discard(&self, odds: &Odds, hand: CardSet, cards: CardSet) -> Option<(f64, Card)> {
        let mut best: Option<(f64, Card)> = None;
        for card in cards {
            let cost = self.cost(odds, hand.without(card), card);
            // Ties go to the higher card, then the later one.
            if best.is_none_or(|(c, b)| cost < c || (cost == c && card.value() >= b.value())) {
                best = Some((cost, card));
            }
        }
        best
    }

    /// Whether to take `top` (the upcard or the pile's top) rather than draw from the stock.
    fn takes(&self, view: &PlayerView<'_>, top: Card) -> bool {
        let hand = view.hand;
        let now = self.solver.min_deadwood(hand);
        let with = hand.with(top);
        // The least deadwood after taking `top` and discarding another card.
        let taken = self.solver.best_discards_among(with, hand).map_or(u32::MAX, |best| best.deadwood);
        if self.solver.can_meld(hand, top) && taken <= now {
            return true;
        }
        if taken >= now {
            return false;
        }
        let odds = self.odds(view);
        if self.params.lookahead {
            // Both sides valued alike: the best cost of the ten cards kept after the turn.
            let take = self.keep_best(&odds, with, Some(top));
            let (mut weight, mut total) = (0.0, 0.0);
            for drawn in odds.unseen {
                let w = 1.0 - odds.holds(drawn);
                weight += w;
                total += w * self.keep_best(&odds, hand.with(drawn), None);
            }
            let stock = if weight > 0.0 { total / weight } else { take };
            return take + self.params.take_margin < stock;
        }
        // A stock draw keeps the drawn card only when it helps.
        let (mut weight, mut total) = (0.0, 0.0);
        for drawn in odds.unseen {
            let w = 1.0 - odds.holds(drawn);
            weight += w;
            total += w * f64::from(self.solver.best_discards(hand.with(drawn)).deadwood.min(now));
        }
        let stock = if weight > 0.0 { total / weight } else { f64::from(now) };
        f64::from(taken) + self.params.take_margin < stock
    }

    /// The least cost of the ten cards kept from the 11 `cards` (`not` may not go), weighing in
    /// full only the three discards that leave the least deadwood.
    fn keep_best(&self, odds: &Odds, cards: CardSet, not: Option<Card>) -> f64 {
        let mut ranked = [(u32::MAX, None::<Card>); 12];
        for (slot, card) in ranked.iter_mut().zip(cards.iter().filter(|&card| Some(card) != not)) {
            *slot = (self.solver.min_deadwood(cards.without(card)), Some(card));
        }
        ranked.sort_unstable_by_key(|&(deadwood, _)| deadwood);
        ranked
            .iter()
            .take(3)
            .filter_map(|&(_, card)| card)
            .map(|card| self.cost(odds, cards.without(card), card))
            .fold(f64::INFINITY, f64::min)
    }

    /// The estimate of the opponent's deadwood before layoffs: it falls with the draws and the
    /// cards the opponent took, and is capped by the values of its last discards.
    fn opponent_estimate(&self, view: &PlayerView<'_>) -> f64 {
        let p = &self.params;
        let draws = f64::from(view.draws);
        let pickups = view.opponent_known.len() as f64;
        let mut estimate = (p.opponent_start - p.opponent_per_draw * draws).max(p.opponent_floor);
        estimate -= p.pickup_weight * pickups;
        if let [Some(last), Some(before)] = self.opponent_sheds
            && p.discard_factor > 0.0
        {
            estimate = estimate.min(p.discard_factor * f64::from(last + before) / 2.0);
        }
        estimate
    }

    /// The arrangement of `kept` it shows when it knocks (the best one that offers the least to
    /// lay off), and the points the opponent can expect to lay off on it (0 without layoffs).
    fn knock_arrangement(&self, view: &PlayerView<'_>, odds: &Odds, kept: CardSet) -> (Arrangement, f64) {
        let weight = |card: Card| odds.holds(card) * f64::from(card.value());
        let arrangement = self.solver.safest_arrangement(kept, weight);
        let layoffs = if view.rules.layoffs {
            arrangement.melds().iter().flat_map(|meld| meld.layoff_targets(self.solver.ace_high())).map(weight).sum()
        } else {
            0.0
        };
        (arrangement, layoffs)
    }

    /// The discard or knock of an 11-card hand.
    fn discard_or_knock(&self, view: &PlayerView<'_>, legal: &[Action]) -> Action {
        if legal.contains(&Action::BigGin) {
            return Action::BigGin;
        }
        let hand = view.hand;
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
        let odds = self.odds(view);
        // The knock: the discard leaving the least deadwood, the least dangerous on a tie.
        let knock = (knocks - taken).iter().min_by(|&x, &y| {
            let key = |card: Card| (self.solver.min_deadwood(hand.without(card)), odds.danger(card));
            let (kx, ky) = (key(x), key(y));
            kx.0.cmp(&ky.0).then(kx.1.total_cmp(&ky.1))
        });
        if let Some(discard) = knock {
            let kept = hand.without(discard);
            let deadwood = self.solver.min_deadwood(kept);
            if deadwood == 0 || view.draws < self.params.early_draws {
                return Action::knock(discard);
            }
            // The layoffs only lower the estimate: the arrangements are weighed only when the
            // knock passes without them.
            let margin = if self.opponent_knocks_late { self.params.knocker_margin } else { self.params.knock_margin };
            let needed = f64::from(deadwood) + margin;
            let estimate = self.opponent_estimate(view);
            if needed <= estimate {
                let (_, layoffs) = self.knock_arrangement(view, &odds, kept);
                if needed <= estimate - self.params.layoff_weight * layoffs {
                    return Action::knock(discard);
                }
            }
        }
        let pool = if (discards - taken).is_empty() { discards } else { discards - taken };
        match self.best_discard(&odds, hand, pool) {
            Some((_, card)) => Action::Discard { card },
            None => legal.first().copied().unwrap_or(Action::LayOff),
        }
    }
}

impl Agent for HolderAgent {
    fn name(&self) -> &str {
        "holder"
    }

    fn start_game(&mut self, seat: Player, rules: &Ruleset, _seed: u64) {
        self.tracker.reset(seat);
        self.solver = rules.solver();
        self.seat = seat;
        self.opponent_sheds = [None; 2];
        self.opponent_knocks_late = false;
    }

    fn observe(&mut self, event: &Event) {
        match *event {
            Event::HandStarted { .. } => self.opponent_sheds = [None; 2],
            Event::Knocked { player, kind: KnockKind::Knock, .. }
                if player != self.seat && self.tracker.draws() >= self.params.early_draws =>
            {
                self.opponent_knocks_late = true;
            }
            Event::Discarded { player, card } if player != self.seat => {
                self.opponent_sheds = [Some(card.value()), self.opponent_sheds[0]];
            }
            _ => {}
        }
        self.tracker.observe(event);
    }

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Decision {
        crate::picks::decide(self, view, legal)
    }
}
impl Picks for HolderAgent {
    /// The action this agent plays from `view`, one of `legal`.
    fn pick(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Action {
        let wanted = match view.phase {
            Phase::UpcardOffer => {
                if view.pile_top().is_some_and(|top| self.takes(view, top)) {
                    Action::TakeUpcard
                } else {
                    Action::PassUpcard
                }
            }
            Phase::Draw => {
                let may_take = legal.contains(&Action::DrawPile);
                if may_take && view.pile_top().is_some_and(|top| self.takes(view, top)) {
                    Action::DrawPile
                } else {
                    Action::DrawStock
                }
            }
            Phase::Discard => self.discard_or_knock(view, legal),
            Phase::LayOff | Phase::Over => Action::LayOff,
        };
        if legal.contains(&wanted) { wanted } else { legal.first().copied().unwrap_or(Action::LayOff) }
    }

    /// The cards it lays down with `action`, a knock, big gin or a defense it just chose (`None`: the
    /// referee's choice).
    fn shown(&mut self, view: &PlayerView<'_>, action: Action) -> Option<Showing> {
        match action {
            Action::Knock { discard } if view.hand.contains(discard) => {
                let kept = view.hand.without(discard);
                Showing::of_arrangement(&self.knock_arrangement(view, &self.odds(view), kept).0)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gin_engine::{GameOutcome, RandomAgent, RunOptions, play_game, play_game_observed};
    use gin_rules::{ByPlayer, GameScore};

    fn cards(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    /// A position of seat one: `hand`, the pile `pile` (bottom first), `draws` draws made and
    /// `stock` cards left in the stock.
    struct Position {
        rules: Ruleset,
        score: GameScore,
        hand: CardSet,
        pile: Vec<Card>,
        phase: Phase,
        draws: u32,
        stock: usize,
    }

    impl Position {
        fn new(phase: Phase, hand: &str, pile: &str, draws: u32, stock: usize) -> Position {
            Position {
                rules: Ruleset::eaai(),
                score: GameScore::default(),
                hand: cards(hand),
                pile: pile.split_whitespace().map(card).collect(),
                phase,
                draws,
                stock,
            }
        }

        fn view(&self) -> PlayerView<'_> {
            PlayerView {
                seat: Player::One,
                rules: &self.rules,
                hand_number: 1,
                dealer: Player::Two,
                upcard: self.pile.first().copied().unwrap_or(card("KS")),
                knock_limit: 10,
                phase: self.phase,
                to_act: Some(Player::One),
                hand: self.hand,
                discard_pile: &self.pile,
                stock_size: self.stock,
                opponent_known: CardSet::EMPTY,
                opponent_cards: 10,
                taken_card: None,
                upcard_passes: if self.phase == Phase::UpcardOffer { 0 } else { 2 },
                draws: self.draws,
                knock: None,
                score: &self.score,
            }
        }

        /// The legal actions, as the referee lists them under the EAAI rules.
        fn legal(&self) -> Vec<Action> {
            match self.phase {
                Phase::UpcardOffer => vec![Action::TakeUpcard, Action::PassUpcard],
                Phase::Draw => vec![Action::DrawStock, Action::DrawPile],
                Phase::Discard => {
                    let solver = self.rules.solver();
                    let mut legal = Vec::new();
                    for card in self.hand {
                        legal.push(Action::Discard { card });
                        if solver.min_deadwood(self.hand.without(card)) <= 10 {
                            legal.push(Action::knock(card));
                        }
                    }
                    legal
                }
                _ => vec![Action::LayOff],
            }
        }

        fn choice(&self) -> Action {
            let mut holder = HolderAgent::default();
            holder.start_game(Player::One, &self.rules, 1);
            holder.pick(&self.view(), &self.legal())
        }
    }

    /// Three melds and the 4D and 5C: deadwood 9 after the KC goes.
    const NINE: &str = "AS 2S 3S 7H 8H 9H JD QD KD 4D KC";

    #[test]
    fn knocks_early_but_holds_a_knockable_hand_late() {
        assert_eq!(Position::new(Phase::Discard, NINE, "", 2, 29).choice(), Action::knock(card("KC")));
        assert_eq!(Position::new(Phase::Discard, NINE, "", 24, 8).choice(), Action::Discard { card: card("KC") });
    }

    #[test]
    fn knocks_for_gin_at_any_time_but_holds_a_deadwood_of_one_late() {
        let gin = "AS 2S 3S 4S 7H 8H 9H JD QD KD KC";
        assert_eq!(Position::new(Phase::Discard, gin, "", 24, 8).choice(), Action::knock(card("KC")));
        let one = "AS 2S 3S 7H 8H 9H JD QD KD AC KC";
        assert_eq!(Position::new(Phase::Discard, one, "", 24, 8).choice(), Action::Discard { card: card("KC") });
        assert_eq!(Position::new(Phase::Discard, one, "", 28, 3).choice(), Action::Discard { card: card("KC") });
        assert_eq!(Position::new(Phase::Discard, one, "", 3, 28).choice(), Action::knock(card("KC")));
    }

    #[test]
    fn holds_longer_against_an_opponent_seen_to_knock_late() {
        // Deadwood 3 after the KC goes, at the eighth draw: under the estimate by more than
        // `knock_margin`, not by `knocker_margin`.
        let position = Position::new(Phase::Discard, "AS 2S 3S 7H 8H 9H JD QD KD 3C KC", "", 8, 23);
        let mut holder = HolderAgent::default();
        holder.start_game(Player::One, &position.rules, 1);
        assert_eq!(holder.pick(&position.view(), &position.legal()), Action::knock(card("KC")));
        // A hand in which the opponent knocked with deadwood at the eighth draw.
        let hands = ByPlayer::new(Some(cards("4S 5S 6S 4H 5H 6H 4D 5D 6D 2C")), None);
        holder.observe(&Event::HandStarted {
            number: 1,
            dealer: Player::Two,
            upcard: card("TC"),
            knock_limit: 10,
            hands,
        });
        for _ in 0..8 {
            holder.observe(&Event::DrewStock { player: Player::Two, card: None });
        }
        let shown = Showing::of_arrangement(&Solver::ACE_LOW.best_arrangement(cards("7C 8C 9C JH QH KH TS TD TH AD")));
        let shown = shown.unwrap();
        holder.observe(&Event::Knocked {
            player: Player::Two,
            kind: KnockKind::Knock,
            discard: Some(card("JC")),
            shown,
        });
        holder.observe(&Event::HandStarted {
            number: 2,
            dealer: Player::One,
            upcard: card("TC"),
            knock_limit: 10,
            hands,
        });
        assert_eq!(holder.pick(&position.view(), &position.legal()), Action::Discard { card: card("KC") });
        // A new game forgets it.
        holder.start_game(Player::One, &position.rules, 2);
        assert_eq!(holder.pick(&position.view(), &position.legal()), Action::knock(card("KC")));
    }

    #[test]
    fn takes_the_face_up_card_that_melds_or_lowers_its_deadwood() {
        let hand = "AS 2S 3S 7H 8H JD QD 4C 9C KC";
        // The 9H makes 7H 8H 9H.
        assert_eq!(Position::new(Phase::UpcardOffer, hand, "9H", 0, 31).choice(), Action::TakeUpcard);
        assert_eq!(Position::new(Phase::Draw, hand, "5D 9H", 4, 25).choice(), Action::DrawPile);
        // A lone queen would replace the king at equal deadwood: no.
        assert_eq!(Position::new(Phase::UpcardOffer, hand, "QH", 0, 31).choice(), Action::PassUpcard);
        // A lone ace replaces the king and lowers the deadwood by 9: better than a stock draw's average.
        assert_eq!(Position::new(Phase::Draw, hand, "9D AH", 4, 25).choice(), Action::DrawPile);
    }

    #[test]
    fn avoids_discards_the_opponent_can_meld() {
        // Two cards of equal deadwood to shed: the 6C or the 6D. The opponent took the 5D and the
        // 7D from the pile, so the 6D would make it a run: the 6C goes, and the other way round.
        let mut holder = HolderAgent::default();
        let rules = Ruleset::eaai();
        holder.start_game(Player::One, &rules, 1);
        let position = Position::new(Phase::Discard, "AS 2S 3S 7H 8H 9H JS QS KS 6C 6D", "", 10, 20);
        let mut view = position.view();
        view.opponent_known = cards("5D 7D");
        assert_eq!(holder.pick(&view, &position.legal()), Action::Discard { card: card("6C") });
        view.opponent_known = cards("5C 7C");
        assert_eq!(holder.pick(&view, &position.legal()), Action::Discard { card: card("6D") });
    }

    #[test]
    fn settings_are_read_by_name_and_checked() {
        let mut params = HolderParams::default();
        params.set_text("knock_margin", "2").unwrap();
        params.set_text("early_draws", "4").unwrap();
        assert_eq!((params.knock_margin, params.early_draws), (2.0, 4));
        assert!(params.set_text("outs_weight", "2").is_err());
        assert!(params.set_text("knock", "2").is_err());
        assert_eq!(HolderAgent::new(params.clone()).params(), &params);
    }

    #[test]
    fn plays_only_legal_actions_and_the_same_game_from_the_same_seed() {
        let mut finished = 0;
        for (rules, games) in [(Ruleset::eaai(), 120), (Ruleset::standard(), 40), (Ruleset::oklahoma(), 40)] {
            for seed in 0..games {
                let (mut holder, mut random) = (HolderAgent::default(), RandomAgent::default());
                let agents: ByPlayer<&mut dyn Agent> = if seed % 2 == 0 {
                    ByPlayer([&mut holder, &mut random])
                } else {
                    ByPlayer([&mut random, &mut holder])
                };
                match play_game(&rules, seed, agents, RunOptions::default()).outcome {
                    GameOutcome::Forfeit { player, action, reason } => {
                        panic!("seed {seed}: {player} {action:?}: {reason}")
                    }
                    GameOutcome::Finished { .. } => finished += 1,
                    GameOutcome::Abandoned { .. } => {}
                }
            }
        }
        assert!(finished >= 190, "{finished} of 200 games finished");
        let events = |seed| {
            let (mut one, mut two) = (HolderAgent::default(), HolderAgent::default());
            let mut events = Vec::new();
            let agents: ByPlayer<&mut dyn Agent> = ByPlayer([&mut one, &mut two]);
            play_game_observed(&Ruleset::eaai(), seed, agents, RunOptions::default(), &mut |e, _| {
                events.push(format!("{e:?}"));
            });
            events
        };
        assert_eq!(events(5), events(5));
        assert_ne!(events(5), events(6));
    }
}
