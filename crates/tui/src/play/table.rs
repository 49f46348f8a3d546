//! `gin play` as a full-screen table (ratatui on crossterm): the table stays put in the
//! alternate screen and is played with a few keys or the mouse. The game itself is the
//! session's, as in the line mode: the same moves, the same save after every move.

mod draw;

use std::io;

use anyhow::Result;
use gin_engine::{Action, Event as GameEvent, Phase};
use gin_rules::Player;
use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton,
    MouseEvent, MouseEventKind,
};
use ratatui::crossterm::execute;

pub(super) use draw::Skin;
use draw::{Overlay, Regions, Scene};

use super::input::{CardRef, Command};
use super::screen::{self, Layout};
use super::session::{Reply, Session, Snapshot, refusal};

/// How a table session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Exit {
    /// The player quit: the game is saved, to resume later.
    Quit,
    /// The game was played to its end.
    Finished,
}

/// The terminal in raw mode and the alternate screen, with the mouse reported; restored when
/// dropped, whatever happened.
struct Screen {
    terminal: DefaultTerminal,
}

impl Screen {
    fn enter() -> Result<Screen> {
        let terminal = ratatui::try_init()?;
        let screen = Screen { terminal };
        execute!(io::stdout(), EnableMouseCapture)?;
        Ok(screen)
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = execute!(io::stdout(), DisableMouseCapture);
        ratatui::restore();
    }
}

/// What the table holds besides the game: the selection, the open window, the last message.
#[derive(Debug)]
struct Table {
    skin: Skin,
    overlay: Option<Overlay>,
    /// The selected card's place in the hand's display order.
    selected: usize,
    message: Option<(String, bool)>,
    regions: Regions,
}

/// What a key or a click asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Effect {
    Nothing,
    Play(Action),
    Quit,
    NewGame,
    Finish,
}

/// Plays `session` at the full-screen table until the player quits or the game ends;
/// `new_game` starts another when the player asks for one at the end. Returns how it ended and
/// the last game's session.
///
/// # Errors
/// The terminal fails, or the AI forfeits (the save records it).
pub(super) fn run(
    session: Session,
    skin: Skin,
    opening: &[String],
    mut new_game: impl FnMut() -> Result<(Session, Vec<String>)>,
) -> Result<(Exit, Session)> {
    let mut screen = Screen::enter()?;
    let mut session = session;
    let mut table = Table::new(skin, opening);
    loop {
        advance(&mut session, &mut table, &mut screen)?;
        redraw(&session, &mut table, &mut screen, None)?;
        let effect = match event::read()? {
            Event::Key(key) if key.kind != KeyEventKind::Release => table.key(&mut session, key),
            Event::Mouse(mouse) => table.mouse(&session, mouse),
            // A resize redraws at the top of the loop.
            _ => Effect::Nothing,
        };
        match effect {
            Effect::Nothing => {}
            Effect::Play(action) => table.play(&mut session, action),
            Effect::Quit => return Ok((Exit::Quit, session)),
            Effect::Finish => return Ok((Exit::Finished, session)),
            Effect::NewGame => {
                let (next, opening) = new_game()?;
                session = next;
                table = Table::new(skin, &opening);
            }
        }
    }
}

/// Plays the moves no person makes (the AI's, the referee's answer to a person's knock) and
/// opens what the table must show next: the pass screen of a hot seat, the end of the game.
fn advance(session: &mut Session, table: &mut Table, screen: &mut Screen) -> Result<()> {
    while table.overlay.is_none() {
        let Some(player) = session.game.to_act() else {
            if let Some(result) = session.game.result() {
                table.overlay = Some(Overlay::GameEnd(*result));
            }
            return Ok(());
        };
        let ai_to_act = session.ai.as_ref().is_some_and(|(seat, _)| *seat == player);
        if ai_to_act {
            let waiting = format!("{} is thinking…", session.seats.name(player));
            redraw(session, table, screen, Some(&waiting))?;
        }
        match session.automatic_move(player)? {
            Some((produced, before)) => table.after_move(session, produced, before),
            None => {
                if session.header.human.is_none() && session.last_viewer != Some(player) {
                    table.overlay = Some(Overlay::PassTo(player));
                }
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Draws the table for its viewer.
fn redraw(session: &Session, table: &mut Table, screen: &mut Screen, waiting: Option<&str>) -> Result<()> {
    let viewer = viewer(session);
    let view = session.game.view(viewer);
    let to_act = session.game.to_act() == Some(viewer) && waiting.is_none();
    let legal = if to_act { session.game.legal_actions() } else { gin_engine::LegalActions::default() };
    let layout = Layout::of(view.hand, session.game.rules().solver());
    table.selected = table.selected.min(view.hand.len().saturating_sub(1));
    let log = log(session, viewer, table.skin);
    let scene = Scene {
        view,
        legal: &legal,
        seats: &session.seats,
        skin: table.skin,
        layout: &layout,
        selected: table.selected,
        log: &log,
        message: table.message.as_ref(),
        waiting,
        overlay: table.overlay.as_ref(),
    };
    let mut regions = Regions::default();
    screen.terminal.draw(|frame| regions = draw::draw(frame, &scene))?;
    table.regions = regions;
    Ok(())
}

/// Whose eyes the table is drawn for: the person against the AI; at a hot seat, the one to act
/// (the pass screen hides the table until that one looks).
fn viewer(session: &Session) -> Player {
    session.header.human.or(session.game.to_act()).or(session.last_viewer).unwrap_or(Player::One)
}

/// The moves of the current hand as `viewer` saw them, one sentence a turn.
fn log(session: &Session, viewer: Player, skin: Skin) -> Vec<String> {
    let events = &session.events;
    let start = events.iter().rposition(|event| matches!(event, GameEvent::HandStarted { .. })).unwrap_or(0);
    screen::narrate(&events[start..], viewer, &session.seats, skin.text_look())
}

impl Table {
    fn new(skin: Skin, opening: &[String]) -> Table {
        let message = (!opening.is_empty()).then(|| (opening.join(" "), false));
        Table { skin, overlay: None, selected: 0, message, regions: Regions::default() }
    }

    /// A key.
    fn key(&mut self, session: &mut Session, key: KeyEvent) -> Effect {
        let ctrl_c = key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c');
        if ctrl_c {
            return Effect::Quit;
        }
        let char = match key.code {
            KeyCode::Char(c) => Some(c.to_ascii_lowercase()),
            _ => None,
        };
        let confirm = matches!(key.code, KeyCode::Enter) || char == Some(' ');
        if let Some(overlay) = &self.overlay {
            match overlay {
                Overlay::Help | Overlay::Hint(_) | Overlay::Pile => self.overlay = None,
                Overlay::Knock(action) => {
                    let action = *action;
                    if confirm || char == Some('y') {
                        self.overlay = None;
                        return Effect::Play(action);
                    }
                    if key.code == KeyCode::Esc || char == Some('n') {
                        self.overlay = None;
                    }
                }
                Overlay::HandEnd(_) => {
                    if char == Some('q') {
                        return Effect::Quit;
                    }
                    if confirm {
                        self.overlay = None;
                        self.message = None;
                        // A hot seat passes the table again before the next deal shows.
                        session.last_viewer = None;
                    }
                }
                Overlay::GameEnd(_) => match char {
                    Some('n') => return Effect::NewGame,
                    Some('q') => return Effect::Finish,
                    _ if confirm || key.code == KeyCode::Esc => return Effect::Finish,
                    _ => {}
                },
                Overlay::PassTo(player) => {
                    if char == Some('q') {
                        return Effect::Quit;
                    }
                    if confirm {
                        session.last_viewer = Some(*player);
                        self.overlay = None;
                    }
                }
            }
            return Effect::Nothing;
        }
        let Some(player) = session.game.to_act() else { return Effect::Nothing };
        let hand_len = session.game.deal().cards(player).len();
        let command = match (key.code, char) {
            (KeyCode::Left, _) | (_, Some('h')) => {
                self.selected = (self.selected + hand_len.max(1) - 1) % hand_len.max(1);
                return Effect::Nothing;
            }
            (KeyCode::Right, _) | (_, Some('l')) => {
                self.selected = (self.selected + 1) % hand_len.max(1);
                return Effect::Nothing;
            }
            (KeyCode::Esc, _) => {
                self.message = None;
                return Effect::Nothing;
            }
            (_, Some(digit @ ('0'..='9' | '-'))) => {
                let position = match digit {
                    '0' => 10,
                    '-' => 11,
                    _ => digit as usize - '0' as usize,
                };
                if position <= hand_len {
                    self.selected = position - 1;
                    self.message = None;
                } else {
                    self.message = Some((format!("There is no card at position {position}."), true));
                }
                return Effect::Nothing;
            }
            (_, Some('?')) => {
                self.overlay = Some(Overlay::Help);
                return Effect::Nothing;
            }
            (_, Some('v')) => {
                self.overlay = Some(Overlay::Pile);
                return Effect::Nothing;
            }
            (_, Some('i')) => {
                self.overlay = Some(Overlay::Hint(session.hint(player)));
                return Effect::Nothing;
            }
            (_, Some('q')) => return Effect::Quit,
            (KeyCode::Enter, _) | (_, Some(' ')) => Command::Discard(CardRef::Position(self.selected + 1)),
            (_, Some('s')) => Command::Stock,
            (_, Some('d')) => Command::Pile,
            (_, Some('t')) => Command::Take,
            (_, Some('p')) => Command::Pass,
            (_, Some('k')) => Command::Knock(CardRef::Position(self.selected + 1)),
            (_, Some('b')) => Command::BigGin,
            _ => return Effect::Nothing,
        };
        self.command(session, command, player)
    }

    /// A click: on a card selects it, again discards it; on the stock or the pile draws.
    fn mouse(&mut self, session: &Session, mouse: MouseEvent) -> Effect {
        if mouse.kind != MouseEventKind::Down(MouseButton::Left) {
            return Effect::Nothing;
        }
        match &self.overlay {
            Some(Overlay::Help | Overlay::Hint(_) | Overlay::Pile) => {
                self.overlay = None;
                return Effect::Nothing;
            }
            Some(_) => return Effect::Nothing,
            None => {}
        }
        let Some(player) = session.game.to_act() else { return Effect::Nothing };
        let (column, row) = (mouse.column, mouse.row);
        let offer = session.game.deal().phase() == Phase::UpcardOffer;
        let command = if let Some(position) = self.regions.card_at(column, row) {
            if position != self.selected || session.game.deal().phase() != Phase::Discard {
                self.selected = position;
                return Effect::Nothing;
            }
            Command::Discard(CardRef::Position(position + 1))
        } else if self.regions.stock.is_some_and(|rect| rect.contains((column, row).into())) {
            if offer { Command::Pass } else { Command::Stock }
        } else if self.regions.pile.is_some_and(|rect| rect.contains((column, row).into())) {
            if offer { Command::Take } else { Command::Pile }
        } else {
            return Effect::Nothing;
        };
        self.command(session, command, player)
    }

    /// A command of the line mode, as the table carries it out: a knock waits for its
    /// confirmation, a refused move says why.
    fn command(&mut self, session: &Session, command: Command, player: Player) -> Effect {
        let view = session.game.view(player);
        let layout = Layout::of(view.hand, session.game.rules().solver());
        let action = match session.action_for(command, player, &layout) {
            Ok(Some(action)) => action,
            Ok(None) | Err(Reply::Hint | Reply::Stop) => return Effect::Nothing,
            Err(Reply::Say(text)) => {
                self.message = Some((text, true));
                return Effect::Nothing;
            }
        };
        // Asked of a copy of the deal: whether the referee takes it, and why not.
        let mut deal = *session.game.deal();
        if let Err(err) = deal.play(session.game.rules(), player, action, None, &mut Vec::new()) {
            self.message = Some((refusal(&err, session.look), true));
            return Effect::Nothing;
        }
        if matches!(action, Action::Knock { .. } | Action::BigGin) {
            self.overlay = Some(Overlay::Knock(action));
            return Effect::Nothing;
        }
        Effect::Play(action)
    }

    /// Plays a person's move.
    fn play(&mut self, session: &mut Session, action: Action) {
        let Some(player) = session.game.to_act() else { return };
        let before = session.snapshot();
        match session.game.play(player, action) {
            Ok(produced) => {
                self.message = None;
                self.after_move(session, produced, before);
            }
            Err(err) => self.message = Some((refusal(&err, session.look), true)),
        }
    }

    /// Records a move: selects a card just drawn, opens the end of a hand, warns of a failed save.
    fn after_move(&mut self, session: &mut Session, produced: Vec<GameEvent>, before: Snapshot) {
        let viewer = viewer(session);
        let drawn = produced.iter().find_map(|event| match *event {
            GameEvent::DrewStock { player, card: Some(card) } if player == viewer => Some(card),
            GameEvent::DrewPile { player, card } | GameEvent::TookUpcard { player, card } if player == viewer => {
                Some(card)
            }
            _ => None,
        });
        let committed = session.commit(produced, before);
        // The line mode's queue of moves to tell: the table tells them from the log.
        session.pending = gin_rules::ByPlayer::default();
        if let Some(why) = committed.save_error {
            self.message =
                Some((format!("warning: {why}: this move is not saved; gin tries again after the next one"), true));
        }
        if let Some(end) = committed.end {
            self.overlay = Some(Overlay::HandEnd(end));
            self.selected = 0;
        } else if let Some(card) = drawn {
            let hand = session.game.deal().cards(viewer);
            let layout = Layout::of(hand, session.game.rules().solver());
            self.selected = layout.order().iter().position(|&c| c == card).unwrap_or(self.selected);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gin_engine::Game;
    use gin_rules::{HandOutcome, Ruleset};

    use crate::play::session::NewGame;
    use crate::render::Look;

    const SKIN: Skin = Skin { look: Look::PLAIN, ascii: true };

    /// A hot-seat session on docs/rules.md's V10 deal: player one holds AS 2S 3S 7H 7D 7C JC QC
    /// KC 3H, is offered 9H, and acts first.
    fn v10_session(name: &str) -> Session {
        let save = std::env::temp_dir().join(format!("gin-table-{}-{name}.gin", std::process::id()));
        let rules = Ruleset::standard();
        let game = NewGame { rules: &rules, seed: Some(1), opponent: None, save: Some(&save) };
        let host = gin_arena::Host::new(gin_arena::Limits::default());
        let mut session = Session::new(game, Look::PLAIN, true, &host).unwrap();
        let setup = screen::fixtures::v10_setup();
        let (game, opening) = Game::from_setup(&Ruleset::standard(), 1, &setup).unwrap();
        session.game = game;
        session.events = opening;
        session.last_viewer = Some(Player::One);
        session
    }

    fn press(table: &mut Table, session: &mut Session, c: char) -> Effect {
        table.key(session, KeyEvent::from(KeyCode::Char(c)))
    }

    /// The position key (1-9, 0, -) of `card` in `player`'s shown hand.
    fn position_key(session: &Session, player: Player, card: &str) -> char {
        let layout = Layout::of(session.game.deal().cards(player), session.game.rules().solver());
        let position = layout.order().iter().position(|c| c.to_string() == card).unwrap();
        ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '-'][position]
    }

    #[test]
    fn keys_take_the_upcard_and_a_knock_waits_for_its_confirmation() {
        let mut session = v10_session("knock");
        let mut table = Table::new(SKIN, &[]);
        // Nothing but the offer is open: a draw is refused with a note, and nothing is played.
        assert_eq!(press(&mut table, &mut session, 's'), Effect::Nothing);
        assert!(table.message.as_ref().is_some_and(|(text, _)| text.contains("t to take it")), "{table:?}");
        assert_eq!(press(&mut table, &mut session, 't'), Effect::Play(Action::TakeUpcard));
        table.play(&mut session, Action::TakeUpcard);
        // The card taken is selected, and may not be discarded this turn.
        let nine = position_key(&session, Player::One, "9H");
        assert_eq!(['1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '-'].get(table.selected), Some(&nine));
        assert_eq!(table.key(&mut session, KeyEvent::from(KeyCode::Enter)), Effect::Nothing);
        assert!(table.message.as_ref().is_some_and(|(text, _)| text.contains("may not be discarded")), "{table:?}");
        // A knock over the limit is refused with the deadwood it would leave.
        let seven = position_key(&session, Player::One, "7H");
        press(&mut table, &mut session, seven);
        assert_eq!(press(&mut table, &mut session, 'k'), Effect::Nothing);
        assert!(table.message.as_ref().is_some_and(|(text, _)| text.contains("over the knock limit")), "{table:?}");
        assert_eq!(table.overlay, None);
        // A knock that may be made opens its confirmation; n closes it, y plays it.
        let three = position_key(&session, Player::One, "3H");
        press(&mut table, &mut session, three);
        let knock = Action::knock("3H".parse().unwrap());
        assert_eq!(press(&mut table, &mut session, 'k'), Effect::Nothing);
        assert_eq!(table.overlay, Some(Overlay::Knock(knock)));
        assert_eq!(press(&mut table, &mut session, 'n'), Effect::Nothing);
        assert_eq!(table.overlay, None);
        press(&mut table, &mut session, 'k');
        assert_eq!(press(&mut table, &mut session, 'y'), Effect::Play(knock));
        table.play(&mut session, knock);
        // The defender's answer is the referee's (V10: it lays off 4S and undercuts); then the end
        // of the hand opens.
        let (produced, before) = session.automatic_move(Player::Two).unwrap().expect("the referee lays off");
        table.after_move(&mut session, produced, before);
        let Some(Overlay::HandEnd(end)) = &table.overlay else { panic!("{table:?}") };
        assert_eq!((end.knocker, end.score.outcome), (Some(Player::One), HandOutcome::Undercut));
        assert!(end.shown[Player::Two].laid_off().contains("4S".parse().unwrap()));
        // Enter goes on, and the hot seat passes the table before the next deal shows.
        assert_eq!(table.key(&mut session, KeyEvent::from(KeyCode::Enter)), Effect::Nothing);
        assert_eq!((table.overlay.as_ref(), session.last_viewer), (None, None));
        std::fs::remove_file(&session.save).unwrap();
    }

    #[test]
    fn selection_wraps_and_positions_pick_cards() {
        let mut session = v10_session("select");
        let mut table = Table::new(SKIN, &[]);
        table.key(&mut session, KeyEvent::from(KeyCode::Left));
        assert_eq!(table.selected, 9, "left from the first card is the last of ten");
        press(&mut table, &mut session, 'l');
        assert_eq!(table.selected, 0);
        press(&mut table, &mut session, '0');
        assert_eq!(table.selected, 9);
        press(&mut table, &mut session, '-');
        assert!(table.message.as_ref().is_some_and(|(text, _)| text.contains("no card at position 11")), "{table:?}");
        assert_eq!(table.key(&mut session, KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)), Effect::Quit);
        assert_eq!(press(&mut table, &mut session, 'q'), Effect::Quit);
    }
}
