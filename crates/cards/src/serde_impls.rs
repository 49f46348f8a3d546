//! serde for cards: a card is its two-character string, a set a list of them.

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

use crate::{Card, CardSet, Rank, Suit};

/// Writes a value through its `Display`, without allocating.
struct DisplayStr<T>(T);

impl<T: fmt::Display> Serialize for DisplayStr<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

/// Reads a value from a string through `FromStr`.
struct FromStrVisitor<T>(std::marker::PhantomData<T>, &'static str);

impl<T> Visitor<'_> for FromStrVisitor<T>
where
    T: std::str::FromStr,
    T::Err: fmt::Display,
{
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.1)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        v.parse().map_err(E::custom)
    }
}

macro_rules! string_serde {
    ($ty:ty, $expecting:literal) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                DisplayStr(self).serialize(serializer)
            }
        }
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$ty, D::Error> {
                deserializer.deserialize_str(FromStrVisitor(std::marker::PhantomData, $expecting))
            }
        }
    };
}

string_serde!(Card, "a card such as \"TS\"");
string_serde!(Rank, "a rank such as \"T\"");
string_serde!(Suit, "a suit such as \"S\"");

impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter().map(DisplayStr))
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<CardSet, D::Error> {
        struct SetVisitor;
        impl<'de> Visitor<'de> for SetVisitor {
            type Value = CardSet;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of distinct cards such as [\"AS\", \"TD\"]")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<CardSet, A::Error> {
                let mut set = CardSet::EMPTY;
                while let Some(card) = seq.next_element::<Card>()? {
                    if !set.insert(card) {
                        return Err(de::Error::custom(format_args!("duplicate card {card}")));
                    }
                }
                Ok(set)
            }
        }
        deserializer.deserialize_seq(SetVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_are_two_character_strings() {
        let card: Card = "TS".parse().unwrap();
        assert_eq!(serde_json::to_string(&card).unwrap(), r#""TS""#);
        assert_eq!(serde_json::from_str::<Card>(r#""10s""#).unwrap(), card);
        let err = serde_json::from_str::<Card>(r#""ZS""#).unwrap_err().to_string();
        assert!(err.contains("unknown rank `Z`"), "{err}");
        assert!(serde_json::from_str::<Card>("7").is_err());
        assert_eq!(serde_json::to_string(&Rank::Ten).unwrap(), r#""T""#);
        assert_eq!(serde_json::from_str::<Suit>(r#""♣""#).unwrap(), Suit::Clubs);
    }

    #[test]
    fn sets_are_lists_in_order_without_duplicates() {
        let set: CardSet = "KC 2S AS".parse().unwrap();
        let json = serde_json::to_string(&set).unwrap();
        assert_eq!(json, r#"["AS","2S","KC"]"#);
        assert_eq!(serde_json::from_str::<CardSet>(&json).unwrap(), set);
        let err = serde_json::from_str::<CardSet>(r#"["AS","as"]"#).unwrap_err().to_string();
        assert!(err.contains("duplicate card AS"), "{err}");
    }
}
