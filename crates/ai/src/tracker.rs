//! `Tracker`: what one player has seen of the opponent during a hand.

use gin_cards::{Card, CardSet};
use gin_engine::Event;
use gin_rules::Player;

/// The public record of a hand from one seat: the pile as it evolved, and every card the
/// opponent took from the pile, refused or discarded. Agents feed it the events they observe
/// ([`Tracker::observe`]) and read it when they choose.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tracker {
    seat: Option<Player>,
    /// The discard pile, bottom first.
    pile: Vec<Card>,
    /// Cards the opponent took from the pile this hand (including ones it later discarded).
    opponent_took: CardSet,
    /// Pile tops the opponent refused: the upcard it passed, and the top when it drew from the stock.
    opponent_refused: CardSet,
    /// Cards the opponent discarded this hand.
    opponent_discarded: CardSet,
    /// Cards the opponent holds for sure (taken from the pile, not discarded since).
    opponent_holds: CardSet,
    /// The card this seat drew last (from the stock or the pile), this turn.
    last_draw: Option<Card>,
    /// Whether `last_draw` came from the pile.
    last_draw_from_pile: bool,
    /// How many draws both players made this hand.
    draws: u32,
}

impl Tracker {
    /// A tracker for `seat`.
    pub fn new(seat: Player) -> Tracker {
        Tracker { seat: Some(seat), ..Tracker::default() }
    }

    /// Starts over for a new seat (a new game).
    pub fn reset(&mut self, seat: Player) {
        *self = Tracker::new(seat);
    }

    /// Updates the record with one event as this seat saw it.
    pub fn observe(&mut self, event: &Event) {
        let me = self.seat.unwrap_or(Player::One);
        match event {
            Event::HandStarted { upcard, .. } => {
                *self = Tracker::new(me);
                self.pile.push(*upcard);
            }
            Event::TookUpcard { player, card } => self.took_from_pile(*player == me, *card),
            Event::PassedUpcard { player } if *player != me => {
                self.opponent_refused.extend(self.pile.last().copied());
            }
            Event::DrewStock { player, card } => {
                self.draws += 1;
                if *player == me {
                    self.last_draw = *card;
                    self.last_draw_from_pile = false;
                } else {
                    self.opponent_refused.extend(self.pile.last().copied());
                }
            }
            Event::DrewPile { player, card } => {
                self.draws += 1;
                self.took_from_pile(*player == me, *card);
            }
            Event::Discarded { player, card } | Event::Knocked { player, discard: Some(card), .. } => {
                self.pile.push(*card);
                if *player != me {
                    self.opponent_discarded.insert(*card);
                    self.opponent_holds.remove(*card);
                }
            }
            Event::StockRebuilt { .. } => {
                let top = self.pile.pop();
                self.pile.clear();
                self.pile.extend(top);
            }
            _ => {}
        }
    }

    /// A card taken from the top of the pile (the first upcard or a later discard).
    fn took_from_pile(&mut self, by_me: bool, card: Card) {
        self.pile.pop();
        if by_me {
            self.last_draw = Some(card);
            self.last_draw_from_pile = true;
        } else {
            self.opponent_took.insert(card);
            self.opponent_holds.insert(card);
        }
    }

    /// The discard pile, bottom first.
    pub fn pile(&self) -> &[Card] {
        &self.pile
    }

    /// Cards the opponent took from the pile this hand.
    pub fn opponent_took(&self) -> CardSet {
        self.opponent_took
    }

    /// Pile tops the opponent refused this hand.
    pub fn opponent_refused(&self) -> CardSet {
        self.opponent_refused
    }

    /// Cards the opponent discarded this hand.
    pub fn opponent_discarded(&self) -> CardSet {
        self.opponent_discarded
    }

    /// Cards the opponent surely holds.
    pub fn opponent_holds(&self) -> CardSet {
        self.opponent_holds
    }

    /// The card this seat drew most recently this hand, and whether it came from the pile.
    pub fn last_draw(&self) -> Option<(Card, bool)> {
        self.last_draw.map(|card| (card, self.last_draw_from_pile))
    }

    /// Draws made by both players this hand.
    pub fn draws(&self) -> u32 {
        self.draws
    }

    /// Cards this seat has not seen: not in `hand`, not in the pile, not known in the
    /// opponent's hand. They are in the stock or the opponent's hand.
    pub fn unseen(&self, hand: CardSet) -> CardSet {
        let pile: CardSet = self.pile.iter().copied().collect();
        CardSet::FULL - hand - pile - self.opponent_holds
    }

    /// The cards not seen beside `hand`, and the chance that the opponent holds each (by bit):
    /// its unknown cards spread evenly over the unseen ones, times `pickup_boost` for a card that
    /// melds with one of `took` (the cards it took from the pile that the agent counts), times
    /// `refusal_discount` for a card that melds with one it refused or discarded, at most 0.95;
    /// 1 for the cards it is known to hold (`known`). The expert's and the low holder's estimate.
    pub(crate) fn opponent_chances(
        &self,
        hand: CardSet,
        known: CardSet,
        opponent_cards: usize,
        took: CardSet,
        (pickup_boost, refusal_discount): (f64, f64),
    ) -> (CardSet, [f64; 64]) {
        let unseen = self.unseen(hand);
        let slots = opponent_cards.saturating_sub(known.len()) as f64;
        let base = if unseen.is_empty() { 0.0 } else { (slots / unseen.len() as f64).min(1.0) };
        let near = |cards: CardSet| cards.iter().fold(CardSet::EMPTY, |near, card| near | meld_partners(card));
        // Cards next to what the opponent let go are less likely in its hand, cards that meld
        // with what it took more likely.
        let let_go = near(self.opponent_refused() | self.opponent_discarded());
        let wanted = near(took);
        let mut opponent = [0.0; 64];
        for card in unseen {
            let mut p = base;
            if wanted.contains(card) {
                p *= pickup_boost;
            }
            if let_go.contains(card) {
                p *= refusal_discount;
            }
            opponent[usize::from(card.bit())] = p.min(0.95);
        }
        for card in known {
            opponent[usize::from(card.bit())] = 1.0;
        }
        (unseen, opponent)
    }
}

/// The cards that could meld with `card` (itself included): its rank, and its suit within two
/// ranks.
fn meld_partners(card: Card) -> CardSet {
    let mask = 1u16 << card.rank().index();
    let near = (mask << 1) | (mask >> 1) | (mask << 2) | (mask >> 2);
    CardSet::of_rank(card.rank()) | CardSet::from_suit_mask(card.suit(), near & 0x1fff)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gin_rules::ByPlayer;

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    #[test]
    fn follows_the_pile_and_the_opponent() {
        let mut t = Tracker::new(Player::One);
        t.observe(&Event::HandStarted {
            number: 1,
            dealer: Player::One,
            upcard: card("7H"),
            knock_limit: 10,
            hands: ByPlayer::new(Some("AS 2S 3S 4S 5S 6S 7S 8S 9S TS".parse().unwrap()), None),
        });
        t.observe(&Event::PassedUpcard { player: Player::Two });
        assert_eq!(t.opponent_refused(), CardSet::from(card("7H")));
        t.observe(&Event::TookUpcard { player: Player::One, card: card("7H") });
        assert_eq!(t.last_draw(), Some((card("7H"), true)));
        t.observe(&Event::Discarded { player: Player::One, card: card("TS") });
        t.observe(&Event::DrewPile { player: Player::Two, card: card("TS") });
        assert_eq!(t.opponent_holds(), CardSet::from(card("TS")));
        t.observe(&Event::Discarded { player: Player::Two, card: card("KD") });
        assert_eq!(t.pile(), &[card("KD")]);
        t.observe(&Event::DrewStock { player: Player::One, card: Some(card("2C")) });
        assert_eq!(t.last_draw(), Some((card("2C"), false)));
        t.observe(&Event::Discarded { player: Player::One, card: card("2C") });
        t.observe(&Event::DrewStock { player: Player::Two, card: None });
        assert!(t.opponent_refused().contains(card("2C")));
        assert_eq!(t.draws(), 3);
        let hand: CardSet = "AS 2S 3S 4S 5S 6S 7S 8S 9S 7H".parse().unwrap();
        let unseen = t.unseen(hand);
        assert!(!unseen.contains(card("TS")) && !unseen.contains(card("2C")) && !unseen.contains(card("KD")));
        assert_eq!(unseen.len(), 52 - 10 - 2 - 1);
    }
}
