//! The `simple`, `greedy` and `expert` agents: whole games without an illegal action, their
//! choices on positions set up by hand, and determinism.

use gin_ai::registry::AgentParams;
use gin_ai::{Advisor, ExpertAgent, ExpertParams, GreedyAgent, Reason, SimpleAgent};
use gin_cards::{Card, CardSet};
use gin_engine::{
    Action, Agent, Decision, Event, Game, GameOutcome, HandSetup, Phase, PlayerView, RandomAgent, RunOptions, play_game,
};
use gin_rules::settings::Settings;
use gin_rules::{ByPlayer, KnockKind, KnockLimit, Player, Ruleset, Showing, Solver, StockEnd};

const ONE: Player = Player::One;
const TWO: Player = Player::Two;

/// Agent seeds tried on positions where an agent chooses at random among equal options.
const SEEDS: std::ops::Range<u64> = 0..16;

fn card(text: &str) -> Card {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn cards(text: &str) -> CardSet {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A deal: `one` and `two` hold these cards (`two` empty: the first ten cards not otherwise
/// placed), `upcard` is turned, and the stock holds `top` first, then every other card.
fn setup(dealer: Player, one: &str, two: &str, upcard: &str, top: &str) -> HandSetup {
    let (one, upcard) = (cards(one), card(upcard));
    let top: Vec<Card> = top.split_whitespace().map(card).collect();
    let mut placed = one | CardSet::from(upcard) | top.iter().copied().collect::<CardSet>();
    let two = if two.is_empty() { (CardSet::FULL - placed).iter().take(10).collect() } else { cards(two) };
    placed |= two;
    let stock = top.into_iter().chain((CardSet::FULL - placed).iter()).collect();
    HandSetup { dealer, hands: ByPlayer::new(one, two), upcard, stock }
}

fn simple() -> Box<dyn Agent> {
    Box::new(SimpleAgent::default())
}

fn greedy() -> Box<dyn Agent> {
    Box::new(GreedyAgent::default())
}

fn expert() -> Box<dyn Agent> {
    Box::new(ExpertAgent::default())
}

/// One agent in one seat of a game set up by hand; the other seat is played by the test.
struct Table {
    game: Game,
    seat: Player,
    agent: Box<dyn Agent>,
    /// What the agent chose to show with its last action (`None`: the referee's choice).
    shown: Option<Showing>,
}

impl Table {
    fn new(rules: &Ruleset, setup: &HandSetup, seat: Player, mut agent: Box<dyn Agent>, agent_seed: u64) -> Table {
        let (game, opening) = Game::from_setup(rules, 7, setup).unwrap_or_else(|e| panic!("{e}"));
        agent.start_game(seat, rules, agent_seed);
        let mut table = Table { game, seat, agent, shown: None };
        table.deliver(&opening);
        table
    }

    fn deliver(&mut self, events: &[Event]) {
        for event in events {
            self.agent.observe(&event.seen_by(self.seat));
        }
    }

    /// What the agent would do now, without playing it: its action and the cards it shows.
    fn decision(&mut self) -> (Action, Option<Showing>) {
        assert_eq!(self.game.to_act(), Some(self.seat), "the agent is not to act");
        let legal = self.game.legal_actions();
        match self.agent.choose(&self.game.view(self.seat), &legal) {
            Decision::Play { action, showing } => (action, showing.map(|showing| *showing)),
            Decision::Resign { reason } => panic!("the agent resigned: {reason}"),
        }
    }

    /// What the agent would do now, without playing it.
    fn choice(&mut self) -> Action {
        self.decision().0
    }

    /// The agent acts (with the cards it shows, kept in `shown`); returns its action and the
    /// events it caused.
    fn agent_plays(&mut self) -> (Action, Vec<Event>) {
        let (action, shown) = self.decision();
        self.shown = shown;
        let events = self
            .game
            .play_with(self.seat, action, self.shown.as_ref())
            .unwrap_or_else(|e| panic!("{action} refused: {e}"));
        self.deliver(&events);
        (action, events)
    }

    /// The agent's opponent plays `action`, which must be listed.
    fn opponent_plays(&mut self, action: Action) {
        let legal = self.game.legal_actions();
        assert!(legal.contains(&action), "{action} is not listed: {legal:?}");
        let events = self.game.play(self.seat.opponent(), action).unwrap_or_else(|e| panic!("{action}: {e}"));
        self.deliver(&events);
    }

    fn hand(&self) -> CardSet {
        self.game.deal().cards(self.seat)
    }
}

fn discard(text: &str) -> Action {
    Action::Discard { card: card(text) }
}

// ---- Whole games ---------------------------------------------------------------------------

#[test]
fn agents_are_send() {
    fn is_send<T: Send>() {}
    is_send::<SimpleAgent>();
    is_send::<GreedyAgent>();
    is_send::<ExpertAgent>();
}

#[test]
fn agents_play_only_legal_actions_under_every_preset() {
    type Make = fn() -> Box<dyn Agent>;
    let random: Make = || Box::new(RandomAgent::default());
    let pairs: [(&str, Make, &str, Make); 8] = [
        ("expert", expert, "random", random),
        ("expert", expert, "simple", simple),
        ("expert", expert, "expert", expert),
        ("simple", simple, "random", random),
        ("greedy", greedy, "random", random),
        ("simple", simple, "greedy", greedy),
        ("simple", simple, "simple", simple),
        ("greedy", greedy, "greedy", greedy),
    ];
    // Every preset, and house rules that change what is legal.
    let house = Ruleset {
        knock_limit: KnockLimit::Fixed(5),
        may_discard_taken_card: true,
        layoffs: false,
        ace_high: true,
        stock_end: StockEnd::Reshuffle,
        ..Ruleset::standard()
    };
    let rulesets = Ruleset::PRESETS.map(|name| (name, Ruleset::preset(name).unwrap()));
    for (preset, rules) in rulesets.into_iter().chain([("house", house)]) {
        for (a_name, make_a, b_name, make_b) in pairs {
            let (mut a, mut b) = (make_a(), make_b());
            let mut finished = 0;
            // The expert thinks hard (and slowly in a debug build): fewer games.
            let games = if a_name == "expert" { 2 } else { 10 };
            for seed in 0..games {
                // Seats alternate from game to game.
                let (first, second): (&mut dyn Agent, &mut dyn Agent) =
                    if seed % 2 == 0 { (&mut *a, &mut *b) } else { (&mut *b, &mut *a) };
                let agents = ByPlayer([first, second]);
                let record = play_game(&rules, seed, agents, RunOptions::default());
                match record.outcome {
                    GameOutcome::Forfeit { player, action, reason } => {
                        panic!(
                            "{preset}, {a_name} v {b_name}, seed {seed}: {player} forfeits with {action:?}: {reason}"
                        )
                    }
                    GameOutcome::Finished { .. } => finished += 1,
                    GameOutcome::Abandoned { .. } => {}
                }
            }
            assert!(
                finished + games / 10 >= games,
                "{preset}, {a_name} v {b_name}: only {finished} of {games} finished"
            );
        }
    }
}

/// Wraps the simple agent and checks each of its discards against the card just taken and the
/// (drawn, discarded) pairs of the hand, which it follows from the events on its own.
struct Audited {
    inner: SimpleAgent,
    seat: Player,
    drawn: Option<Card>,
    pairs: Vec<CardSet>,
    discards: usize,
    /// Discards where a least-deadwood card was ruled out by the pair rule.
    pair_rule_mattered: usize,
}

impl Agent for Audited {
    fn name(&self) -> &str {
        "audited simple"
    }

    fn start_game(&mut self, seat: Player, rules: &Ruleset, seed: u64) {
        self.seat = seat;
        self.inner.start_game(seat, rules, seed);
    }

    fn observe(&mut self, event: &Event) {
        match *event {
            Event::HandStarted { .. } => self.pairs.clear(),
            Event::TookUpcard { player, card }
            | Event::DrewPile { player, card }
            | Event::DrewStock { player, card: Some(card) }
                if player == self.seat =>
            {
                self.drawn = Some(card);
            }
            _ => {}
        }
        self.inner.observe(event);
    }

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Decision {
        let decision = self.inner.choose(view, legal);
        if let Some(Action::Discard { card } | Action::Knock { discard: card, .. }) = decision.action() {
            assert_ne!(Some(card), view.taken_card, "discarded the card just taken");
            let drawn = self.drawn.expect("a card was drawn this turn");
            let pair = CardSet::from(drawn).with(card);
            assert!(!self.pairs.contains(&pair), "repeated the draw/discard pair {pair}");
            let solver = view.rules.solver();
            let allowed = view.hand - view.taken_card.map_or(CardSet::EMPTY, CardSet::from);
            let least = allowed.iter().map(|c| solver.min_deadwood(view.hand.without(c))).min();
            let blocked = allowed.iter().any(|c| {
                Some(solver.min_deadwood(view.hand.without(c))) == least
                    && self.pairs.contains(&CardSet::from(drawn).with(c))
            });
            self.pair_rule_mattered += usize::from(blocked);
            self.pairs.push(pair);
            self.discards += 1;
        }
        decision
    }
}

/// The two rules are also covered by crafted positions below, where they decide the discard; in
/// whole games the pair rule decides rarely (a few discards in ten thousand), so this checks that
/// they hold everywhere rather than that they come into play.
#[test]
fn simple_never_discards_the_card_taken_nor_repeats_a_pair_in_whole_games() {
    let rules = Ruleset::eaai();
    let audited = || Audited {
        inner: SimpleAgent::default(),
        seat: ONE,
        drawn: None,
        pairs: Vec::new(),
        discards: 0,
        pair_rule_mattered: 0,
    };
    let (mut a, mut b) = (audited(), audited());
    let mut random = RandomAgent::default();
    for seed in 0..40 {
        let opponent: &mut dyn Agent = if seed % 2 == 0 { &mut b } else { &mut random };
        let record = play_game(&rules, seed, ByPlayer([&mut a, opponent]), RunOptions::default());
        assert!(matches!(record.outcome, GameOutcome::Finished { .. }), "seed {seed}: {:?}", record.outcome);
    }
    assert!(a.discards + b.discards > 1000, "{} discards", a.discards + b.discards);
}

// ---- simple ---------------------------------------------------------------------------------

#[test]
fn simple_takes_the_upcard_exactly_when_it_makes_a_meld() {
    let rules = Ruleset::standard();
    let hand = "7S 7H 5D 6D 9C KC 2S 4H JD AC";
    for (upcard, takes) in [("7D", true), ("4D", true), ("7C", true), ("QC", false), ("3S", false), ("TH", false)] {
        let mut table = Table::new(&rules, &setup(TWO, hand, "", upcard, ""), ONE, simple(), 1);
        let expected = if takes { Action::TakeUpcard } else { Action::PassUpcard };
        assert_eq!(table.choice(), expected, "upcard {upcard}");
    }
}

#[test]
fn simple_takes_a_card_that_makes_any_meld_even_a_useless_one() {
    // 9C makes the set 9S 9D 9C, which would break both runs: it lowers nothing. The EAAI player
    // takes it all the same; greedy, which asks for a lower deadwood, does not.
    let rules = Ruleset::standard();
    let deal = setup(TWO, "7S 8S 9S 9D TD JD 6C 2H AS 4C", "", "9C", "");
    assert_eq!(Table::new(&rules, &deal, ONE, simple(), 1).choice(), Action::TakeUpcard);
    assert_eq!(Table::new(&rules, &deal, ONE, greedy(), 1).choice(), Action::PassUpcard);
}

/// Simple (player one) draws 6H and discards 9C; the opponent takes 9C and throws it back two
/// turns later. Simple takes 9C again (it makes the set 9S 9D 9C) and must then choose between
/// 6C and 6H, which leave the same deadwood: 6H would repeat the pair {6H, 9C}.
#[test]
fn simple_never_repeats_a_draw_discard_pair() {
    let rules = Ruleset::eaai();
    let deal = setup(TWO, "7S 8S 9S 9D TD JD 9C 6C 2H AS", "KC 3S 4S 5S 3H 4H 5H 3D 4D 5D", "QC", "6H KH 2C");
    for seed in SEEDS {
        let mut table = Table::new(&rules, &deal, ONE, simple(), seed);
        assert_eq!(table.agent_plays().0, Action::PassUpcard);
        table.opponent_plays(Action::PassUpcard);
        assert_eq!(table.agent_plays().0, Action::DrawStock);
        assert_eq!(table.agent_plays().0, discard("9C"), "the one card that leaves the least deadwood");
        table.opponent_plays(Action::DrawPile);
        table.opponent_plays(discard("KC"));
        // KC makes no meld: simple draws from the stock (KH) and throws KH.
        assert!(table.game.legal_actions().contains(&Action::DrawPile));
        assert_eq!(table.agent_plays().0, Action::DrawStock);
        assert_eq!(table.agent_plays().0, discard("KH"));
        table.opponent_plays(Action::DrawStock);
        table.opponent_plays(discard("9C"));
        assert_eq!(table.agent_plays().0, Action::DrawPile);
        let hand = table.hand();
        let solver = rules.solver();
        // Of the cards it may discard (not 9C), 6C and 6H leave the least deadwood.
        let allowed = hand.without(card("9C"));
        let least = allowed.iter().map(|c| solver.min_deadwood(hand.without(c))).min();
        let best: CardSet = allowed.iter().filter(|&c| Some(solver.min_deadwood(hand.without(c))) == least).collect();
        assert_eq!(best, cards("6C 6H"));
        assert_eq!(table.agent_plays().0, discard("6C"), "agent seed {seed}");
    }
}

#[test]
fn simple_never_discards_the_card_just_taken() {
    // With 7C taken, any seven, 9D or QD leaves gin, as 7C would: simple goes gin without 7C.
    let rules = Ruleset::eaai();
    let deal = setup(TWO, "7S 7H 7D AC 2C 3C 9D TD JD QD", "", "7C", "");
    let mut discards = CardSet::EMPTY;
    for seed in 0..32 {
        let mut table = Table::new(&rules, &deal, ONE, simple(), seed);
        assert_eq!(table.agent_plays().0, Action::TakeUpcard);
        let (action, events) = table.agent_plays();
        let Action::Knock { discard } = action else { panic!("seed {seed}: {action:?}") };
        assert!(table.shown.is_some(), "simple names its melds");
        assert!(events.iter().any(|e| matches!(e, Event::Knocked { kind: KnockKind::Gin, .. })), "{events:?}");
        discards.insert(discard);
    }
    assert_eq!(discards, cards("7S 7H 7D 9D QD"), "uniform among the best discards but the card taken");
}

#[test]
fn simple_goes_big_gin_where_it_is_played() {
    let deal = setup(TWO, "7S 7H 7D AC 2C 3C 9D TD JD QD", "", "7C", "");
    let mut table = Table::new(&Ruleset::standard(), &deal, ONE, simple(), 3);
    assert_eq!(table.agent_plays().0, Action::TakeUpcard);
    let (action, events) = table.agent_plays();
    assert_eq!(action, Action::BigGin);
    assert_eq!(table.shown.map(|shown| shown.deadwood()), Some(0), "simple names its melds");
    assert!(events.iter().any(|e| matches!(e, Event::Knocked { kind: KnockKind::BigGin, .. })));
}

#[test]
fn simple_knocks_at_the_first_chance_showing_a_random_best_arrangement() {
    let rules = Ruleset::eaai();
    let deal = setup(TWO, "AS 2S 3S 4S 5S 6S 8H 8D 8C 2D", "", "KC", "KD");
    let mut seen = Vec::new();
    for seed in SEEDS {
        let mut table = Table::new(&rules, &deal, ONE, simple(), seed);
        assert_eq!(table.agent_plays().0, Action::PassUpcard);
        table.opponent_plays(Action::PassUpcard);
        assert_eq!(table.agent_plays().0, Action::DrawStock);
        let (action, events) = table.agent_plays();
        assert_eq!(action, Action::knock(card("KD")));
        let knocked = events.iter().find_map(|e| match e {
            Event::Knocked { kind, shown, .. } => Some((*kind, *shown)),
            _ => None,
        });
        let Some((KnockKind::Knock, shown)) = knocked else { panic!("{events:?}") };
        assert_eq!(shown.deadwood(), 2);
        assert_eq!(table.shown, Some(shown), "the knock shows simple's melds");
        let mut melds: Vec<CardSet> = shown.melds().iter().map(|meld| meld.cards()).collect();
        melds.sort();
        if !seen.contains(&melds) {
            seen.push(melds);
        }
    }
    // The six spades as one run or as two runs of three.
    assert_eq!(seen.len(), 2, "{seen:?}");
}

#[test]
fn both_agents_lay_off_as_defenders() {
    // docs/rules.md V6: the knocker shows 5S 6S 7S; the defender's 4S 8S 9S all lay off.
    let rules = Ruleset::standard();
    let deal = setup(ONE, "4S 8S 9S 6H 7H 8H 9H 3D 4D 5D", "5S 6S 7S 2H 2D 2C JC QC KC TH", "AD", "");
    for (name, agent) in [("simple", simple()), ("greedy", greedy())] {
        let mut table = Table::new(&rules, &deal, ONE, agent, 5);
        table.opponent_plays(Action::TakeUpcard);
        table.opponent_plays(Action::knock(card("TH")));
        assert_eq!(table.game.deal().phase(), Phase::LayOff);
        let (action, events) = table.agent_plays();
        assert_eq!(action, Action::LayOff);
        if name == "simple" {
            let shown = table.shown.expect("simple names its melds");
            let mut melds: Vec<CardSet> = shown.melds().iter().map(|meld| meld.cards()).collect();
            melds.sort();
            let mut expected = vec![cards("6H 7H 8H 9H"), cards("3D 4D 5D")];
            expected.sort();
            assert_eq!(melds, expected);
        } else {
            assert_eq!(table.shown, None, "greedy leaves its answer to the referee");
        }
        let laid = events.iter().find_map(|e| match e {
            Event::HandEnded { showdown: Some(showdown), .. } => {
                let shown = showdown.shown[showdown.defender()];
                Some((shown.laid_off(), shown.deadwood()))
            }
            _ => None,
        });
        assert_eq!(laid, Some((cards("4S 8S 9S"), 0)), "{name}");
    }
}

// ---- greedy ---------------------------------------------------------------------------------

#[test]
fn greedy_takes_the_upcard_when_it_lowers_its_deadwood() {
    let rules = Ruleset::standard();
    // Deadwood 37 (KS KD JD 7H); the best discard after taking the upcard leaves:
    let hand = "AC 2C 3C 5S 5H 5D KS KD JD 7H";
    for (upcard, takes) in [("QD", true), ("4S", true), ("QH", false), ("TS", false)] {
        // QD makes JD QD KD (7); 4S replaces a king (31); QH and TS replace a ten-point card (37).
        let mut table = Table::new(&rules, &setup(TWO, hand, "", upcard, ""), ONE, greedy(), 1);
        let expected = if takes { Action::TakeUpcard } else { Action::PassUpcard };
        assert_eq!(table.choice(), expected, "upcard {upcard}");
    }
}

#[test]
fn greedy_keeps_its_bridges() {
    // After drawing 2H, KS, KD and JD each leave the same deadwood; KD and JD are a bridge to
    // JD QD KD, KS is alone: it goes.
    let rules = Ruleset::standard();
    let deal = setup(TWO, "AC 2C 3C 5S 5H 5D KS KD JD 7H", "", "QH", "2H");
    for seed in SEEDS {
        let mut table = Table::new(&rules, &deal, ONE, greedy(), seed);
        assert_eq!(table.agent_plays().0, Action::PassUpcard);
        table.opponent_plays(Action::PassUpcard);
        assert_eq!(table.agent_plays().0, Action::DrawStock);
        let solver = rules.solver();
        let hand = table.hand();
        assert_eq!(solver.best_discards(hand).discards, cards("KS KD JD"));
        assert_eq!(table.agent_plays().0, discard("KS"), "agent seed {seed}");
    }
}

#[test]
fn greedy_discards_the_higher_card_when_the_deadwood_is_the_same() {
    // After drawing 8H all eleven cards are melded: 5H, 8H, 9C or QC leave gin; QC is the
    // highest (all four are bridges). Without big gin it knocks with QC; with big gin it goes down.
    let deal = setup(TWO, "5H 6H 7H 9C TC JC QC 2S 2D 2C", "", "KS", "8H");
    let solver = Solver::ACE_LOW;
    assert_eq!(solver.best_discards(cards("5H 6H 7H 8H 9C TC JC QC 2S 2D 2C")).discards, cards("5H 8H 9C QC"));
    for seed in SEEDS {
        for (rules, expected) in [(Ruleset::eaai(), Action::knock(card("QC"))), (Ruleset::standard(), Action::BigGin)] {
            let mut table = Table::new(&rules, &deal, ONE, greedy(), seed);
            assert_eq!(table.agent_plays().0, Action::PassUpcard, "nothing lowers a deadwood of 0");
            table.opponent_plays(Action::PassUpcard);
            assert_eq!(table.agent_plays().0, Action::DrawStock);
            assert_eq!(table.agent_plays().0, expected, "agent seed {seed}");
        }
    }
}

#[test]
fn greedy_knocks_as_soon_as_it_may() {
    let rules = Ruleset::eaai();
    let deal = setup(TWO, "AS 2S 3S 4S 5S 6S 8H 8D 8C 2D", "", "KC", "KD");
    let mut table = Table::new(&rules, &deal, ONE, greedy(), 2);
    assert_eq!(table.agent_plays().0, Action::PassUpcard);
    table.opponent_plays(Action::PassUpcard);
    assert_eq!(table.agent_plays().0, Action::DrawStock);
    assert_eq!(table.agent_plays().0, Action::knock(card("KD")));
}

#[test]
fn greedy_holds_the_ranks_the_opponent_took() {
    // The opponent takes the upcard KH. TS and KD leave the same deadwood, but KD is a king: TS goes.
    let rules = Ruleset::standard();
    let deal = setup(ONE, "AC 2C 3C 5S 5H 5D TS KD 7H 3S", "QC 4C 6C 8C 4D 6D 8D AS 9S JH", "KH", "2H");
    for seed in SEEDS {
        let mut table = Table::new(&rules, &deal, ONE, greedy(), seed);
        table.opponent_plays(Action::TakeUpcard);
        table.opponent_plays(discard("QC"));
        assert_eq!(table.agent_plays().0, Action::DrawStock, "QC lowers nothing");
        let hand = table.hand();
        assert_eq!(rules.solver().best_discards(hand).discards, cards("TS KD"));
        assert_eq!(table.agent_plays().0, discard("TS"), "agent seed {seed}");
    }
}

#[test]
fn greedy_holds_the_suit_the_opponent_collects() {
    // The opponent takes AH, then greedy's KH: two hearts. 9S and 9H then leave the same
    // deadwood; 9H may help the opponent: 9S goes.
    let rules = Ruleset::standard();
    let deal = setup(ONE, "AC 2C 3C 5S 5H 5D 9S 9H KH 7D", "QC JC 4C 6C 8C 4D 6D 8D AS JS", "AH", "2D 3H");
    for seed in SEEDS {
        let mut table = Table::new(&rules, &deal, ONE, greedy(), seed);
        table.opponent_plays(Action::TakeUpcard);
        table.opponent_plays(discard("QC"));
        assert_eq!(table.agent_plays().0, Action::DrawStock);
        assert_eq!(table.agent_plays().0, discard("KH"));
        table.opponent_plays(Action::DrawPile);
        table.opponent_plays(discard("JC"));
        assert_eq!(table.agent_plays().0, Action::DrawStock, "JC lowers nothing");
        let hand = table.hand();
        assert_eq!(hand, cards("AC 2C 3C 5S 5H 5D 9S 9H 7D 2D 3H"));
        assert_eq!(rules.solver().best_discards(hand).discards, cards("9S 9H"));
        assert_eq!(table.agent_plays().0, discard("9S"), "agent seed {seed}");
    }
}

// ---- determinism ----------------------------------------------------------------------------

#[test]
fn the_same_seed_gives_the_same_game() {
    let options = RunOptions { keep_events: true, ..RunOptions::default() };
    for rules in [Ruleset::standard(), Ruleset::eaai()] {
        let (mut a, mut b) = (SimpleAgent::default(), GreedyAgent::default());
        let first = play_game(&rules, 11, ByPlayer([&mut a, &mut b]), options);
        // The same agents again (their state carried over), then fresh ones.
        let again = play_game(&rules, 11, ByPlayer([&mut a, &mut b]), options);
        let fresh =
            play_game(&rules, 11, ByPlayer([&mut SimpleAgent::default(), &mut GreedyAgent::default()]), options);
        assert!(matches!(first.outcome, GameOutcome::Finished { .. }));
        assert_eq!(first, again);
        assert_eq!(first, fresh);
        let other = play_game(&rules, 12, ByPlayer([&mut a, &mut b]), options);
        assert_ne!(first.events, other.events);
        // Simple against itself draws on its random source: still the same game every time.
        let (mut c, mut d) = (SimpleAgent::default(), SimpleAgent::default());
        let one = play_game(&rules, 5, ByPlayer([&mut c, &mut d]), options);
        let two = play_game(&rules, 5, ByPlayer([&mut c, &mut d]), options);
        assert_eq!(one, two);
    }
}

// ---- Expert ----------------------------------------------------------------------------------

#[test]
fn expert_knocks_in_its_first_turn_but_later_only_for_gin() {
    let rules = Ruleset::eaai();
    let hand = "AS 2S 3S 4S 5S 6S 8H 8D 8C QD";
    // First to act: its first draw leaves 30 in the stock, and it knocks with deadwood 10.
    let deal = setup(TWO, hand, "", "KH", "9C");
    let mut table = Table::new(&rules, &deal, ONE, expert(), 1);
    assert_eq!(table.agent_plays().0, Action::PassUpcard);
    table.opponent_plays(Action::PassUpcard);
    assert_eq!(table.agent_plays().0, Action::DrawStock);
    let (action, _) = table.agent_plays();
    assert!(matches!(action, Action::Knock { .. }), "{action:?}");

    // Second to act: its first draw leaves 29. It may knock with 10 but plays on; then 7S
    // gives gin, and it knocks at once.
    let deal = setup(ONE, hand, "", "KH", "JH 9C JC 7S");
    let mut table = Table::new(&rules, &deal, ONE, expert(), 1);
    table.opponent_plays(Action::PassUpcard);
    assert_eq!(table.agent_plays().0, Action::PassUpcard);
    table.opponent_plays(Action::DrawStock);
    table.opponent_plays(discard("JH"));
    assert_eq!(table.agent_plays().0, Action::DrawStock);
    assert!(table.game.legal_actions().iter().any(|a| matches!(a, Action::Knock { .. })), "a knock is allowed");
    let (action, _) = table.agent_plays();
    assert!(matches!(action, Action::Discard { .. }), "{action:?}");
    table.opponent_plays(Action::DrawStock);
    table.opponent_plays(discard("JC"));
    assert_eq!(table.agent_plays().0, Action::DrawStock);
    let (action, events) = table.agent_plays();
    assert!(matches!(action, Action::Knock { .. }), "{action:?}");
    let kind = events.iter().find_map(|e| match e {
        Event::Knocked { kind, .. } => Some(*kind),
        _ => None,
    });
    assert_eq!(kind, Some(KnockKind::Gin));
}

#[test]
fn expert_parameters_come_from_json_and_specs() {
    let params = AgentParams::from_json(r#"{"danger_weight": 7.5, "late_stock": 20}"#).unwrap().expert;
    assert_eq!(params.danger_weight, 7.5);
    assert_eq!(params.late_stock, 20);
    assert_eq!(params.knock_max_early, ExpertParams::default().knock_max_early);
    let err = AgentParams::from_json(r#"{"danger": 1}"#).unwrap_err().to_string();
    assert!(err.starts_with("unknown setting `danger`; valid settings: deadwood_weight,"), "{err}");
    let mut params = ExpertParams::default();
    params.set_text("knock_max_late", "3").unwrap();
    assert_eq!(params.knock_max_late, 3);
    let err = params.set_text("knock_max_late", "lots").unwrap_err().to_string();
    assert_eq!(err, r#"setting `knock_max_late` expects a whole number from 0 to 10, found "lots""#);
    let err = params.set_text("knock_max_late", "11").unwrap_err().to_string();
    assert_eq!(err, "setting `knock_max_late` must be from 0 to 10, found 11");
    let err = params.set_text("nonsense", "1").unwrap_err().to_string();
    assert!(err.contains("unknown setting `nonsense`") && err.contains("danger_weight"), "{err}");
    // What the table writes, it reads back; and the defaults are in range.
    let json = ExpertParams::default().to_json_value().to_string();
    assert_eq!(AgentParams::from_json(&json).unwrap().expert, ExpertParams::default());
    ExpertParams::default().validate().unwrap();
}

#[test]
fn the_expert_plays_the_same_game_from_the_same_seed() {
    let rules = Ruleset::eaai();
    let play = |seed| {
        let (mut a, mut b) = (expert(), simple());
        let options = RunOptions { keep_events: true, ..RunOptions::default() };
        play_game(&rules, seed, ByPlayer([a.as_mut(), b.as_mut()]), options)
    };
    assert_eq!(play(5), play(5));
    assert_ne!(play(5).events, play(6).events);
}

#[test]
fn the_experts_hint_is_its_move_with_reasons() {
    let rules = Ruleset::eaai();
    let deal = setup(ONE, "AS 2S 3S 4S 5S 6S 8H 8D 8C QD", "", "KH", "JH 9C JC 7S");
    let mut table = Table::new(&rules, &deal, ONE, expert(), 1);
    let mut twin = ExpertAgent::default();
    twin.start_game(ONE, &rules, 1);
    let (game, _) = Game::from_setup(&rules, 7, &deal).unwrap();
    twin.observe(&game.deal().started_event(1).seen_by(ONE));
    table.opponent_plays(Action::PassUpcard);
    let legal = table.game.legal_actions();
    let hint = twin.advise(&table.game.view(ONE), &legal);
    assert_eq!(hint.action, table.choice());
    let Some(&Reason::TakeOrDraw { card: upcard, take, stock }) = hint.reasons.first() else { panic!("{hint:?}") };
    assert_eq!(upcard, card("KH"));
    assert_eq!(take < stock, hint.action == Action::TakeUpcard, "{hint:?}");
    table.agent_plays();
    table.opponent_plays(Action::DrawStock);
    table.opponent_plays(discard("JH"));
    table.agent_plays();
    let legal = table.game.legal_actions();
    let view = table.game.view(ONE);
    let hint = twin.advise(&view, &legal);
    assert!(matches!(hint.reasons[0], Reason::HoldForGin { .. }), "{hint:?}");
    let discards: Vec<_> = hint
        .reasons
        .iter()
        .filter_map(|reason| match *reason {
            Reason::Discard { card, deadwood, danger, .. } => Some((card, deadwood, danger)),
            _ => None,
        })
        .collect();
    assert!(discards.len() >= 2, "{hint:?}");
    for (card, deadwood, danger) in discards {
        assert_eq!(deadwood, Solver::ACE_LOW.min_deadwood(view.hand.without(card)));
        assert!((0.0..=1.0).contains(&danger));
    }
    assert!(matches!(hint.reasons[1], Reason::Discard { card, .. } if hint.action == Action::Discard { card }));
}
