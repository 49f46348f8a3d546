//! The external-agent protocol of gin: how a host (`gin sim`, `gin play`) and an agent program
//! talk, one JSON object a line (docs/protocol.md). This crate is the only one that knows the
//! wire.
//!
//! - [`HostMessage`] is what a host sends, in the current version [`VERSION`]; its parts
//!   ([`WireEvent`], [`WireView`], [`WireShowing`]...) convert from the engine's own types and
//!   back. They serialize to exactly the documented JSON and read it back leniently: a field
//!   they do not know is ignored at every depth, so a newer host does not break an older reader.
//! - [`Answer`] is what a program answers to a `decide`: read strictly (each action with exactly
//!   its own fields), checked against the position by [`Answer::showing`].
//! - [`v1`] keeps the first version served both ways: [`v1::downgrade`] for a host talking to an
//!   old program, [`v1::Upgrade`] for a program reading an old host.
//! - [`serve`] runs any [`gin_engine::Agent`] as a program (what `gin bot` does).
//! - [`mod@line`] reads lines of bounded length.
//!
//! ```
//! use gin_engine::Game;
//! use gin_protocol::{Answer, HostMessage};
//! use gin_rules::Ruleset;
//!
//! let rules = Ruleset::eaai();
//! let (game, _) = Game::new(&rules, 7);
//! let seat = game.to_act().unwrap();
//! let decide = HostMessage::decide(1, &game.legal_actions(), &game.view(seat));
//! let line = decide.to_line();
//! assert!(line.starts_with(r#"{"type":"decide","id":1,"legal":["#));
//! // What the host writes reads back as it was.
//! assert_eq!(serde_json::from_str::<HostMessage>(&line)?, decide);
//! // A program answers; the host reads it strictly.
//! let answer = Answer::parse(r#"{"type":"pass_upcard","id":1}"#)?;
//! assert!(game.legal_actions().contains(&answer.action()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod answer;
pub mod line;
mod serve;
pub mod v1;
mod version;
mod wire;

pub use answer::Answer;
pub use line::MAX_LINE;
pub use serve::{ServeError, serve};
pub use version::{OLDEST_VERSION, VERSION};
pub use wire::{
    HostMessage, WireAction, WireEvent, WireKnock, WireRules, WireScore, WireShowdown, WireShowing, WireView,
};
