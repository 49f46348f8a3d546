//! RULES.md vectors played through the engine: positions set up by hand, played action by action,
//! with the events and scores checked.

use gin_cards::{Card, CardSet};
use gin_engine::{Action, Event, Game, HandSetup, Phase, PlayError};
use gin_rules::{ByPlayer, HandOutcome, HandScore, KnockKind, Meld, NextDealer, Player, Ruleset, StockEnd, TieRule};

const ONE: Player = Player::One;
const TWO: Player = Player::Two;

fn card(text: &str) -> Card {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn cards(text: &str) -> CardSet {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Melds named as card groups, for actions.
fn groups(texts: &[&str]) -> Vec<CardSet> {
    texts.iter().map(|text| cards(text)).collect()
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

/// A game whose first hand is `setup`, with its opening events checked.
fn start(rules: &Ruleset, setup: &HandSetup) -> Game {
    let (game, opening) = Game::from_setup(rules, 7, setup).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game.hand().stock_len(), 31, "the stock holds 31 cards after the deal");
    assert_eq!(game.hand().all_cards(), (CardSet::FULL, 52));
    assert!(matches!(opening[1], Event::HandStarted { number: 1, upcard, .. } if upcard == setup.upcard));
    game
}

/// Plays a legal action, which must also be listed.
fn play(game: &mut Game, player: Player, action: Action) -> Vec<Event> {
    assert!(game.legal_actions().contains(&action), "{action} is not listed: {:?}", game.legal_actions());
    game.play(player, &action).unwrap_or_else(|e| panic!("{action}: {e}"))
}

/// Plays a legal action that need not be listed (a named arrangement).
fn play_named(game: &mut Game, player: Player, action: &Action) -> Vec<Event> {
    game.play(player, action).unwrap_or_else(|e| panic!("{action}: {e}"))
}

/// Tries an action that must be refused and must leave the game unchanged; returns the error.
fn refused(game: &mut Game, player: Player, action: &Action) -> PlayError {
    let before = game.clone();
    let err = game.play(player, action).expect_err("the action must be refused");
    assert_eq!(*game, before, "a refused {action} changed the game");
    assert!(!err.to_string().is_empty());
    err
}

fn is_listed(game: &Game, action: &Action) -> bool {
    game.legal_actions().contains(action)
}

/// Both players pass the first upcard (player one is the non-dealer) and player one draws from
/// the stock; returns the card drawn.
fn pass_pass_draw(game: &mut Game) -> Card {
    assert_eq!(game.hand().dealer(), TWO);
    play(game, ONE, Action::PassUpcard);
    play(game, TWO, Action::PassUpcard);
    let events = play(game, ONE, Action::DrawStock);
    let [Event::DrewStock { player: ONE, card: Some(drawn) }] = events[..] else { panic!("{events:?}") };
    assert_eq!(game.hand().phase(), Phase::Discard);
    assert_eq!(game.hand().cards(ONE).len(), 11);
    drawn
}

fn sorted(melds: &[Meld]) -> Vec<CardSet> {
    let mut sets: Vec<CardSet> = melds.iter().map(|meld| meld.cards()).collect();
    sets.sort();
    sets
}

fn sorted_groups(texts: &[&str]) -> Vec<CardSet> {
    let mut sets = groups(texts);
    sets.sort();
    sets
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

fn knocked(events: &[Event]) -> Shown {
    events
        .iter()
        .find_map(|event| match event {
            Event::Knocked { player, kind, discard, melds, unmelded, deadwood } => Some(Shown {
                player: *player,
                kind: *kind,
                discard: *discard,
                melds: sorted(melds),
                unmelded: *unmelded,
                deadwood: *deadwood,
            }),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no Knocked event in {events:?}"))
}

/// What a LaidOff event showed.
#[derive(Debug, PartialEq, Eq)]
struct Defended {
    player: Player,
    melds: Vec<CardSet>,
    laid_off: CardSet,
    unmelded: CardSet,
    deadwood: u32,
}

fn defended(events: &[Event]) -> Defended {
    events
        .iter()
        .find_map(|event| match event {
            Event::LaidOff { player, melds, laid_off, unmelded, deadwood } => Some(Defended {
                player: *player,
                melds: sorted(melds),
                laid_off: *laid_off,
                unmelded: *unmelded,
                deadwood: *deadwood,
            }),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no LaidOff event in {events:?}"))
}

fn hand_ended(events: &[Event]) -> (HandScore, ByPlayer<u32>) {
    events
        .iter()
        .find_map(|event| match event {
            Event::HandEnded { score, points } => Some((*score, *points)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no HandEnded event in {events:?}"))
}

fn score(outcome: HandOutcome, winner: Player, points: u32) -> HandScore {
    HandScore { outcome, winner: Some(winner), points }
}

/// The cards with which a knock is listed.
fn knock_discards(game: &Game) -> CardSet {
    game.legal_actions()
        .iter()
        .filter_map(|action| match action {
            Action::Knock { discard, melds: None } => Some(*discard),
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
    assert_eq!(game.hand().phase(), Phase::UpcardOffer);
    assert_eq!(game.legal_actions(), [Action::TakeUpcard, Action::PassUpcard]);
    assert_eq!(refused(&mut game, TWO, &Action::PassUpcard), PlayError::WrongPlayer { player: TWO, expected: ONE });
    assert!(matches!(refused(&mut game, ONE, &Action::DrawStock), PlayError::WrongPhase { .. }));
    assert!(matches!(refused(&mut game, ONE, &Action::DrawPile), PlayError::WrongPhase { .. }));
    // The non-dealer takes it: it discards next, and the dealer is not offered anything.
    let events = play(&mut game, ONE, Action::TakeUpcard);
    assert_eq!(events, [Event::TookUpcard { player: ONE, card: card("KC") }]);
    assert_eq!((game.to_act(), game.hand().phase()), (Some(ONE), Phase::Discard));
    assert_eq!(
        refused(&mut game, ONE, &Action::Discard { card: card("KC") }),
        PlayError::TakenCard { card: card("KC") }
    );
    play(&mut game, ONE, Action::Discard { card: card("TS") });
    assert_eq!((game.to_act(), game.hand().phase()), (Some(TWO), Phase::Draw));
    assert!(is_listed(&game, &Action::DrawPile));
    let events = play(&mut game, TWO, Action::DrawPile);
    assert_eq!(events, [Event::DrewPile { player: TWO, card: card("TS") }]);
}

#[test]
fn the_dealer_may_take_the_upcard_the_non_dealer_refused() {
    let rules = Ruleset::standard();
    let mut game =
        start(&rules, &setup(TWO, "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "KC", "QD"));
    play(&mut game, ONE, Action::PassUpcard);
    assert_eq!((game.to_act(), game.hand().phase()), (Some(TWO), Phase::UpcardOffer));
    assert_eq!(game.legal_actions(), [Action::TakeUpcard, Action::PassUpcard]);
    let events = play(&mut game, TWO, Action::TakeUpcard);
    assert_eq!(events, [Event::TookUpcard { player: TWO, card: card("KC") }]);
    // The dealer must discard now, and not the card it took.
    assert_eq!((game.to_act(), game.hand().phase()), (Some(TWO), Phase::Discard));
    assert_eq!(game.hand().taken_card(), Some(card("KC")));
    assert_eq!(game.view(TWO).taken_card, Some(card("KC")));
    assert_eq!(game.view(ONE).taken_card, None);
    assert_eq!(game.view(ONE).opponent_known, cards("KC"));
    assert!(matches!(refused(&mut game, TWO, &Action::DrawStock), PlayError::WrongPhase { .. }));
    let taken = Action::Discard { card: card("KC") };
    assert!(!is_listed(&game, &taken));
    assert_eq!(refused(&mut game, TWO, &taken), PlayError::TakenCard { card: card("KC") });
    assert!(!is_listed(&game, &Action::knock(card("KC"))));
    assert_eq!(refused(&mut game, TWO, &Action::knock(card("KC"))), PlayError::TakenCard { card: card("KC") });
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
    assert_eq!((game.to_act(), game.hand().phase()), (Some(ONE), Phase::Draw));
    assert_eq!(game.legal_actions(), [Action::DrawStock, Action::DrawPile]);
    assert_eq!(game.hand().stock_len(), 31);
    assert_eq!(play(&mut game, ONE, Action::DrawPile), [Event::DrewPile { player: ONE, card: card("TH") }]);
}

#[test]
fn after_both_pass_the_non_dealer_draws_from_the_stock() {
    let rules = Ruleset::standard();
    let mut game =
        start(&rules, &setup(TWO, "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "KC", "QD"));
    play(&mut game, ONE, Action::PassUpcard);
    play(&mut game, TWO, Action::PassUpcard);
    assert_eq!((game.to_act(), game.hand().phase()), (Some(ONE), Phase::Draw));
    assert_eq!(game.legal_actions(), [Action::DrawStock]);
    assert_eq!(refused(&mut game, ONE, &Action::DrawPile), PlayError::UpcardRefused);
    assert!(matches!(refused(&mut game, ONE, &Action::TakeUpcard), PlayError::WrongPhase { .. }));
    assert_eq!(play(&mut game, ONE, Action::DrawStock), [Event::DrewStock { player: ONE, card: Some(card("QD")) }]);
    play(&mut game, ONE, Action::Discard { card: card("TS") });
    // The dealer's first draw may be from the discard pile.
    assert_eq!((game.to_act(), game.hand().phase()), (Some(TWO), Phase::Draw));
    assert_eq!(game.legal_actions(), [Action::DrawStock, Action::DrawPile]);
    assert_eq!(play(&mut game, TWO, Action::DrawPile), [Event::DrewPile { player: TWO, card: card("TS") }]);
    // The refused upcard is under it.
    assert_eq!(game.hand().pile(), [card("KC")]);
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
        refused(&mut game, ONE, &Action::knock(card("3C"))),
        PlayError::OverKnockLimit { deadwood: 13, limit: 10 }
    );
    assert_eq!(
        refused(&mut game, ONE, &Action::knock(card("6H"))),
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
    assert_eq!((game.to_act(), game.hand().phase()), (Some(TWO), Phase::LayOff));
    assert_eq!(game.legal_actions(), [Action::LAY_OFF_BEST]);
    assert_eq!(game.hand().pile().last(), Some(&card("6C")));
    // The defender lays off 2H and 3D: 69 - 5 = 64, and the knocker scores 64 - 10.
    let events = play(&mut game, TWO, Action::LAY_OFF_BEST);
    let defense = defended(&events);
    assert_eq!((defense.laid_off, defense.deadwood), (cards("2H 3D"), 64));
    assert_eq!(hand_ended(&events), (score(HandOutcome::Knock, ONE, 54), ByPlayer::new(54, 0)));
    assert_eq!(game.hand_number(), 2);
}

/// V8's deal: player one draws KH and knocks with it.
fn v8_game() -> Game {
    let one = "AS 5S 6S 7S 5C 6C 7C 5D 6D 7D";
    let two = "3S 4S 8S 4C 8C 4D 8D 5H 6H 7H";
    let mut game = start(&Ruleset::standard(), &setup(TWO, one, two, "KC", "KH"));
    assert_eq!(pass_pass_draw(&mut game), card("KH"));
    assert!(is_listed(&game, &Action::knock(card("KH"))));
    game
}

#[test]
fn v8_knocker_shows_three_runs_and_is_undercut() {
    let mut game = v8_game();
    let runs = ["5S 6S 7S", "5C 6C 7C", "5D 6D 7D"];
    let events = play_named(&mut game, ONE, &Action::Knock { discard: card("KH"), melds: Some(groups(&runs)) });
    let shown = knocked(&events);
    assert_eq!((shown.melds, shown.unmelded, shown.deadwood), (sorted_groups(&runs), cards("AS"), 1));
    // RULES.md's defense: lay off all seven and meld 5H6H7H.
    let rules_defense = Action::LayOff { melds: None, laid_off: Some(cards("3S 4S 8S 4C 8C 4D 8D")) };
    let events = play_named(&mut game.clone(), TWO, &rules_defense);
    assert_eq!(
        defended(&events),
        Defended {
            player: TWO,
            melds: groups(&["5H 6H 7H"]),
            laid_off: cards("3S 4S 8S 4C 8C 4D 8D"),
            unmelded: CardSet::EMPTY,
            deadwood: 0,
        }
    );
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Undercut, TWO, 26));
    // The engine's best defense reaches D = 0 too (it may meld 8S8C8D instead of laying them off).
    let events = play(&mut game, TWO, Action::LAY_OFF_BEST);
    let defense = defended(&events);
    assert_eq!((defense.unmelded, defense.deadwood), (CardSet::EMPTY, 0));
    assert!(defense.laid_off.is_subset(cards("3S 4S 8S 4C 8C 4D 8D")), "{defense:?}");
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Undercut, TWO, 26));
    assert_eq!(game.score().points, ByPlayer::new(0, 26));
}

#[test]
fn v8_knocker_shows_three_sets_and_wins() {
    let mut game = v8_game();
    let sets = ["5S 5C 5D", "6S 6C 6D", "7S 7C 7D"];
    let events = play_named(&mut game, ONE, &Action::Knock { discard: card("KH"), melds: Some(groups(&sets)) });
    assert_eq!(knocked(&events).melds, sorted_groups(&sets));
    assert_eq!(knocked(&events).deadwood, 1);
    let events = play(&mut game, TWO, Action::LAY_OFF_BEST);
    let defense = defended(&events);
    assert_eq!((defense.unmelded, defense.deadwood), (cards("3S"), 3));
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Knock, ONE, 2));
}

#[test]
fn a_named_knock_arrangement_must_be_valid() {
    let mut game = v8_game();
    let bad = [
        // Not a meld.
        Action::Knock { discard: card("KH"), melds: Some(groups(&["5S 6S 5C"])) },
        // Not held.
        Action::Knock { discard: card("KH"), melds: Some(groups(&["3S 4S 5S"])) },
        // The discard itself.
        Action::Knock { discard: card("7D"), melds: Some(groups(&["5D 6D 7D"])) },
        // Overlapping melds.
        Action::Knock { discard: card("KH"), melds: Some(groups(&["5S 6S 7S", "5S 5C 5D"])) },
        // Valid melds leaving too much deadwood: 1 + 18 + 18.
        Action::Knock { discard: card("KH"), melds: Some(groups(&["5S 6S 7S"])) },
    ];
    let errors: Vec<PlayError> = bad.iter().map(|action| refused(&mut game, ONE, action)).collect();
    assert!(matches!(errors[0], PlayError::InvalidMeld(_)), "{errors:?}");
    assert!(matches!(errors[1], PlayError::InvalidArrangement(_)), "{errors:?}");
    assert!(matches!(errors[2], PlayError::InvalidArrangement(_)), "{errors:?}");
    assert!(matches!(errors[3], PlayError::InvalidArrangement(_)), "{errors:?}");
    assert_eq!(errors[4], PlayError::OverKnockLimit { deadwood: 37, limit: 10 });
}

#[test]
fn v9_a_tie_is_an_undercut() {
    let one = "AS 2S 3S 7H 7D 7C JC QC KC 5H";
    let two = "2H 3H 4H 8D 9D TD 9S 9H 9C 5D";
    let mut game = start(&Ruleset::standard(), &setup(TWO, one, two, "6C", "KD"));
    pass_pass_draw(&mut game);
    let events = play(&mut game, ONE, Action::knock(card("KD")));
    assert_eq!((knocked(&events).unmelded, knocked(&events).deadwood), (cards("5H"), 5));
    let events = play(&mut game, TWO, Action::LAY_OFF_BEST);
    let defense = defended(&events);
    assert_eq!((defense.laid_off, defense.unmelded, defense.deadwood), (CardSet::EMPTY, cards("5D"), 5));
    assert_eq!(hand_ended(&events), (score(HandOutcome::Undercut, TWO, 25), ByPlayer::new(0, 25)));
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
    let events = play(&mut game, TWO, Action::LAY_OFF_BEST);
    let defense = defended(&events);
    assert_eq!(defense.melds, sorted_groups(&["9S 9H 9D", "TS TH TD", "4D 5D 6D"]));
    assert_eq!((defense.laid_off, defense.deadwood), (cards("4S"), 0));
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Undercut, TWO, 28));
}

#[test]
fn the_next_dealer_follows_the_rule() {
    // Player two deals hand 1. Player one wins it by a knock (the defender lays nothing off), or
    // player two wins it by an undercut (V10).
    let no_layoff = Action::LayOff { melds: None, laid_off: Some(CardSet::EMPTY) };
    let cases = [
        (NextDealer::Alternate, no_layoff.clone(), ONE, ONE),
        (NextDealer::Alternate, Action::LAY_OFF_BEST, TWO, ONE),
        (NextDealer::Loser, no_layoff.clone(), ONE, TWO),
        (NextDealer::Loser, Action::LAY_OFF_BEST, TWO, ONE),
        (NextDealer::Winner, no_layoff, ONE, ONE),
        (NextDealer::Winner, Action::LAY_OFF_BEST, TWO, TWO),
    ];
    for (next_dealer, answer, winner, dealer) in cases {
        let rules = Ruleset { next_dealer, ..Ruleset::standard() };
        let (mut game, _) = v10_game(&rules);
        let events = play_named(&mut game, TWO, &answer);
        assert_eq!(hand_ended(&events).0.winner, Some(winner), "{next_dealer:?}");
        assert!(
            matches!(events.last(), Some(Event::HandStarted { number: 2, dealer: d, .. }) if *d == dealer),
            "{next_dealer:?}, {winner} won: {events:?}"
        );
        assert_eq!((game.hand().dealer(), game.to_act()), (dealer, Some(dealer.opponent())));
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
    let events = play(&mut game, TWO, Action::LAY_OFF_BEST);
    let tie = HandScore { outcome: HandOutcome::Tie, winner: None, points: 0 };
    assert_eq!(hand_ended(&events), (tie, ByPlayer::new(0, 0)));
    // The same dealer deals again, and nobody has a box.
    assert_eq!(game.hand().dealer(), TWO);
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
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Knock, ONE, 1));
    assert_eq!(game.hand_number(), 2);
    assert_eq!(game.score().points, ByPlayer::new(1, 0));
}

#[test]
fn the_defender_may_name_its_layoffs_and_melds() {
    let (game, _) = v10_game(&Ruleset::standard());
    let own = ["9S 9H 9D", "TS TH TD", "4D 5D 6D"];
    let answers = [
        // Everything named.
        (
            Action::LayOff { melds: Some(groups(&own)), laid_off: Some(cards("4S")) },
            0,
            score(HandOutcome::Undercut, TWO, 28),
        ),
        // Only the layoffs: the engine melds the rest.
        (Action::LayOff { melds: None, laid_off: Some(cards("4S")) }, 0, score(HandOutcome::Undercut, TWO, 28)),
        // Only some melds: the engine lays off 4S from the rest and melds 4D5D6D.
        (Action::LayOff { melds: Some(groups(&own[..2])), laid_off: None }, 0, score(HandOutcome::Undercut, TWO, 28)),
        // The defender may choose to lay off nothing.
        (Action::LayOff { melds: None, laid_off: Some(CardSet::EMPTY) }, 4, score(HandOutcome::Knock, ONE, 1)),
        // Both parts named: nothing more is melded for it (4S TS TH TD 4D 5D 6D left).
        (
            Action::LayOff { melds: Some(groups(&["9S 9H 9D"])), laid_off: Some(CardSet::EMPTY) },
            49,
            score(HandOutcome::Knock, ONE, 46),
        ),
    ];
    for (action, deadwood, expected) in answers {
        let mut game = game.clone();
        let events = play_named(&mut game, TWO, &action);
        assert_eq!(defended(&events).deadwood, deadwood, "{action:?}");
        assert_eq!(hand_ended(&events).0, expected, "{action:?}");
    }
}

#[test]
fn an_invalid_named_layoff_is_refused() {
    let (mut game, _) = v10_game(&Ruleset::standard());
    // 4D fits none of AS2S3S, 7H7D7C, JCQCKC.
    let err = refused(&mut game, TWO, &Action::LayOff { melds: None, laid_off: Some(cards("4D")) });
    assert_eq!(err, PlayError::InvalidLayoff { cards: cards("4D") });
    let err = refused(&mut game, TWO, &Action::LayOff { melds: None, laid_off: Some(cards("4S TS")) });
    assert_eq!(err, PlayError::InvalidLayoff { cards: cards("TS") });
    // A card the defender does not hold.
    let err = refused(&mut game, TWO, &Action::LayOff { melds: None, laid_off: Some(cards("4S 7S")) });
    assert_eq!(err, PlayError::NotInHand { player: TWO, card: card("7S") });
    // Own melds that are not melds, or reuse a card laid off.
    let err = refused(&mut game, TWO, &Action::LayOff { melds: Some(groups(&["4S 4D 5D"])), laid_off: None });
    assert!(matches!(err, PlayError::InvalidMeld(_)), "{err}");
    let err =
        refused(&mut game, TWO, &Action::LayOff { melds: Some(groups(&["4D 5D 6D", "4S 9S 9H"])), laid_off: None });
    assert!(matches!(err, PlayError::InvalidMeld(_)), "{err}");
    // The knocker may not answer its own knock, and nothing but a layoff is allowed now.
    let err = refused(&mut game, ONE, &Action::LAY_OFF_BEST);
    assert_eq!(err, PlayError::WrongPlayer { player: ONE, expected: TWO });
    assert!(matches!(refused(&mut game, TWO, &Action::DrawStock), PlayError::WrongPhase { .. }));
    assert!(matches!(refused(&mut game, TWO, &Action::Discard { card: card("4S") }), PlayError::WrongPhase { .. }));
    // Still the defender's turn after all that.
    assert_eq!((game.to_act(), game.hand().phase()), (Some(TWO), Phase::LayOff));
    play(&mut game, TWO, Action::LAY_OFF_BEST);
}

#[test]
fn a_card_cannot_be_both_melded_and_laid_off() {
    // The knocker shows 5S6S7S; the defender holds 8S9STS and would like to use 8S twice.
    let one = "5S 6S 7S 2H 2D 2C JD QD KD AC";
    let two = "8S 9S TS 3H 4H 5H KS KH 9D 6C";
    let mut game = start(&Ruleset::standard(), &setup(TWO, one, two, "QC", "QH"));
    pass_pass_draw(&mut game);
    play(&mut game, ONE, Action::knock(card("QH")));
    let err =
        refused(&mut game, TWO, &Action::LayOff { melds: Some(groups(&["8S 9S TS"])), laid_off: Some(cards("8S")) });
    assert_eq!(err, PlayError::MeldedAndLaidOff { cards: cards("8S") });
    // Laying off the whole chain is fine: 8S 9S TS all go on 5S6S7S.
    let events = play_named(&mut game, TWO, &Action::LayOff { melds: None, laid_off: Some(cards("8S 9S TS")) });
    let defense = defended(&events);
    assert_eq!(defense.laid_off, cards("8S 9S TS"));
    assert_eq!(defense.deadwood, 10 + 10 + 9 + 6);
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
            assert!(is_listed(&game, &discard));
            let mut copy = game.clone();
            play(&mut copy, ONE, discard);
            assert_eq!(copy.hand().pile().last(), Some(&card("2H")));
        } else {
            assert!(!is_listed(&game, &discard));
            assert!(!is_listed(&game, &knock));
            assert_eq!(refused(&mut game, ONE, &discard), PlayError::TakenCard { card: card("2H") });
            assert_eq!(refused(&mut game, ONE, &knock), PlayError::TakenCard { card: card("2H") });
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
    assert_eq!(hand_ended(&events), (score(HandOutcome::Gin, ONE, 25), ByPlayer::new(25, 0)));
    assert_eq!(game.hand_number(), 2);
    assert!(matches!(events.last(), Some(Event::HandStarted { number: 2, dealer: ONE, .. })));
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
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Gin, ONE, 52));
    // And no layoff may be named: the hand is over.
    let err = refused(&mut game, TWO, &Action::LayOff { melds: None, laid_off: Some(cards("5S")) });
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
    let events = play(&mut game, TWO, Action::LAY_OFF_BEST);
    assert_eq!(
        defended(&events),
        Defended {
            player: TWO,
            melds: groups(&["2S 2H 2D 2C"]),
            laid_off: cards("8S 9S 7C 8C"),
            unmelded: cards("AC 8D"),
            deadwood: 9,
        }
    );
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Undercut, TWO, 26));
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
    let big_gin = Action::BigGin { melds: None };
    assert!(is_listed(&game, &big_gin));
    let events = play(&mut game, ONE, big_gin);
    let shown = knocked(&events);
    assert_eq!(
        (shown.kind, shown.discard, shown.unmelded, shown.deadwood),
        (KnockKind::BigGin, None, CardSet::EMPTY, 0)
    );
    assert_eq!(shown.melds.iter().map(|m| m.len()).sum::<usize>(), 11);
    let defense = defended(&events);
    assert_eq!((defense.laid_off, defense.deadwood), (CardSet::EMPTY, 65));
    assert_eq!(hand_ended(&events).0, score(HandOutcome::BigGin, ONE, 65 + 31));
}

#[test]
fn v4_big_gin_needs_all_eleven_cards_melded() {
    let mut game = start(&Ruleset::standard(), &setup(TWO, V4_TEN, V4_DEFENDER, "3C", "KD"));
    pass_pass_draw(&mut game);
    assert!(!is_listed(&game, &Action::BigGin { melds: None }));
    assert_eq!(refused(&mut game, ONE, &Action::BigGin { melds: None }), PlayError::NotBigGin { deadwood: 10 });
}

#[test]
fn v4_without_big_gin_discard_and_keep_gin() {
    let mut game = start(&Ruleset::pagat(), &setup(TWO, V4_TEN, V4_DEFENDER, "3C", "QH"));
    pass_pass_draw(&mut game);
    let big_gin = Action::BigGin { melds: None };
    assert!(!is_listed(&game, &big_gin));
    assert_eq!(refused(&mut game, ONE, &big_gin), PlayError::BigGinOff);
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
    assert_eq!(hand_ended(&events).0, score(HandOutcome::Gin, ONE, 65 + 20));
}

// ---------------------------------------------------------------------------------------------
// Oklahoma (rule 14, V15).

#[test]
fn v15_oklahoma_ace_upcard_means_gin_only() {
    let one = "2S 3S 4S 7H 7D 7C JC QC KC AD";
    let two = "5S 9S KS 3H 9H QH 4D 8D TD 6C";
    let (game, opening) = Game::from_setup(&Ruleset::oklahoma(), 7, &setup(TWO, one, two, "AC", "9D")).unwrap();
    assert_eq!(game.hand().knock_limit(), 0);
    assert_eq!(game.view(ONE).knock_limit, 0);
    assert!(matches!(opening[1], Event::HandStarted { knock_limit: 0, .. }), "{opening:?}");
    let mut game = game;
    pass_pass_draw(&mut game);
    // Deadwood 1 (AD) after the best discard: no knock.
    assert_eq!(knock_discards(&game), CardSet::EMPTY);
    assert_eq!(
        refused(&mut game, ONE, &Action::knock(card("9D"))),
        PlayError::OverKnockLimit { deadwood: 1, limit: 0 }
    );
    assert_eq!(
        refused(&mut game, ONE, &Action::knock(card("AD"))),
        PlayError::OverKnockLimit { deadwood: 9, limit: 0 }
    );
    // The same hand may knock where the upcard is a two.
    let mut game = start(&Ruleset::oklahoma(), &setup(TWO, one, two, "2H", "9D"));
    assert_eq!(game.hand().knock_limit(), 2);
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
        let stock = game.hand().stock_len();
        let events = play(&mut game, player, Action::DrawStock);
        draws += 1;
        assert_eq!(game.hand().stock_len(), stock - 1);
        let [Event::DrewStock { card: Some(drawn), .. }] = events[..] else { panic!("{events:?}") };
        if game.hand().stock_len() == 2 {
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
    assert!(is_listed(&game, &Action::knock(drawn)));
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
    assert_eq!((game.hand_number(), game.hand().dealer(), game.to_act()), (2, TWO, Some(ONE)));
    assert_eq!(game.score().points, ByPlayer::new(0, 0));
    assert_eq!(game.score().hands_won, ByPlayer::new(0, 0));
    assert_eq!(game.score().hands, 1);
    assert_eq!(game.hand().stock_len(), 31);
}

#[test]
fn v16_under_reshuffle_the_pile_becomes_the_stock() {
    let rules = Ruleset { stock_end: StockEnd::Reshuffle, ..Ruleset::standard() };
    let (mut game, drawn) = v16_game(&rules);
    let pile = game.hand().pile().to_vec();
    assert_eq!(pile.len(), 29, "the upcard and 28 discards");
    let events = play(&mut game, ONE, Action::Discard { card: drawn });
    // The pile but the card just discarded (29 cards), with the two cards left, makes a stock of 31.
    assert_eq!(events, [Event::Discarded { player: ONE, card: drawn }, Event::StockRebuilt { size: 31 }]);
    assert_eq!(game.hand().pile(), [drawn]);
    let stock: CardSet = game.hand().stock().collect();
    assert_eq!(stock.len(), 31);
    assert!(pile.iter().all(|card| stock.contains(*card)));
    assert_eq!(game.hand().all_cards(), (CardSet::FULL, 52));
    assert_eq!((game.hand_number(), game.to_act(), game.hand().phase()), (1, Some(TWO), Phase::Draw));
}
