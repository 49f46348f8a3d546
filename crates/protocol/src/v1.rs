//! Version 1, the protocol as first written (2026-12-02), still served both ways.
//!
//! A host speaks it to a program started as `cmd-v1:PROGRAM` ([`downgrade`]); a program built on
//! [`crate::serve`] reads it from a host whose `start_game` says `"version": 1` ([`Upgrade`]).
//! What changed in version 2 (docs/protocol.md lists it): `decide` carries an `id`; the view gained
//! `upcard`, `upcard_passes`, `draws` and `knock`; `knocked` carries its `shown` showing where it
//! had `melds`, `unmelded` and `deadwood`; the `laid_off` event went, its cards now in the
//! `showdown` of `hand_ended`, whose `score` gained `base`, `bonus` and `doubled`.

use gin_cards::{Card, CardSet};
use gin_engine::Phase;
use gin_rules::{ByPlayer, GameResult, GameScore, HandOutcome, KnockKind, Meld, Player, Ruleset, Showing, score_hand};
use serde::{Deserialize, Serialize};

use crate::wire::{
    HostMessage as Current, WireAction, WireEvent, WireKnock, WireRules, WireScore, WireShowdown, WireShowing, WireView,
};

/// This version's number.
pub const VERSION: u32 = 1;

/// A message from a host in version 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum HostMessage {
    /// A game begins.
    StartGame { version: u32, seat: Player, rules: WireRules, seed: u64 },
    /// A hand begins.
    StartHand { number: u32, dealer: Player, upcard: Card, knock_limit: u32, hand: CardSet, points: ByPlayer<u32> },
    /// Something happened.
    Event { event: Event },
    /// Answer with one action (no `id` in this version).
    Decide { legal: Vec<WireAction>, view: View },
    /// The game ended.
    EndGame { result: GameResult },
    /// The host is done.
    Quit,
}

impl HostMessage {
    /// The message as one line of JSON, without its line break.
    pub fn to_line(&self) -> String {
        // These types always serialize.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// An event in version 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Event {
    GameStarted {
        rules: WireRules,
        first_dealer: Player,
    },
    HandStarted {
        number: u32,
        dealer: Player,
        upcard: Card,
        knock_limit: u32,
        hands: ByPlayer<Option<CardSet>>,
    },
    TookUpcard {
        player: Player,
        card: Card,
    },
    PassedUpcard {
        player: Player,
    },
    DrewStock {
        player: Player,
        card: Option<Card>,
    },
    DrewPile {
        player: Player,
        card: Card,
    },
    Discarded {
        player: Player,
        card: Card,
    },
    StockRebuilt {
        size: usize,
    },
    /// A knock with the knocker's melds, unmelded cards and deadwood.
    Knocked {
        player: Player,
        kind: KnockKind,
        discard: Option<Card>,
        melds: Vec<Meld>,
        unmelded: CardSet,
        deadwood: u32,
    },
    /// The defender's answer: its melds, its layoffs, the rest and its deadwood (after every knock).
    LaidOff {
        player: Player,
        melds: Vec<Meld>,
        laid_off: CardSet,
        unmelded: CardSet,
        deadwood: u32,
    },
    /// A hand ended, with its score (no breakdown in this version) and the game's points.
    HandEnded {
        score: Score,
        points: ByPlayer<u32>,
    },
    GameEnded {
        result: GameResult,
    },
}

/// A hand's score in version 1: how it ended, who scores, the points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct Score {
    pub outcome: HandOutcome,
    pub winner: Option<Player>,
    pub points: u32,
}

/// The view of a `decide` in version 1: without `upcard`, `upcard_passes`, `draws` and `knock`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct View {
    pub seat: Player,
    pub hand_number: u32,
    pub dealer: Player,
    pub knock_limit: u32,
    pub phase: Phase,
    pub to_act: Option<Player>,
    pub hand: CardSet,
    pub discard_pile: Vec<Card>,
    pub stock_size: usize,
    pub opponent_known: CardSet,
    pub opponent_cards: usize,
    pub taken_card: Option<Card>,
    pub score: GameScore,
}

impl From<&WireView> for View {
    fn from(view: &WireView) -> View {
        View {
            seat: view.seat,
            hand_number: view.hand_number,
            dealer: view.dealer,
            knock_limit: view.knock_limit,
            phase: view.phase,
            to_act: view.to_act,
            hand: view.hand,
            discard_pile: view.discard_pile.clone(),
            stock_size: view.stock_size,
            opponent_known: view.opponent_known,
            opponent_cards: view.opponent_cards,
            taken_card: view.taken_card,
            score: view.score,
        }
    }
}

/// A message of the current version as version 1 says it: none, one or two messages (a
/// `hand_ended` after a knock is told as `laid_off` and `hand_ended`).
pub fn downgrade(message: &Current) -> Vec<HostMessage> {
    let event = |event| HostMessage::Event { event };
    match message {
        Current::StartGame { seat, rules, seed, .. } => {
            vec![HostMessage::StartGame { version: VERSION, seat: *seat, rules: rules.clone(), seed: *seed }]
        }
        &Current::StartHand { number, dealer, upcard, knock_limit, hand, points } => {
            vec![HostMessage::StartHand { number, dealer, upcard, knock_limit, hand, points }]
        }
        Current::Event { event: current } => match current {
            WireEvent::GameStarted { rules, first_dealer } => {
                vec![event(Event::GameStarted { rules: rules.clone(), first_dealer: *first_dealer })]
            }
            &WireEvent::HandStarted { number, dealer, upcard, knock_limit, hands } => {
                vec![event(Event::HandStarted { number, dealer, upcard, knock_limit, hands })]
            }
            &WireEvent::TookUpcard { player, card } => vec![event(Event::TookUpcard { player, card })],
            &WireEvent::PassedUpcard { player } => vec![event(Event::PassedUpcard { player })],
            &WireEvent::DrewStock { player, card } => vec![event(Event::DrewStock { player, card })],
            &WireEvent::DrewPile { player, card } => vec![event(Event::DrewPile { player, card })],
            &WireEvent::Discarded { player, card } => vec![event(Event::Discarded { player, card })],
            &WireEvent::StockRebuilt { size } => vec![event(Event::StockRebuilt { size })],
            WireEvent::Knocked { player, kind, discard, shown } => vec![event(Event::Knocked {
                player: *player,
                kind: *kind,
                discard: *discard,
                melds: shown.melds.clone(),
                unmelded: shown.unmelded,
                deadwood: shown.deadwood,
            })],
            WireEvent::HandEnded { score, points, showdown } => {
                let mut messages = Vec::new();
                if let Some(showdown) = showdown {
                    let defender = showdown.knocker.opponent();
                    let shown = &showdown.shown[defender];
                    messages.push(event(Event::LaidOff {
                        player: defender,
                        melds: shown.melds.clone(),
                        laid_off: shown.laid_off,
                        unmelded: shown.unmelded,
                        deadwood: shown.deadwood,
                    }));
                }
                let score = Score { outcome: score.outcome, winner: score.winner, points: score.points };
                messages.push(event(Event::HandEnded { score, points: *points }));
                messages
            }
            &WireEvent::GameEnded { result } => vec![event(Event::GameEnded { result })],
        },
        Current::Decide { legal, view, .. } => vec![HostMessage::Decide { legal: legal.clone(), view: view.into() }],
        &Current::EndGame { result } => vec![HostMessage::EndGame { result }],
        Current::Quit => vec![HostMessage::Quit],
    }
}

/// Reads a version-1 host as the current version: what version 1 leaves out of a view and a
/// hand's end is worked out from the messages before (the upcard from `start_hand`, the passes
/// and draws counted from the events, the knock from `knocked`, the showdown from `knocked` and
/// `laid_off`, the score's breakdown from the showdown by the rules).
#[derive(Clone, Debug, Default)]
pub struct Upgrade {
    rules: Ruleset,
    upcard: Option<Card>,
    passes: u8,
    draws: u32,
    knock: Option<WireKnock>,
    defense: Option<(Player, WireShowing)>,
}

impl Upgrade {
    /// A reader for a game under `rules` (from the `start_game` that said version 1).
    pub fn new(rules: Ruleset) -> Upgrade {
        Upgrade { rules, ..Upgrade::default() }
    }

    /// `message` in the current version, `None` for one the current version does not send
    /// (`laid_off`, whose cards come with the next `hand_ended`).
    ///
    /// # Errors
    /// A message that does not follow from the ones before: a decision before any hand, a
    /// showing or a score that is not one.
    pub fn upgrade(&mut self, message: HostMessage) -> Result<Option<Current>, String> {
        Ok(Some(match message {
            HostMessage::StartGame { version, seat, rules, seed } => {
                *self = Upgrade::new(rules.0.clone());
                Current::StartGame { version, seat, rules, seed }
            }
            HostMessage::StartHand { number, dealer, upcard, knock_limit, hand, points } => {
                self.new_hand(upcard);
                Current::StartHand { number, dealer, upcard, knock_limit, hand, points }
            }
            HostMessage::Event { event } => match self.event(event)? {
                Some(event) => Current::Event { event },
                None => return Ok(None),
            },
            HostMessage::Decide { legal, view } => {
                let upcard = self.upcard.ok_or("a decision before any hand was dealt")?;
                let knock = self.knock.clone().filter(|_| view.phase == Phase::LayOff);
                Current::Decide {
                    id: None,
                    legal,
                    view: WireView {
                        seat: view.seat,
                        hand_number: view.hand_number,
                        dealer: view.dealer,
                        upcard,
                        knock_limit: view.knock_limit,
                        phase: view.phase,
                        to_act: view.to_act,
                        hand: view.hand,
                        discard_pile: view.discard_pile,
                        stock_size: view.stock_size,
                        opponent_known: view.opponent_known,
                        opponent_cards: view.opponent_cards,
                        taken_card: view.taken_card,
                        upcard_passes: self.passes,
                        draws: self.draws,
                        knock,
                        score: view.score,
                    },
                }
            }
            HostMessage::EndGame { result } => Current::EndGame { result },
            HostMessage::Quit => Current::Quit,
        }))
    }

    fn new_hand(&mut self, upcard: Card) {
        self.upcard = Some(upcard);
        self.passes = 0;
        self.draws = 0;
        self.knock = None;
        self.defense = None;
    }

    fn event(&mut self, event: Event) -> Result<Option<WireEvent>, String> {
        Ok(Some(match event {
            Event::GameStarted { rules, first_dealer } => WireEvent::GameStarted { rules, first_dealer },
            Event::HandStarted { number, dealer, upcard, knock_limit, hands } => {
                self.new_hand(upcard);
                WireEvent::HandStarted { number, dealer, upcard, knock_limit, hands }
            }
            Event::TookUpcard { player, card } => WireEvent::TookUpcard { player, card },
            Event::PassedUpcard { player } => {
                self.passes = self.passes.saturating_add(1);
                WireEvent::PassedUpcard { player }
            }
            Event::DrewStock { player, card } => {
                self.draws = self.draws.saturating_add(1);
                WireEvent::DrewStock { player, card }
            }
            Event::DrewPile { player, card } => {
                self.draws = self.draws.saturating_add(1);
                WireEvent::DrewPile { player, card }
            }
            Event::Discarded { player, card } => WireEvent::Discarded { player, card },
            Event::StockRebuilt { size } => WireEvent::StockRebuilt { size },
            Event::Knocked { player, kind, discard, melds, unmelded, deadwood } => {
                let shown = WireShowing { melds, laid_off: CardSet::EMPTY, unmelded, deadwood };
                Showing::try_from(&shown).map_err(|err| format!("the knock's cards are not a showing: {err}"))?;
                self.knock = Some(WireKnock { player, kind, shown: shown.clone() });
                WireEvent::Knocked { player, kind, discard, shown }
            }
            Event::LaidOff { player, melds, laid_off, unmelded, deadwood } => {
                let shown = WireShowing { melds, laid_off, unmelded, deadwood };
                Showing::try_from(&shown).map_err(|err| format!("the defense's cards are not a showing: {err}"))?;
                self.defense = Some((player, shown));
                return Ok(None);
            }
            Event::HandEnded { score, points } => {
                let showdown = match (self.knock.take(), self.defense.take()) {
                    (Some(knock), Some((defender, defense))) if defender == knock.player.opponent() => {
                        let mut shown = ByPlayer::new(defense.clone(), defense);
                        shown[knock.player] = knock.shown;
                        Some(WireShowdown { knocker: knock.player, kind: knock.kind, shown })
                    }
                    (None, None) => None,
                    _ => return Err("a hand's end that does not follow its knock and its defense".to_owned()),
                };
                WireEvent::HandEnded { score: self.breakdown(score, showdown.as_ref())?, points, showdown }
            }
            Event::GameEnded { result } => WireEvent::GameEnded { result },
        }))
    }

    /// A version-1 score with its breakdown, worked out from the showdown by the rules.
    fn breakdown(&self, score: Score, showdown: Option<&WireShowdown>) -> Result<WireScore, String> {
        let (Some(showdown), Some(upcard)) = (showdown, self.upcard) else {
            return Ok(WireScore {
                outcome: score.outcome,
                winner: score.winner,
                points: score.points,
                base: 0,
                bonus: 0,
                doubled: false,
            });
        };
        let knocker = showdown.knocker;
        let worked = score_hand(
            &self.rules,
            knocker,
            showdown.kind,
            showdown.shown[knocker].deadwood,
            showdown.shown[knocker.opponent()].deadwood,
            upcard,
        );
        if (worked.outcome, worked.winner, worked.points) != (score.outcome, score.winner, score.points) {
            return Err(format!(
                "the hand's score ({:?}, {} points) is not the one its showdown gives under the rules ({:?}, {} points)",
                score.outcome, score.points, worked.outcome, worked.points
            ));
        }
        Ok((&worked).into())
    }
}
