//! The protocol's versions: the current one, and the oldest still served.

/// The protocol's version: what a host sends in `start_game`, and the newest a program built on
/// [`crate::serve`] reads.
pub const VERSION: u32 = 2;

/// The oldest version still served: a host speaks it to a program started as `cmd-v1:`, and
/// [`crate::serve`] reads it from a host.
pub const OLDEST_VERSION: u32 = crate::v1::VERSION;
