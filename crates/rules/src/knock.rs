//! Knocking and answering a knock: which discards may knock (rules 9, 10 and 13), the knocker's
//! arrangement that offers the least to lay off (rule 11), and the defender's answer when it
//! keeps some melds of its own (rules 15 and 16).

use gin_cards::{Card, CardSet, Rank};

use crate::{Arrangement, BestDiscards, KnockKind, KnockLimit, Meld, Ruleset, Showing, ShowingError, Solver};

impl Ruleset {
    /// The cards a player holding `hand` (after its draw) may discard: all of them, less the
    /// card `taken` from the discard pile this turn where the rules forbid discarding it (rule 9).
    pub fn discardable(&self, hand: CardSet, taken: Option<Card>) -> CardSet {
        match taken {
            Some(taken) if !self.may_discard_taken_card => hand.without(taken),
            _ => hand,
        }
    }

    /// The least deadwood a player holding `hand` (after its draw) can leave with a discard the
    /// rules allow ([`Ruleset::discardable`]: not the card `taken` from the pile this turn where
    /// rule 9 forbids it), and every allowed discard that leaves that much; `None` for a hand with
    /// nothing to discard. See [`Solver::best_discards_among`].
    ///
    /// ```
    /// use gin_rules::Ruleset;
    ///
    /// let rules = Ruleset::standard();
    /// let hand = "AS 2S 3S 4H 5H 6H 7C 8C 9C KD 2D".parse()?;
    /// let best = rules.best_legal_discards(hand, None).unwrap();
    /// assert_eq!((best.deadwood, best.discards.to_string()), (2, "KD".to_owned()));
    /// // The king was just taken from the pile: it must stay, and the two goes, leaving 10.
    /// let best = rules.best_legal_discards(hand, Some("KD".parse()?)).unwrap();
    /// assert_eq!((best.deadwood, best.discards.to_string()), (10, "2D".to_owned()));
    /// # Ok::<(), gin_cards::ParseError>(())
    /// ```
    #[inline]
    pub fn best_legal_discards(&self, hand: CardSet, taken: Option<Card>) -> Option<BestDiscards> {
        self.solver().best_discards_among(hand, self.discardable(hand, taken))
    }

    /// The discards with which a player holding `hand` (11 cards, after its draw) may knock in a
    /// hand whose knock limit is `limit` (gin included): those among [`Ruleset::discardable`] that
    /// leave at most `limit` deadwood (rules 9 and 10).
    ///
    /// ```
    /// use gin_rules::Ruleset;
    ///
    /// let rules = Ruleset::standard();
    /// let hand = "AS 2S 3S 4H 5H 6H 7C 8C 9C KD QD".parse()?;
    /// assert_eq!(rules.knock_discards(hand, None, 10).to_string(), "QD KD");
    /// // The queen was just taken from the pile: it must stay, and the king alone may go.
    /// assert_eq!(rules.knock_discards(hand, Some("QD".parse()?), 10).to_string(), "KD");
    /// assert!(rules.knock_discards(hand, None, 5).is_empty());
    /// # Ok::<(), gin_cards::ParseError>(())
    /// ```
    pub fn knock_discards(&self, hand: CardSet, taken: Option<Card>, limit: u32) -> CardSet {
        let solver = self.solver();
        // A discard lowers the deadwood by at most its value (10), so one cheap solve rules out most
        // hands before the search of discards.
        if solver.min_deadwood(hand) > limit + 10 || solver.best_discards(hand).deadwood > limit {
            return CardSet::EMPTY;
        }
        self.discardable(hand, taken).iter().filter(|&card| solver.min_deadwood(hand.without(card)) <= limit).collect()
    }

    /// Whether a player holding `hand` after its draw may go big gin: big gin is played and all
    /// 11 cards meld (rule 13).
    pub fn is_big_gin(&self, hand: CardSet) -> bool {
        self.big_gin_bonus.is_some() && hand.len() == 11 && self.solver().is_all_melded(hand)
    }

    /// Whether the defender may lay off after a knock of `kind`: the rules play layoffs (the
    /// setting `layoffs`) and the knock is not gin or big gin (rule 15).
    pub const fn allows_layoffs(&self, kind: KnockKind) -> bool {
        self.layoffs && matches!(kind, KnockKind::Knock)
    }

    /// The melds the defender may lay off on after a knock of `kind` in which the knocker showed
    /// `knocker`: the knocker's melds where [`Ruleset::allows_layoffs`], else none. This is what
    /// [`Solver::defend`] and [`Solver::defend_keeping`] take as the knocker's melds.
    ///
    /// ```
    /// use gin_cards::CardSet;
    /// use gin_rules::{KnockKind, Meld, Ruleset, Showing};
    ///
    /// let melds = [Meld::new("5S 6S 7S".parse()?, false)?, Meld::new("9H 9D 9C".parse()?, false)?];
    /// let knocker = Showing::new("5S 6S 7S 9H 9D 9C 2C 3C 4D AH".parse()?, &melds, CardSet::EMPTY)?;
    /// let rules = Ruleset::standard();
    /// assert_eq!(rules.layoff_melds(KnockKind::Knock, &knocker), &melds);
    /// // Nothing is laid off on gin, nor under a house rule without layoffs.
    /// assert!(rules.layoff_melds(KnockKind::Gin, &knocker).is_empty());
    /// let strict = Ruleset { layoffs: false, ..Ruleset::standard() };
    /// assert!(strict.layoff_melds(KnockKind::Knock, &knocker).is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn layoff_melds<'a>(&self, kind: KnockKind, knocker: &'a Showing) -> &'a [Meld] {
        if self.allows_layoffs(kind) { knocker.melds() } else { &[] }
    }

    /// Under the Oklahoma rule, the lowest first upcard that lets a hand with `deadwood` knock: an
    /// ace for gin, a two for 1 or 2 points, …, a ten for 10; `None` above 10 (rule 14).
    pub fn lowest_upcard_for(deadwood: u32) -> Option<Rank> {
        let oklahoma = Ruleset { knock_limit: KnockLimit::Upcard, ..Ruleset::standard() };
        Rank::ALL
            .into_iter()
            .find(|&rank| oklahoma.knock_limit_for(Card::new(rank, gin_cards::Suit::Clubs)) >= deadwood)
    }
}

impl Solver {
    /// Among the best arrangements of the knocker's `kept` cards, the one whose melds take the
    /// least layoff weight: each card that would fit one of its melds (the fourth of a 3-card
    /// set, the neighbour at either end of a run) counts `weight(card)`, such as the chance that
    /// the defender holds it times its value (rule 11: the knocker's arrangement is its choice).
    /// Ties go to the first arrangement found.
    pub fn safest_arrangement(self, kept: CardSet, weight: impl Fn(Card) -> f64) -> Arrangement {
        let exposure = |arrangement: &Arrangement| -> f64 {
            // A plain left fold from +0.0, so that equal exposures compare equal (an empty `sum`
            // of floats is -0.0, which `total_cmp` orders below +0.0).
            let targets = arrangement.melds().iter().flat_map(|meld| meld.layoff_targets(self.ace_high()));
            targets.map(&weight).fold(0.0, |total, w| total + w)
        };
        self.best_arrangements(kept)
            .iter()
            .map(|arrangement| (exposure(arrangement), arrangement))
            .min_by(|x, y| x.0.total_cmp(&y.0))
            .map_or_else(|| self.best_arrangement(kept), |(_, arrangement)| *arrangement)
    }

    /// The defender's answer when it keeps `own` melds: the rest of `hand` is laid off on
    /// `knocker_melds` and melded the best way (rules 15 and 16). Pass no knocker melds when
    /// layoffs are not allowed.
    ///
    /// # Errors
    /// [`ShowingError`] if `own` uses cards not in `hand` or a card twice.
    pub fn defend_keeping(self, knocker_melds: &[Meld], hand: CardSet, own: &[Meld]) -> Result<Showing, ShowingError> {
        let kept = Showing::new(hand, own, CardSet::EMPTY)?;
        let defense = self.defend(knocker_melds, kept.unmelded());
        let melds = [own, defense.arrangement.melds()].concat();
        Showing::new(hand, &melds, defense.laid_off)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    #[test]
    fn knock_discards_follow_the_limit_and_the_taken_card() {
        let rules = Ruleset::standard();
        let hand = cards("AS 2S 3S 4H 5H 6H 7C 8C 9C KD 2D");
        assert_eq!(rules.knock_discards(hand, None, 10), cards("KD 2D"));
        assert_eq!(rules.knock_discards(hand, None, 2), cards("KD"));
        assert_eq!(rules.knock_discards(hand, Some(cards("KD").first().unwrap()), 10), cards("2D"));
        let lax = Ruleset { may_discard_taken_card: true, ..Ruleset::standard() };
        assert_eq!(lax.knock_discards(hand, Some(cards("KD").first().unwrap()), 10), cards("KD 2D"));
        assert!(rules.knock_discards(hand, None, 1).is_empty());
        // Knocks are only ever discards.
        let taken = Some(cards("2D").first().unwrap());
        assert!(rules.knock_discards(hand, taken, 10).is_subset(rules.discardable(hand, taken)));
    }

    #[test]
    fn the_best_legal_discards_keep_the_taken_card() {
        let rules = Ruleset::standard();
        let hand = cards("AS 2S 3S 4H 5H 6H 7C 8C 9C KD 2D");
        let best = |taken: &str| rules.best_legal_discards(hand, cards(taken).first());
        assert_eq!(best(""), Some(BestDiscards { deadwood: 2, discards: cards("KD") }));
        assert_eq!(best("KD"), Some(BestDiscards { deadwood: 10, discards: cards("2D") }));
        // Taking a card that is not the best discard changes nothing.
        assert_eq!(best("2D"), Some(BestDiscards { deadwood: 2, discards: cards("KD") }));
        // Ties keep every allowed card that reaches the least deadwood, and only those.
        let tied = cards("AS 2S 3S 4H 5H 6H 7C 8C 9C KD QD");
        assert_eq!(rules.best_legal_discards(tied, cards("QD").first()).map(|b| b.discards), Some(cards("KD")));
        let lax = Ruleset { may_discard_taken_card: true, ..Ruleset::standard() };
        assert_eq!(lax.best_legal_discards(hand, cards("KD").first()), rules.best_legal_discards(hand, None));
        assert_eq!(rules.best_legal_discards(CardSet::EMPTY, None), None);
        // A lone card that was just taken leaves nothing to discard.
        assert_eq!(rules.best_legal_discards(cards("KD"), cards("KD").first()), None);
    }

    #[test]
    fn layoffs_only_after_a_knock_and_where_the_rules_allow_them() {
        let melds = [Meld::new(cards("5S 6S 7S"), false).unwrap()];
        let knocker = Showing::new(cards("5S 6S 7S 9H 9D 2C 3C 4D AH KS"), &melds, CardSet::EMPTY).unwrap();
        let strict = Ruleset { layoffs: false, ..Ruleset::standard() };
        for kind in [KnockKind::Knock, KnockKind::Gin, KnockKind::BigGin] {
            let knock = kind == KnockKind::Knock;
            assert_eq!(Ruleset::standard().allows_layoffs(kind), knock, "{kind:?}");
            assert!(!strict.allows_layoffs(kind), "{kind:?}");
            let expected: &[Meld] = if knock { &melds } else { &[] };
            assert_eq!(Ruleset::standard().layoff_melds(kind, &knocker), expected, "{kind:?}");
            assert!(strict.layoff_melds(kind, &knocker).is_empty(), "{kind:?}");
        }
    }

    #[test]
    fn big_gin_needs_all_eleven_and_the_rule() {
        let eleven = cards("AS 2S 3S 4S 5H 6H 7H 8C 8D 8H 8S");
        assert!(Ruleset::standard().is_big_gin(eleven));
        assert!(!Ruleset::eaai().is_big_gin(eleven));
        assert!(!Ruleset::standard().is_big_gin(cards("AS 2S 3S 4S 5H 6H 7H 8C 8D 8H 9S")));
    }

    #[test]
    fn lowest_upcards_under_oklahoma() {
        assert_eq!(Ruleset::lowest_upcard_for(0), Some(Rank::Ace));
        assert_eq!(Ruleset::lowest_upcard_for(1), Some(Rank::Two));
        assert_eq!(Ruleset::lowest_upcard_for(2), Some(Rank::Two));
        assert_eq!(Ruleset::lowest_upcard_for(7), Some(Rank::Seven));
        assert_eq!(Ruleset::lowest_upcard_for(10), Some(Rank::Ten));
        assert_eq!(Ruleset::lowest_upcard_for(11), None);
    }

    #[test]
    fn the_safest_arrangement_offers_the_least_to_lay_off() {
        // Vector V8's knocker: three runs or three sets, the same deadwood.
        let kept = cards("7S 8S 9S 7H 8H 9H 7D 8D 9D KC");
        let solver = Solver::ACE_LOW;
        assert!(solver.best_arrangements(kept).len() > 1);
        // Weigh only the 6S: the runs take it, so the sets are shown; weigh the 7C and the runs are.
        let only = |text: &str| {
            let card = cards(text).first().unwrap();
            solver.safest_arrangement(kept, move |c| if c == card { 6.0 } else { 0.0 })
        };
        let sets = only("6S");
        assert!(sets.melds().iter().all(|meld| meld.kind() == crate::MeldKind::Set), "{sets}");
        let runs = only("7C");
        assert!(runs.melds().iter().all(|meld| meld.kind() == crate::MeldKind::Run), "{runs}");
        assert_eq!(runs.deadwood(), solver.min_deadwood(kept));
    }

    #[test]
    fn a_defender_keeping_its_melds_lays_off_the_rest() {
        let solver = Solver::ACE_LOW;
        let knocker = [Meld::new(cards("5S 6S 7S"), false).unwrap()];
        let hand = cards("8S 9S 8H 8D 8C 2C 3C 4C KH QH");
        // Keeping the four 8s leaves the 9S with no 8S to chain from: it stays unmelded.
        let own = [Meld::new(cards("8S 8H 8D 8C"), false).unwrap()];
        let shown = solver.defend_keeping(&knocker, hand, &own).unwrap();
        assert_eq!(shown.laid_off(), CardSet::EMPTY);
        assert_eq!(shown.melds().len(), 2);
        assert_eq!(shown.deadwood(), 9 + 10 + 10);
        // Left to itself it lays 8S 9S off and keeps three 8s.
        let best = solver.defend(&knocker, hand);
        assert_eq!((best.laid_off, best.deadwood), (cards("8S 9S"), 20));
        let bad = [Meld::new(cards("AD 2D 3D"), false).unwrap()];
        assert!(solver.defend_keeping(&knocker, hand, &bad).is_err());
    }
}
