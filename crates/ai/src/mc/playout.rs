//! The fast policies that play a sampled future of a hand out on the referee's own [`Deal`].
//!
//! A future is a [`Deal`] whose hidden parts (the opponent's hand, the order of the stock) the
//! search has filled in ([`Deal::from_view`]). [`Table::play_out`] plays the rest of the hand with
//! cheap policies (a few solver calls a turn, no allocation): the policies only choose; the deal
//! applies every action and scores the end, so the futures follow the rules of the game itself.

use gin_cards::random::{self, GinRng};
use gin_cards::{Card, CardSet};
use gin_engine::{Action, Deal, Phase};
use gin_rules::{Player, Ruleset, Solver};

/// The most turns a rollout plays before it counts the hand as dead: players who keep trading
/// the pile's top could go on for ever.
const MAX_TURNS: usize = 80;

/// How a seat plays in a rollout: which cards it takes and sheds, and the most deadwood it
/// knocks with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Style {
    /// Plays like `expert` (takes the pile's top when it lowers the deadwood, sheds the highest of
    /// the least-deadwood discards, and knocks whatever it holds at the stock's last draw); else
    /// like most bots and `simple` (takes the top only when it melds, discards among the
    /// least-deadwood cards at random).
    pub hunter: bool,
    /// The most deadwood it knocks with (within the hand's knock limit): 10 knocks as soon as
    /// the rules allow, 0 only for gin.
    pub knock_max: u32,
}

impl Style {
    /// Like most bots (and `simple`): knocks as soon as the rules allow.
    pub(crate) const KNOCK_AT_ONCE: Style = Style { hunter: false, knock_max: 10 };
    /// Like `expert`: knocks only for gin until the last draw before the stock runs out.
    pub(crate) const GIN_HUNTER: Style = Style { hunter: true, knock_max: 0 };

    /// The player who knocks with at most `knock_max` deadwood: a bot's policies when it knocks
    /// with anything the rules allow, a hunter's when it holds on for less.
    pub(crate) fn knocking_with(knock_max: u32) -> Style {
        Style { hunter: knock_max < Style::KNOCK_AT_ONCE.knock_max, knock_max }
    }
}

/// The fixed facts of the hand being searched.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Table<'a> {
    pub rules: &'a Ruleset,
    pub solver: Solver,
    /// The searching player: its points count positive.
    pub me: Player,
}

impl Table<'_> {
    /// Whether a player with `hand` (10 cards) takes `top` rather than draw from the stock.
    pub(super) fn takes(&self, style: Style, hand: CardSet, top: Card) -> bool {
        if style.hunter {
            let best = self.solver.best_discards(hand.with(top));
            best.deadwood < self.solver.min_deadwood(hand) && !best.discards.without(top).is_empty()
        } else {
            self.solver.can_meld(hand.with(top), top)
        }
    }

    /// The discard of an 11-card hand: one of the cards whose discard leaves the least deadwood
    /// (never `taken` where the rules forbid it), and the deadwood it leaves.
    pub(super) fn discard(&self, style: Style, hand: CardSet, taken: Option<Card>, rng: &mut GinRng) -> (Card, u32) {
        // What Ruleset::best_legal_discards answers, asked of the table's own solver.
        let best = self.solver.best_discards_among(hand, self.rules.discardable(hand, taken));
        let (deadwood, choices) = best.map_or((u32::MAX, CardSet::EMPTY), |best| (best.deadwood, best.discards));
        let card = if style.hunter {
            choices.iter().max_by_key(|card| (card.value(), card.rank().index()))
        } else {
            choices.iter().nth(random::index(rng, choices.len().max(1)))
        };
        (card.or_else(|| hand.first()).expect("a hand of 11 cards"), deadwood)
    }

    /// Shapes `hand` the way play shapes a hand: `turns` times it draws a card from `pool` (picked
    /// in proportion to `weight`) and discards by `style`, never a card of `fixed`; the card let go
    /// takes the drawn card's place in `pool`. A hand dealt at random has some 50 points of deadwood,
    /// while a hand played for a few turns is built of melds and near-melds: futures must hold the
    /// latter, or every knock looks like a sure win.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn form(
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
            let out = if style.hunter {
                choices.iter().max_by_key(|card| (card.value(), card.rank().index()))
            } else {
                choices.iter().nth(random::index(rng, choices.len().max(1)))
            };
            let Some(out) = out else { break };
            hand = eleven.without(out);
            pool[pick] = out;
        }
        hand
    }

    /// Whether a player who may knock with `deadwood` left does, with `stock_left` cards in the
    /// stock.
    fn wants_to_knock(&self, style: Style, deadwood: u32, stock_left: usize) -> bool {
        deadwood <= style.knock_max || (style.hunter && stock_left <= self.rules.stock_floor as usize + 1)
    }

    /// The points `deal` ended with for the searching player: positive when it scores, 0 for a
    /// dead hand or one still going.
    pub(super) fn points(&self, deal: &Deal) -> i32 {
        match deal.score() {
            Some(score) => match score.winner {
                Some(winner) if winner == self.me => score.points as i32,
                Some(_) => -(score.points as i32),
                None => 0,
            },
            None => 0,
        }
    }

    /// Plays `deal` to its end (or to the turn cap) from a turn's draw, each seat by its style
    /// (`styles[0]` the searching player's, `styles[1]` the opponent's), and returns the points
    /// it ends with (see [`Table::points`]). `first` forces the first draw: `Some(true)` takes
    /// the pile's top, `Some(false)` draws from the stock, `None` leaves it to the policy.
    pub(super) fn play_out(
        &self,
        deal: &mut Deal,
        mut first: Option<bool>,
        styles: [Style; 2],
        rng: &mut GinRng,
    ) -> i32 {
        for _ in 0..MAX_TURNS {
            let Some(mover) = deal.to_act().filter(|_| deal.phase() == Phase::Draw) else { break };
            let style = if mover == self.me { styles[0] } else { styles[1] };
            let hand = deal.cards(mover);
            let top = deal.pile().last().copied().filter(|_| deal.may_draw_pile());
            let take = match (first.take(), top) {
                (Some(take), Some(_)) => take,
                (_, Some(top)) => self.takes(style, hand, top),
                (_, None) => false,
            };
            deal.play_unchecked(self.rules, mover, if take { Action::DrawPile } else { Action::DrawStock });
            let (discard, deadwood) = self.discard(style, deal.cards(mover), deal.taken_card(), rng);
            if deadwood <= deal.knock_limit() && self.wants_to_knock(style, deadwood, deal.stock_len()) {
                deal.play_unchecked(self.rules, mover, Action::knock(discard));
                if let Some(defender) = deal.to_act() {
                    deal.play_unchecked(self.rules, defender, Action::LayOff);
                }
                break;
            }
            deal.play_unchecked(self.rules, mover, Action::Discard { card: discard });
        }
        self.points(deal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gin_engine::HandSetup;
    use gin_rules::ByPlayer;

    fn cards(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    /// A deal with both upcard offers refused: player one (the non-dealer) to draw `stock_top`
    /// first; the other cards not placed make up the rest of the stock.
    fn at_first_draw(rules: &Ruleset, one: &str, two: &str, upcard: &str, stock_top: &str) -> Deal {
        let (one, two, upcard, top) = (cards(one), cards(two), card(upcard), card(stock_top));
        let rest = CardSet::FULL - one - two - CardSet::from(upcard) - CardSet::from(top);
        let stock = std::iter::once(top).chain(rest).collect();
        let setup = HandSetup { dealer: Player::Two, hands: ByPlayer::new(one, two), upcard, stock };
        let mut deal = Deal::new(rules, &setup, 0).unwrap();
        deal.play_unchecked(rules, Player::One, Action::PassUpcard);
        deal.play_unchecked(rules, Player::Two, Action::PassUpcard);
        deal
    }

    fn table(rules: &Ruleset) -> Table<'_> {
        Table { rules, solver: rules.solver(), me: Player::One }
    }

    #[test]
    fn the_referee_scores_the_knocks_of_a_rollout() {
        let rules = Ruleset::eaai();
        let t = table(&rules);
        let mut rng = random::seeded_rng(1);
        let knocker = "AS 2S 3S 4S 5S 6S 8H 8D 5D QS";
        // Player one draws 8C, sheds QS and knocks with 5 (the 5D); the defender lays 7S off on
        // the spade run and melds the rest: an undercut, 25 + 5 to the defender.
        let mut deal = at_first_draw(&rules, knocker, "7S AD AH AC 2D 3D 4D KH KC KD", "9H", "8C");
        let styles = [Style::KNOCK_AT_ONCE, Style::GIN_HUNTER];
        assert_eq!(t.play_out(&mut deal, Some(false), styles, &mut rng), -(25 + 5));
        assert_eq!(deal.phase(), Phase::Over);
        // With a 9C that lays off nowhere instead of the 7S, the knocker wins by 9 - 5.
        let mut deal = at_first_draw(&rules, knocker, "9C AD AH AC 2D 3D 4D KH KC KD", "9H", "8C");
        assert_eq!(t.play_out(&mut deal, Some(false), styles, &mut rng), 4);
        // Seen from the defender's seat (its style first), the same hand scores the other way.
        let mut deal = at_first_draw(&rules, knocker, "9C AD AH AC 2D 3D 4D KH KC KD", "9H", "8C");
        let defender = Table { me: Player::Two, ..t };
        assert_eq!(defender.play_out(&mut deal, Some(false), [Style::GIN_HUNTER, Style::KNOCK_AT_ONCE], &mut rng), -4);
    }

    #[test]
    fn rollouts_end_and_conserve_cards() {
        let rules = Ruleset::eaai();
        let t = table(&rules);
        let mut rng = random::seeded_rng(3);
        for round in 0..200 {
            let setup = HandSetup::deal(Player::Two, &gin_cards::Deck::shuffled(&mut rng));
            let mut deal = Deal::new(&rules, &setup, 0).unwrap();
            deal.play_unchecked(&rules, Player::One, Action::PassUpcard);
            deal.play_unchecked(&rules, Player::Two, Action::PassUpcard);
            let styles =
                if round % 2 == 0 { [Style::GIN_HUNTER, Style::KNOCK_AT_ONCE] } else { [Style::KNOCK_AT_ONCE; 2] };
            let points = t.play_out(&mut deal, None, styles, &mut rng);
            assert!(points.abs() <= 25 + 100, "{points}");
            assert_eq!(deal.all_cards(), (CardSet::FULL, 52));
            assert_eq!(points, t.points(&deal));
            if deal.phase() == Phase::Over {
                assert!(deal.score().is_some());
            }
        }
    }

    #[test]
    fn styles_take_and_discard_as_described() {
        let rules = Ruleset::eaai();
        let t = table(&rules);
        let hand = cards("AS 2S 4H 5H 9C TC KD QD 7S 8D");
        // 3S melds (AS 2S 3S): both take it. KC neither melds nor lowers the deadwood.
        for style in [Style::KNOCK_AT_ONCE, Style::GIN_HUNTER] {
            assert!(t.takes(style, hand, card("3S")));
            assert!(!t.takes(style, hand, card("KC")));
        }
        // AD lowers the deadwood (it replaces KD) without melding: only the gin hunter takes it.
        assert!(t.takes(Style::GIN_HUNTER, hand, card("AD")));
        assert!(!t.takes(Style::KNOCK_AT_ONCE, hand, card("AD")));
        // The gin hunter sheds the highest of the least-deadwood discards, never the taken card.
        let mut rng = random::seeded_rng(1);
        let eleven = cards("AS 2S 3S 4H 5H 6H 9C TC JC KD KH");
        let (first, deadwood) = t.discard(Style::GIN_HUNTER, eleven, None, &mut rng);
        assert_eq!(deadwood, 10);
        assert_eq!(first.rank(), gin_cards::Rank::King);
        let (other, _) = t.discard(Style::GIN_HUNTER, eleven, Some(first), &mut rng);
        assert_eq!(other.rank(), gin_cards::Rank::King);
        assert_ne!(other, first);
    }
}
