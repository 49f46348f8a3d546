//! A game of `gin play` in progress: the game, its save and the AI, and the line mode that
//! plays it one line at a time. The full-screen table ([`super::table`]) plays the same session.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use gin_ai::registry::{self, AgentParams, AgentSpec};
use gin_cards::CardSet;
use gin_engine::{Action, Decision, Event, Game, LogHeader, Phase, PlayError, agent_seed};
use gin_rules::{ByPlayer, Player, Ruleset};

use super::input::{self, CardRef, Command};
use super::lines::Lines;
use super::savefile::{self, Opponent, PlayHeader};
use super::screen::{self, HandEnd, Layout, Seats};
use super::store;
use crate::invocation::{gin_command, shell_path};
use crate::render::{Look, plural};

/// Clears the screen, then the scrollback, and moves to the top: what a hot seat shows between
/// turns on a terminal.
const CLEAR_ALL: &str = "\x1b[2J\x1b[3J\x1b[H";

/// What a new game is: its rules, its seed, who plays it, where it is saved.
#[derive(Clone, Copy, Debug)]
pub(super) struct NewGame<'a> {
    /// The rules, target included.
    pub rules: &'a Ruleset,
    /// The seed of the deal; `None` draws one from the clock (and the opening says so).
    pub seed: Option<u64>,
    /// The AI's spec, or `None` for two people at one terminal.
    pub opponent: Option<&'a str>,
    /// The save file; `None` for a new file in the state folder.
    pub save: Option<&'a Path>,
}

/// A game in progress, with its save.
pub(super) struct Session {
    pub(super) game: Game,
    pub(super) events: Vec<Event>,
    pub(super) log: LogHeader,
    pub(super) header: PlayHeader,
    pub(super) ai: Option<Opponent>,
    pub(super) save: PathBuf,
    /// Where `save` leads through its symbolic links ([`store::resolve`]): the file written (and
    /// locked), `save` itself when it is no link.
    pub(super) target: PathBuf,
    /// The lock that keeps other sessions off this game's save.
    pub(super) _lock: Option<store::Lock>,
    /// Why the last write of the save failed, if it did: the file then holds an earlier point.
    pub(super) unsaved: Option<String>,
    pub(super) seed_drawn: bool,
    pub(super) look: Look,
    pub(super) seats: Seats,
    pub(super) terminal: bool,
    /// The moves not yet shown to each player.
    pub(super) pending: ByPlayer<Vec<Event>>,
    /// The person who last saw the table (hotseat: whom to hide it from).
    pub(super) last_viewer: Option<Player>,
    /// What resuming changed (another AI than the save's), told at the start.
    pub(super) notes: Vec<String>,
}

/// Why a game stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Quit,
    EndOfInput,
}

impl Session {
    /// A new game under `rules`: dealt from `seed` (from the clock when `None`), against the AI
    /// `opponent` names or at a hot seat (`None`), saved to `save` or to a new file in the state
    /// folder. Nothing is written yet ([`Session::begin`] writes the first save).
    ///
    /// # Errors
    /// The AI cannot be built, or the save's place cannot be resolved.
    pub(super) fn new(game: NewGame<'_>, look: Look, terminal: bool, host: &gin_arena::Host) -> Result<Session> {
        let NewGame { rules, seed: chosen_seed, opponent, save } = game;
        let seed = chosen_seed.unwrap_or_else(clock_seed);
        let log = LogHeader::new(seed, rules, None);
        // The person sits in seat one; the engine draws the first dealer from the seed.
        let human = Player::One;
        let (ai, header, seats) = match opponent {
            None => (None, PlayHeader::new(None), Seats::hotseat()),
            Some(spec) => {
                let ai =
                    savefile::build_ai(spec, human.opponent(), &log, &AgentParams::default(), host).context("--ai")?;
                (Some(ai), PlayHeader::new(Some((spec, human))), Seats::versus_ai(human))
            }
        };
        let (game, opening) = Game::new(rules, seed);
        let mut session = Session {
            game,
            events: Vec::new(),
            log,
            header,
            ai,
            save: PathBuf::new(),
            target: PathBuf::new(),
            _lock: None,
            unsaved: None,
            seed_drawn: chosen_seed.is_none(),
            look,
            seats,
            terminal,
            pending: ByPlayer::default(),
            last_viewer: None,
            notes: Vec::new(),
        };
        session.save = match save {
            Some(path) => path.to_owned(),
            None => store::new_game_path(seed, std::time::SystemTime::now()),
        };
        session.target = store::resolve(&session.save)?;
        session.record(opening);
        Ok(session)
    }

    pub(super) fn resumed(
        resumed: savefile::Resumed,
        save: PathBuf,
        target: PathBuf,
        lock: store::Lock,
        look: Look,
        terminal: bool,
    ) -> Session {
        let seats = match resumed.header.human {
            Some(human) => Seats::versus_ai(human),
            None => Seats::hotseat(),
        };
        Session {
            game: resumed.game,
            events: resumed.events,
            log: resumed.log,
            header: resumed.header,
            ai: resumed.ai,
            save,
            target,
            _lock: Some(lock),
            unsaved: None,
            seed_drawn: false,
            look,
            seats,
            terminal,
            pending: ByPlayer::default(),
            last_viewer: None,
            notes: resumed.notes,
        }
    }

    /// Writes the first save; returns the opening lines: who plays, the seed, where the game is
    /// saved.
    ///
    /// # Errors
    /// The save cannot be written.
    pub(super) fn begin(&mut self, resumed: bool) -> Result<Vec<String>> {
        self.write_save().context("the game cannot be saved; give another place with --save FILE")?;
        let rules = self.game.rules();
        let opponent = match &self.header.ai {
            Some(ai) => format!("You against the AI ({ai})"),
            None => "Two players at one terminal".to_owned(),
        };
        let mut lines = Vec::new();
        if resumed {
            let score = self.game.score();
            lines.push(format!(
                "Resuming: {opponent}, hand {}, {} {} · {} {}.",
                self.game.hand_number(),
                self.seats.name(Player::One),
                score.points[Player::One],
                self.seats.name(Player::Two),
                score.points[Player::Two]
            ));
            lines.extend(self.notes.iter().cloned());
        } else {
            lines.push(format!("{opponent}, playing to {}.", plural(u64::from(rules.target), "point")));
            let how = if self.seed_drawn { "drawn from the clock; " } else { "" };
            lines.push(format!("Seed {} ({how}play this deal again with --seed {}).", self.log.seed, self.log.seed));
        }
        lines.push(format!("Saving after every move to {}", self.save.display()));
        if self.target != self.save {
            lines.push(format!("Saving through the link {} to {}.", self.save.display(), self.target.display()));
        }
        Ok(lines)
    }

    /// Plays until the game ends or the player stops.
    pub(super) fn play(&mut self, input: &mut Lines<impl BufRead>, out: &mut impl Write) -> Result<()> {
        let stop = loop {
            let Some(player) = self.game.to_act() else {
                self.show_pending(out, self.viewer_for_narration())?;
                if let Some(result) = self.game.result() {
                    writeln!(out)?;
                    write!(out, "{}", screen::game_end(result, self.game.rules(), &self.seats, self.look))?;
                    writeln!(out, "The whole game is in {}.", self.save.display())?;
                }
                return Ok(());
            };
            let result = match self.automatic_move(player)? {
                Some((produced, before)) => self.after_move(produced, before, input, out),
                None => self.human_turn(player, input, out),
            };
            if let Err(stop) = result? {
                break stop;
            }
        };
        let how = match stop {
            Stop::Quit => "Stopped.",
            Stop::EndOfInput => "\nEnd of input.",
        };
        self.farewell(how, out)
    }

    /// What quitting says: where the game is saved and how to go on, or that the save failed.
    pub(super) fn farewell(&mut self, how: &str, out: &mut impl Write) -> Result<()> {
        if let Some(why) = self.retry_save() {
            writeln!(out, "{how} The game could NOT be saved: {why}.")?;
            writeln!(out, "{} holds it only as it was before the failed save, if at all.", self.save.display())?;
            return Ok(());
        }
        writeln!(out, "{how} The game is saved in {}", self.save.display())?;
        writeln!(out, "Continue with: {} play --resume {}", gin_command(), shell_path(&self.save))?;
        Ok(())
    }

    /// Plays `player`'s move when no person makes it (the AI's, or the referee's answer to a
    /// knock), returning its events and the snapshot before it; `None` when a person is to move.
    ///
    /// # Errors
    /// The AI forfeits: its move is refused. The save records the forfeit.
    pub(super) fn automatic_move(&mut self, player: Player) -> Result<Option<(Vec<Event>, Snapshot)>> {
        let ai_seat = self.ai.as_ref().map(|(seat, _)| *seat);
        let decision = if ai_seat == Some(player) {
            let (_, agent) = self.ai.as_mut().expect("the AI's seat");
            savefile::ai_move(agent.as_mut(), &self.game, player)
        } else if self.game.deal().phase() == Phase::LayOff {
            // A person's answer to a knock: the referee's best (rule 16).
            Decision::play(Action::LayOff)
        } else {
            return Ok(None);
        };
        let before = self.snapshot();
        let played = match decision {
            Decision::Play { action, showing } => self
                .game
                .play_with(player, action, showing.as_deref())
                .map_err(|err| format!("it chose a move the game refuses ({action}): {err}")),
            Decision::Resign { reason } => Err(reason),
        };
        match played {
            Ok(produced) => Ok(Some((produced, before))),
            Err(why) => {
                // The game ends here, lost by the AI: the save says so, and is not resumed into
                // the same failure.
                self.header.forfeit = Some(why.clone());
                let saved = match self.write_save() {
                    Ok(()) => format!("the save {} records it", self.save.display()),
                    Err(err) => format!("and it could NOT be saved: {err:#}"),
                };
                Err(anyhow!("the AI forfeits: {why}; {saved}"))
            }
        }
    }

    /// Records a move's events and saves: what the move ended, and whether the save failed.
    pub(super) fn commit(&mut self, produced: Vec<Event>, (number, mut hands): Snapshot) -> Committed {
        let ended = produced.iter().position(|event| matches!(event, Event::HandEnded { .. }));
        for event in &produced {
            if let Event::Discarded { player, card } = event {
                hands[*player].remove(*card);
            }
        }
        // The end of the hand, for a dead hand with both players' cards as they ended it.
        let end = ended.and_then(|at| HandEnd::of(&produced[at], number, hands, self.game.rules().solver()));
        let after_end = ended.map(|at| produced.len() - at - 1);
        self.record(produced);
        self.unsaved = self.write_save().err().map(|err| format!("{err:#}"));
        Committed { end, after_end, save_error: self.unsaved.clone() }
    }

    /// One decision of a person: shows the table and asks until a move is played.
    fn human_turn(
        &mut self,
        player: Player,
        input: &mut Lines<impl BufRead>,
        out: &mut impl Write,
    ) -> Result<Result<(), Stop>> {
        if self.header.human.is_none() && self.last_viewer != Some(player) {
            if self.last_viewer.is_some() {
                if self.terminal {
                    // Clear the screen and the scrollback (`3J`): the other hand must not be a
                    // scroll away.
                    write!(out, "{CLEAR_ALL}")?;
                } else {
                    writeln!(out, "\n{}", "─".repeat(60))?;
                }
            }
            writeln!(
                out,
                "{}'s turn. Press Enter when only {} can see the screen.",
                self.seats.name(player),
                self.seats.name(player)
            )?;
            if let Err(stop) = self.wait_for_enter(input, out)? {
                return Ok(Err(stop));
            }
        }
        self.last_viewer = Some(player);
        self.show_pending(out, player)?;
        let legal = self.game.legal_actions();
        let view = self.game.view(player);
        writeln!(out)?;
        write!(out, "{}", screen::table(&view, &self.seats, self.look))?;
        let layout = Layout::of(view.hand, self.game.rules().solver());
        let question = screen::question(&view, &legal, self.look);
        loop {
            writeln!(out, "{question}")?;
            let Some(line) = self.ask(input, out)? else { return Ok(Err(Stop::EndOfInput)) };
            let command = match input::parse(&line) {
                Ok(command) => command,
                Err(message) => {
                    writeln!(out, "{message}")?;
                    continue;
                }
            };
            let action = match self.action_for(command, player, &layout) {
                Ok(Some(action)) => action,
                Ok(None) => continue,
                Err(Reply::Say(message)) => {
                    writeln!(out, "{message}")?;
                    continue;
                }
                Err(Reply::Stop) => return Ok(Err(Stop::Quit)),
                Err(Reply::Hint) => {
                    for line in self.hint(player) {
                        writeln!(out, "{line}")?;
                    }
                    continue;
                }
            };
            let before = self.snapshot();
            match self.game.play(player, action) {
                Ok(produced) => return self.after_move(produced, before, input, out),
                Err(err) => writeln!(out, "{}", refusal(&err, self.look))?,
            }
        }
    }

    /// The action a command asks for, `None` to ask again silently, or what to say instead.
    pub(super) fn action_for(
        &self,
        command: Command,
        player: Player,
        layout: &Layout,
    ) -> Result<Option<Action>, Reply> {
        let phase = self.game.deal().phase();
        let say = |text: &str| Err(Reply::Say(text.to_owned()));
        let card = |target: CardRef| -> Result<gin_cards::Card, Reply> {
            let hand = self.game.deal().cards(player);
            match target {
                CardRef::Card(card) if hand.contains(card) => Ok(card),
                CardRef::Card(card) => Err(Reply::Say(format!("{} is not in your hand.", self.look.card(card)))),
                CardRef::Position(n) => layout.order().get(n - 1).copied().ok_or_else(|| {
                    Reply::Say(format!("There is no card at position {n}: your hand shows positions 1-{}.", hand.len()))
                }),
            }
        };
        let action = match (command, phase) {
            (Command::Nothing, _) => return Ok(None),
            (Command::Help, _) => return Err(Reply::Say(input::HELP.to_owned())),
            (Command::Hint, _) => return Err(Reply::Hint),
            (Command::Quit, _) => return Err(Reply::Stop),
            (Command::Save, _) => {
                if let Some(why) = &self.unsaved {
                    return Err(Reply::Say(format!("The last move could NOT be saved: {why}.")));
                }
                return Err(Reply::Say(format!(
                    "The game is saved after every move, in {}.\nContinue it any time with: {} play --resume {}",
                    self.save.display(),
                    gin_command(),
                    shell_path(&self.save)
                )));
            }
            (Command::Take, Phase::UpcardOffer) => Action::TakeUpcard,
            (Command::Pass, Phase::UpcardOffer) => Action::PassUpcard,
            (_, Phase::UpcardOffer) => return say("The first upcard is on offer: t to take it, p to pass."),
            (Command::Stock, Phase::Draw) => Action::DrawStock,
            (Command::Pile, Phase::Draw) => Action::DrawPile,
            (Command::Take | Command::Pass, Phase::Draw) => {
                return say("The upcard offer is over: draw with s (stock) or d (discard pile).");
            }
            (_, Phase::Draw) => return say("Draw first: s from the stock, d from the discard pile."),
            (Command::Discard(target), Phase::Discard) => Action::Discard { card: card(target)? },
            (Command::Knock(target), Phase::Discard) => Action::knock(card(target)?),
            (Command::KnockWithoutCard, Phase::Discard) => {
                return say("Knock discarding which card? Type k and the card, like `k 7h` or `k 3`.");
            }
            (Command::BigGin, Phase::Discard) => Action::BigGin,
            (Command::Stock | Command::Pile | Command::Take | Command::Pass, Phase::Discard) => {
                return say("You have drawn: now discard a card (by name or position), or k and a card to knock.");
            }
            (_, Phase::LayOff | Phase::Over) => return Ok(None),
        };
        Ok(Some(action))
    }

    /// Records a move's events, saves, and shows the end of a hand when it ends one.
    fn after_move(
        &mut self,
        produced: Vec<Event>,
        before: Snapshot,
        input: &mut Lines<impl BufRead>,
        out: &mut impl Write,
    ) -> Result<Result<(), Stop>> {
        let Committed { end, after_end, save_error } = self.commit(produced, before);
        if let Some(why) = save_error {
            writeln!(out, "warning: {why}: this move is not saved; gin tries again after the next one")?;
        }
        let Some(after_end) = after_end else { return Ok(Ok(())) };
        let viewer = self.viewer_for_narration();
        // Tell the moves up to the end of the hand; the next deal starts afresh.
        let told = &self.pending[viewer][..self.pending[viewer].len() - after_end - 1];
        for sentence in screen::narrate(told, viewer, &self.seats, self.look) {
            writeln!(out, "{sentence}")?;
        }
        self.pending = ByPlayer::default();
        if let Some(end) = end {
            writeln!(out)?;
            write!(out, "{}", screen::hand_end(&end, self.game.rules(), &self.seats, self.look))?;
        }
        if self.game.result().is_none() {
            writeln!(out, "Press Enter to deal hand {}.", self.game.hand_number())?;
            if let Err(stop) = self.wait_for_enter(input, out)? {
                return Ok(Err(stop));
            }
            self.last_viewer = None;
        }
        Ok(Ok(()))
    }

    /// Keeps events: in the log, for the AI, and to be told.
    fn record(&mut self, events: Vec<Event>) {
        if let Some((seat, agent)) = &mut self.ai {
            for event in &events {
                agent.observe(&event.seen_by(*seat));
            }
        }
        for player in Player::ALL {
            self.pending[player].extend(events.iter().cloned());
        }
        self.events.extend(events);
    }

    /// Tells the moves not yet shown, as `viewer` saw them.
    fn show_pending(&mut self, out: &mut impl Write, viewer: Player) -> Result<()> {
        let told = std::mem::take(&mut self.pending[viewer]);
        let sentences = screen::narrate(&told, viewer, &self.seats, self.look);
        if !sentences.is_empty() {
            writeln!(out)?;
        }
        for sentence in sentences {
            writeln!(out, "{sentence}")?;
        }
        Ok(())
    }

    /// Whose eyes the moves are told for: the person against the AI, or at a hotseat table the
    /// one who did not just move.
    fn viewer_for_narration(&self) -> Player {
        self.header.human.or(self.last_viewer.map(Player::opponent)).unwrap_or(Player::One)
    }

    /// The hand's number and both players' cards, before a move.
    pub(super) fn snapshot(&self) -> Snapshot {
        (self.game.hand_number(), ByPlayer::from_fn(|player| self.game.deal().cards(player)))
    }

    /// What the opponent's own level (`mc` at a hotseat table or against a program) would do in
    /// `player`'s place, and why.
    pub(super) fn hint(&self, player: Player) -> Vec<String> {
        let spec = match self.header.ai.as_deref().map(str::parse::<AgentSpec>) {
            Some(Ok(spec)) if !spec.name.starts_with("cmd") => spec,
            _ => AgentSpec { name: "mc".to_owned(), settings: Vec::new() },
        };
        let mut advisor = match registry::build_advisor(&spec, &AgentParams::default()) {
            Ok(advisor) => advisor,
            Err(err) => return vec![format!("No hint: {err}.")],
        };
        advisor.start_game(player, self.game.rules(), agent_seed(self.log.seed, player));
        for event in &self.events {
            advisor.observe(&event.seen_by(player));
        }
        let view = self.game.view(player);
        let legal = self.game.legal_actions();
        let hint = advisor.advise(&view, &legal);
        screen::hint(&hint, advisor.name(), &view, self.look)
    }

    /// After a failed save, tries once more; why it still fails, if it does.
    fn retry_save(&mut self) -> Option<String> {
        if self.unsaved.is_some() {
            self.unsaved = self.write_save().err().map(|err| format!("{err:#}"));
        }
        self.unsaved.clone()
    }

    /// Writes the save, where its links lead.
    fn write_save(&self) -> Result<()> {
        savefile::write(&self.target, &self.header, &self.log, &self.events)
    }

    /// Waits for Enter; `quit` (or the end of input) stops instead.
    fn wait_for_enter(&self, input: &mut Lines<impl BufRead>, out: &mut impl Write) -> Result<Result<(), Stop>> {
        match self.ask(input, out)? {
            None => Ok(Err(Stop::EndOfInput)),
            Some(line) if input::parse(&line) == Ok(Command::Quit) => Ok(Err(Stop::Quit)),
            Some(_) => Ok(Ok(())),
        }
    }

    /// Prompts with `> ` and reads a line; `None` at the end of input.
    fn ask(&self, input: &mut Lines<impl BufRead>, out: &mut impl Write) -> Result<Option<String>> {
        input.ask(out)
    }
}

/// The hand's number and both players' cards, taken before a move.
pub(super) type Snapshot = (u32, ByPlayer<CardSet>);

/// What a move did, once recorded and saved.
pub(super) struct Committed {
    /// The end of the hand, when the move ended one.
    pub(super) end: Option<HandEnd>,
    /// When the move ended the hand: how many of its events (the next deal) follow the end.
    pub(super) after_end: Option<usize>,
    /// Why the save failed, when it did (the file then holds an earlier point of the game).
    pub(super) save_error: Option<String>,
}

/// What to do instead of a move.
pub(super) enum Reply {
    Say(String),
    Hint,
    Stop,
}

/// Why the referee refused a move, for the player.
pub(super) fn refusal(err: &PlayError, look: Look) -> String {
    match err {
        PlayError::TakenCard { card } => format!(
            "You just took {} from the discard pile: it may not be discarded (or knocked with) this turn.",
            look.card(*card)
        ),
        PlayError::OverKnockLimit { deadwood, limit } => {
            format!("You cannot knock: that leaves deadwood {deadwood}, over the knock limit of {limit}.")
        }
        PlayError::NotBigGin { deadwood } => format!("Not big gin: {deadwood} deadwood would be left unmelded."),
        other => {
            let text = other.to_string();
            let mut chars = text.chars();
            let first = chars.next().map(|c| c.to_uppercase().collect::<String>()).unwrap_or_default();
            format!("{first}{}.", chars.as_str())
        }
    }
}

/// A seed from the clock.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    // Keep it short enough to type: nine decimal digits.
    (now.as_nanos() as u64 ^ u64::from(std::process::id())) % 1_000_000_000
}
