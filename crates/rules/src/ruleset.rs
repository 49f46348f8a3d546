//! `Ruleset`: every setting of docs/rules.md that real tables play differently, its named presets
//! ([`Preset`]) and the house-rules JSON format, all read through one table of settings.

use std::fmt;

use gin_cards::{Card, Rank};
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

use crate::settings::{Kind, Setting, SettingError, Settings, describe};

/// The most deadwood a player may knock with (docs/rules.md, rules 10 and 14).
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
    /// A tie is an undercut: the defender scores the undercut bonus (rule 19, every preset).
    Undercut,
    /// A tie scores nothing for either player; the hand counts as played, like a dead hand.
    NoScore,
}

/// Who deals the next hand (rule 6). After a dead hand the same dealer deals again.
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

/// What happens when the stock is down to the floor (rule 21).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StockEnd {
    /// The hand is dead: nobody scores, and the same dealer deals again.
    DeadHand,
    /// The discard pile except its top card is shuffled into a new stock.
    Reshuffle,
}

/// A whole number from `min` to `max`, as a setting of the rules takes it.
const fn int(min: u64, max: u64) -> Kind {
    Kind::Int { min, max }
}

/// The range of every bonus.
const BONUS: Kind = int(0, MAX_BONUS);

crate::settings_struct! {
    /// Every setting of the rules, as plain data; see docs/rules.md, section 7.
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
    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    pub struct Ruleset {
        /// The most deadwood a player may knock with (rule 10); 0 means gin only; "upcard": the value of the
        /// hand's first upcard, an ace meaning gin only (rule 14).
        knock_limit: KnockLimit = Kind::IntOrWord { min: 0, max: 10, word: "upcard" },
        /// Added to the defender's deadwood when the knocker goes gin (rule 20).
        gin_bonus: u32 = BONUS,
        /// Added to K − D when the defender undercuts (rule 19).
        undercut_bonus: u32 = BONUS,
        /// Added to the defender's deadwood for big gin, all 11 cards melded (rules 13 and 20).
        big_gin_bonus: Option<u32> = Kind::IntOrNull { min: 0, max: MAX_BONUS, none: "no big gin" },
        /// How a knock is scored when D = K: an undercut (rule 19), or nobody scores.
        tie: TieRule = Kind::Choice(&["undercut", "no_score"]),
        /// Who deals the next hand; after a dead hand the same dealer deals again (rule 6).
        next_dealer: NextDealer = Kind::Choice(&["alternate", "loser", "winner"]),
        /// Hand points that end the game (rule 22).
        target: u32 = int(1, 10_000),
        /// Bonus to the winner of the game (rule 23).
        game_bonus: u32 = BONUS,
        /// Bonus per hand won, for each player, not counted toward the target (rule 23).
        box_bonus: u32 = BONUS,
        /// Factor on the game bonus when the loser scored no hand points; 1 is no shutout rule (rule 23).
        shutout_multiplier: u32 = int(1, 10),
        /// What happens when the stock is down to its floor: a dead hand, or the discard pile but its top is
        /// shuffled into a new stock (rule 21).
        stock_end: StockEnd = Kind::Choice(&["dead_hand", "reshuffle"]),
        /// The number of stock cards that are never drawn (rule 21); at most 30 leaves a draw.
        stock_floor: u32 = int(0, 30),
        /// Whether a card taken from the discard pile may be discarded in the same turn (rule 9).
        may_discard_taken_card: bool = Kind::Bool,
        /// Whether the defender may lay off on the knocker's melds (rule 17).
        layoffs: bool = Kind::Bool,
        /// Whether Q-K-A is a run; K-A-2 never is (rule 3).
        ace_high: bool = Kind::Bool,
        /// Oklahoma option: a spade first upcard doubles that hand's score (rule 14).
        spade_doubles: bool = Kind::Bool,
    }
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
    /// A setting that does not exist, of the wrong type or out of its range.
    #[error(transparent)]
    Setting(#[from] SettingError),
}

/// A named starting point for a ruleset (docs/rules.md, section 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// The default: the rules as docs/rules.md states them.
    Standard,
    /// Gin 20, undercut 10, no big gin, the loser deals, box bonus 20.
    Pagat,
    /// The EAAI 2021 competition: no big gin and no game, box or shutout bonus.
    Eaai,
    /// The first upcard sets the knock limit; target 150.
    Oklahoma,
}

impl Preset {
    /// Every preset, the default first.
    pub const ALL: [Preset; 4] = [Preset::Standard, Preset::Pagat, Preset::Eaai, Preset::Oklahoma];

    /// The preset's name: `standard`, `pagat`, `eaai` or `oklahoma`.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Standard => "standard",
            Preset::Pagat => "pagat",
            Preset::Eaai => "eaai",
            Preset::Oklahoma => "oklahoma",
        }
    }

    /// The preset called `name` (any case, surrounding spaces ignored), if any.
    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|preset| preset.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Its ruleset.
    pub const fn rules(self) -> Ruleset {
        match self {
            Preset::Standard => Ruleset::standard(),
            Preset::Pagat => Ruleset::pagat(),
            Preset::Eaai => Ruleset::eaai(),
            Preset::Oklahoma => Ruleset::oklahoma(),
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

const KNOCK_LIMIT_EXPECTED: &str = "a number from 0 to 10 or \"upcard\"";

/// The most a bonus may be: no score of a game comes near `u32::MAX`.
const MAX_BONUS: u64 = 1000;

impl Ruleset {
    /// The names of the presets, the first being the default (see [`Preset`]).
    pub const PRESETS: [&'static str; Preset::ALL.len()] = {
        let mut names = [""; Preset::ALL.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = Preset::ALL[i].name();
            i += 1;
        }
        names
    };

    /// The `standard` preset, the default: docs/rules.md as written.
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
        Preset::from_name(name).map(Preset::rules)
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

    /// Checks that every setting is in its range (see [`Ruleset::table`]): knock limit 0 to 10,
    /// bonuses 0 to 1000, target 1 to 10000, shutout multiplier 1 to 10, stock floor 0 to 30.
    ///
    /// # Errors
    /// [`RulesetError::Setting`] for the first setting out of its range.
    pub fn validate(&self) -> Result<(), RulesetError> {
        Ok(Settings::validate(self)?)
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
        let value: Value = serde_json::from_str(text)
            .map_err(|err| RulesetError::Json(gin_cards::excerpt(&err.to_string(), crate::settings::PARSER_CHARS)))?;
        Ruleset::from_json_value(&value)
    }

    /// Every setting as pretty-printed JSON, in the format [`Ruleset::from_json`] reads.
    pub fn to_json(&self) -> String {
        // Infallible: every value is a number, a string, a bool or null.
        serde_json::to_string_pretty(self).expect("a ruleset always serializes to json")
    }

    fn from_json_value(value: &Value) -> Result<Ruleset, RulesetError> {
        let Value::Object(settings) = value else {
            return Err(RulesetError::NotAnObject(describe(value)));
        };
        let mut rules = match settings.get("preset") {
            None => Ruleset::standard(),
            Some(Value::String(name)) => Ruleset::preset(name)
                .ok_or_else(|| RulesetError::UnknownPreset(gin_cards::excerpt(name, crate::settings::NAME_CHARS)))?,
            Some(other) => {
                return Err(SettingError::WrongType {
                    setting: "preset",
                    expected: format!("a preset name: {}", Ruleset::PRESETS.join(", ")),
                    found: describe(other),
                }
                .into());
            }
        };
        for (name, value) in settings.iter().filter(|(name, _)| *name != "preset") {
            rules.set(name, value).map_err(|err| match err {
                SettingError::Unknown { name, valid } => {
                    SettingError::Unknown { name, valid: format!("preset, {valid}") }
                }
                other => other,
            })?;
        }
        Ok(rules)
    }
}

impl Settings for Ruleset {
    fn table() -> &'static [Setting<Ruleset>] {
        Ruleset::settings_table()
    }
}

impl Serialize for Ruleset {
    /// Every setting by its name, as [`Ruleset::to_json`] writes them.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        crate::settings::serialize(self, serializer)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::SettingError;

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
    fn presets_are_an_enum_with_names() {
        for (preset, name) in Preset::ALL.into_iter().zip(Ruleset::PRESETS) {
            assert_eq!(preset.name(), name);
            assert_eq!(preset.to_string(), name);
            assert_eq!(Preset::from_name(&name.to_uppercase()), Some(preset));
            assert_eq!(Ruleset::preset(name), Some(preset.rules()));
        }
        assert_eq!(Preset::from_name(" eaai "), Some(Preset::Eaai));
        assert_eq!(Preset::from_name("vegas"), None);
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
        let mut fields: Vec<&str> = Ruleset::table().iter().map(|setting| setting.name).collect();
        assert_eq!(fields.len(), 16);
        fields.sort_unstable();
        assert_eq!(keys, fields);
        // Every listed field can be set from JSON, and the table reads back what it writes.
        let oklahoma = Ruleset { spade_doubles: true, big_gin_bonus: None, ..Ruleset::oklahoma() };
        let values = oklahoma.to_json_value();
        let mut rules = Ruleset::standard();
        for setting in Ruleset::table() {
            rules.set(setting.name, &values[setting.name]).unwrap();
        }
        assert_eq!(rules, oklahoma);
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
        assert!(matches!(
            Ruleset::from_json(r#"{"Target": 1}"#),
            Err(RulesetError::Setting(SettingError::Unknown { name, .. })) if name == "Target"
        ));
    }

    #[test]
    fn wrong_types_name_the_setting_and_what_it_takes() {
        assert_eq!(
            err(r#"{"target": "150"}"#),
            r#"setting `target` expects a whole number from 1 to 10000, found "150""#
        );
        assert_eq!(err(r#"{"target": -5}"#), "setting `target` must be from 1 to 10000, found -5");
        assert_eq!(
            err(r#"{"gin_bonus": 2.5}"#),
            "setting `gin_bonus` expects a whole number from 0 to 1000, found 2.5"
        );
        assert_eq!(
            err(r#"{"knock_limit": "oklahoma"}"#),
            r#"setting `knock_limit` expects a whole number from 0 to 10, or "upcard", found "oklahoma""#
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
            "setting `big_gin_bonus` expects a whole number from 0 to 1000, or null for no big gin, found false"
        );
        assert_eq!(
            err(r#"{"preset": 3}"#),
            "setting `preset` expects a preset name: standard, pagat, eaai, oklahoma, found 3"
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
            Err(RulesetError::Setting(SettingError::OutOfRange {
                setting: "knock_limit",
                min: "0".into(),
                max: "10".into(),
                found: "12".into()
            }))
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
