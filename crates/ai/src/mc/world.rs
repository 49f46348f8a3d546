//! One determinized future of a hand, and the fast policies that play it out.
//!
//! A [`World`] fixes everything the searching player cannot see: the opponent's hand and the
//! order of the stock. [`Table::play_out`] plays the rest of the hand from it with cheap
//! policies (a few solver calls a turn, no allocation) and returns the points it ends with.

use gin_cards::random::{self, GinRng};
use gin_cards::{Card, CardSet};
use gin_rules::{KnockKind, Player, Ruleset, Solver, score_hand};

/// The most turns a rollout plays (the stock alone allows at most 31 draws).
const MAX_TURNS: usize = 80;

/// How a seat plays in a rollout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    /// Like most bots (and `simple`): take the pile's top only when it melds, discard among the
    /// least-deadwood cards at random, knock as soon as the rules allow.
    KnockAtOnce,
    /// Like `expert`: take the pile's top when it lowers the deadwood, shed the highest of the
    /// least-deadwood discards, knock only for gin until the last draw before the stock runs out.
    GinHunter,
}

/// The fixed facts of the hand being searched.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Table<'a> {
    pub rules: &'a Ruleset,
    pub solver: Solver,
    pub knock_limit: u32,
    /// The hand's first upcard (it may double the points).
    pub upcard: Card,
}

/// A determinized hand: both hands, the stock in drawing order, and the pile's top.
/// Seat 0 is the searching player, seat 1 its opponent.
#[derive(Clone, Copy, Debug)]
pub(crate) struct World {
    pub hands: [CardSet; 2],
    pub stock: [Card; 52],
    /// The next card to draw is `stock[next]`; the stock holds `stock[next..len]`.
    pub next: usize,
    pub len: usize,
    pub top: Option<Card>,
}

impl World {
    /// Cards left in the stock.
    pub fn stock_left(&self) -> usize {
        self.len - self.next
    }
}

impl Table<'_> {
    /// Whether a player with `hand` (10 cards) takes `top` rather than draw from the stock.
    pub fn takes(&self, style: Style, hand: CardSet, top: Card) -> bool {
        match style {
            Style::KnockAtOnce => self.solver.can_meld(hand.with(top), top),
            Style::GinHunter => {
                let best = self.solver.best_discards(hand.with(top));
                best.deadwood < self.solver.min_deadwood(hand) && !best.discards.without(top).is_empty()
            }
        }
    }

    /// The discard of an 11-card hand: one of the cards whose discard leaves the least deadwood
    /// (never `taken` where the rules forbid it), and the deadwood it leaves.
    pub fn discard(&self, style: Style, hand: CardSet, taken: Option<Card>, rng: &mut GinRng) -> (Card, u32) {
        let best = self.solver.best_discards(hand);
        let mut choices = best.discards;
        let mut deadwood = best.deadwood;
        if let Some(taken) = taken.filter(|_| !self.rules.may_discard_taken_card) {
            choices.remove(taken);
            if choices.is_empty() {
                // Only the taken card reaches the least deadwood: the next best discard.
                deadwood = u32::MAX;
                for card in hand.without(taken) {
                    let left = self.solver.min_deadwood(hand.without(card));
                    if left < deadwood {
                        (deadwood, choices) = (left, CardSet::from_card(card));
                    } else if left == deadwood {
                        choices.insert(card);
                    }
                }
            }
        }
        let card = match style {
            Style::KnockAtOnce => {
                let at = random::index(rng, choices.len().max(1));
                choices.iter().nth(at)
            }
            Style::GinHunter => choices.iter().max_by_key(|card| (card.value(), card.rank().index())),
        };
        (card.unwrap_or_else(|| hand.first().unwrap_or(self.upcard)), deadwood)
    }

    /// Shapes `hand` the way play shapes a hand: `turns` times it draws a card from `pool` (picked
    /// in proportion to `weight`) and discards by `style`, never a card of `fixed`; the card let go
    /// takes the drawn card's place in `pool`. A hand dealt at random has some 50 points of deadwood,
    /// while a hand played for a few turns is built of melds and near-melds: futures must hold the
    /// latter, or every knock looks like a sure win.
    #[allow(clippy::too_many_arguments)]
    pub fn form(
        &self,
        style: Style,
        mut hand: CardSet,
        fixed: CardSet,
        pool: &mut [Card],
        weight: impl Fn(Card) -> f64,
        turns: usize,
        rng: &mut GinRng,
    ) -> CardSet {
        if pool.is_empty() {
            return hand;
        }
        for _ in 0..turns {
            let total: f64 = pool.iter().map(|&c| weight(c)).sum();
            let mut at = random::below(rng, 1 << 53) as f64 / (1u64 << 53) as f64 * total;
            let mut pick = pool.len() - 1;
            for (i, &card) in pool.iter().enumerate() {
                let w = weight(card);
                if at < w {
                    pick = i;
                    break;
                }
                at -= w;
            }
            let drawn = pool[pick];
            let eleven = hand.with(drawn);
            let best = self.solver.best_discards(eleven);
            let mut choices = best.discards - fixed;
            if choices.is_empty() {
                choices = eleven - fixed;
            }
            let out = match style {
                Style::KnockAtOnce => choices.iter().nth(random::index(rng, choices.len().max(1))),
                Style::GinHunter => choices.iter().max_by_key(|card| (card.value(), card.rank().index())),
            };
            let Some(out) = out else { break };
            hand = eleven.without(out);
            pool[pick] = out;
        }
        hand
    }

    /// Whether a player knocks with `deadwood` left, with `stock_left` cards in the stock.
    fn knocks(&self, style: Style, deadwood: u32, stock_left: usize) -> bool {
        if deadwood > self.knock_limit {
            return false;
        }
        match style {
            Style::KnockAtOnce => true,
            Style::GinHunter => deadwood == 0 || stock_left <= self.rules.stock_floor as usize + 1,
        }
    }

    /// The points of a knock by `knocker` (a seat) with `deadwood` and the 10 cards `kept`,
    /// against the other seat's `defender` cards: positive when seat 0 scores.
    pub fn knock_points(&self, knocker: usize, kept: CardSet, deadwood: u32, defender: CardSet) -> i32 {
        let (kind, defended) = if deadwood == 0 {
            (KnockKind::Gin, self.solver.min_deadwood(defender))
        } else if self.rules.layoffs {
            let shown = self.solver.best_arrangement(kept);
            (KnockKind::Knock, self.solver.defend(shown.melds(), defender).deadwood)
        } else {
            (KnockKind::Knock, self.solver.min_deadwood(defender))
        };
        let seat = if knocker == 0 { Player::One } else { Player::Two };
        let score = score_hand(self.rules, seat, kind, deadwood, defended, self.upcard);
        match score.winner {
            Some(Player::One) => score.points as i32,
            Some(Player::Two) => -(score.points as i32),
            None => 0,
        }
    }

    /// Plays the hand out from `world`, `mover` (a seat) to draw, and returns the points it ends
    /// with: positive when seat 0 scores, 0 for a dead hand. `first` forces the first draw: `Some(true)`
    /// takes the pile's top, `Some(false)` draws from the stock, `None` leaves it to the policy.
    pub fn play_out(
        &self,
        world: &mut World,
        mut mover: usize,
        mut first: Option<bool>,
        styles: [Style; 2],
        rng: &mut GinRng,
    ) -> i32 {
        let floor = self.rules.stock_floor as usize;
        // A rebuilt stock (the `reshuffle` rule) is not modelled: a rollout ends where the stock runs out.
        // Players who keep trading the pile's top could go on for ever: a rollout that runs this
        // long ends as a dead hand.
        for _ in 0..MAX_TURNS {
            let style = styles[mover];
            let hand = world.hands[mover];
            let mut taken = None;
            let take = match (first.take(), world.top) {
                (Some(take), Some(_)) => take,
                (_, Some(top)) => self.takes(style, hand, top),
                (_, None) => false,
            };
            let drawn = match world.top {
                Some(top) if take => {
                    taken = Some(top);
                    top
                }
                _ => {
                    if world.stock_left() <= floor {
                        return 0;
                    }
                    let card = world.stock[world.next];
                    world.next += 1;
                    card
                }
            };
            let eleven = hand.with(drawn);
            let (discard, deadwood) = self.discard(style, eleven, taken, rng);
            let kept = eleven.without(discard);
            world.hands[mover] = kept;
            world.top = Some(discard);
            if self.knocks(style, deadwood, world.stock_left()) {
                return self.knock_points(mover, kept, deadwood, world.hands[1 - mover]);
            }
            if world.stock_left() <= floor {
                return 0;
            }
            mover = 1 - mover;
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    /// A random deal: ten cards each, an upcard, the stock in order.
    pub(super) fn deal(rng: &mut GinRng) -> World {
        let mut deck: Vec<Card> = CardSet::FULL.iter().collect();
        random::shuffle(rng, &mut deck);
        let mut world = World {
            hands: [deck[..10].iter().copied().collect(), deck[10..20].iter().copied().collect()],
            stock: [deck[0]; 52],
            next: 0,
            len: 31,
            top: Some(deck[20]),
        };
        world.stock[..31].copy_from_slice(&deck[21..]);
        world
    }

    fn table(rules: &Ruleset) -> Table<'_> {
        Table { rules, solver: rules.solver(), knock_limit: 10, upcard: "7H".parse().unwrap() }
    }

    #[test]
    fn knock_points_follow_the_scoring_rules() {
        let rules = Ruleset::eaai();
        let t = table(&rules);
        // Gin: 25 plus the defender's deadwood (3 + 4 + 6 + 9 + 10 + 10 + 10 + 1 + 2 + 8 = 63).
        let gin = cards("AS 2S 3S 4H 5H 6H 7C 8C 9C TC");
        let loose = cards("3D 4C 6D 9H TD JH QS AH 2D 8D");
        assert_eq!(t.knock_points(0, gin, 0, loose), 25 + 63);
        assert_eq!(t.knock_points(1, gin, 0, loose), -(25 + 63));
        // A knock with 5 (the 5D): the defender lays 7S off on the spade run and melds the rest,
        // so it undercuts with 0 and scores the bonus and the difference.
        let knocker = cards("AS 2S 3S 4S 5S 6S 8H 8D 8C 5D");
        let defender = cards("7S AD AH AC 2D 3D 4D KH KC KD");
        assert_eq!(t.solver.min_deadwood(defender), 7);
        assert_eq!(t.knock_points(0, knocker, 5, defender), -(25 + 5));
        assert_eq!(t.knock_points(1, knocker, 5, defender), 25 + 5);
        // With a 9C that lays off nowhere instead of the 7S, the knocker wins by 9 - 5.
        let stuck = cards("9C AD AH AC 2D 3D 4D KH KC KD");
        assert_eq!(t.knock_points(0, knocker, 5, stuck), 4);
    }

    #[test]
    fn rollouts_end_and_conserve_cards() {
        let rules = Ruleset::eaai();
        let t = table(&rules);
        let mut rng = random::seeded_rng(3);
        for round in 0..200 {
            let mut world = deal(&mut rng);
            let styles = if round % 2 == 0 { [Style::GinHunter, Style::KnockAtOnce] } else { [Style::KnockAtOnce; 2] };
            let points = t.play_out(&mut world, round % 2, None, styles, &mut rng);
            assert!(points.abs() <= 25 + 100, "{points}");
            assert_eq!(world.hands[0].len(), 10);
            assert_eq!(world.hands[1].len(), 10);
            assert!(world.hands[0].is_disjoint(world.hands[1]));
            assert!(world.next <= world.len);
        }
    }

    #[test]
    fn styles_take_and_discard_as_described() {
        let rules = Ruleset::eaai();
        let t = table(&rules);
        let hand = cards("AS 2S 4H 5H 9C TC KD QD 7S 8D");
        // 3S melds (AS 2S 3S): both take it. KC neither melds nor lowers the deadwood.
        for style in [Style::KnockAtOnce, Style::GinHunter] {
            assert!(t.takes(style, hand, "3S".parse().unwrap()));
            assert!(!t.takes(style, hand, "KC".parse().unwrap()));
        }
        // AD lowers the deadwood (it replaces KD) without melding: only the gin hunter takes it.
        assert!(t.takes(Style::GinHunter, hand, "AD".parse().unwrap()));
        assert!(!t.takes(Style::KnockAtOnce, hand, "AD".parse().unwrap()));
        // The gin hunter sheds the highest of the least-deadwood discards, never the taken card.
        let mut rng = random::seeded_rng(1);
        let eleven = cards("AS 2S 3S 4H 5H 6H 9C TC JC KD KH");
        let (card, deadwood) = t.discard(Style::GinHunter, eleven, None, &mut rng);
        assert_eq!(deadwood, 10);
        assert_eq!(card.rank(), gin_cards::Rank::King);
        let (other, _) = t.discard(Style::GinHunter, eleven, Some(card), &mut rng);
        assert_eq!(other.rank(), gin_cards::Rank::King);
        assert_ne!(other, card);
    }
}
