//! Property tests on states reached by seeded random walks of legal actions, under every preset
//! and a few house rules: "listed as legal <=> play succeeds", the showings a player may choose,
//! card conservation, views hide what they must, determinizations with the real cards are the
//! real deal, logs replay to the same game, `play_unchecked` agrees with `play`, and games between
//! agents are deterministic.

use gin_cards::random::{self, GinRng};
use gin_cards::{Card, CardSet, Deck};
use gin_engine::{
    Action, Deal, Event, Game, HandSetup, LogHeader, MAX_LEGAL, Phase, PlayError, RandomAgent, ReplayError, RunOptions,
    play_game, replay, write_log,
};
use gin_rules::{ByPlayer, Meld, Player, Ruleset, Showing, StockEnd, melds_in};
use proptest::prelude::*;

use crate::{best_showing, choose};

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

/// Every action: the unit actions, and a discard and a knock with each card.
fn universe() -> Vec<Action> {
    let mut all = vec![
        Action::TakeUpcard,
        Action::PassUpcard,
        Action::DrawStock,
        Action::DrawPile,
        Action::LayOff,
        Action::BigGin,
    ];
    for card in CardSet::FULL {
        all.push(Action::Discard { card });
        all.push(Action::knock(card));
    }
    all
}

/// Some melds of `cards`: disjoint melds taken in a seeded order, not always a best arrangement.
fn some_melds(cards: CardSet, ace_high: bool, rng: &mut GinRng) -> Vec<Meld> {
    let mut melds = melds_in(cards, ace_high);
    random::shuffle(rng, &mut melds);
    let mut used = CardSet::EMPTY;
    let mut chosen = Vec::new();
    for meld in melds {
        if meld.cards().is_disjoint(used) && random::below(rng, 4) != 0 {
            used |= meld.cards();
            chosen.push(meld);
        }
    }
    chosen
}

fn union(melds: &[Meld]) -> CardSet {
    melds.iter().fold(CardSet::EMPTY, |all, meld| all | meld.cards())
}

fn knocked_deadwood(events: &[Event]) -> Option<u32> {
    events.iter().find_map(|event| match event {
        Event::Knocked { shown, .. } => Some(shown.deadwood()),
        _ => None,
    })
}

/// The defender's deadwood, from the showdown that ends the hand.
fn defender_deadwood(events: &[Event]) -> Option<u32> {
    events.iter().find_map(|event| match event {
        Event::HandEnded { showdown: Some(showdown), .. } => Some(showdown.defender_deadwood()),
        _ => None,
    })
}

/// What `player` showed in these events: its knock, or its answer to a knock.
fn shown_by(events: &[Event], player: Player) -> Option<Showing> {
    events.iter().find_map(|event| match event {
        Event::Knocked { player: knocker, shown, .. } if *knocker == player => Some(*shown),
        Event::HandEnded { showdown: Some(showdown), .. } if showdown.defender() == player => {
            Some(showdown.shown[player])
        }
        _ => None,
    })
}

/// The invariants of one state: the 52 cards, the hands' sizes, the views.
fn check_state(game: &Game) -> Result<(), TestCaseError> {
    let deal = game.deal();
    prop_assert_eq!(deal.all_cards(), (CardSet::FULL, 52), "the 52 cards, each once");
    prop_assert_eq!(deal.knock_limit(), game.rules().knock_limit_for(deal.upcard()));
    prop_assert_eq!(game.to_act().is_none(), game.result().is_some(), "a player acts until the game is over");
    if let Some(player) = game.to_act() {
        let sizes = (deal.cards(player).len(), deal.cards(player.opponent()).len());
        let expected = match deal.phase() {
            Phase::UpcardOffer | Phase::Draw | Phase::LayOff => (10, 10),
            Phase::Discard => (11, 10),
            Phase::Over => unreachable!("a player acts"),
        };
        prop_assert_eq!(sizes, expected, "hand sizes in {:?}", deal.phase());
        prop_assert_eq!(deal.taken_card().is_some_and(|card| !deal.cards(player).contains(card)), false);
        prop_assert_eq!(
            deal.knock().is_some(),
            deal.phase() == Phase::LayOff,
            "a knock is answered in the lay-off phase"
        );
    }
    for seat in Player::ALL {
        let view = game.view(seat);
        let them = seat.opponent();
        prop_assert_eq!(view.seat, seat);
        prop_assert_eq!(view.rules, game.rules());
        prop_assert_eq!(view.hand_number, game.hand_number());
        prop_assert_eq!(
            (view.dealer, view.upcard, view.knock_limit),
            (deal.dealer(), deal.upcard(), deal.knock_limit())
        );
        prop_assert_eq!(view.hand, deal.cards(seat));
        prop_assert_eq!(view.opponent_cards, deal.cards(them).len());
        prop_assert_eq!(view.opponent_known, deal.known(them));
        prop_assert!(view.opponent_known.is_subset(deal.cards(them)));
        prop_assert_eq!(view.stock_size, deal.stock_len());
        prop_assert_eq!(view.discard_pile, deal.pile());
        prop_assert_eq!(view.pile_top(), deal.pile().last().copied());
        prop_assert_eq!((view.phase, view.to_act), (deal.phase(), game.to_act()));
        prop_assert_eq!(view.is_my_turn(), game.to_act() == Some(seat));
        prop_assert_eq!(view.taken_card, deal.taken_card());
        prop_assert_eq!((view.upcard_passes, view.draws), (deal.upcard_passes(), deal.draws()));
        prop_assert_eq!(view.knock, deal.knock().copied());
        prop_assert_eq!(view.score, game.score());
        // The view never names a card its player may not know: the opponent's cards but those it
        // took from the pile (all of them once it has knocked), and the stock's.
        let mut hidden = (deal.cards(them) - deal.known(them)) | deal.stock().collect::<CardSet>();
        if let Some(knock) = deal.knock().filter(|knock| knock.player == them) {
            hidden -= knock.shown.hand();
        }
        hidden.remove(view.upcard);
        let json = serde_json::to_string(&view).expect("a view serializes");
        prop_assert!(view.hand.iter().all(|card| json.contains(&format!("\"{card}\""))), "{}", json);
        for card in hidden {
            prop_assert!(!json.contains(&format!("\"{card}\"")), "{}'s view names {}: {}", seat, card, json);
        }
    }
    Ok(())
}

/// "Listed as legal <=> play succeeds" at one state, `play_unchecked` agrees with `play`, and a
/// showing of the player's is accepted exactly when it fits.
fn check_actions(game: &mut Game, universe: &[Action], rng: &mut GinRng) -> Result<(), TestCaseError> {
    let before = game.clone();
    let rules = game.rules().clone();
    let deal = *game.deal();
    let legal = game.legal_actions();
    let to_act = game.to_act();
    prop_assert_eq!(legal.is_empty(), to_act.is_none());
    prop_assert!(legal.len() <= MAX_LEGAL);
    for (i, action) in legal.iter().enumerate() {
        prop_assert!(!legal[..i].contains(action), "{} listed twice", action);
    }
    if let Some(player) = to_act {
        for &action in legal.iter() {
            let mut copy = game.clone();
            let events = copy.play(player, action);
            prop_assert!(events.is_ok(), "listed {} refused: {:?}", action, events);
            let events = events.unwrap();
            prop_assert_eq!(copy.deal().phase() == Phase::Over, copy.result().is_some(), "the game deals on or ends");
            // The deal alone: `play_unchecked` agrees with `play`, whose events are the game's
            // (the game adds the running points, then the next deal or the end of the game).
            let mut fast = deal;
            fast.play_unchecked(&rules, player, action);
            let mut checked = deal;
            let mut deal_events = Vec::new();
            checked.play(&rules, player, action, None, &mut deal_events).expect("a listed action plays");
            prop_assert_eq!(fast, checked, "play_unchecked({}) differs from play", action);
            prop_assert!(deal_events.len() <= events.len());
            for (alone, in_game) in deal_events.iter().zip(&events) {
                match (alone, in_game) {
                    (
                        Event::HandEnded { score, showdown, .. },
                        Event::HandEnded { score: game_score, showdown: game_showdown, .. },
                    ) => prop_assert_eq!((score, showdown), (game_score, game_showdown)),
                    _ => prop_assert_eq!(alone, in_game),
                }
            }
            for event in &events[deal_events.len()..] {
                prop_assert!(matches!(event, Event::HandStarted { .. } | Event::GameEnded { .. }), "{:?}", event);
            }
            // The referee shows for a knock, big gin or a defense, and the view knows what.
            let referee = deal.engine_showing(&rules, action);
            prop_assert_eq!(referee.is_some(), action.shows_cards(), "{}", action);
            prop_assert_eq!(game.view(player).engine_showing(action), referee);
            prop_assert_eq!(game.view(player.opponent()).engine_showing(action), None);
            prop_assert_eq!(shown_by(&events, player), referee);
            if action.shows_cards() {
                // The player's own showing, as good as the referee's: the same deadwood, shown
                // as the player chose it.
                let Some(own) = best_showing(game, action, rng) else {
                    return Err(TestCaseError::fail(format!("no showing for {action}")));
                };
                let mut copy = game.clone();
                let own_events = copy.play_with(player, action, Some(&own));
                prop_assert!(own_events.is_ok(), "{} with {:?} refused: {:?}", action, own, own_events);
                let own_events = own_events.unwrap();
                prop_assert_eq!(shown_by(&own_events, player), Some(own));
                prop_assert_eq!(knocked_deadwood(&own_events), knocked_deadwood(&events), "{:?}", own);
                prop_assert_eq!(defender_deadwood(&own_events), defender_deadwood(&events), "{:?}", own);
            } else {
                // An action that shows nothing takes no showing.
                let any = Showing::new(deal.cards(player), &[], CardSet::EMPTY).unwrap();
                prop_assert_eq!(game.play_with(player, action, Some(&any)), Err(PlayError::NothingToShow { action }));
                prop_assert_eq!(&*game, &before);
            }
        }
        // A knock showing some other arrangement is legal exactly when it is within the limit.
        for &action in legal.iter() {
            let Action::Knock { discard } = action else { continue };
            let kept = deal.cards(player).without(discard);
            let shown = Showing::new(kept, &some_melds(kept, rules.ace_high, rng), CardSet::EMPTY).unwrap();
            let mut copy = game.clone();
            match copy.play_with(player, action, Some(&shown)) {
                Ok(events) => {
                    prop_assert!(shown.deadwood() <= deal.knock_limit());
                    prop_assert_eq!(shown_by(&events, player), Some(shown));
                }
                Err(err) => {
                    prop_assert_eq!(
                        err,
                        PlayError::OverKnockLimit { deadwood: shown.deadwood(), limit: deal.knock_limit() }
                    );
                    prop_assert_eq!(&copy, &*game);
                }
            }
        }
        // A defense with some melds of its own and some cards laid off is legal exactly when the
        // cards laid off reach the knocker's melds.
        if let Some(knock) = deal.knock().filter(|_| deal.phase() == Phase::LayOff) {
            let held = deal.cards(player);
            let melds = some_melds(held, rules.ace_high, rng);
            let mut free = held - union(&melds);
            if random::below(rng, 2) == 0 {
                free = free & rules.solver().layoff_reach(knock.shown.melds(), free);
            }
            let laid: CardSet = free.iter().filter(|_| random::below(rng, 2) == 0).collect();
            let shown = Showing::new(held, &melds, laid).unwrap();
            let reach = rules.solver().layoff_reach(knock.shown.melds(), laid);
            let mut copy = game.clone();
            match copy.play_with(player, Action::LayOff, Some(&shown)) {
                Ok(events) => {
                    prop_assert!(laid.is_subset(reach), "{} laid off", laid);
                    prop_assert_eq!(shown_by(&events, player), Some(shown));
                    prop_assert_eq!(defender_deadwood(&events), Some(shown.deadwood()));
                }
                Err(err) => {
                    prop_assert_eq!(err, PlayError::InvalidLayoff { cards: laid - reach });
                    prop_assert_eq!(&copy, &*game);
                }
            }
        }
    }
    for player in Player::ALL {
        for &action in universe {
            if Some(player) == to_act && legal.contains(&action) {
                continue;
            }
            let result = game.play(player, action);
            prop_assert!(result.is_err(), "{} by {} is not listed but plays: {:?}", action, player, legal);
            prop_assert!(*game.deal() == deal, "a refused {} by {} changed the hand", action, player);
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
        let (mut game, _) = Game::new(&rules, seed);
        prop_assert_eq!(game.deal().stock_len(), 31);
        let mut rng = random::seeded_rng(random::derive_seed(seed, 1));
        let universe = universe();
        for _ in 0..steps {
            check_state(&game)?;
            check_actions(&mut game, &universe, &mut rng)?;
            let Some(player) = game.to_act() else { break };
            let (action, showing) = choose(&game, &mut rng);
            let events = game.play_with(player, action, showing.as_ref());
            prop_assert!(events.is_ok(), "{}: {:?} with {:?} refused: {:?}", name, action, showing, events);
        }
        check_state(&game)?;
        check_actions(&mut game, &universe, &mut rng)?;
    }
}

/// The shuffle seed of the current hand of `game`: how `Game` seeds a hand's rebuilt stocks (from
/// the game's seed and the hand's number), so that a determinization can be compared whole.
fn shuffle_seed(game: &Game) -> u64 {
    random::derive_seed(random::derive_seed(game.seed(), u64::from(game.hand_number())), 1)
}

/// Checks that `deal`, made from `seat`'s view, is `real` but for what the view cannot tell:
/// `seat`'s own pickups (of which `deal` keeps those made since, among `pickups`).
fn same_but_hidden(deal: &Deal, real: &Deal, seat: Player, pickups: CardSet) -> Result<(), TestCaseError> {
    let them = seat.opponent();
    prop_assert_eq!((deal.phase(), deal.to_act(), deal.dealer()), (real.phase(), real.to_act(), real.dealer()));
    prop_assert_eq!((deal.upcard(), deal.knock_limit()), (real.upcard(), real.knock_limit()));
    prop_assert_eq!((deal.cards(seat), deal.cards(them)), (real.cards(seat), real.cards(them)));
    prop_assert_eq!(deal.pile(), real.pile());
    prop_assert_eq!(deal.stock().collect::<Vec<_>>(), real.stock().collect::<Vec<_>>());
    prop_assert_eq!(deal.known(them), real.known(them));
    prop_assert!(deal.known(seat).is_subset(real.known(seat)));
    prop_assert!((real.known(seat) - deal.known(seat)).is_subset(pickups), "only the pickups made before are lost");
    prop_assert_eq!((deal.upcard_passes(), deal.draws()), (real.upcard_passes(), real.draws()));
    prop_assert_eq!((deal.knock(), deal.score()), (real.knock(), real.score()));
    prop_assert_eq!(deal.taken_card(), real.taken_card());
    Ok(())
}

/// Fills `seat`'s view with the real hidden cards and checks the deal it gives against the real
/// one; with `play_on`, plays up to 40 random actions on both and checks them all along.
/// `rebuilt`: the real stock has been rebuilt in this hand, which a view does not count.
fn check_determinization(
    game: &Game,
    seat: Player,
    rebuilt: bool,
    play_on: bool,
    rng: &mut GinRng,
) -> Result<(), TestCaseError> {
    let rules = game.rules();
    let mut real = *game.deal();
    let view = game.view(seat);
    let them = seat.opponent();
    let stock: Vec<Card> = real.stock().collect();
    let deal = Deal::from_view(&view, real.cards(them), &stock, shuffle_seed(game));
    prop_assert!(deal.is_ok(), "{}'s view refused: {:?}", seat, deal);
    let mut deal = deal.unwrap();
    let pickups = real.known(seat);
    prop_assert_eq!(deal.known(seat), CardSet::EMPTY, "the player's own pickups are not carried over");
    same_but_hidden(&deal, &real, seat, pickups)?;
    prop_assert_eq!(deal.legal_actions(rules), real.legal_actions(rules));
    if pickups.is_empty() && !rebuilt {
        prop_assert_eq!(deal, real);
    }
    if !play_on {
        return Ok(());
    }
    for _ in 0..40 {
        let Some(player) = real.to_act() else { break };
        let legal = real.legal_actions(rules);
        prop_assert_eq!(deal.legal_actions(rules), legal);
        let action = legal[random::index(rng, legal.len())];
        let (mut real_events, mut events) = (Vec::new(), Vec::new());
        real.play(rules, player, action, None, &mut real_events).expect("a listed action plays");
        let played = deal.play(rules, player, action, None, &mut events);
        prop_assert!(played.is_ok(), "{} refused: {:?}", action, played);
        prop_assert_eq!(&events, &real_events, "{}", action);
        // The view does not count the stock's rebuilds: after one, the next shuffles differ.
        if rebuilt && events.iter().any(|event| matches!(event, Event::StockRebuilt { .. })) {
            break;
        }
        same_but_hidden(&deal, &real, seat, pickups)?;
        if deal.known(seat) == real.known(seat) && !rebuilt {
            prop_assert_eq!(deal, real);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// A player's view filled with the real hidden cards (the opponent's hand, the stock in
    /// drawing order) and the real shuffle seed is the real deal, and plays on the same.
    #[test]
    fn a_view_filled_with_the_real_cards_is_the_real_deal(seed: u64, rules in 0..RULESETS, steps in 0usize..400) {
        let (name, rules) = ruleset(rules);
        let (mut game, _) = Game::new(&rules, seed);
        let mut rng = random::seeded_rng(random::derive_seed(seed, 4));
        let mut rebuilt = false;
        for step in 0..=steps {
            if game.to_act().is_none() {
                break;
            }
            for seat in Player::ALL {
                check_determinization(&game, seat, rebuilt, step % 8 == 0, &mut rng).map_err(|err| {
                    TestCaseError::fail(format!("{name}, step {step}, {seat}'s view: {err}"))
                })?;
            }
            let player = game.to_act().expect("the game goes on");
            let (action, showing) = choose(&game, &mut rng);
            for event in game.play_with(player, action, showing.as_ref()).expect("a chosen action plays") {
                match event {
                    Event::StockRebuilt { .. } => rebuilt = true,
                    Event::HandStarted { .. } => rebuilt = false,
                    _ => {}
                }
            }
        }
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
            if matches!(hidden, Hidden::StockOrder) && one.deal().stock_len() <= 10 {
                break;
            }
            prop_assert_eq!(one.view(a), two.view(a), "{}: {} sees the difference", name, a);
            let b_differs = one.deal().cards(b) != two.deal().cards(b);
            let b_sees = one.view(b) != two.view(b);
            prop_assert_eq!(b_sees, b_differs, "{}: {} sees a difference exactly when it holds one", name, b);
            prop_assert_eq!(one.deal().cards(a), two.deal().cards(a));
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
                .iter()
                .copied()
                .filter(|action| legal_two.contains(action))
                .filter(|action| !action.shows_cards())
                .collect();
            prop_assert!(!shared.is_empty());
            let next_differs =
                one.deal().phase() == Phase::Draw && one.deal().stock().next() != two.deal().stock().next();
            if next_differs {
                // The next stock card differs: `b` draws it, `a` does not.
                shared.retain(|action| *action == if player == b { Action::DrawStock } else { Action::DrawPile });
                if shared.is_empty() {
                    break;
                }
            }
            let action = shared[random::index(&mut rng, shared.len())];
            let events_one = one.play(player, action).unwrap();
            let events_two = two.play(player, action).unwrap();
            let seen = |events: &[Event]| events.iter().map(|e| e.seen_by(a)).collect::<Vec<_>>();
            prop_assert_eq!(seen(&events_one), seen(&events_two));
            if player == b && action == Action::DrawStock {
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
        let (action, showing) = choose(&game, &mut rng);
        if let Action::Discard { .. } = action {
            let foreign = game.deal().cards(player.opponent()).first().expect("ten cards");
            discards.push((log.len(), player, foreign));
        }
        log.extend(game.play_with(player, action, showing.as_ref()).unwrap());
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
