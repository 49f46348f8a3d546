//! Property tests on states reached by seeded random walks of legal actions, under every preset
//! and a few house rules: "listed as legal <=> play succeeds", card conservation, views hide what
//! they must, logs replay to the same game, `play_unchecked` agrees with `play`, and games between
//! agents are deterministic.

use gin_cards::random::{self, GinRng};
use gin_cards::{Card, CardSet, Deck};
use gin_engine::{
    Action, Event, Game, HandSetup, LogHeader, Phase, PlayError, RandomAgent, ReplayError, RunOptions, play_game,
    replay, write_log,
};
use gin_rules::{ByPlayer, Player, Ruleset, StockEnd, melds_in};
use proptest::prelude::*;

/// The rulesets walked: every preset, and the house rules that change what is legal.
fn rulesets() -> Vec<(&'static str, Ruleset)> {
    let mut all: Vec<_> = Ruleset::PRESETS.iter().map(|&name| (name, Ruleset::preset(name).unwrap())).collect();
    all.push(("reshuffle", Ruleset { stock_end: StockEnd::Reshuffle, ..Ruleset::standard() }));
    all.push(("no layoffs", Ruleset { layoffs: false, ..Ruleset::standard() }));
    all.push((
        "discard taken, ace high",
        Ruleset { may_discard_taken_card: true, ace_high: true, ..Ruleset::standard() },
    ));
    all
}

const RULESETS: usize = Ruleset::PRESETS.len() + 3;

fn ruleset(index: usize) -> (&'static str, Ruleset) {
    rulesets().swap_remove(index)
}

/// Every action without a named arrangement: the unit actions, and a discard and a knock with
/// each card. Named arrangements are legal without being listed, so they are not in here.
fn universe() -> Vec<Action> {
    let mut all = vec![
        Action::TakeUpcard,
        Action::PassUpcard,
        Action::DrawStock,
        Action::DrawPile,
        Action::LAY_OFF_BEST,
        Action::BigGin { melds: None },
    ];
    for card in CardSet::FULL {
        all.push(Action::Discard { card });
        all.push(Action::knock(card));
    }
    all
}

/// Some arrangement of `cards`: disjoint melds taken in a seeded order, not always a best one.
fn some_melds(cards: CardSet, ace_high: bool, rng: &mut GinRng) -> Vec<CardSet> {
    let mut melds = melds_in(cards, ace_high);
    random::shuffle(rng, &mut melds);
    let mut used = CardSet::EMPTY;
    let mut chosen = Vec::new();
    for meld in melds {
        if meld.cards().is_disjoint(used) && random::below(rng, 4) != 0 {
            used |= meld.cards();
            chosen.push(meld.cards());
        }
    }
    chosen
}

fn union(melds: &[CardSet]) -> CardSet {
    melds.iter().fold(CardSet::EMPTY, |all, &meld| all | meld)
}

/// A listed action with its arrangement named: a best arrangement for a knock or big gin; for
/// the defender, its best defense with one or both parts named.
fn named(game: &Game, action: &Action, rng: &mut GinRng) -> Option<Action> {
    let hand = game.hand();
    let held = hand.cards(game.to_act()?);
    let solver = hand.rules().solver();
    let melds_of = |cards: CardSet| -> Vec<CardSet> {
        solver.best_arrangement(cards).melds().iter().map(|meld| meld.cards()).collect()
    };
    match *action {
        Action::Knock { discard, melds: None } => {
            Some(Action::Knock { discard, melds: Some(melds_of(held.without(discard))) })
        }
        Action::BigGin { melds: None } => Some(Action::BigGin { melds: Some(melds_of(held)) }),
        Action::LayOff { melds: None, laid_off: None } => {
            let defense = solver.defend(&hand.knock()?.melds, held);
            let melds: Vec<CardSet> = defense.arrangement.melds().iter().map(|meld| meld.cards()).collect();
            Some(match random::below(rng, 3) {
                0 => Action::LayOff { melds: Some(melds), laid_off: Some(defense.laid_off) },
                1 => Action::LayOff { melds: None, laid_off: Some(defense.laid_off) },
                _ => Action::LayOff { melds: Some(melds), laid_off: None },
            })
        }
        _ => None,
    }
}

/// The next action of a walk: mostly a listed action that plays well enough to reach knocks,
/// layoffs and the end of games (a knock half the time one is listed, else most often a discard
/// that keeps the least deadwood), otherwise any listed action; a third of the time with its
/// arrangement named.
fn choose(game: &Game, legal: &[Action], rng: &mut GinRng) -> Action {
    let knocks: Vec<&Action> =
        legal.iter().filter(|a| matches!(a, Action::Knock { .. } | Action::BigGin { .. })).collect();
    let best = match game.to_act() {
        Some(player) if game.hand().phase() == Phase::Discard => {
            let held = game.hand().cards(player);
            game.hand().rules().solver().best_discards(held).discards
        }
        _ => CardSet::EMPTY,
    };
    let good: Vec<&Action> =
        legal.iter().filter(|a| matches!(a, Action::Discard { card } if best.contains(*card))).collect();
    let action = if !knocks.is_empty() && random::below(rng, 2) == 0 {
        knocks[random::index(rng, knocks.len())].clone()
    } else if !good.is_empty() && random::below(rng, 4) != 0 {
        good[random::index(rng, good.len())].clone()
    } else {
        legal[random::index(rng, legal.len())].clone()
    };
    if random::below(rng, 3) == 0 { named(game, &action, rng).unwrap_or(action) } else { action }
}

fn knocked_deadwood(events: &[Event]) -> Option<u32> {
    events.iter().find_map(|event| match event {
        Event::Knocked { deadwood, .. } => Some(*deadwood),
        _ => None,
    })
}

fn defender_deadwood(events: &[Event]) -> Option<u32> {
    events.iter().find_map(|event| match event {
        Event::LaidOff { deadwood, .. } => Some(*deadwood),
        _ => None,
    })
}

/// Adds a play's events to the current hand's events (a new deal starts them afresh).
fn record(current: &mut Vec<Event>, events: &[Event]) {
    for event in events {
        if matches!(event, Event::HandStarted { .. }) {
            current.clear();
        }
        current.push(event.clone());
    }
}

/// The invariants of one state: the 52 cards, the hands' sizes, the views.
fn check_state(game: &Game, current: &[Event]) -> Result<(), TestCaseError> {
    let hand = game.hand();
    prop_assert_eq!(hand.all_cards(), (CardSet::FULL, 52), "the 52 cards, each once");
    prop_assert_eq!(hand.knock_limit(), hand.rules().knock_limit_for(hand.upcard()));
    prop_assert_eq!(game.to_act().is_none(), game.result().is_some(), "a player acts until the game is over");
    if let Some(player) = game.to_act() {
        let sizes = (hand.cards(player).len(), hand.cards(player.opponent()).len());
        let expected = match hand.phase() {
            Phase::UpcardOffer | Phase::Draw | Phase::LayOff => (10, 10),
            Phase::Discard => (11, 10),
            Phase::Over => unreachable!("a player acts"),
        };
        prop_assert_eq!(sizes, expected, "hand sizes in {:?}", hand.phase());
    }
    for seat in Player::ALL {
        let view = game.view(seat);
        prop_assert_eq!(view.seat, seat);
        prop_assert_eq!(view.hand, hand.cards(seat));
        prop_assert_eq!(view.opponent_cards, hand.cards(seat.opponent()).len());
        prop_assert_eq!(view.opponent_known, hand.known(seat.opponent()));
        prop_assert!(view.opponent_known.is_subset(hand.cards(seat.opponent())));
        prop_assert_eq!(view.stock_size, hand.stock_len());
        prop_assert_eq!(view.discard_pile, hand.pile());
        prop_assert_eq!((view.phase, view.to_act), (hand.phase(), game.to_act()));
        // The view's events are the hand's, as this player sees them: never the opponent's
        // stock draws or dealt cards, always its own.
        let seen: Vec<Event> = current.iter().map(|event| event.seen_by(seat)).collect();
        prop_assert_eq!(view.events, &seen[..]);
        prop_assert!(matches!(view.events.first(), Some(Event::HandStarted { .. })), "{:?}", view.events.first());
        for event in view.events {
            match event {
                Event::DrewStock { player, card } => {
                    prop_assert_eq!(card.is_some(), *player == seat, "{} sees {:?}", seat, event);
                }
                Event::HandStarted { hands, .. } => {
                    prop_assert!(hands[seat].is_some(), "{} does not see its own deal", seat);
                    prop_assert!(hands[seat.opponent()].is_none(), "{} sees the opponent's deal", seat);
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// "Listed as legal <=> play succeeds" at one state, and `play_unchecked` agrees with `play`.
fn check_actions(game: &mut Game, universe: &[Action], rng: &mut GinRng) -> Result<(), TestCaseError> {
    let before = game.clone();
    let legal = game.legal_actions();
    let to_act = game.to_act();
    prop_assert_eq!(legal.is_empty(), to_act.is_none());
    for (i, action) in legal.iter().enumerate() {
        prop_assert!(!legal[..i].contains(action), "{} listed twice", action);
    }
    if let Some(player) = to_act {
        for action in &legal {
            let mut copy = game.clone();
            let events = copy.play(player, action);
            prop_assert!(events.is_ok(), "listed {} refused: {:?}", action, events);
            let mut fast = game.hand().clone();
            let mut fast_events = Vec::new();
            fast.play_unchecked(player, action, &mut fast_events);
            let mut checked = game.hand().clone();
            let checked_events = checked.play(player, action).expect("a listed action plays");
            prop_assert_eq!(&fast, &checked, "play_unchecked({}) differs from play", action);
            prop_assert_eq!(&fast_events, &checked_events);
            prop_assert_eq!(copy.hand().phase() == Phase::Over, copy.result().is_some(), "the game deals on or ends");
            // The same knock with a best arrangement named shows the same deadwood.
            if let Some(named) = named(game, action, rng) {
                let mut copy = game.clone();
                let named_events = copy.play(player, &named);
                prop_assert!(named_events.is_ok(), "{:?} refused: {:?}", named, named_events);
                let (named_events, events) = (named_events.unwrap(), events.unwrap());
                prop_assert_eq!(knocked_deadwood(&named_events), knocked_deadwood(&events), "{:?}", named);
                prop_assert_eq!(defender_deadwood(&named_events), defender_deadwood(&events), "{:?}", named);
            }
        }
        // A knock showing some other arrangement is legal exactly when it is within the limit.
        let hand = game.hand();
        for action in &legal {
            let Action::Knock { discard, melds: None } = *action else { continue };
            let kept = hand.cards(player).without(discard);
            let melds = some_melds(kept, hand.rules().ace_high, rng);
            let deadwood = (kept - union(&melds)).value();
            let shown = Action::Knock { discard, melds: Some(melds) };
            let mut copy = game.clone();
            match copy.play(player, &shown) {
                Ok(events) => {
                    prop_assert!(deadwood <= hand.knock_limit());
                    prop_assert_eq!(knocked_deadwood(&events), Some(deadwood));
                }
                Err(err) => {
                    prop_assert_eq!(err, PlayError::OverKnockLimit { deadwood, limit: hand.knock_limit() });
                    prop_assert_eq!(&copy, &*game);
                }
            }
        }
    }
    for player in Player::ALL {
        for action in universe {
            if Some(player) == to_act && legal.contains(action) {
                continue;
            }
            let result = game.play(player, action);
            prop_assert!(result.is_err(), "{} by {} is not listed but plays: {:?}", action, player, legal);
            prop_assert!(game.hand() == before.hand(), "a refused {} by {} changed the hand", action, player);
        }
    }
    prop_assert_eq!(&*game, &before, "refused actions changed the game");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn listed_as_legal_iff_play_succeeds(seed: u64, rules in 0..RULESETS, steps in 0usize..600) {
        let (name, rules) = ruleset(rules);
        let (mut game, opening) = Game::new(&rules, seed);
        prop_assert_eq!(game.hand().stock_len(), 31);
        let mut current = opening[1..].to_vec();
        let mut rng = random::seeded_rng(random::derive_seed(seed, 1));
        let universe = universe();
        for _ in 0..steps {
            check_state(&game, &current)?;
            check_actions(&mut game, &universe, &mut rng)?;
            let Some(player) = game.to_act() else { break };
            let action = choose(&game, &game.legal_actions(), &mut rng);
            let events = game.play(player, &action);
            prop_assert!(events.is_ok(), "{}: {:?} refused: {:?}", name, action, events);
            record(&mut current, &events.unwrap());
        }
        check_state(&game, &current)?;
        check_actions(&mut game, &universe, &mut rng)?;
    }
}

/// What differs between the two worlds of [`views_hide_what_they_must`].
#[derive(Clone, Copy, Debug)]
enum Hidden {
    /// The `n`th card of `b`'s hand and the bottom card of the stock (never drawn before the
    /// stock's floor) change places.
    HandCard(usize),
    /// The stock's `n`th card (from the top) and its bottom card change places: `b` draws it
    /// (`a` takes the discard instead, or the walk stops).
    StockCard(usize),
    /// The bottom ten cards of the stock are in reverse order.
    StockOrder,
}

/// Two deals that differ only in hidden cards.
fn hidden_worlds(seed: u64, b: Player, hidden: Hidden) -> (HandSetup, HandSetup) {
    let mut rng = random::seeded_rng(seed);
    let dealer = if random::below(&mut rng, 2) == 0 { Player::One } else { Player::Two };
    let first = HandSetup::deal(dealer, &Deck::shuffled(&mut rng));
    let mut second = first.clone();
    match hidden {
        Hidden::HandCard(n) => {
            let held = first.hands[b].iter().nth(n).expect("ten cards");
            let deep = first.stock[30];
            second.hands[b] = first.hands[b].without(held).with(deep);
            second.stock[30] = held;
        }
        Hidden::StockCard(n) => second.stock.swap(n, 30),
        Hidden::StockOrder => second.stock[21..].reverse(),
    }
    (first, second)
}

fn any_hidden() -> impl Strategy<Value = Hidden> {
    prop_oneof![
        (0usize..10).prop_map(Hidden::HandCard),
        (0usize..20).prop_map(Hidden::StockCard),
        Just(Hidden::StockOrder)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// The same actions in two worlds that differ in hidden cards: the player who cannot see the
    /// difference has identical views all along, and the one who holds it does not.
    #[test]
    fn views_hide_what_they_must(seed: u64, rules in 0..RULESETS, b_is_one: bool, hidden in any_hidden()) {
        let (name, rules) = ruleset(rules);
        let b = if b_is_one { Player::One } else { Player::Two };
        let a = b.opponent();
        let (first, second) = hidden_worlds(seed, b, hidden);
        let (mut one, _) = Game::from_setup(&rules, seed, &first).unwrap();
        let (mut two, _) = Game::from_setup(&rules, seed, &second).unwrap();
        prop_assert_ne!(&one, &two);
        let mut rng = random::seeded_rng(random::derive_seed(seed, 2));
        let mut steps = 0;
        loop {
            // Stop before a draw could reach the reversed cards.
            if matches!(hidden, Hidden::StockOrder) && one.hand().stock_len() <= 10 {
                break;
            }
            prop_assert_eq!(one.view(a), two.view(a), "{}: {} sees the difference", name, a);
            let b_differs = one.hand().cards(b) != two.hand().cards(b);
            let b_sees = one.view(b) != two.view(b);
            prop_assert_eq!(b_sees, b_differs, "{}: {} sees a difference exactly when it holds one", name, b);
            prop_assert_eq!(one.hand().cards(a), two.hand().cards(a));
            if matches!(hidden, Hidden::HandCard(_)) {
                prop_assert!(b_differs);
            }
            let Some(player) = one.to_act() else { break };
            prop_assert_eq!(two.to_act(), Some(player));
            let (legal_one, legal_two) = (one.legal_actions(), two.legal_actions());
            if player == a {
                prop_assert_eq!(&legal_one, &legal_two);
            }
            // Nobody knocks (a knock shows the hands), and `b` discards only cards held in both.
            let mut shared: Vec<Action> = legal_one
                .into_iter()
                .filter(|action| legal_two.contains(action))
                .filter(|action| !matches!(action, Action::Knock { .. } | Action::BigGin { .. }))
                .collect();
            prop_assert!(!shared.is_empty());
            let next_differs =
                one.hand().phase() == Phase::Draw && one.hand().stock().next() != two.hand().stock().next();
            if next_differs {
                // The next stock card differs: `b` draws it, `a` does not.
                shared.retain(|action| *action == if player == b { Action::DrawStock } else { Action::DrawPile });
                if shared.is_empty() {
                    break;
                }
            }
            let action = &shared[random::index(&mut rng, shared.len())];
            let events_one = one.play(player, action).unwrap();
            let events_two = two.play(player, action).unwrap();
            let seen = |events: &[Event]| events.iter().map(|e| e.seen_by(a)).collect::<Vec<_>>();
            prop_assert_eq!(seen(&events_one), seen(&events_two));
            if player == b && *action == Action::DrawStock {
                prop_assert_eq!(events_one != events_two, next_differs);
            }
            steps += 1;
            // A new deal (or a rebuilt stock) is the same in both worlds.
            if events_one.iter().any(|e| matches!(e, Event::HandEnded { .. } | Event::StockRebuilt { .. })) {
                break;
            }
        }
        prop_assert!(steps >= 2, "{} steps", steps);
    }
}

/// Plays `steps` actions chosen by [`choose`]; returns the game, the full log and, for each
/// discard, its index in the log and a card of the opponent's hand at the time.
fn logged_walk(
    rules: &Ruleset,
    seed: u64,
    setup: Option<&HandSetup>,
    steps: usize,
) -> (Game, Vec<Event>, Vec<(usize, Player, Card)>) {
    let (mut game, mut log) = match setup {
        Some(setup) => Game::from_setup(rules, seed, setup).unwrap(),
        None => Game::new(rules, seed),
    };
    let mut rng = random::seeded_rng(random::derive_seed(seed, 3));
    let mut discards = Vec::new();
    for _ in 0..steps {
        let Some(player) = game.to_act() else { break };
        let action = choose(&game, &game.legal_actions(), &mut rng);
        if let Action::Discard { .. } = action {
            let foreign = game.hand().cards(player.opponent()).first().expect("ten cards");
            discards.push((log.len(), player, foreign));
        }
        log.extend(game.play(player, &action).unwrap());
    }
    (game, log, discards)
}

fn log_text(header: &LogHeader, events: &[Event]) -> String {
    let mut out = Vec::new();
    write_log(&mut out, header, events).unwrap();
    String::from_utf8(out).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_log_replays_to_the_same_game(
        seed: u64,
        rules in 0..RULESETS,
        dealt in any::<bool>(),
        steps in 8usize..300,
        pick: u64,
    ) {
        let (name, rules) = ruleset(rules);
        let setup = dealt.then(|| {
            let dealer = if seed % 2 == 0 { Player::One } else { Player::Two };
            HandSetup::deal(dealer, &Deck::shuffled(&mut random::seeded_rng(seed ^ 0xdea1)))
        });
        let (game, events, discards) = logged_walk(&rules, seed, setup.as_ref(), steps);
        let header = LogHeader::new(seed, &rules, setup);
        let text = log_text(&header, &events);
        let replayed = replay(&text);
        prop_assert!(replayed.is_ok(), "{}: {:?}", name, replayed.err());
        prop_assert_eq!(replayed.unwrap(), game);

        let mut rng = random::seeded_rng(pick);
        // A line deleted, anywhere but the header and the last line.
        let lines: Vec<&str> = text.lines().collect();
        prop_assert_eq!(lines.len(), events.len() + 1);
        let cut = 1 + random::index(&mut rng, lines.len() - 2);
        let shorter: Vec<&str> = lines.iter().enumerate().filter(|&(i, _)| i != cut).map(|(_, line)| *line).collect();
        let result = replay(&shorter.join("\n"));
        prop_assert!(result.is_err(), "line {} deleted, yet the log replays", cut + 1);

        // A stock draw that did not happen: the replay draws another card.
        let draws: Vec<usize> = (0..events.len()).filter(|&i| matches!(events[i], Event::DrewStock { .. })).collect();
        if !draws.is_empty() {
            let at = draws[random::index(&mut rng, draws.len())];
            let mut altered = events.clone();
            let Event::DrewStock { card: Some(drawn), .. } = &mut altered[at] else { unreachable!() };
            *drawn = CardSet::FULL.without(*drawn).iter().nth(random::index(&mut rng, 51)).unwrap();
            let result = replay(&log_text(&header, &altered));
            let mismatch = matches!(result, Err(ReplayError::Mismatch { line, .. }) if line == at + 2);
            prop_assert!(mismatch, "{:?}", result.err());
        }
        // A discard of a card the player does not hold.
        if !discards.is_empty() {
            let (at, player, foreign) = discards[random::index(&mut rng, discards.len())];
            let mut altered = events.clone();
            prop_assert!(matches!(altered[at], Event::Discarded { player: p, .. } if p == player), "{:?}", altered[at]);
            altered[at] = Event::Discarded { player, card: foreign };
            let result = replay(&log_text(&header, &altered));
            let expected = PlayError::NotInHand { player, card: foreign };
            prop_assert!(
                matches!(&result, Err(ReplayError::Illegal { line, error }) if *line == at + 2 && *error == expected),
                "{:?}", result.err()
            );
        }
    }
}

#[test]
fn random_agents_play_the_same_game_from_the_same_seed() {
    let options = RunOptions { keep_events: true, ..RunOptions::default() };
    for (name, rules) in rulesets() {
        let run = |seed| {
            let (mut a, mut b) = (RandomAgent::default(), RandomAgent::new(99));
            play_game(&rules, seed, ByPlayer([&mut a, &mut b]), options)
        };
        let seed = 5;
        let record = run(seed);
        assert!(!record.events.is_empty(), "{name}: no events kept");
        assert!(matches!(record.events.last(), Some(Event::GameEnded { .. })), "{name}: {:?}", record.outcome);
        assert_eq!(record, run(seed), "{name}: seed {seed} played twice differs");
        assert_ne!(record.events, run(seed + 100).events, "{name}: another seed, the same game");
        // The record's log replays to a finished game.
        let text = log_text(&LogHeader::new(seed, &rules, None), &record.events);
        let game = replay(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(game.hand_number(), record.hands);
        assert_eq!(game.result().map(|r| r.winner), record.outcome.winner());
    }
}
