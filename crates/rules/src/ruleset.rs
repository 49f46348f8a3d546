//! `Ruleset`: every setting of RULES.md that real tables play differently, its named presets and
//! the house-rules JSON format.

use std::fmt;
use std::ops::RangeInclusive;

use gin_cards::{Card, Rank};
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

/// The most deadwood a player may knock with (RULES.md rules 10 and 14).
///
/// In JSON a number from 0 to 10 (0 means gin only) or the string `"upcard"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KnockLimit {
    /// The same limit every hand: 10 in every preset but `oklahoma`; 0 means gin only.
    Fixed(u32),
    /// Oklahoma: the deadwood value of the hand's first upcard; an ace upcard means gin only (0).
    Upcard,
}

impl Serialize for KnockLimit {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            KnockLimit::Fixed(limit) => serializer.serialize_u32(*limit),
            KnockLimit::Upcard => serializer.serialize_str("upcard"),
        }
    }
}

impl<'de> Deserialize<'de> for KnockLimit {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<KnockLimit, D::Error> {
        struct LimitVisitor;

        impl Visitor<'_> for LimitVisitor {
            type Value = KnockLimit;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(KNOCK_LIMIT_EXPECTED)
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<KnockLimit, E> {
                u32::try_from(v)
                    .map(KnockLimit::Fixed)
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<KnockLimit, E> {
                u64::try_from(v)
                    .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
                    .and_then(|v| self.visit_u64(v))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<KnockLimit, E> {
                if v == "upcard" {
                    Ok(KnockLimit::Upcard)
                } else {
                    Err(E::invalid_value(de::Unexpected::Str(v), &self))
                }
            }
        }

        deserializer.deserialize_any(LimitVisitor)
    }
}

/// How a knock is scored when the defender's deadwood equals the knocker's (D = K).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieRule {
    /// A tie is an undercut: the defender scores the undercut bonus (RULES.md rule 19, every preset).
    Undercut,
    /// A tie scores nothing for either player; the hand counts as played, like a dead hand.
    NoScore,
}

/// Who deals the next hand (RULES.md rule 6). After a dead hand the same dealer deals again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NextDealer {
    /// The players take turns dealing.
    Alternate,
    /// The loser of the hand deals the next one.
    Loser,
    /// The winner of the hand deals the next one.
    Winner,
}

/// What happens when the stock is down to the floor (RULES.md rule 21).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StockEnd {
    /// The hand is dead: nobody scores, and the same dealer deals again.
    DeadHand,
    /// The discard pile except its top card is shuffled into a new stock.
    Reshuffle,
}

/// Every setting of the rules, as plain data; see RULES.md section 7 and `docs/rules.md`.
///
/// Build one from a preset ([`Ruleset::preset`], [`Ruleset::standard`] …) or from a house-rules
/// JSON file ([`Ruleset::from_json`]): a preset plus overrides, checked by [`Ruleset::validate`].
///
/// ```
/// use gin_rules::{KnockLimit, Ruleset};
///
/// let rules = Ruleset::from_json(r#"{"preset": "pagat", "target": 150, "knock_limit": 7}"#)?;
/// assert_eq!(rules.target, 150);
/// assert_eq!(rules.knock_limit, KnockLimit::Fixed(7));
/// assert_eq!(rules.gin_bonus, Ruleset::pagat().gin_bonus);
/// assert_eq!(Ruleset::from_json(&rules.to_json())?, rules);
///
/// let err = Ruleset::from_json(r#"{"targte": 150}"#).unwrap_err();
/// assert!(err.to_string().starts_with("unknown setting `targte`"));
/// # Ok::<(), gin_rules::RulesetError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Ruleset {
    /// The most deadwood a player may knock with (rule 10; Oklahoma rule 14).
    pub knock_limit: KnockLimit,
    /// Gin bonus, added to the defender's deadwood (rule 20).
    pub gin_bonus: u32,
    /// Undercut bonus, added to the difference K − D (rule 19).
    pub undercut_bonus: u32,
    /// Big gin bonus (rule 13); `None` turns big gin off.
    pub big_gin_bonus: Option<u32>,
    /// How a knock with D = K is scored.
    pub tie: TieRule,
    /// Who deals the next hand (rule 6).
    pub next_dealer: NextDealer,
    /// Hand points that end the game (rule 22).
    pub target: u32,
    /// Game bonus to the winner (rule 23).
    pub game_bonus: u32,
    /// Box (line) bonus per hand won, for each player, not counted toward the target (rule 23).
    pub box_bonus: u32,
    /// Factor on the game bonus when the loser scored no hand points: 2 doubles it, 1 is no
    /// shutout rule (rule 23).
    pub shutout_multiplier: u32,
    /// What happens when the stock is down to [`Ruleset::stock_floor`] cards (rule 21).
    pub stock_end: StockEnd,
    /// The number of stock cards that are never drawn (rule 21: 2).
    pub stock_floor: u32,
    /// Whether a card taken from the discard pile may be discarded in the same turn (rule 9).
    pub may_discard_taken_card: bool,
    /// Whether the defender may lay off on the knocker's melds (rule 17).
    pub layoffs: bool,
    /// Whether Q-K-A is a run (rule 3); K-A-2 never is.
    pub ace_high: bool,
    /// Oklahoma option: a spade first upcard doubles that hand's score (rule 14).
    pub spade_doubles: bool,
}

/// Why a ruleset was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesetError {
    /// The text is not JSON; carries the parser's message.
    #[error("ruleset is not valid json: {0}")]
    Json(String),
    /// The JSON is not an object; carries the value found.
    #[error("a ruleset must be a json object of settings, found {0}")]
    NotAnObject(String),
    /// `"preset"` names no preset; carries the name.
    #[error("unknown preset `{0}`; valid presets: {presets}", presets = Ruleset::PRESETS.join(", "))]
    UnknownPreset(String),
    /// A field that is no setting; carries its name.
    #[error("unknown setting `{0}`; valid settings: preset, {fields}", fields = FIELDS.join(", "))]
    UnknownSetting(String),
    /// A setting given a value of the wrong type.
    #[error("setting `{setting}` expects {expected}, found {found}")]
    WrongType {
        /// The setting's name.
        setting: &'static str,
        /// What the setting takes.
        expected: &'static str,
        /// The value found, as JSON.
        found: String,
    },
    /// A number outside the setting's range.
    #[error("setting `{setting}` must be from {} to {}, found {value}", range.start(), range.end())]
    OutOfRange {
        /// The setting's name.
        setting: &'static str,
        /// The values the setting takes.
        range: RangeInclusive<u32>,
        /// The value found.
        value: u64,
    },
}

/// The settings' JSON names, in declaration order.
const FIELDS: [&str; 16] = [
    "knock_limit",
    "gin_bonus",
    "undercut_bonus",
    "big_gin_bonus",
    "tie",
    "next_dealer",
    "target",
    "game_bonus",
    "box_bonus",
    "shutout_multiplier",
    "stock_end",
    "stock_floor",
    "may_discard_taken_card",
    "layoffs",
    "ace_high",
    "spade_doubles",
];

const KNOCK_LIMIT_EXPECTED: &str = "a number from 0 to 10 or \"upcard\"";

const NUMBER: &str = "a non-negative whole number";

impl Ruleset {
    /// The names of the presets, the first being the default.
    pub const PRESETS: [&'static str; 4] = ["standard", "pagat", "eaai", "oklahoma"];

    /// The `standard` preset, the default: RULES.md as written.
    pub const fn standard() -> Ruleset {
        Ruleset {
            knock_limit: KnockLimit::Fixed(10),
            gin_bonus: 25,
            undercut_bonus: 25,
            big_gin_bonus: Some(31),
            tie: TieRule::Undercut,
            next_dealer: NextDealer::Alternate,
            target: 100,
            game_bonus: 100,
            box_bonus: 25,
            shutout_multiplier: 2,
            stock_end: StockEnd::DeadHand,
            stock_floor: 2,
            may_discard_taken_card: false,
            layoffs: true,
            ace_high: false,
            spade_doubles: false,
        }
    }

    /// The `pagat` preset: gin 20, undercut 10, no big gin, the loser deals, box bonus 20.
    pub const fn pagat() -> Ruleset {
        Ruleset {
            gin_bonus: 20,
            undercut_bonus: 10,
            big_gin_bonus: None,
            next_dealer: NextDealer::Loser,
            box_bonus: 20,
            ..Ruleset::standard()
        }
    }

    /// The `eaai` preset, the EAAI 2021 competition rules: no big gin and no game, box or
    /// shutout bonus.
    pub const fn eaai() -> Ruleset {
        Ruleset { big_gin_bonus: None, game_bonus: 0, box_bonus: 0, shutout_multiplier: 1, ..Ruleset::standard() }
    }

    /// The `oklahoma` preset: the first upcard sets the knock limit, target 150; spades do not
    /// double.
    pub const fn oklahoma() -> Ruleset {
        Ruleset { knock_limit: KnockLimit::Upcard, target: 150, ..Ruleset::standard() }
    }

    /// The preset with this name (one of [`Ruleset::PRESETS`], any case), if any.
    pub fn preset(name: &str) -> Option<Ruleset> {
        let name = name.trim();
        let preset = |candidate: &str| name.eq_ignore_ascii_case(candidate);
        if preset("standard") {
            Some(Ruleset::standard())
        } else if preset("pagat") {
            Some(Ruleset::pagat())
        } else if preset("eaai") {
            Some(Ruleset::eaai())
        } else if preset("oklahoma") {
            Some(Ruleset::oklahoma())
        } else {
            None
        }
    }

    /// The deadwood solver for this ruleset's ace rule.
    pub const fn solver(&self) -> crate::Solver {
        crate::Solver::new(self.ace_high)
    }

    /// The knock limit of a hand whose first upcard is `upcard`: the fixed limit, or under
    /// Oklahoma the upcard's deadwood value with an ace meaning 0 (gin only).
    pub const fn knock_limit_for(&self, upcard: Card) -> u32 {
        match self.knock_limit {
            KnockLimit::Fixed(limit) => limit,
            KnockLimit::Upcard if matches!(upcard.rank(), Rank::Ace) => 0,
            KnockLimit::Upcard => upcard.value() as u32,
        }
    }

    /// Checks that every setting is in its range: knock limit 0 to 10, bonuses 0 to 1000,
    /// target 1 to 10000, shutout multiplier 1 to 10, stock floor 0 to 30.
    ///
    /// # Errors
    /// [`RulesetError::OutOfRange`] for the first setting out of its range.
    pub fn validate(&self) -> Result<(), RulesetError> {
        let numbers = [
            (
                "knock_limit",
                match self.knock_limit {
                    KnockLimit::Fixed(limit) => Some(limit),
                    KnockLimit::Upcard => None,
                },
            ),
            ("gin_bonus", Some(self.gin_bonus)),
            ("undercut_bonus", Some(self.undercut_bonus)),
            ("big_gin_bonus", self.big_gin_bonus),
            ("target", Some(self.target)),
            ("game_bonus", Some(self.game_bonus)),
            ("box_bonus", Some(self.box_bonus)),
            ("shutout_multiplier", Some(self.shutout_multiplier)),
            ("stock_floor", Some(self.stock_floor)),
        ];
        for (setting, value) in numbers {
            if let Some(value) = value {
                check_range(setting, value.into())?;
            }
        }
        Ok(())
    }

    /// Reads a ruleset from house-rules JSON: an object whose optional `"preset"` names the base
    /// preset (default `standard`) and whose other fields override settings by their field
    /// names, e.g. `{"preset": "pagat", "target": 150, "knock_limit": 7}`.
    ///
    /// The output of [`Ruleset::to_json`] reads back to the same ruleset. Deserializing a
    /// `Ruleset` with serde reads the same format.
    ///
    /// # Errors
    /// [`RulesetError`] for text that is not a JSON object, an unknown preset or setting, a value
    /// of the wrong type or out of its range (see [`Ruleset::validate`]).
    pub fn from_json(text: &str) -> Result<Ruleset, RulesetError> {
        let value: Value = serde_json::from_str(text).map_err(|err| RulesetError::Json(err.to_string()))?;
        Ruleset::from_json_value(&value)
    }

    /// Every setting as pretty-printed JSON, in the format [`Ruleset::from_json`] reads.
    pub fn to_json(&self) -> String {
        // Infallible: every field is a number, a string, a bool or null.
        serde_json::to_string_pretty(self).expect("a ruleset always serializes to json")
    }

    fn from_json_value(value: &Value) -> Result<Ruleset, RulesetError> {
        let Value::Object(settings) = value else {
            return Err(RulesetError::NotAnObject(describe(value)));
        };
        let mut rules = match settings.get("preset") {
            None => Ruleset::standard(),
            Some(Value::String(name)) => {
                Ruleset::preset(name).ok_or_else(|| RulesetError::UnknownPreset(name.clone()))?
            }
            Some(other) => {
                return Err(RulesetError::WrongType {
                    setting: "preset",
                    expected: "a preset name: standard, pagat, eaai or oklahoma",
                    found: describe(other),
                });
            }
        };
        for (name, value) in settings {
            if name != "preset" {
                rules.set(name, value)?;
            }
        }
        rules.validate()?;
        Ok(rules)
    }

    /// Overrides one setting by its JSON name; numbers are range-checked, the rest is left to
    /// [`Ruleset::validate`].
    fn set(&mut self, name: &str, value: &Value) -> Result<(), RulesetError> {
        const BOOL: &str = "true or false";
        match name {
            "knock_limit" => self.knock_limit = parse("knock_limit", KNOCK_LIMIT_EXPECTED, value)?,
            "gin_bonus" => self.gin_bonus = parse_number("gin_bonus", NUMBER, value)?,
            "undercut_bonus" => self.undercut_bonus = parse_number("undercut_bonus", NUMBER, value)?,
            "big_gin_bonus" => {
                self.big_gin_bonus = match value {
                    Value::Null => None,
                    _ => Some(parse_number(
                        "big_gin_bonus",
                        "a non-negative whole number, or null for no big gin",
                        value,
                    )?),
                }
            }
            "tie" => self.tie = parse("tie", r#""undercut" or "no_score""#, value)?,
            "next_dealer" => self.next_dealer = parse("next_dealer", r#""alternate", "loser" or "winner""#, value)?,
            "target" => self.target = parse_number("target", NUMBER, value)?,
            "game_bonus" => self.game_bonus = parse_number("game_bonus", NUMBER, value)?,
            "box_bonus" => self.box_bonus = parse_number("box_bonus", NUMBER, value)?,
            "shutout_multiplier" => self.shutout_multiplier = parse_number("shutout_multiplier", NUMBER, value)?,
            "stock_end" => self.stock_end = parse("stock_end", r#""dead_hand" or "reshuffle""#, value)?,
            "stock_floor" => self.stock_floor = parse_number("stock_floor", NUMBER, value)?,
            "may_discard_taken_card" => self.may_discard_taken_card = parse("may_discard_taken_card", BOOL, value)?,
            "layoffs" => self.layoffs = parse("layoffs", BOOL, value)?,
            "ace_high" => self.ace_high = parse("ace_high", BOOL, value)?,
            "spade_doubles" => self.spade_doubles = parse("spade_doubles", BOOL, value)?,
            _ => return Err(RulesetError::UnknownSetting(name.to_owned())),
        }
        Ok(())
    }
}

impl Default for Ruleset {
    /// The `standard` preset.
    fn default() -> Ruleset {
        Ruleset::standard()
    }
}

impl<'de> Deserialize<'de> for Ruleset {
    /// Reads the house-rules format of [`Ruleset::from_json`], presets, overrides and checks
    /// included.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Ruleset, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Ruleset::from_json_value(&value).map_err(de::Error::custom)
    }
}

/// Reads one setting's value, naming the setting and what it takes on a wrong type.
fn parse<T: DeserializeOwned>(setting: &'static str, expected: &'static str, value: &Value) -> Result<T, RulesetError> {
    T::deserialize(value).map_err(|_| RulesetError::WrongType { setting, expected, found: describe(value) })
}

/// Reads a number setting and checks its range.
fn parse_number(setting: &'static str, expected: &'static str, value: &Value) -> Result<u32, RulesetError> {
    check_range(setting, parse(setting, expected, value)?)
}

/// The values a number setting takes. Bonuses, the target and the multiplier are bounded so that
/// no score of a game comes near `u32::MAX` and every game ends in a bounded number of hands; the
/// stock holds 31 cards after the deal, so a floor of at most 30 leaves at least one draw.
fn range_of(setting: &str) -> RangeInclusive<u32> {
    match setting {
        "knock_limit" => 0..=10,
        "target" => 1..=10_000,
        "shutout_multiplier" => 1..=10,
        "stock_floor" => 0..=30,
        _ => 0..=1000,
    }
}

/// The number as a `u32` if it is in the setting's range.
fn check_range(setting: &'static str, value: u64) -> Result<u32, RulesetError> {
    let range = range_of(setting);
    u32::try_from(value).ok().filter(|v| range.contains(v)).ok_or(RulesetError::OutOfRange { setting, range, value })
}

/// A JSON value for an error message, cut short if long.
fn describe(value: &Value) -> String {
    const MAX_CHARS: usize = 40;
    let text = value.to_string();
    if text.chars().count() > MAX_CHARS {
        let cut: String = text.chars().take(MAX_CHARS).collect();
        format!("{cut}…")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn presets() -> [Ruleset; 4] {
        [Ruleset::standard(), Ruleset::pagat(), Ruleset::eaai(), Ruleset::oklahoma()]
    }

    fn err(text: &str) -> String {
        Ruleset::from_json(text).unwrap_err().to_string()
    }

    #[test]
    fn standard_preset_is_rules_md() {
        let rules = Ruleset::standard();
        assert_eq!(rules, Ruleset::default());
        assert_eq!(rules.knock_limit, KnockLimit::Fixed(10));
        assert_eq!((rules.gin_bonus, rules.undercut_bonus), (25, 25));
        assert_eq!(rules.big_gin_bonus, Some(31));
        assert_eq!(rules.tie, TieRule::Undercut);
        assert_eq!(rules.next_dealer, NextDealer::Alternate);
        assert_eq!(rules.target, 100);
        assert_eq!((rules.game_bonus, rules.box_bonus), (100, 25));
        assert_eq!(rules.shutout_multiplier, 2);
        assert_eq!((rules.stock_end, rules.stock_floor), (StockEnd::DeadHand, 2));
        assert!(!rules.may_discard_taken_card);
        assert!(rules.layoffs);
        assert!(!rules.ace_high);
        assert!(!rules.spade_doubles);
    }

    #[test]
    fn presets_differ_from_standard_as_in_the_table() {
        let standard = Ruleset::standard();
        let pagat = Ruleset {
            gin_bonus: 20,
            undercut_bonus: 10,
            big_gin_bonus: None,
            next_dealer: NextDealer::Loser,
            box_bonus: 20,
            ..standard.clone()
        };
        let eaai =
            Ruleset { big_gin_bonus: None, game_bonus: 0, box_bonus: 0, shutout_multiplier: 1, ..standard.clone() };
        let oklahoma = Ruleset { knock_limit: KnockLimit::Upcard, target: 150, ..standard.clone() };
        assert_eq!(Ruleset::pagat(), pagat);
        assert_eq!(Ruleset::eaai(), eaai);
        assert_eq!(Ruleset::oklahoma(), oklahoma);
    }

    #[test]
    fn presets_by_name() {
        for (name, rules) in Ruleset::PRESETS.iter().zip(presets()) {
            assert_eq!(Ruleset::preset(name), Some(rules.clone()));
            assert_eq!(Ruleset::preset(&name.to_uppercase()), Some(rules));
        }
        assert_eq!(Ruleset::preset("Pagat"), Some(Ruleset::pagat()));
        assert_eq!(Ruleset::preset("vegas"), None);
        assert_eq!(Ruleset::preset(""), None);
    }

    #[test]
    fn every_preset_is_valid_and_round_trips() {
        for rules in presets() {
            rules.validate().unwrap();
            let json = rules.to_json();
            assert_eq!(Ruleset::from_json(&json).unwrap(), rules, "{json}");
            let value: Value = serde_json::from_str(&json).unwrap();
            assert_eq!(serde_json::from_value::<Ruleset>(value).unwrap(), rules);
        }
    }

    #[test]
    fn a_changed_ruleset_round_trips() {
        let rules = Ruleset {
            knock_limit: KnockLimit::Fixed(0),
            big_gin_bonus: None,
            tie: TieRule::NoScore,
            next_dealer: NextDealer::Winner,
            stock_end: StockEnd::Reshuffle,
            stock_floor: 0,
            may_discard_taken_card: true,
            layoffs: false,
            ace_high: true,
            spade_doubles: true,
            ..Ruleset::oklahoma()
        };
        assert_eq!(Ruleset::from_json(&rules.to_json()).unwrap(), rules);
    }

    #[test]
    fn json_names_every_field() {
        let value = serde_json::to_value(Ruleset::standard()).unwrap();
        let keys: Vec<&str> = value.as_object().unwrap().keys().map(String::as_str).collect();
        let mut fields = FIELDS.to_vec();
        fields.sort_unstable();
        assert_eq!(keys, fields);
        // Every listed field can be set from JSON.
        let standard = serde_json::to_value(Ruleset::standard()).unwrap();
        for field in FIELDS {
            let mut rules = Ruleset::standard();
            rules.set(field, &standard[field]).unwrap();
        }
    }

    #[test]
    fn json_values_of_the_settings() {
        let json = Ruleset::oklahoma().to_json();
        assert!(json.contains(r#""knock_limit": "upcard""#), "{json}");
        assert!(json.contains(r#""tie": "undercut""#), "{json}");
        assert!(json.contains(r#""stock_end": "dead_hand""#), "{json}");
        let eaai = Ruleset::eaai().to_json();
        assert!(eaai.contains(r#""big_gin_bonus": null"#), "{eaai}");
        assert!(eaai.contains(r#""knock_limit": 10"#), "{eaai}");
    }

    #[test]
    fn house_rules_override_a_preset() {
        let rules = Ruleset::from_json(r#"{"preset": "pagat", "target": 150, "knock_limit": 7}"#).unwrap();
        assert_eq!(rules, Ruleset { target: 150, knock_limit: KnockLimit::Fixed(7), ..Ruleset::pagat() });
        let rules = Ruleset::from_json(
            r#"{"knock_limit": "upcard", "spade_doubles": true, "big_gin_bonus": null,
                "tie": "no_score", "next_dealer": "winner", "stock_end": "reshuffle"}"#,
        )
        .unwrap();
        assert_eq!(
            rules,
            Ruleset {
                knock_limit: KnockLimit::Upcard,
                spade_doubles: true,
                big_gin_bonus: None,
                tie: TieRule::NoScore,
                next_dealer: NextDealer::Winner,
                stock_end: StockEnd::Reshuffle,
                ..Ruleset::standard()
            }
        );
        assert_eq!(Ruleset::from_json("{}").unwrap(), Ruleset::standard());
        assert_eq!(Ruleset::from_json(r#"{"preset": "EAAI"}"#).unwrap(), Ruleset::eaai());
        let big = Ruleset::from_json(r#"{"preset": "eaai", "big_gin_bonus": 50}"#).unwrap();
        assert_eq!(big.big_gin_bonus, Some(50));
    }

    #[test]
    fn unknown_names_list_the_valid_ones() {
        assert_eq!(
            err(r#"{"preset": "vegas"}"#),
            "unknown preset `vegas`; valid presets: standard, pagat, eaai, oklahoma"
        );
        let message = err(r#"{"targte": 150}"#);
        assert!(message.starts_with("unknown setting `targte`; valid settings: preset, knock_limit,"), "{message}");
        assert!(message.ends_with("ace_high, spade_doubles"), "{message}");
        assert_eq!(Ruleset::from_json(r#"{"Target": 1}"#), Err(RulesetError::UnknownSetting("Target".into())));
    }

    #[test]
    fn wrong_types_name_the_setting_and_what_it_takes() {
        assert_eq!(err(r#"{"target": "150"}"#), r#"setting `target` expects a non-negative whole number, found "150""#);
        assert_eq!(err(r#"{"target": -5}"#), "setting `target` expects a non-negative whole number, found -5");
        assert_eq!(err(r#"{"gin_bonus": 2.5}"#), "setting `gin_bonus` expects a non-negative whole number, found 2.5");
        assert_eq!(
            err(r#"{"knock_limit": "oklahoma"}"#),
            r#"setting `knock_limit` expects a number from 0 to 10 or "upcard", found "oklahoma""#
        );
        assert_eq!(err(r#"{"layoffs": "yes"}"#), r#"setting `layoffs` expects true or false, found "yes""#);
        assert_eq!(err(r#"{"tie": "knocker"}"#), r#"setting `tie` expects "undercut" or "no_score", found "knocker""#);
        assert_eq!(
            err(r#"{"next_dealer": 1}"#),
            r#"setting `next_dealer` expects "alternate", "loser" or "winner", found 1"#
        );
        assert_eq!(
            err(r#"{"stock_end": null}"#),
            r#"setting `stock_end` expects "dead_hand" or "reshuffle", found null"#
        );
        assert_eq!(
            err(r#"{"big_gin_bonus": false}"#),
            "setting `big_gin_bonus` expects a non-negative whole number, or null for no big gin, \
             found false"
        );
        assert_eq!(
            err(r#"{"preset": 3}"#),
            "setting `preset` expects a preset name: standard, pagat, eaai or oklahoma, found 3"
        );
        let long = err(&format!(r#"{{"target": "{}"}}"#, "x".repeat(100)));
        assert!(long.ends_with(&format!("found \"{}…", "x".repeat(39))), "{long}");
    }

    #[test]
    fn nonsensical_values_are_refused() {
        let cases = [
            (r#"{"target": 0}"#, "setting `target` must be from 1 to 10000, found 0"),
            (r#"{"target": 10001}"#, "setting `target` must be from 1 to 10000, found 10001"),
            (r#"{"knock_limit": 11}"#, "setting `knock_limit` must be from 0 to 10, found 11"),
            (r#"{"shutout_multiplier": 0}"#, "setting `shutout_multiplier` must be from 1 to 10, found 0"),
            (r#"{"stock_floor": 31}"#, "setting `stock_floor` must be from 0 to 30, found 31"),
            (r#"{"gin_bonus": 1001}"#, "setting `gin_bonus` must be from 0 to 1000, found 1001"),
            (r#"{"big_gin_bonus": 5000}"#, "setting `big_gin_bonus` must be from 0 to 1000, found 5000"),
            (r#"{"box_bonus": 99999999999}"#, "setting `box_bonus` must be from 0 to 1000, found 99999999999"),
        ];
        for (json, message) in cases {
            assert_eq!(err(json), message, "{json}");
        }
        // The edges are accepted.
        let edges = r#"{"target": 1, "knock_limit": 0, "stock_floor": 30, "shutout_multiplier": 1,
                        "undercut_bonus": 0, "game_bonus": 1000}"#;
        Ruleset::from_json(edges).unwrap();
    }

    #[test]
    fn validate_checks_a_ruleset_built_in_code() {
        let rules = Ruleset { knock_limit: KnockLimit::Fixed(12), ..Ruleset::standard() };
        assert_eq!(
            rules.validate(),
            Err(RulesetError::OutOfRange { setting: "knock_limit", range: 0..=10, value: 12 })
        );
        let rules = Ruleset { target: 0, ..Ruleset::standard() };
        assert!(rules.validate().is_err());
    }

    #[test]
    fn text_that_is_no_ruleset() {
        assert!(err("{").starts_with("ruleset is not valid json: "));
        assert!(err(r#"{"target": 100,}"#).starts_with("ruleset is not valid json: "));
        assert_eq!(err(r#""pagat""#), r#"a ruleset must be a json object of settings, found "pagat""#);
        assert_eq!(err("[1, 2]"), "a ruleset must be a json object of settings, found [1,2]");
        let serde_err = serde_json::from_str::<Ruleset>(r#"{"target": 0}"#).unwrap_err();
        assert_eq!(serde_err.to_string(), "setting `target` must be from 1 to 10000, found 0");
    }

    #[test]
    fn knock_limit_serde() {
        let limit = |json: &str| serde_json::from_str::<KnockLimit>(json);
        assert_eq!(limit("7").unwrap(), KnockLimit::Fixed(7));
        assert_eq!(limit(r#""upcard""#).unwrap(), KnockLimit::Upcard);
        assert!(limit("-1").is_err());
        assert!(limit(r#""Upcard""#).is_err());
        assert!(limit("true").is_err());
        assert_eq!(serde_json::to_string(&KnockLimit::Fixed(0)).unwrap(), "0");
        assert_eq!(serde_json::to_string(&KnockLimit::Upcard).unwrap(), r#""upcard""#);
    }
}
