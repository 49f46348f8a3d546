//! `SimpleAgent`: a port of the EAAI competition's `SimpleGinRummyPlayer`.

use gin_cards::random::{self, GinRng};
use gin_cards::{Card, CardSet};
use gin_engine::{Action, Agent, Decision, Event, Phase, PlayerView};
use gin_rules::{Arrangement, Player, Ruleset, Showing, Solver};

use crate::Tracker;
use crate::picks::Picks;

/// The EAAI 2021 competition's sample player, `SimpleGinRummyPlayer`, ported for its behaviour.
///
/// - It takes the face-up card (the first upcard, or the top of the pile) exactly when that card
///   is part of some meld of its hand with the card; otherwise it passes or draws from the stock.
/// - It discards, uniformly at random, one of the cards whose discard leaves the least deadwood,
///   never the card just taken from the pile, and never a card that would repeat a (card drawn,
///   card discarded) pair already played this hand, in either order.
/// - It knocks as soon as that discard leaves a hand it may knock with (gin included), showing a
///   best arrangement chosen at random; it goes big gin where the rules play it.
/// - As the defender it shows a best arrangement of its own chosen at random, and the engine lays
///   off its unmelded cards the best way, as the EAAI framework does.
#[derive(Clone, Debug)]
pub struct SimpleAgent {
    rng: GinRng,
    /// The game's seed for this agent; each decision reseeds `rng` from it
    /// ([`PlayerView::decision_seed`]), so a choice never depends on the ones before.
    seed: u64,
    tracker: Tracker,
    /// The (drawn, discarded) pairs of this hand, each as the set of its one or two cards.
    used_pairs: Vec<CardSet>,
    /// The melds (and layoffs) it chose with its last knock, big gin or defense, for `show`.
    showing: Option<Showing>,
}

impl SimpleAgent {
    /// A simple agent seeded with `seed` (the runner reseeds it at each game).
    pub fn new(seed: u64) -> SimpleAgent {
        SimpleAgent {
            rng: random::seeded_rng(seed),
            seed,
            tracker: Tracker::default(),
            used_pairs: Vec::new(),
            showing: None,
        }
    }

    /// The discard: a random one among the allowed cards that leave the least deadwood. The pair
    /// it makes with the card drawn this turn is remembered.
    fn pick_discard(&mut self, view: &PlayerView<'_>) -> Option<Card> {
        let solver = view.rules.solver();
        let hand = view.hand;
        let allowed = match view.taken_card {
            Some(taken) => hand.without(taken),
            None => hand,
        };
        let drawn = self.tracker.last_draw().map(|(card, _)| card).filter(|&card| hand.contains(card));
        let fresh: CardSet = match drawn {
            Some(drawn) => allowed.iter().filter(|&card| !self.used_pairs.contains(&pair(drawn, card))).collect(),
            None => allowed,
        };
        // Every allowed card repeating a pair cannot happen in a real hand; EAAI's player would
        // fail there, this one lets the pair rule go.
        let pool = if fresh.is_empty() { allowed } else { fresh };
        let candidates = solver.best_discards_among(hand, pool).map_or(CardSet::EMPTY, |best| best.discards);
        let card = self.pick_card(candidates)?;
        if let Some(drawn) = drawn {
            self.used_pairs.push(pair(drawn, card));
        }
        Some(card)
    }

    /// A uniformly random card of `cards`.
    fn pick_card(&mut self, cards: CardSet) -> Option<Card> {
        if cards.is_empty() {
            return None;
        }
        cards.iter().nth(random::index(&mut self.rng, cards.len()))
    }

    /// A best arrangement of `cards`, chosen uniformly among all of them.
    fn random_best(&mut self, solver: Solver, cards: CardSet) -> Arrangement {
        let arrangements = solver.best_arrangements(cards);
        if arrangements.is_empty() {
            solver.best_arrangement(cards)
        } else {
            arrangements[random::index(&mut self.rng, arrangements.len())]
        }
    }

    /// Discards, or knocks and keeps the melds it will show.
    fn discard_or_knock(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Option<Action> {
        let solver = view.rules.solver();
        if legal.contains(&Action::BigGin) {
            self.showing = Showing::of_arrangement(&self.random_best(solver, view.hand));
            return Some(Action::BigGin);
        }
        let discard = self.pick_discard(view)?;
        if legal.contains(&Action::knock(discard)) {
            self.showing = Showing::of_arrangement(&self.random_best(solver, view.hand.without(discard)));
            return Some(Action::knock(discard));
        }
        Some(Action::Discard { card: discard })
    }

    /// The defender's answer: a random best arrangement of its whole hand kept as it is, and
    /// the best layoffs from the cards it leaves unmelded (as the original player does).
    fn defend(&mut self, view: &PlayerView<'_>) -> Action {
        let solver = view.rules.solver();
        let own = self.random_best(solver, view.hand);
        let targets = view.knock.as_ref().map_or(&[][..], |knock| view.rules.layoff_melds(knock.kind, &knock.shown));
        self.showing = solver.defend_keeping(targets, view.hand, own.melds()).ok();
        Action::LayOff
    }
}

impl Default for SimpleAgent {
    fn default() -> SimpleAgent {
        SimpleAgent::new(0)
    }
}

impl Agent for SimpleAgent {
    fn name(&self) -> &str {
        "simple"
    }

    fn start_game(&mut self, seat: Player, _rules: &Ruleset, seed: u64) {
        self.seed = seed;
        self.tracker.reset(seat);
        self.used_pairs.clear();
    }

    fn observe(&mut self, event: &Event) {
        if matches!(event, Event::HandStarted { .. }) {
            self.used_pairs.clear();
        }
        self.tracker.observe(event);
    }

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Decision {
        crate::picks::decide(self, view, legal)
    }
}
impl Picks for SimpleAgent {
    /// The action this agent plays from `view`, one of `legal`.
    fn pick(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Action {
        self.rng = random::seeded_rng(view.decision_seed(self.seed));
        self.showing = None;
        let wants_face_up = || view.pile_top().is_some_and(|card| forms_meld(view.hand, card, view.rules.ace_high));
        let action = match view.phase {
            Phase::UpcardOffer if wants_face_up() => Some(Action::TakeUpcard),
            Phase::UpcardOffer => Some(Action::PassUpcard),
            Phase::Draw if legal.contains(&Action::DrawPile) && wants_face_up() => Some(Action::DrawPile),
            Phase::Draw => Some(Action::DrawStock),
            Phase::Discard => self.discard_or_knock(view, legal),
            Phase::LayOff => Some(self.defend(view)),
            Phase::Over => None,
        };
        match action {
            Some(action) if legal.contains(&action) => action,
            _ => {
                self.showing = None;
                legal.first().copied().unwrap_or(Action::LayOff)
            }
        }
    }

    /// The cards it lays down with `action`, a knock, big gin or a defense it just chose (`None`: the
    /// referee's choice).
    fn shown(&mut self, _view: &PlayerView<'_>, _action: Action) -> Option<Showing> {
        self.showing.take()
    }
}

/// Whether `card` belongs to some meld of `hand` with `card`.
fn forms_meld(hand: CardSet, card: Card, ace_high: bool) -> bool {
    Solver::new(ace_high).can_meld(hand, card)
}

/// A draw and a discard as an unordered pair (one card when the card drawn is discarded).
fn pair(drawn: Card, discarded: Card) -> CardSet {
    CardSet::from(drawn).with(discarded)
}
