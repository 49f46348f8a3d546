//! `Player`, one of the two seats, and `ByPlayer`, a value for each of them.

use std::fmt;
use std::ops::{Index, IndexMut};

/// One of the two players of a game.
///
/// Serialized as `"one"` or `"two"`; displayed as `player 1` or `player 2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// The first player.
    One,
    /// The second player.
    Two,
}

impl Player {
    /// Both players, in order.
    pub const ALL: [Player; 2] = [Player::One, Player::Two];

    /// The other player.
    pub const fn opponent(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// The player's index: 0 for [`Player::One`], 1 for [`Player::Two`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.index() + 1)
    }
}

/// One value for each player, indexed by [`Player`].
///
/// Serialized as a two-element array, player one first.
///
/// ```
/// use gin_rules::{ByPlayer, Player};
///
/// let mut points = ByPlayer::new(10, 0);
/// points[Player::Two] += 25;
/// assert_eq!(points, ByPlayer([10, 25]));
/// assert_eq!(points.map(|p| p * 2)[Player::Two], 50);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct ByPlayer<T>(pub [T; 2]);

impl<T> ByPlayer<T> {
    /// The pair of player one's and player two's values.
    pub const fn new(one: T, two: T) -> ByPlayer<T> {
        ByPlayer([one, two])
    }

    /// The pair whose value for each player is `f(player)`.
    pub fn from_fn(mut f: impl FnMut(Player) -> T) -> ByPlayer<T> {
        ByPlayer([f(Player::One), f(Player::Two)])
    }

    /// Applies `f` to both values.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> ByPlayer<U> {
        ByPlayer(self.0.map(f))
    }

    /// Each player with their value, player one first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (Player, &T)> + ExactSizeIterator {
        Player::ALL.into_iter().zip(&self.0)
    }
}

impl<T> Index<Player> for ByPlayer<T> {
    type Output = T;

    fn index(&self, player: Player) -> &T {
        &self.0[player.index()]
    }
}

impl<T> IndexMut<Player> for ByPlayer<T> {
    fn index_mut(&mut self, player: Player) -> &mut T {
        &mut self.0[player.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_and_index() {
        assert_eq!(Player::One.opponent(), Player::Two);
        assert_eq!(Player::Two.opponent(), Player::One);
        for player in Player::ALL {
            assert_eq!(player.opponent().opponent(), player);
            assert_eq!(Player::ALL[player.index()], player);
        }
        assert_eq!(Player::One.index(), 0);
        assert_eq!(Player::Two.index(), 1);
    }

    #[test]
    fn player_display_and_serde() {
        assert_eq!(Player::One.to_string(), "player 1");
        assert_eq!(Player::Two.to_string(), "player 2");
        assert_eq!(serde_json::to_string(&Player::One).unwrap(), r#""one""#);
        assert_eq!(serde_json::to_string(&Player::Two).unwrap(), r#""two""#);
        assert_eq!(serde_json::from_str::<Player>(r#""two""#).unwrap(), Player::Two);
        assert!(serde_json::from_str::<Player>(r#""three""#).is_err());
    }

    #[test]
    fn by_player_indexes_by_player() {
        let mut pair = ByPlayer::new("a", "b");
        assert_eq!(pair[Player::One], "a");
        assert_eq!(pair[Player::Two], "b");
        pair[Player::One] = "c";
        assert_eq!(pair, ByPlayer(["c", "b"]));
        let indexed: Vec<_> = pair.iter().map(|(p, v)| (p, *v)).collect();
        assert_eq!(indexed, [(Player::One, "c"), (Player::Two, "b")]);
    }

    #[test]
    fn by_player_constructors_and_map() {
        assert_eq!(ByPlayer::<u32>::default(), ByPlayer([0, 0]));
        assert_eq!(ByPlayer::from_fn(Player::index), ByPlayer([0, 1]));
        assert_eq!(ByPlayer::new(2, 3).map(|v| v * 10), ByPlayer([20, 30]));
    }

    #[test]
    fn by_player_serializes_as_an_array() {
        let pair = ByPlayer::new(100, 25);
        let json = serde_json::to_string(&pair).unwrap();
        assert_eq!(json, "[100,25]");
        assert_eq!(serde_json::from_str::<ByPlayer<u32>>(&json).unwrap(), pair);
        assert!(serde_json::from_str::<ByPlayer<u32>>("[1,2,3]").is_err());
    }
}
