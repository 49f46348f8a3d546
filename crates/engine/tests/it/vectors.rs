//! The docs/rules.md vectors played through the engine: positions set up by hand, played action by action,
//! with the events and scores checked; the showings a player may choose and those the referee
//! refuses; and determinizations of a player's view.

use gin_cards::random;
use gin_cards::{Card, CardSet};
use gin_engine::{Action, Deal, Event, Game, HandSetup, Phase, PlayError, PlayerView, SetupError};
use gin_rules::{
    ByPlayer, HandOutcome, HandScore, KnockKind, Meld, MeldError, NextDealer, Player, Ruleset, Showdown, Showing,
    ShowingError, StockEnd, TieRule,
};

const ONE: Player = Player::One;
const TWO: Player = Player::Two;

fn card(text: &str) -> Card {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn cards(text: &str) -> CardSet {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Melds named as card groups, aces low.
fn melds(texts: &[&str]) -> Vec<Meld> {
    texts.iter().map(|text| Meld::new(cards(text), false).unwrap_or_else(|e| panic!("{text}: {e}"))).collect()
}

/// A showing of `hand`: these melds, these cards laid off, the rest unmelded.
fn showing(hand: CardSet, own: &[&str], laid_off: &str) -> Showing {
    Showing::new(hand, &melds(own), cards(laid_off)).unwrap_or_else(|e| panic!("{own:?} {laid_off}: {e}"))
}

/// The cards `player` holds now.
fn held(game: &Game, player: Player) -> CardSet {
    game.deal().cards(player)
}

/// The knocker's melds being answered.
fn knock_melds(game: &Game) -> Vec<Meld> {
    game.deal().knock().expect("a knock is being answered").shown.melds().to_vec()
}

/// The defender lays off `laid_off` and melds the rest the best way.
fn laying_off(game: &Game, laid_off: &str) -> Showing {
    let hand = held(game, game.to_act().expect("the defender acts"));
    let rest = game.rules().solver().best_arrangement(hand - cards(laid_off));
    Showing::new(hand, rest.melds(), cards(laid_off)).unwrap_or_else(|e| panic!("{laid_off}: {e}"))
}

/// The defender keeps `own` melds and answers the best way with the rest.
fn keeping(game: &Game, own: &[&str]) -> Showing {
    let hand = held(game, game.to_act().expect("the defender acts"));
    game.rules().solver().defend_keeping(&knock_melds(game), hand, &melds(own)).unwrap_or_else(|e| panic!("{e}"))
}

/// A deal: `one` and `two` hold these cards, `upcard` is turned, and the stock holds `top` first
/// (in this order, the first drawn first), then every card not otherwise placed, spades to clubs.
fn setup(dealer: Player, one: &str, two: &str, upcard: &str, top: &str) -> HandSetup {
    let (one, two, upcard) = (cards(one), cards(two), card(upcard));
    let top: Vec<Card> = top.split_whitespace().map(card).collect();
    let placed = one | two | CardSet::from(upcard) | top.iter().copied().collect::<CardSet>();
    let stock = top.into_iter().chain((CardSet::FULL - placed).iter()).collect();
    HandSetup { dealer, hands: ByPlayer::new(one, two), upcard, stock }
}

/// The seed `start` deals from.
const SEED: u64 = 7;

/// A game whose first hand is `setup`, with its opening events checked.
fn start(rules: &Ruleset, setup: &HandSetup) -> Game {
    let (game, opening) = Game::from_setup(rules, SEED, setup).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game.deal().stock_len(), 31, "the stock holds 31 cards after the deal");
    assert_eq!(game.deal().all_cards(), (CardSet::FULL, 52));
    assert!(matches!(opening[1], Event::HandStarted { number: 1, upcard, .. } if upcard == setup.upcard));
    game
}

/// Plays a legal action, which must also be listed, with the referee's showing.
fn play(game: &mut Game, player: Player, action: Action) -> Vec<Event> {
    assert!(game.legal_actions().contains(&action), "{action} is not listed: {:?}", game.legal_actions());
    game.play(player, action).unwrap_or_else(|e| panic!("{action}: {e}"))
}

/// Plays a listed action with the player's own showing, which the events must show as given.
fn play_showing(game: &mut Game, player: Player, action: Action, shown: &Showing) -> Vec<Event> {
    assert!(game.legal_actions().contains(&action), "{action} is not listed: {:?}", game.legal_actions());
    let events = game.play_with(player, action, Some(shown)).unwrap_or_else(|e| panic!("{action} {shown:?}: {e}"));
    let seen = match action {
        Action::LayOff => showdown(&events).shown[player],
        _ => knocked_showing(&events),
    };
    assert_eq!(seen, *shown, "the events show what the player chose");
    events
}

/// Tries an action (with a showing of the player's, or the referee's) that must be refused and
/// must leave the game unchanged; returns the error.
fn refused_showing(game: &mut Game, player: Player, action: Action, shown: Option<&Showing>) -> PlayError {
    let before = game.clone();
    let err = game.play_with(player, action, shown).expect_err("the action must be refused");
    assert_eq!(*game, before, "a refused {action} changed the game");
    assert!(!err.to_string().is_empty());
    err
}

/// Tries an action that must be refused and must leave the game unchanged; returns the error.
fn refused(game: &mut Game, player: Player, action: Action) -> PlayError {
    refused_showing(game, player, action, None)
}

fn is_listed(game: &Game, action: Action) -> bool {
    game.legal_actions().contains(&action)
}

/// Both players pass the first upcard (player one is the non-dealer) and player one draws from
/// the stock; returns the card drawn.
fn pass_pass_draw(game: &mut Game) -> Card {
    assert_eq!(game.deal().dealer(), TWO);
    play(game, ONE, Action::PassUpcard);
    play(game, TWO, Action::PassUpcard);
    let events = play(game, ONE, Action::DrawStock);
    let [Event::DrewStock { player: ONE, card: Some(drawn) }] = events[..] else { panic!("{events:?}") };
    assert_eq!(game.deal().phase(), Phase::Discard);
    assert_eq!(game.deal().cards(ONE).len(), 11);
    drawn
}

fn sorted(melds: &[Meld]) -> Vec<CardSet> {
    let mut sets: Vec<CardSet> = melds.iter().map(|meld| meld.cards()).collect();
    sets.sort();
    sets
}

fn sorted_groups(texts: &[&str]) -> Vec<CardSet> {
    sorted(&melds(texts))
}

/// What a Knocked event showed.
#[derive(Debug, PartialEq, Eq)]
struct Shown {
    player: Player,
    kind: KnockKind,
    discard: Option<Card>,
    melds: Vec<CardSet>,
    unmelded: CardSet,
    deadwood: u32,
}

fn knocked_showing(events: &[Event]) -> Showing {
    events
        .iter()
        .find_map(|event| match event {
            Event::Knocked { shown, .. } => Some(*shown),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no Knocked event in {events:?}"))
}

fn knocked(events: &[Event]) -> Shown {
    events
        .iter()
        .find_map(|event| match event {
            Event::Knocked { player, kind, discard, shown } => {
                assert_eq!(shown.laid_off(), CardSet::EMPTY, "the knocker lays nothing off");
                Some(Shown {
                    player: *player,
                    kind: *kind,
                    discard: *discard,
                    melds: sorted(shown.melds()),
                    unmelded: shown.unmelded(),
                    deadwood: shown.deadwood(),
                })
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no Knocked event in {events:?}"))
}

/// The showdown of the HandEnded event; where the knock is among the same events, it must be
/// the knock the showdown shows.
fn showdown(events: &[Event]) -> Showdown {
    let showdown = events
        .iter()
        .find_map(|event| match event {
            Event::HandEnded { showdown, .. } => Some(showdown.expect("a knocked hand ends in a showdown")),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no HandEnded event in {events:?}"));
    for event in events {
        if let Event::Knocked { player, kind, shown, .. } = event {
            assert_eq!((showdown.knocker, showdown.kind), (*player, *kind));
            assert_eq!(showdown.shown[*player], *shown, "the showdown shows the knock as shown");
        }
    }
    showdown
}

/// What the defender showed, read from the HandEnded event's showdown.
#[derive(Debug, PartialEq, Eq)]
struct Defended {
    player: Player,
    melds: Vec<CardSet>,
    laid_off: CardSet,
    unmelded: CardSet,
    deadwood: u32,
}

fn defended(events: &[Event]) -> Defended {
    let showdown = showdown(events);
    let defender = showdown.defender();
    let shown = showdown.shown[defender];
    assert_eq!(showdown.defender_deadwood(), shown.deadwood());
    Defended {
        player: defender,
        melds: sorted(shown.melds()),
        laid_off: shown.laid_off(),
        unmelded: shown.unmelded(),
        deadwood: shown.deadwood(),
    }
}

fn hand_ended(events: &[Event]) -> (HandScore, ByPlayer<u32>) {
    events
        .iter()
        .find_map(|event| match event {
            Event::HandEnded { score, points, .. } => Some((*score, *points)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no HandEnded event in {events:?}"))
}

/// A hand won by `winner`, scoring `base + bonus` (not doubled).
fn score(outcome: HandOutcome, winner: Player, base: u32, bonus: u32) -> HandScore {
    HandScore { outcome, winner: Some(winner), points: base + bonus, base, bonus, doubled: false }
}

/// The cards with which a knock is listed.
fn knock_discards(game: &Game) -> CardSet {
    game.legal_actions()
        .iter()
        .filter_map(|action| match action {
            Action::Knock { discard } => Some(*discard),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The first upcard (rule 7).

#[test]
fn the_non_dealer_is_offered_the_upcard_first() {
    let rules = Ruleset::standard();
    let mut game =
        start(&rules, &setup(TWO, "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "KC", ""));
    assert_eq!(game.to_act(), Some(ONE));
    assert_eq!(game.deal().phase(), Phase::UpcardOffer);
    assert_eq!(game.legal_actions().as_slice(), [Action::TakeUpcard, Action::PassUpcard]);
    assert_eq!(refused(&mut game, TWO, Action::PassUpcard), PlayError::WrongPlayer { player: TWO, expected: ONE });
    assert!(matches!(refused(&mut game, ONE, Action::DrawStock), PlayError::WrongPhase { .. }));
    assert!(matches!(refused(&mut game, ONE, Action::DrawPile), PlayError::WrongPhase { .. }));
    // The non-dealer takes it: it discards next, and the dealer is not offered anything.
    let events = play(&mut game, ONE, Action::TakeUpcard);
    assert_eq!(events, [Event::TookUpcard { player: ONE, card: card("KC") }]);
    assert_eq!((game.to_act(), game.deal().phase()), (Some(ONE), Phase::Discard));
    assert_eq!(
        refused(&mut game, ONE, Action::Discard { card: card("KC") }),
        PlayError::TakenCard { card: card("KC") }
    );
    play(&mut game, ONE, Action::Discard { card: card("TS") });
    assert_eq!((game.to_act(), game.deal().phase()), (Some(TWO), Phase::Draw));
    assert!(is_listed(&game, Action::DrawPile));
    let events = play(&mut game, TWO, Action::DrawPile);
    assert_eq!(events, [Event::DrewPile { player: TWO, card: card("TS") }]);
}

#[test]
fn the_dealer_may_take_the_upcard_the_non_dealer_refused() {
    let rules = Ruleset::standard();
    let mut game =
        start(&rules, &setup(TWO, "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "KC", "QD"));
    play(&mut game, ONE, Action::PassUpcard);
    assert_eq!((game.to_act(), game.deal().phase()), (Some(TWO), Phase::UpcardOffer));
    assert_eq!(game.legal_actions().as_slice(), [Action::TakeUpcard, Action::PassUpcard]);
    let events = play(&mut game, TWO, Action::TakeUpcard);
    assert_eq!(events, [Event::TookUpcard { player: TWO, card: card("KC") }]);
    // The dealer must discard now, and not the card it took.
    assert_eq!((game.to_act(), game.deal().phase()), (Some(TWO), Phase::Discard));
    assert_eq!(game.deal().taken_card(), Some(card("KC")));
    assert_eq!(game.view(TWO).taken_card, Some(card("KC")));
    assert_eq!(game.view(ONE).taken_card, Some(card("KC")), "everyone saw the dealer take it");
    assert_eq!(game.view(ONE).opponent_known, cards("KC"));
    assert!(matches!(refused(&mut game, TWO, Action::DrawStock), PlayError::WrongPhase { .. }));
    let taken = Action::Discard { card: card("KC") };
    assert!(!is_listed(&game, taken));
    assert_eq!(refused(&mut game, TWO, taken), PlayError::TakenCard { card: card("KC") });
    assert!(!is_listed(&game, Action::knock(card("KC"))));
    assert_eq!(refused(&mut game, TWO, Action::knock(card("KC"))), PlayError::TakenCard { card: card("KC") });
    let discards: CardSet = game
        .legal_actions()
        .iter()
        .filter_map(|a| match a {
            Action::Discard { card } => Some(*card),
            _ => None,
        })
        .collect();
    assert_eq!(discards, cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH"));
    play(&mut game, TWO, Action::Discard { card: card("TH") });
    // Play goes on normally: the non-dealer may draw from either pile.
    assert_eq!((game.to_act(), game.deal().phase()), (Some(ONE), Phase::Draw));
    assert_eq!(game.legal_actions().as_slice(), [Action::DrawStock, Action::DrawPile]);
    assert_eq!(game.deal().stock_len(), 31);
    assert_eq!(play(&mut game, ONE, Action::DrawPile), [Event::DrewPile { player: ONE, card: card("TH") }]);
}

#[test]
fn after_both_pass_the_non_dealer_draws_from_the_stock() {
    let rules = Ruleset::standard();
    let mut game =
        start(&rules, &setup(TWO, "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "KC", "QD"));
    play(&mut game, ONE, Action::PassUpcard);
    play(&mut game, TWO, Action::PassUpcard);
    assert_eq!((game.to_act(), game.deal().phase()), (Some(ONE), Phase::Draw));
    assert_eq!(game.legal_actions().as_slice(), [Action::DrawStock]);
    assert_eq!(refused(&mut game, ONE, Action::DrawPile), PlayError::UpcardRefused);
    assert!(matches!(refused(&mut game, ONE, Action::TakeUpcard), PlayError::WrongPhase { .. }));
    assert_eq!(play(&mut game, ONE, Action::DrawStock), [Event::DrewStock { player: ONE, card: Some(card("QD")) }]);
    play(&mut game, ONE, Action::Discard { card: card("TS") });
    // The dealer's first draw may be from the discard pile.
    assert_eq!((game.to_act(), game.deal().phase()), (Some(TWO), Phase::Draw));
    assert_eq!(game.legal_actions().as_slice(), [Action::DrawStock, Action::DrawPile]);
    assert_eq!(play(&mut game, TWO, Action::DrawPile), [Event::DrewPile { player: TWO, card: card("TS") }]);
    // The refused upcard is under it.
    assert_eq!(game.deal().pile(), [card("KC")]);
}

// ---------------------------------------------------------------------------------------------
// Knocking (rules 10 to 13).

#[test]
fn v3_the_knock_is_eligible_by_its_best_discard() {
    let rules = Ruleset::standard();
    let one = "3C 5C 6C 2D 4D 5D 6D 3H 4H 5H";
    let two = "AS 9S KS 2H 8H QH 3D 9D KD 7C";
    let mut game = start(&rules, &setup(TWO, one, two, "JC", "6H"));
    assert_eq!(pass_pass_draw(&mut game), card("6H"));
    // Only the discard of 6C leaves 10 or less.
    assert_eq!(knock_discards(&game), cards("6C"));
    assert_eq!(
        refused(&mut game, ONE, Action::knock(card("3C"))),
        PlayError::OverKnockLimit { deadwood: 13, limit: 10 }
    );
    assert_eq!(
        refused(&mut game, ONE, Action::knock(card("6H"))),
        PlayError::OverKnockLimit { deadwood: 16, limit: 10 }
    );
    let events = play(&mut game, ONE, Action::knock(card("6C")));
    assert_eq!(
        knocked(&events),
        Shown {
            player: ONE,
            kind: KnockKind::Knock,
            discard: Some(card("6C")),
            melds: sorted_groups(&["3H 4H 5H 6H", "4D 5D 6D"]),
            unmelded: cards("3C 5C 2D"),
            deadwood: 10,
        }
    );
    assert_eq!((game.to_act(), game.deal().phase()), (Some(TWO), Phase::LayOff));
    assert_eq!(game.legal_actions().as_slice(), [Action::LayOff]);
    assert_eq!(game.deal().pile().last(), Some(&card("6C")));
    // The defender lays off 2H and 3D: 69 - 5 = 64, and the knocker scores 64 - 10.
    let events = play(&mut game, TWO, Action::LayOff);
    let defense = defended(&events);
    assert_eq!((defense.laid_off, defense.deadwood), (cards("2H 3D"), 64));
    assert_eq!(hand_ended(&events), (score(HandOutcome::Knock, ONE, 54, 0), ByPlayer::new(54, 0)));
    assert_eq!(game.hand_number(), 2);
}

/// V8's deal: player one draws KH and knocks with it.
fn v8_game() -> Game {
    let one = "AS 5S 6S 7S 5C 6C 7C 5D 6D 7D";
    let two = "3S 4S 8S 4C 8C 4D 8D 5H 6H 7H";
    let mut game = start(&Ruleset::standard(), &setup(TWO, one, two, "KC", "KH"));
    assert_eq!(pass_pass_draw(&mut game), card("KH"));
    assert!(is_listed(&game, Action::knock(card("KH"))));
    game
}

#[test]
fn v8_knocker_shows_three_runs_and_is_undercut() {
    let mut game = v8_game();
    let runs = ["5S 6S 7S", "5C 6C 7C", "5D 6D 7D"];
    let kept = held(&game, ONE).without(card("KH"));
    let events = play_showing(&mut game, ONE, Action::knock(card("KH")), &showing(kept, &runs, ""));
    let shown = knocked(&events);
    assert_eq!(
        (shown.kind, shown.melds, shown.unmelded, shown.deadwood),
        (KnockKind::Knock, sorted_groups(&runs), cards("AS"), 1)
    );
    assert_eq!(game.deal().knock().map(|knock| knock.shown), Some(showing(kept, &runs, "")));
    // docs/rules.md's defense: lay off all seven and meld 5H6H7H.
    let rules_defense = showing(held(&game, TWO), &["5H 6H 7H"], "3S 4S 8S 4C 8C 4D 8D");
    assert_eq!(laying_off(&game, "3S 4S 8S 4C 8C 4D 8D"), rules_defense);
    let events = play_showing(&mut game.clone(), TWO, Action::LayOff, &rules_defense);
    assert_eq!(
        defended(&events),
        Defended {
            player: TWO,
            melds: sorted_groups(&["5H 6H 7H"]),
            laid_off: cards("3S 4S 8S 4C 8C 4D 8D"),
            unmelded: CardSet::EMPTY,
            deadwood: 0,
        }
    );
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Undercut, TWO, 1, 25));
    // The engine's best defense reaches D = 0 too (it may meld 8S8C8D instead of laying them off).
    let events = play(&mut game, TWO, Action::LayOff);
    let defense = defended(&events);
    assert_eq!((defense.unmelded, defense.deadwood), (CardSet::EMPTY, 0));
    assert!(defense.laid_off.is_subset(cards("3S 4S 8S 4C 8C 4D 8D")), "{defense:?}");
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Undercut, TWO, 1, 25));
    assert_eq!(game.score().points, ByPlayer::new(0, 26));
}

#[test]
fn v8_knocker_shows_three_sets_and_wins() {
    let mut game = v8_game();
    let sets = ["5S 5C 5D", "6S 6C 6D", "7S 7C 7D"];
    let kept = held(&game, ONE).without(card("KH"));
    let events = play_showing(&mut game, ONE, Action::knock(card("KH")), &showing(kept, &sets, ""));
    assert_eq!(knocked(&events).melds, sorted_groups(&sets));
    assert_eq!(knocked(&events).deadwood, 1);
    let events = play(&mut game, TWO, Action::LayOff);
    let defense = defended(&events);
    assert_eq!((defense.unmelded, defense.deadwood), (cards("3S"), 3));
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Knock, ONE, 2, 0));
}

#[test]
fn a_knocker_may_show_its_safest_arrangement() {
    // Uniform weights: the three sets offer 5H 6H 7H to lay off, the three runs six cards.
    let mut game = v8_game();
    let kept = held(&game, ONE).without(card("KH"));
    let safest = game.rules().solver().safest_arrangement(kept, |_| 1.0);
    let safest = Showing::of_arrangement(&safest).expect("three melds");
    assert_eq!(sorted(safest.melds()), sorted_groups(&["5S 5C 5D", "6S 6C 6D", "7S 7C 7D"]));
    let events = play_showing(&mut game, ONE, Action::knock(card("KH")), &safest);
    assert!(matches!(events[..], [Event::Knocked { player: ONE, kind: KnockKind::Knock, discard: Some(_), .. }]));
    let events = play(&mut game, TWO, Action::LayOff);
    assert_eq!(showdown(&events).shown[ONE], safest, "the showdown shows the knocker's own showing");
    assert_eq!(defended(&events).deadwood, 3);
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Knock, ONE, 2, 0));
}

#[test]
fn a_knockers_showing_must_show_its_hand_less_the_discard() {
    let mut game = v8_game();
    let hand = held(&game, ONE);
    let kept = hand.without(card("KH"));
    let knock = Action::knock(card("KH"));
    // A showing holds melds only, each card once, of the cards it shows: these are no showing.
    assert!(Meld::new(cards("5S 6S 5C"), false).is_err());
    let not_held = Showing::new(kept, &melds(&["3S 4S 5S"]), CardSet::EMPTY);
    assert_eq!(not_held, Err(ShowingError::NotInHand { cards: cards("3S 4S") }));
    let overlapping = Showing::new(kept, &melds(&["5S 6S 7S", "5S 5C 5D"]), CardSet::EMPTY);
    assert_eq!(overlapping, Err(ShowingError::Twice { cards: cards("5S") }));
    // Cards the knocker does not hold.
    let other = kept.without(card("AS")).with(card("3S"));
    let err = refused_showing(&mut game, ONE, knock, Some(&showing(other, &["5S 6S 7S"], "")));
    assert_eq!(err, PlayError::WrongCardsShown { expected: kept, found: other });
    // The discard itself.
    let err =
        refused_showing(&mut game, ONE, Action::knock(card("7D")), Some(&showing(hand, &["5D 6D 7D", "5S 6S 7S"], "")));
    assert_eq!(err, PlayError::WrongCardsShown { expected: hand.without(card("7D")), found: hand });
    // The hand less another card than the one discarded.
    let err = refused_showing(&mut game, ONE, Action::knock(card("AS")), Some(&showing(kept, &["5S 6S 7S"], "")));
    assert_eq!(err, PlayError::WrongCardsShown { expected: hand.without(card("AS")), found: kept });
    // The knocker lays nothing off.
    let laying = showing(kept, &["5S 6S 7S", "5C 6C 7C"], "5D 6D 7D");
    assert_eq!(
        refused_showing(&mut game, ONE, knock, Some(&laying)),
        PlayError::KnockerLaysOff { cards: cards("5D 6D 7D") }
    );
    // Valid melds leaving too much deadwood: 1 + 18 + 18.
    let err = refused_showing(&mut game, ONE, knock, Some(&showing(kept, &["5S 6S 7S"], "")));
    assert_eq!(err, PlayError::OverKnockLimit { deadwood: 37, limit: 10 });
    // A plain discard shows nothing.
    let runs = showing(kept, &["5S 6S 7S", "5C 6C 7C", "5D 6D 7D"], "");
    let discard = Action::Discard { card: card("KH") };
    assert_eq!(refused_showing(&mut game, ONE, discard, Some(&runs)), PlayError::NothingToShow { action: discard });
    // After all that, the same knock with a fitting showing plays.
    play_showing(&mut game, ONE, knock, &runs);
}

#[test]
fn nothing_but_a_knock_big_gin_or_a_defense_shows_cards() {
    let rules = Ruleset::standard();
    let mut game =
        start(&rules, &setup(TWO, "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "KC", "QD"));
    let shown = showing(held(&game, ONE), &["AS 2S 3S", "4S 5S 6S", "7S 8S 9S"], "");
    for action in [Action::TakeUpcard, Action::PassUpcard] {
        assert_eq!(refused_showing(&mut game, ONE, action, Some(&shown)), PlayError::NothingToShow { action });
    }
    play(&mut game, ONE, Action::PassUpcard);
    play(&mut game, TWO, Action::PassUpcard);
    let draw = Action::DrawStock;
    assert_eq!(refused_showing(&mut game, ONE, draw, Some(&shown)), PlayError::NothingToShow { action: draw });
    // Not the player's turn, or not the phase: that comes first.
    let lay_off = Action::LayOff;
    assert!(matches!(refused_showing(&mut game, ONE, lay_off, Some(&shown)), PlayError::WrongPhase { .. }));
    assert_eq!(
        refused_showing(&mut game, TWO, draw, Some(&shown)),
        PlayError::WrongPlayer { player: TWO, expected: ONE }
    );
    assert!(!Action::DrawStock.shows_cards() && !Action::Discard { card: card("AS") }.shows_cards());
    assert!(Action::knock(card("AS")).shows_cards() && Action::BigGin.shows_cards() && Action::LayOff.shows_cards());
}

#[test]
fn an_ace_high_meld_is_no_meld_under_ace_low_rules() {
    // The knocker: Q-K-A of spades melds only with the ace high.
    let one = "QS KS AS 5C 6C 7C 5D 6D 7D 2H";
    let two = "2S 3S 4S 8H 9H TH 3C 9C JD 4H";
    let ace_high = Meld::new(cards("QS KS AS"), true).expect("a run with the ace high");
    let shown = |game: &Game| {
        let kept = held(game, ONE).without(card("KH"));
        Showing::new(kept, &[ace_high, melds(&["5C 6C 7C"])[0], melds(&["5D 6D 7D"])[0]], CardSet::EMPTY).unwrap()
    };
    let mut game = start(&Ruleset::standard(), &setup(TWO, one, two, "8C", "KH"));
    pass_pass_draw(&mut game);
    let knock = Action::knock(card("KH"));
    assert!(!is_listed(&game, knock), "23 deadwood with the ace low");
    let ace_high_knock = shown(&game);
    let err = refused_showing(&mut game, ONE, knock, Some(&ace_high_knock));
    assert_eq!(err, PlayError::InvalidMeld(MeldError::AceNotHigh(cards("QS KS AS"))));
    // Where the ace plays high, the same showing knocks with 2.
    let mut game = start(&Ruleset { ace_high: true, ..Ruleset::standard() }, &setup(TWO, one, two, "8C", "KH"));
    pass_pass_draw(&mut game);
    let ace_high_knock = shown(&game);
    let events = play_showing(&mut game, ONE, knock, &ace_high_knock);
    assert_eq!((knocked(&events).unmelded, knocked(&events).deadwood), (cards("2H"), 2));

    // The defender: its own Q-K-A of spades, under ace-low rules.
    let one = "2D 3D 4D 7H 7D 7C JC QC KC 3H";
    let two = "QS KS AS 9D 9H 9S TD TH TS 5C";
    let mut game = start(&Ruleset::standard(), &setup(TWO, one, two, "2C", "KH"));
    pass_pass_draw(&mut game);
    play(&mut game, ONE, knock);
    let hand = held(&game, TWO);
    let own = Showing::new(hand, &[ace_high, melds(&["9D 9H 9S"])[0], melds(&["TD TH TS"])[0]], CardSet::EMPTY);
    let err = refused_showing(&mut game, TWO, Action::LayOff, Some(&own.unwrap()));
    assert_eq!(err, PlayError::InvalidMeld(MeldError::AceNotHigh(cards("QS KS AS"))));
    assert_eq!(held(&game, TWO), hand);
    let events = play(&mut game, TWO, Action::LayOff);
    assert_eq!((defended(&events).unmelded, defended(&events).deadwood), (cards("QS KS AS 5C"), 26));
}

#[test]
fn v9_a_tie_is_an_undercut() {
    let one = "AS 2S 3S 7H 7D 7C JC QC KC 5H";
    let two = "2H 3H 4H 8D 9D TD 9S 9H 9C 5D";
    let mut game = start(&Ruleset::standard(), &setup(TWO, one, two, "6C", "KD"));
    pass_pass_draw(&mut game);
    let events = play(&mut game, ONE, Action::knock(card("KD")));
    assert_eq!((knocked(&events).unmelded, knocked(&events).deadwood), (cards("5H"), 5));
    let events = play(&mut game, TWO, Action::LayOff);
    let defense = defended(&events);
    assert_eq!((defense.laid_off, defense.unmelded, defense.deadwood), (CardSet::EMPTY, cards("5D"), 5));
    assert_eq!(hand_ended(&events), (score(HandOutcome::Undercut, TWO, 0, 25), ByPlayer::new(0, 25)));
}

/// V10's deal: player one draws KH and knocks with it, showing AS2S3S, 7H7D7C, JCQCKC and 3H.
fn v10_game(rules: &Ruleset) -> (Game, Vec<Event>) {
    let one = "AS 2S 3S 7H 7D 7C JC QC KC 3H";
    let two = "4S 9D 9H 9S TD TH TS 4D 5D 6D";
    let mut game = start(rules, &setup(TWO, one, two, "2C", "KH"));
    pass_pass_draw(&mut game);
    let events = play(&mut game, ONE, Action::knock(card("KH")));
    let shown = knocked(&events);
    assert_eq!(shown.melds, sorted_groups(&["AS 2S 3S", "7H 7D 7C", "JC QC KC"]));
    assert_eq!((shown.unmelded, shown.deadwood), (cards("3H"), 3));
    (game, events)
}

#[test]
fn v10_laying_off_turns_a_loss_into_an_undercut() {
    let (mut game, _) = v10_game(&Ruleset::standard());
    let events = play(&mut game, TWO, Action::LayOff);
    let defense = defended(&events);
    assert_eq!(defense.melds, sorted_groups(&["9S 9H 9D", "TS TH TD", "4D 5D 6D"]));
    assert_eq!((defense.laid_off, defense.deadwood), (cards("4S"), 0));
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Undercut, TWO, 3, 25));
}

#[test]
fn the_next_dealer_follows_the_rule() {
    // Player two deals hand 1. Player one wins it by a knock (the defender lays nothing off), or
    // player two wins it by an undercut (V10).
    let cases = [
        (NextDealer::Alternate, false, ONE, ONE),
        (NextDealer::Alternate, true, TWO, ONE),
        (NextDealer::Loser, false, ONE, TWO),
        (NextDealer::Loser, true, TWO, ONE),
        (NextDealer::Winner, false, ONE, ONE),
        (NextDealer::Winner, true, TWO, TWO),
    ];
    for (next_dealer, lays_off, winner, dealer) in cases {
        let rules = Ruleset { next_dealer, ..Ruleset::standard() };
        let (mut game, _) = v10_game(&rules);
        let events = if lays_off {
            play(&mut game, TWO, Action::LayOff)
        } else {
            let answer = laying_off(&game, "");
            play_showing(&mut game, TWO, Action::LayOff, &answer)
        };
        assert_eq!(hand_ended(&events).0.winner, Some(winner), "{next_dealer:?}");
        assert!(
            matches!(events.last(), Some(Event::HandStarted { number: 2, dealer: d, .. }) if *d == dealer),
            "{next_dealer:?}, {winner} won: {events:?}"
        );
        assert_eq!((game.deal().dealer(), game.to_act()), (dealer, Some(dealer.opponent())));
    }
}

#[test]
fn v9_under_the_no_score_tie_rule_nobody_scores() {
    let rules = Ruleset { tie: TieRule::NoScore, ..Ruleset::standard() };
    let one = "AS 2S 3S 7H 7D 7C JC QC KC 5H";
    let two = "2H 3H 4H 8D 9D TD 9S 9H 9C 5D";
    let mut game = start(&rules, &setup(TWO, one, two, "6C", "KD"));
    pass_pass_draw(&mut game);
    play(&mut game, ONE, Action::knock(card("KD")));
    let events = play(&mut game, TWO, Action::LayOff);
    let tie = HandScore { outcome: HandOutcome::Tie, winner: None, points: 0, base: 0, bonus: 0, doubled: false };
    assert_eq!(hand_ended(&events), (tie, ByPlayer::new(0, 0)));
    assert_eq!((showdown(&events).knocker_deadwood(), showdown(&events).defender_deadwood()), (5, 5));
    // The same dealer deals again, and nobody has a box.
    assert_eq!(game.deal().dealer(), TWO);
    assert_eq!((game.score().hands, game.score().hands_won), (1, ByPlayer::new(0, 0)));
}

#[test]
fn v10_without_layoffs_the_knocker_wins() {
    let rules = Ruleset { layoffs: false, ..Ruleset::standard() };
    let (game, events) = v10_game(&rules);
    // Nothing to choose: the engine shows the defender's best melds at once.
    let defense = defended(&events);
    assert_eq!(
        (defense.player, defense.laid_off, defense.unmelded, defense.deadwood),
        (TWO, CardSet::EMPTY, cards("4S"), 4)
    );
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Knock, ONE, 1, 0));
    assert_eq!(game.hand_number(), 2);
    assert_eq!(game.score().points, ByPlayer::new(1, 0));
}

#[test]
fn the_defender_may_choose_its_layoffs_and_melds() {
    let (game, _) = v10_game(&Ruleset::standard());
    let hand = held(&game, TWO);
    let own = ["9S 9H 9D", "TS TH TD", "4D 5D 6D"];
    let answers = [
        // Everything chosen.
        (showing(hand, &own, "4S"), 0, score(HandOutcome::Undercut, TWO, 3, 25)),
        // The layoffs chosen, the rest melded the best way.
        (laying_off(&game, "4S"), 0, score(HandOutcome::Undercut, TWO, 3, 25)),
        // Some melds kept: the rest answers the best way, 4S laid off and 4D5D6D melded.
        (keeping(&game, &own[..2]), 0, score(HandOutcome::Undercut, TWO, 3, 25)),
        // The defender may choose to lay off nothing.
        (laying_off(&game, ""), 4, score(HandOutcome::Knock, ONE, 1, 0)),
        // Or to meld less than it could (4S TS TH TD 4D 5D 6D left).
        (showing(hand, &["9S 9H 9D"], ""), 49, score(HandOutcome::Knock, ONE, 46, 0)),
    ];
    assert_eq!(keeping(&game, &own[..2]).laid_off(), cards("4S"));
    for (answer, deadwood, expected) in answers {
        let mut game = game.clone();
        let events = play_showing(&mut game, TWO, Action::LayOff, &answer);
        assert_eq!(defended(&events).deadwood, deadwood, "{answer:?}");
        assert_eq!(hand_ended(&events).0, expected, "{answer:?}");
    }
}

#[test]
fn a_defense_that_does_not_fit_is_refused() {
    let (mut game, _) = v10_game(&Ruleset::standard());
    let hand = held(&game, TWO);
    // 4D fits none of AS2S3S, 7H7D7C, JCQCKC.
    let (four, ten) = (laying_off(&game, "4D"), laying_off(&game, "4S TS"));
    let err = refused_showing(&mut game, TWO, Action::LayOff, Some(&four));
    assert_eq!(err, PlayError::InvalidLayoff { cards: cards("4D") });
    let err = refused_showing(&mut game, TWO, Action::LayOff, Some(&ten));
    assert_eq!(err, PlayError::InvalidLayoff { cards: cards("TS") });
    // Cards the defender does not hold, or not all its cards.
    let more = showing(hand.with(card("7S")), &[], "4S 7S");
    let err = refused_showing(&mut game, TWO, Action::LayOff, Some(&more));
    assert_eq!(err, PlayError::WrongCardsShown { expected: hand, found: hand.with(card("7S")) });
    let fewer = showing(hand.without(card("4S")), &["9S 9H 9D", "TS TH TD", "4D 5D 6D"], "");
    let err = refused_showing(&mut game, TWO, Action::LayOff, Some(&fewer));
    assert_eq!(err, PlayError::WrongCardsShown { expected: hand, found: hand.without(card("4S")) });
    // Own melds that are not melds, or reuse a card: no showing holds them.
    assert!(Meld::new(cards("4S 4D 5D"), false).is_err());
    let reused = Showing::new(hand, &melds(&["4D 5D 6D"]), cards("4D"));
    assert_eq!(reused, Err(ShowingError::Twice { cards: cards("4D") }));
    // The knocker may not answer its own knock, and nothing but a layoff is allowed now.
    let err = refused(&mut game, ONE, Action::LayOff);
    assert_eq!(err, PlayError::WrongPlayer { player: ONE, expected: TWO });
    assert!(matches!(refused(&mut game, TWO, Action::DrawStock), PlayError::WrongPhase { .. }));
    assert!(matches!(refused(&mut game, TWO, Action::Discard { card: card("4S") }), PlayError::WrongPhase { .. }));
    // Still the defender's turn, with the same cards, after all that.
    assert_eq!((game.to_act(), game.deal().phase(), held(&game, TWO)), (Some(TWO), Phase::LayOff, hand));
    play(&mut game, TWO, Action::LayOff);
}

#[test]
fn a_card_cannot_be_both_melded_and_laid_off() {
    // The knocker shows 5S6S7S; the defender holds 8S9STS and would like to use 8S twice.
    let one = "5S 6S 7S 2H 2D 2C JD QD KD AC";
    let two = "8S 9S TS 3H 4H 5H KS KH 9D 6C";
    let mut game = start(&Ruleset::standard(), &setup(TWO, one, two, "QC", "QH"));
    pass_pass_draw(&mut game);
    play(&mut game, ONE, Action::knock(card("QH")));
    let hand = held(&game, TWO);
    let twice = Showing::new(hand, &melds(&["8S 9S TS"]), cards("8S"));
    assert_eq!(twice, Err(ShowingError::Twice { cards: cards("8S") }));
    // Laying off the whole chain is fine: 8S 9S TS all go on 5S6S7S.
    let chain = laying_off(&game, "8S 9S TS");
    let events = play_showing(&mut game, TWO, Action::LayOff, &chain);
    let defense = defended(&events);
    assert_eq!(defense.laid_off, cards("8S 9S TS"));
    assert_eq!(defense.melds, sorted_groups(&["3H 4H 5H"]));
    assert_eq!(defense.deadwood, 10 + 10 + 9 + 6);
}

#[test]
fn no_layoffs_where_the_rules_allow_none() {
    // Under a no-layoff ruleset the referee answers every knock at once, so a defender never acts:
    // no view of such a position deals.
    let no_layoffs = Ruleset { layoffs: false, ..Ruleset::standard() };
    let (game, _) = v10_game(&Ruleset::standard());
    let stock: Vec<Card> = game.deal().stock().collect();
    let view = PlayerView { rules: &no_layoffs, ..game.view(TWO) };
    assert!(matches!(Deal::from_view(&view, held(&game, ONE), &stock, 0), Err(SetupError::Impossible(_))));
    // A deal played under another ruleset than it was dealt under refuses layoffs all the same.
    let deal = Deal::from_view(&game.view(TWO), held(&game, ONE), &stock, 0).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((deal.phase(), deal.to_act()), (Phase::LayOff, Some(TWO)));
    let hand = held(&game, TWO);
    let laying = laying_off(&game, "4S");
    let mut refused = deal;
    let mut events = Vec::new();
    let err = refused.play(&no_layoffs, TWO, Action::LayOff, Some(&laying), &mut events).unwrap_err();
    assert_eq!(err, PlayError::LayoffsOff);
    assert_eq!((refused, events.len()), (deal, 0), "a refused defense changed the deal");
    // Without layoffs the defender's showing plays, and so does the referee's, which lays nothing off.
    let own = showing(hand, &["9S 9H 9D", "TS TH TD", "4D 5D 6D"], "");
    assert_eq!(deal.engine_showing(&no_layoffs, Action::LayOff), Some(own));
    for answer in [Some(&own), None] {
        let mut deal = deal;
        let mut events = Vec::new();
        deal.play(&no_layoffs, TWO, Action::LayOff, answer, &mut events).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(deal.score(), Some(score(HandOutcome::Knock, ONE, 1, 0)));
        assert_eq!(defended(&events).deadwood, 4);
    }
}

#[test]
fn v11_the_card_taken_from_the_pile_is_kept_this_turn() {
    let one = "7S 7H 7D 8C 9C TC JD QD KD 3H";
    let two = "AS 2S 4S 6S 8S TS QS AD 3D 5D";
    for may_discard_taken_card in [false, true] {
        let rules = Ruleset { may_discard_taken_card, ..Ruleset::standard() };
        let mut game = start(&rules, &setup(TWO, one, two, "KS", "KC 2H"));
        assert_eq!(pass_pass_draw(&mut game), card("KC"));
        play(&mut game, ONE, Action::Discard { card: card("KC") });
        play(&mut game, TWO, Action::DrawStock);
        play(&mut game, TWO, Action::Discard { card: card("2H") });
        let events = play(&mut game, ONE, Action::DrawPile);
        assert_eq!(events, [Event::DrewPile { player: ONE, card: card("2H") }]);
        assert_eq!(game.view(ONE).taken_card, Some(card("2H")));
        let discard = Action::Discard { card: card("2H") };
        let knock = Action::knock(card("2H"));
        if may_discard_taken_card {
            assert!(is_listed(&game, discard));
            let mut copy = game.clone();
            play(&mut copy, ONE, discard);
            assert_eq!(copy.deal().pile().last(), Some(&card("2H")));
        } else {
            assert!(!is_listed(&game, discard));
            assert!(!is_listed(&game, knock));
            assert_eq!(refused(&mut game, ONE, discard), PlayError::TakenCard { card: card("2H") });
            assert_eq!(refused(&mut game, ONE, knock), PlayError::TakenCard { card: card("2H") });
        }
        let events = play(&mut game, ONE, Action::knock(card("3H")));
        assert_eq!((knocked(&events).unmelded, knocked(&events).deadwood), (cards("2H"), 2));
    }
}

#[test]
fn v12_gin_against_no_deadwood_scores_the_bonus() {
    let one = "AS 2S 3S 4S 7H 7D 7C JC QC KC";
    let two = "AH 2H 3H 4H 8D 9D TD 5C 5D 5S";
    let mut game = start(&Ruleset::standard(), &setup(TWO, one, two, "KH", "5H"));
    pass_pass_draw(&mut game);
    let events = play(&mut game, ONE, Action::knock(card("5H")));
    let shown = knocked(&events);
    assert_eq!((shown.kind, shown.unmelded, shown.deadwood), (KnockKind::Gin, CardSet::EMPTY, 0));
    // No layoffs against gin: the engine answers for the defender at once.
    let defense = defended(&events);
    assert_eq!((defense.player, defense.laid_off, defense.deadwood), (TWO, CardSet::EMPTY, 0));
    assert_eq!(hand_ended(&events), (score(HandOutcome::Gin, ONE, 0, 25), ByPlayer::new(25, 0)));
    assert_eq!(game.hand_number(), 2);
    assert!(matches!(events.last(), Some(Event::HandStarted { number: 2, dealer: ONE, .. })));
}

#[test]
fn a_spade_upcard_doubles_the_hand_where_the_rule_says() {
    let one = "AS 2S 3S 4S 7H 7D 7C JC QC KC";
    let two = "AH 2H 3H 4H 8D 9D TD 5C 5D 5S";
    for spade_doubles in [false, true] {
        let rules = Ruleset { spade_doubles, ..Ruleset::oklahoma() };
        let mut game = start(&rules, &setup(TWO, one, two, "KS", "5H"));
        assert_eq!(game.deal().knock_limit(), 10);
        pass_pass_draw(&mut game);
        let events = play(&mut game, ONE, Action::knock(card("5H")));
        let expected = HandScore {
            doubled: spade_doubles,
            points: if spade_doubles { 50 } else { 25 },
            ..score(HandOutcome::Gin, ONE, 0, 25)
        };
        assert_eq!(hand_ended(&events).0, expected);
        assert_eq!(showdown(&events).score(&rules, card("KS")), expected);
    }
}

#[test]
fn nothing_is_laid_off_against_gin() {
    let one = "AS 2S 3S 4S 7H 7D 7C JC QC KC";
    // 5S would go on AS2S3S4S and TC on JCQCKC, were it a knock.
    let two = "AH 2H 3H 8D 9D TD 6C 6D 5S TC";
    let mut game = start(&Ruleset::standard(), &setup(TWO, one, two, "KH", "5H"));
    pass_pass_draw(&mut game);
    let events = play(&mut game, ONE, Action::knock(card("5H")));
    let defense = defended(&events);
    assert_eq!((defense.laid_off, defense.unmelded, defense.deadwood), (CardSet::EMPTY, cards("6C 6D 5S TC"), 27));
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Gin, ONE, 27, 25));
    // And no layoff may be named: the hand is over.
    let laying = showing(cards("AH 2H 3H 8D 9D TD 6C 6D 5S TC"), &["AH 2H 3H", "8D 9D TD"], "5S TC");
    let err = refused_showing(&mut game, TWO, Action::LayOff, Some(&laying));
    assert!(matches!(err, PlayError::WrongPhase { .. }), "{err}");
}

#[test]
fn v13_the_defender_breaks_nothing_and_lays_off_both_ways() {
    let one = "KS KC KD 5S 6S 7S 9C TC JC JD";
    let two = "2S 8S 9S AC 2C 7C 8C 2D 8D 2H";
    let mut game = start(&Ruleset::standard(), &setup(TWO, one, two, "3D", "4H"));
    pass_pass_draw(&mut game);
    let events = play(&mut game, ONE, Action::knock(card("4H")));
    let shown = knocked(&events);
    assert_eq!(shown.melds, sorted_groups(&["KS KC KD", "5S 6S 7S", "9C TC JC"]));
    assert_eq!((shown.unmelded, shown.deadwood), (cards("JD"), 10));
    let events = play(&mut game, TWO, Action::LayOff);
    assert_eq!(
        defended(&events),
        Defended {
            player: TWO,
            melds: sorted_groups(&["2S 2H 2D 2C"]),
            laid_off: cards("8S 9S 7C 8C"),
            unmelded: cards("AC 8D"),
            deadwood: 9,
        }
    );
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Undercut, TWO, 1, 25));
}

// ---------------------------------------------------------------------------------------------
// Big gin (rule 13, V4).

const V4_TEN: &str = "AS 2S 3S 4S 5C 5D 5H 9H TH JH";
/// Junk, with KH that would go on 9H-QH were layoffs allowed: deadwood 65.
const V4_DEFENDER: &str = "6S 8S TS KH 2H 4H 6H 2D 7D KC";

#[test]
fn v4_big_gin_where_it_is_played() {
    let mut game = start(&Ruleset::standard(), &setup(TWO, V4_TEN, V4_DEFENDER, "3C", "QH"));
    assert_eq!(pass_pass_draw(&mut game), card("QH"));
    let big_gin = Action::BigGin;
    assert!(is_listed(&game, big_gin));
    let events = play(&mut game, ONE, big_gin);
    let shown = knocked(&events);
    assert_eq!(
        (shown.kind, shown.discard, shown.unmelded, shown.deadwood),
        (KnockKind::BigGin, None, CardSet::EMPTY, 0)
    );
    assert_eq!(shown.melds.iter().map(|m| m.len()).sum::<usize>(), 11);
    let defense = defended(&events);
    assert_eq!((defense.laid_off, defense.deadwood), (CardSet::EMPTY, 65));
    assert_eq!(hand_ended(&events).0, score(HandOutcome::BigGin, ONE, 65, 31));
}

#[test]
fn v4_big_gin_with_the_players_own_showing() {
    let mut game = start(&Ruleset::standard(), &setup(TWO, V4_TEN, V4_DEFENDER, "3C", "QH"));
    pass_pass_draw(&mut game);
    let hand = held(&game, ONE);
    // The melds in the order the player gives them: the events keep it.
    let own = showing(hand, &["9H TH JH QH", "5C 5D 5H", "AS 2S 3S 4S"], "");
    // Showings that do not fit big gin, refused with the hand unchanged.
    let short = showing(hand, &["9H TH JH", "5C 5D 5H", "AS 2S 3S 4S"], "");
    assert_eq!(refused_showing(&mut game, ONE, Action::BigGin, Some(&short)), PlayError::NotBigGin { deadwood: 10 });
    let laying = showing(hand, &["9H TH JH", "5C 5D 5H", "AS 2S 3S 4S"], "QH");
    assert_eq!(
        refused_showing(&mut game, ONE, Action::BigGin, Some(&laying)),
        PlayError::KnockerLaysOff { cards: cards("QH") }
    );
    let ten = showing(hand.without(card("QH")), &["9H TH JH", "5C 5D 5H", "AS 2S 3S 4S"], "");
    assert_eq!(
        refused_showing(&mut game, ONE, Action::BigGin, Some(&ten)),
        PlayError::WrongCardsShown { expected: hand, found: hand.without(card("QH")) }
    );
    let events = play_showing(&mut game, ONE, Action::BigGin, &own);
    assert!(matches!(events[0], Event::Knocked { player: ONE, kind: KnockKind::BigGin, discard: None, .. }));
    assert_eq!(showdown(&events).shown[ONE], own);
    assert_eq!(hand_ended(&events).0, score(HandOutcome::BigGin, ONE, 65, 31));
}

#[test]
fn v4_big_gin_needs_all_eleven_cards_melded() {
    let mut game = start(&Ruleset::standard(), &setup(TWO, V4_TEN, V4_DEFENDER, "3C", "KD"));
    pass_pass_draw(&mut game);
    assert!(!is_listed(&game, Action::BigGin));
    assert_eq!(refused(&mut game, ONE, Action::BigGin), PlayError::NotBigGin { deadwood: 10 });
    let best = showing(held(&game, ONE), &["AS 2S 3S 4S", "5C 5D 5H", "9H TH JH"], "");
    assert_eq!(refused_showing(&mut game, ONE, Action::BigGin, Some(&best)), PlayError::NotBigGin { deadwood: 10 });
}

#[test]
fn v4_without_big_gin_discard_and_keep_gin() {
    let mut game = start(&Ruleset::pagat(), &setup(TWO, V4_TEN, V4_DEFENDER, "3C", "QH"));
    pass_pass_draw(&mut game);
    let big_gin = Action::BigGin;
    assert!(!is_listed(&game, big_gin));
    assert_eq!(refused(&mut game, ONE, big_gin), PlayError::BigGinOff);
    // Every knock listed; exactly AS, 4S, 9H and QH keep gin.
    let mut gin = CardSet::EMPTY;
    for discard in knock_discards(&game) {
        let mut copy = game.clone();
        let events = play(&mut copy, ONE, Action::knock(discard));
        if knocked(&events).kind == KnockKind::Gin {
            assert_eq!(knocked(&events).deadwood, 0);
            gin.insert(discard);
        }
    }
    assert_eq!(gin, cards("AS 4S 9H QH"));
    let events = play(&mut game, ONE, Action::knock(card("QH")));
    assert_eq!(defended(&events).deadwood, 65);
    // Pagat's gin bonus is 20.
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Gin, ONE, 65, 20));
}

// ---------------------------------------------------------------------------------------------
// Oklahoma (rule 14, V15).

#[test]
fn v15_oklahoma_ace_upcard_means_gin_only() {
    let one = "2S 3S 4S 7H 7D 7C JC QC KC AD";
    let two = "5S 9S KS 3H 9H QH 4D 8D TD 6C";
    let (game, opening) = Game::from_setup(&Ruleset::oklahoma(), 7, &setup(TWO, one, two, "AC", "9D")).unwrap();
    assert_eq!(game.deal().knock_limit(), 0);
    assert_eq!(game.view(ONE).knock_limit, 0);
    assert!(matches!(opening[1], Event::HandStarted { knock_limit: 0, .. }), "{opening:?}");
    let mut game = game;
    pass_pass_draw(&mut game);
    // Deadwood 1 (AD) after the best discard: no knock.
    assert_eq!(knock_discards(&game), CardSet::EMPTY);
    assert_eq!(refused(&mut game, ONE, Action::knock(card("9D"))), PlayError::OverKnockLimit { deadwood: 1, limit: 0 });
    assert_eq!(refused(&mut game, ONE, Action::knock(card("AD"))), PlayError::OverKnockLimit { deadwood: 9, limit: 0 });
    // The same hand may knock where the upcard is a two.
    let mut game = start(&Ruleset::oklahoma(), &setup(TWO, one, two, "2H", "9D"));
    assert_eq!(game.deal().knock_limit(), 2);
    pass_pass_draw(&mut game);
    assert_eq!(knock_discards(&game), cards("9D"));
    let events = play(&mut game, ONE, Action::knock(card("9D")));
    assert_eq!(knocked(&events).deadwood, 1);
}

// ---------------------------------------------------------------------------------------------
// The end of the stock (rule 21, V16).

/// Both players pass, then draw from the stock and discard what they drew, until a draw leaves
/// two cards in the stock; player one holds V10's knocking hand (deadwood 3).
fn v16_game(rules: &Ruleset) -> (Game, Card) {
    let one = "AS 2S 3S 7H 7D 7C JC QC KC 3H";
    let two = "4S 9D 9H 9S TD TH TS 4D 5D 6D";
    let mut game = start(rules, &setup(TWO, one, two, "2C", ""));
    play(&mut game, ONE, Action::PassUpcard);
    play(&mut game, TWO, Action::PassUpcard);
    let mut draws = 0;
    loop {
        let player = game.to_act().expect("the hand goes on");
        let stock = game.deal().stock_len();
        let events = play(&mut game, player, Action::DrawStock);
        draws += 1;
        assert_eq!(game.deal().stock_len(), stock - 1);
        let [Event::DrewStock { card: Some(drawn), .. }] = events[..] else { panic!("{events:?}") };
        if game.deal().stock_len() == 2 {
            assert_eq!((draws, player), (29, ONE));
            return (game, drawn);
        }
        let events = play(&mut game, player, Action::Discard { card: drawn });
        assert_eq!(events, [Event::Discarded { player, card: drawn }], "the hand goes on above the floor");
    }
}

#[test]
fn v16_the_last_drawer_may_knock() {
    let (mut game, drawn) = v16_game(&Ruleset::standard());
    assert!(is_listed(&game, Action::knock(drawn)));
    let events = play(&mut game, ONE, Action::knock(drawn));
    assert_eq!(knocked(&events).deadwood, 3);
}

#[test]
fn v16_a_discard_at_the_floor_ends_the_hand_dead() {
    let (mut game, drawn) = v16_game(&Ruleset::standard());
    let events = play(&mut game, ONE, Action::Discard { card: drawn });
    assert_eq!(events[0], Event::Discarded { player: ONE, card: drawn });
    assert_eq!(hand_ended(&events), (HandScore::dead(), ByPlayer::new(0, 0)));
    assert_eq!(hand_ended(&events).0.outcome, HandOutcome::Dead);
    // The same dealer deals again, although the dealer alternates after a scored hand.
    assert!(matches!(events.last(), Some(Event::HandStarted { number: 2, dealer: TWO, .. })), "{events:?}");
    assert_eq!((game.hand_number(), game.deal().dealer(), game.to_act()), (2, TWO, Some(ONE)));
    assert_eq!(game.score().points, ByPlayer::new(0, 0));
    assert_eq!(game.score().hands_won, ByPlayer::new(0, 0));
    assert_eq!(game.score().hands, 1);
    assert_eq!(game.deal().stock_len(), 31);
}

#[test]
fn v16_under_reshuffle_the_pile_becomes_the_stock() {
    let rules = Ruleset { stock_end: StockEnd::Reshuffle, ..Ruleset::standard() };
    let (mut game, drawn) = v16_game(&rules);
    let pile = game.deal().pile().to_vec();
    assert_eq!(pile.len(), 29, "the upcard and 28 discards");
    let events = play(&mut game, ONE, Action::Discard { card: drawn });
    // The pile but the card just discarded (29 cards), with the two cards left, makes a stock of 31.
    assert_eq!(events, [Event::Discarded { player: ONE, card: drawn }, Event::StockRebuilt { size: 31 }]);
    assert_eq!(game.deal().pile(), [drawn]);
    let stock: CardSet = game.deal().stock().collect();
    assert_eq!(stock.len(), 31);
    assert!(pile.iter().all(|card| stock.contains(*card)));
    assert_eq!(game.deal().all_cards(), (CardSet::FULL, 52));
    assert_eq!((game.hand_number(), game.to_act(), game.deal().phase()), (1, Some(TWO), Phase::Draw));
}

// ---------------------------------------------------------------------------------------------
// Determinizations: a deal made from a player's view and the cards it cannot see.

/// The shuffle seed of the first hand of a game started by `start`: how `Game::from_setup` seeds
/// it, so that a determinization with the real cards can be compared with the real deal whole.
fn first_shuffle_seed() -> u64 {
    random::derive_seed(random::derive_seed(SEED, 1), 1)
}

/// Player two takes the first upcard (KC) and discards TH: player one is to draw, and knows that
/// player two holds KC.
fn took_upcard_game() -> Game {
    let mut game = start(
        &Ruleset::standard(),
        &setup(TWO, "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "KC", "QD"),
    );
    play(&mut game, ONE, Action::PassUpcard);
    play(&mut game, TWO, Action::TakeUpcard);
    play(&mut game, TWO, Action::Discard { card: card("TH") });
    assert_eq!(game.view(ONE).opponent_known, cards("KC"));
    game
}

#[test]
fn a_view_filled_with_the_real_cards_is_the_real_deal() {
    let game = took_upcard_game();
    let real = *game.deal();
    let stock: Vec<Card> = real.stock().collect();
    let deal = Deal::from_view(&game.view(ONE), held(&game, TWO), &stock, first_shuffle_seed());
    assert_eq!(deal, Ok(real));
    // Player two's own pickup (KC) is not carried over: it only shapes what player one's views show.
    let theirs = Deal::from_view(&game.view(TWO), held(&game, ONE), &stock, first_shuffle_seed()).unwrap();
    assert_eq!((real.known(TWO), theirs.known(TWO)), (cards("KC"), CardSet::EMPTY));
    assert_eq!(theirs.legal_actions(game.rules()), real.legal_actions(game.rules()));
    // The same actions give the same events and the same deal.
    let rules = game.rules();
    let (mut real, mut deal) = (real, deal.unwrap());
    for action in [Action::DrawPile, Action::Discard { card: card("TS") }, Action::DrawStock] {
        let player = real.to_act().unwrap();
        let (mut one, mut two) = (Vec::new(), Vec::new());
        real.play(rules, player, action, None, &mut one).unwrap();
        deal.play(rules, player, action, None, &mut two).unwrap();
        assert_eq!((one, deal), (two, real), "{action}");
        assert_eq!(deal.legal_actions(rules), real.legal_actions(rules));
    }
}

#[test]
fn a_view_filled_with_cards_that_do_not_add_up_is_refused() {
    let game = took_upcard_game();
    let view = game.view(ONE);
    let real = game.deal();
    let theirs = held(&game, TWO);
    let stock: Vec<Card> = real.stock().collect();
    let seed = first_shuffle_seed();
    let fill = |opponent: CardSet, stock: &[Card]| Deal::from_view(&view, opponent, stock, seed).unwrap_err();
    // An opponent's hand of the wrong size.
    let nine = theirs.without(card("AH"));
    assert_eq!(fill(nine, &stock), SetupError::HandSize { player: TWO, count: 9, expected: 10 });
    assert_eq!(fill(theirs.with(stock[0]), &stock[1..]), SetupError::HandSize { player: TWO, count: 11, expected: 10 });
    // A stock of the wrong size.
    assert_eq!(fill(theirs, &stock[1..]), SetupError::StockSize { count: 30, expected: 31 });
    let longer = [&stock[..], &[card("AH")]].concat();
    assert_eq!(fill(theirs, &longer), SetupError::StockSize { count: 32, expected: 31 });
    // A card twice: one of the viewer's own, or the same stock card twice.
    assert_eq!(fill(theirs.without(card("AH")).with(card("AS")), &stock), SetupError::Duplicate { card: card("AS") });
    let mut twice = stock.clone();
    twice[5] = twice[3];
    assert_eq!(fill(theirs, &twice), SetupError::Duplicate { card: stock[3] });
    let mut upcard = stock.clone();
    upcard[0] = card("TH");
    assert_eq!(fill(theirs, &upcard), SetupError::Duplicate { card: card("TH") });
    // An opponent's hand without the card it is known to hold (KC, taken from the pile).
    let mut swapped = stock.clone();
    swapped[0] = card("KC");
    assert!(matches!(fill(theirs.without(card("KC")).with(stock[0]), &swapped), SetupError::Impossible(_)));
    // A card missing: a view that counts one stock card less than there are.
    let short = PlayerView { stock_size: view.stock_size - 1, ..view.clone() };
    let err = Deal::from_view(&short, theirs, &stock[..30], seed).unwrap_err();
    assert_eq!(err, SetupError::Missing { cards: CardSet::from(stock[30]) });
    assert!(err.to_string().contains("52"), "{err}");
    // Cards that do not fit the phase the view shows.
    let discarding = PlayerView { phase: Phase::Discard, ..view.clone() };
    assert!(matches!(Deal::from_view(&discarding, theirs, &stock, seed), Err(SetupError::Impossible(_))));
    // Every refusal says what is wrong.
    for err in [fill(nine, &stock), fill(theirs, &twice), fill(theirs, &stock[1..])] {
        assert!(!err.to_string().is_empty());
    }
    // And the real cards still fill it.
    assert_eq!(Deal::from_view(&view, theirs, &stock, seed), Ok(*real));
}

#[test]
fn a_finished_game_has_no_determinization() {
    // V12's gin ends hand 1 of a game to 25.
    let rules = Ruleset { target: 25, ..Ruleset::standard() };
    let mut game =
        start(&rules, &setup(TWO, "AS 2S 3S 4S 7H 7D 7C JC QC KC", "AH 2H 3H 4H 8D 9D TD 5C 5D 5S", "KH", "5H"));
    pass_pass_draw(&mut game);
    play(&mut game, ONE, Action::knock(card("5H")));
    assert!(game.result().is_some());
    let view = game.view(TWO);
    assert_eq!((view.phase, view.to_act), (Phase::Over, None));
    let stock: Vec<Card> = game.deal().stock().collect();
    let err = Deal::from_view(&view, held(&game, ONE), &stock, 0).unwrap_err();
    assert!(matches!(err, SetupError::Impossible(_)), "{err}");
}

#[test]
fn a_setup_that_does_not_add_up_is_refused() {
    let rules = Ruleset::standard();
    let good = setup(TWO, "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "KC", "QD");
    assert!(Deal::new(&rules, &good, 0).is_ok());
    let mut short = good.clone();
    short.hands[ONE].remove(card("TS"));
    short.stock.push(card("TS"));
    assert_eq!(Deal::new(&rules, &short, 0).unwrap_err(), SetupError::HandSize { player: ONE, count: 9, expected: 10 });
    let mut stock = good.clone();
    stock.stock.pop();
    assert_eq!(Deal::new(&rules, &stock, 0).unwrap_err(), SetupError::StockSize { count: 30, expected: 31 });
    let mut twice = good.clone();
    twice.stock[0] = card("AS");
    assert_eq!(Deal::new(&rules, &twice, 0).unwrap_err(), SetupError::Duplicate { card: card("AS") });
    let mut upcard = good;
    upcard.upcard = card("TH");
    let err = Game::from_setup(&rules, 0, &upcard).unwrap_err();
    assert_eq!(err, SetupError::Duplicate { card: card("TH") });
    assert_eq!(err.to_string(), "TH is dealt twice");
}

#[test]
fn two_deals_alike_in_every_part_are_equal() {
    // Player one draws from the stock and discards: its view, filled with the real cards, is
    // the real deal in every part, though the real stock still holds the card drawn in a slot
    // past its top: those slots do not count.
    let mut game = took_upcard_game();
    play(&mut game, ONE, Action::DrawStock);
    play(&mut game, ONE, Action::Discard { card: card("TS") });
    let real = *game.deal();
    let stock: Vec<Card> = real.stock().collect();
    let deal = Deal::from_view(&game.view(ONE), held(&game, TWO), &stock, first_shuffle_seed()).unwrap();
    assert_eq!(format!("{deal:?}"), format!("{real:?}"), "alike in every part");
    assert_eq!(deal, real);
}

#[test]
fn a_view_shows_the_card_the_opponent_must_keep() {
    // Player two took the upcard KC and must discard another card: everyone saw it take KC, so
    // player one's view shows it, and a deal made from that view forbids player two to discard
    // KC, as the real deal does.
    let mut game = start(
        &Ruleset::standard(),
        &setup(TWO, "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "KC", "QD"),
    );
    play(&mut game, ONE, Action::PassUpcard);
    play(&mut game, TWO, Action::TakeUpcard);
    let real = *game.deal();
    assert_eq!(real.taken_card(), Some(card("KC")));
    let stock: Vec<Card> = real.stock().collect();
    let deal = Deal::from_view(&game.view(ONE), held(&game, TWO), &stock, first_shuffle_seed()).unwrap();
    assert_eq!(deal.taken_card(), real.taken_card());
    assert_eq!(deal.legal_actions(game.rules()), real.legal_actions(game.rules()));
}
