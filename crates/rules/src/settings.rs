//! One mechanism for every table of settings (the rule set's, and the agents' parameters): each
//! type lists its settings once, with name, type, range and meaning, and the parser, the checks,
//! the `--help` text and the documentation's tables all come from that list.
//!
//! ```
//! use gin_rules::{Ruleset, settings::Settings};
//!
//! let mut rules = Ruleset::standard();
//! rules.set_text("target", "150")?;
//! rules.set_text("tie", "no_score")?;
//! assert_eq!(rules.target, 150);
//! let err = rules.set_text("knock_limit", "12").unwrap_err();
//! assert_eq!(err.to_string(), "setting `knock_limit` must be from 0 to 10, found 12");
//! # Ok::<(), gin_rules::settings::SettingError>(())
//! ```

use std::fmt::Write as _;

use serde_json::{Map, Value};

/// What a setting takes: its type and range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// `true` or `false`.
    Bool,
    /// A whole number from `min` to `max`.
    Int {
        /// The least value.
        min: u64,
        /// The greatest value.
        max: u64,
    },
    /// A whole number from `min` to `max`, or `null`, which means `none`.
    IntOrNull {
        /// The least value.
        min: u64,
        /// The greatest value.
        max: u64,
        /// What `null` means, for the help text.
        none: &'static str,
    },
    /// A whole number from `min` to `max`, or the string `word`.
    IntOrWord {
        /// The least value.
        min: u64,
        /// The greatest value.
        max: u64,
        /// The other value.
        word: &'static str,
    },
    /// A number from `min` to `max`.
    Float {
        /// The least value.
        min: f64,
        /// The greatest value.
        max: f64,
    },
    /// One of these strings.
    Choice(&'static [&'static str]),
}

impl Kind {
    /// What the setting takes, in words: `a whole number from 0 to 10`, `true or false`.
    pub fn expected(&self) -> String {
        let words = |words: &[&str]| match words {
            [] => String::new(),
            [one] => format!("\"{one}\""),
            [rest @ .., last] => {
                let rest: Vec<String> = rest.iter().map(|w| format!("\"{w}\"")).collect();
                format!("{} or \"{last}\"", rest.join(", "))
            }
        };
        match *self {
            Kind::Bool => "true or false".to_owned(),
            Kind::Int { min, max } => format!("a whole number from {min} to {max}"),
            Kind::IntOrNull { min, max, none } => format!("a whole number from {min} to {max}, or null for {none}"),
            Kind::IntOrWord { min, max, word } => format!("a whole number from {min} to {max}, or \"{word}\""),
            Kind::Float { min, max } => format!("a number from {min} to {max}"),
            Kind::Choice(choices) => words(choices),
        }
    }

    /// Checks `value` against the type and the range.
    fn check(&self, setting: &'static str, value: &Value) -> Result<(), SettingError> {
        let wrong = || SettingError::WrongType { setting, expected: self.expected(), found: describe(value) };
        let int_in =
            |min: u64, max: u64| -> Result<(), SettingError> {
                let range = || SettingError::OutOfRange {
                    setting,
                    min: min.to_string(),
                    max: max.to_string(),
                    found: describe(value),
                };
                match value {
                    Value::Number(n) if n.as_u64().is_some() => {
                        if (min..=max).contains(&n.as_u64().unwrap_or(u64::MAX)) { Ok(()) } else { Err(range()) }
                    }
                    Value::Number(n) if n.as_i64().is_some() => Err(range()),
                    _ => Err(wrong()),
                }
            };
        match (*self, value) {
            (Kind::Bool, Value::Bool(_)) => Ok(()),
            (Kind::Int { min, max }, _) => int_in(min, max),
            (Kind::IntOrNull { .. }, Value::Null) => Ok(()),
            (Kind::IntOrNull { min, max, .. }, _) => int_in(min, max),
            (Kind::IntOrWord { word, .. }, Value::String(text)) if text == word => Ok(()),
            (Kind::IntOrWord { min, max, .. }, Value::Number(_)) => int_in(min, max),
            (Kind::Float { min, max }, Value::Number(n)) => {
                let x = n.as_f64().unwrap_or(f64::NAN);
                if (min..=max).contains(&x) {
                    Ok(())
                } else {
                    Err(SettingError::OutOfRange {
                        setting,
                        min: min.to_string(),
                        max: max.to_string(),
                        found: describe(value),
                    })
                }
            }
            (Kind::Choice(choices), Value::String(text)) if choices.contains(&text.as_str()) => Ok(()),
            _ => Err(wrong()),
        }
    }
}

/// One setting of a table: its name, what it takes, what it means, and how to read and write it
/// on a value of `T`.
pub struct Setting<T> {
    /// The name, as in files and specs (`knock_limit`).
    pub name: &'static str,
    /// Its type and range.
    pub kind: Kind,
    /// What it means, in one sentence.
    pub meaning: &'static str,
    /// Its value in `T`, as JSON.
    pub get: fn(&T) -> Value,
    /// Writes a value already checked against `kind`.
    pub set: fn(&mut T, &Value),
}

impl<T> std::fmt::Debug for Setting<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Setting").field("name", &self.name).field("kind", &self.kind).finish_non_exhaustive()
    }
}

/// Why a setting was refused. Every message names the setting and what it takes, with the value
/// found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    /// No setting of that name.
    #[error("unknown setting `{name}`; valid settings: {valid}")]
    Unknown {
        /// The name given.
        name: String,
        /// The valid names, comma-separated.
        valid: String,
    },
    /// A value of the wrong type.
    #[error("setting `{setting}` expects {expected}, found {found}")]
    WrongType {
        /// The setting.
        setting: &'static str,
        /// What it takes.
        expected: String,
        /// The value found, as JSON (cut short if long).
        found: String,
    },
    /// A number out of the setting's range.
    #[error("setting `{setting}` must be from {min} to {max}, found {found}")]
    OutOfRange {
        /// The setting.
        setting: &'static str,
        /// The least value.
        min: String,
        /// The greatest value.
        max: String,
        /// The value found.
        found: String,
    },
    /// Settings that do not go together.
    #[error("{0}")]
    Conflict(&'static str),
}

/// A type whose settings are listed in one table.
pub trait Settings: Sized + 'static {
    /// Every setting, in order.
    fn table() -> &'static [Setting<Self>];

    /// Checks the settings together, beyond each one's range (the default: nothing to check).
    ///
    /// # Errors
    /// [`SettingError::Conflict`] naming what does not go together.
    fn check_together(&self) -> Result<(), SettingError> {
        Ok(())
    }

    /// The setting called `name`.
    ///
    /// # Errors
    /// [`SettingError::Unknown`], listing the valid names.
    fn setting(name: &str) -> Result<&'static Setting<Self>, SettingError> {
        Self::table().iter().find(|setting| setting.name == name).ok_or_else(|| SettingError::Unknown {
            name: gin_cards::excerpt(name, NAME_CHARS),
            valid: Self::table().iter().map(|setting| setting.name).collect::<Vec<_>>().join(", "),
        })
    }

    /// Sets one setting from a JSON value, checking its type, its range and the settings together.
    ///
    /// # Errors
    /// [`SettingError`]: an unknown name, a wrong type, a value out of range or in conflict; the
    /// settings are then unchanged.
    fn set(&mut self, name: &str, value: &Value) -> Result<(), SettingError> {
        let setting = Self::setting(name)?;
        setting.kind.check(setting.name, value)?;
        let old = (setting.get)(self);
        (setting.set)(self, value);
        if let Err(err) = self.check_together() {
            (setting.set)(self, &old);
            return Err(err);
        }
        Ok(())
    }

    /// Sets one setting from text, as in `name=value` on a command line: JSON if it reads as
    /// JSON (`7`, `0.5`, `true`, `null`), a string otherwise (`no_score`).
    ///
    /// # Errors
    /// As [`Settings::set`].
    fn set_text(&mut self, name: &str, text: &str) -> Result<(), SettingError> {
        let text = text.trim();
        let value = serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()));
        self.set(name, &value)
    }

    /// Sets every setting of a JSON object, in its order.
    ///
    /// # Errors
    /// As [`Settings::set`], for the first setting refused; the settings before it stay set.
    fn set_all(&mut self, object: &Map<String, Value>) -> Result<(), SettingError> {
        object.iter().try_for_each(|(name, value)| self.set(name, value))
    }

    /// Every setting as a JSON object (whose keys `serde_json` keeps sorted; [`serialize`] writes
    /// them in the table's order).
    fn to_json_value(&self) -> Value {
        Value::Object(Self::table().iter().map(|setting| (setting.name.to_owned(), (setting.get)(self))).collect())
    }

    /// Checks every setting's range and the settings together, for a value built in code.
    ///
    /// # Errors
    /// [`SettingError`] for the first setting out of its range, or a conflict.
    fn validate(&self) -> Result<(), SettingError> {
        for setting in Self::table() {
            setting.kind.check(setting.name, &(setting.get)(self))?;
        }
        self.check_together()
    }
}

/// Writes every setting of `value` as one object, in the table's order: a `Serialize` impl for
/// a type with a table of settings.
///
/// # Errors
/// The serializer's.
pub fn serialize<T: Settings, S: serde::Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_map(T::table().iter().map(|setting| (setting.name, (setting.get)(value))))
}

/// The settings of a table as help text: one line each, `name  what it takes (default): meaning`.
pub fn help<T: Settings>(defaults: &T) -> String {
    let width = T::table().iter().map(|setting| setting.name.len()).max().unwrap_or(0);
    let mut text = String::new();
    for setting in T::table() {
        let _ = writeln!(
            text,
            "  {:<width$}  {} (default {}): {}",
            setting.name,
            setting.kind.expected(),
            (setting.get)(defaults),
            setting.meaning
        );
    }
    text
}

/// The settings of a table as a Markdown table: each setting, what it takes, its value in each of
/// `columns` (a heading and a value of `T`, such as the defaults or the presets), and its meaning.
pub fn markdown<T: Settings>(columns: &[(&str, &T)]) -> String {
    let mut text = String::from("| setting | takes |");
    for (heading, _) in columns {
        let _ = write!(text, " {heading} |");
    }
    text.push_str(" meaning |\n|---|---|");
    text.push_str(&"---|".repeat(columns.len()));
    text.push_str("---|\n");
    for setting in T::table() {
        let _ = write!(text, "| `{}` | {} |", setting.name, setting.kind.expected());
        for (_, value) in columns {
            let _ = write!(text, " `{}` |", (setting.get)(value));
        }
        let _ = writeln!(text, " {} |", setting.meaning);
    }
    text
}

/// A JSON value for an error message, cut short if long.
pub(crate) fn describe(value: &Value) -> String {
    gin_cards::excerpt(&value.to_string(), NAME_CHARS)
}

/// The longest name or value an error message quotes, in characters.
pub const NAME_CHARS: usize = 40;

/// The longest message of the JSON parser an error carries, in characters (the parser's
/// messages may quote the text they were given).
pub const PARSER_CHARS: usize = 200;

/// A [`Setting`] for the field `$field` of a table's type, read and written as JSON:
/// `field_setting!(target, Kind::Int { min: 1, max: 10_000 }, "Hand points that end the game.")`.
#[macro_export]
macro_rules! field_setting {
    ($field:ident, $kind:expr, $meaning:expr $(,)?) => {
        $crate::settings::Setting {
            name: stringify!($field),
            kind: $kind,
            meaning: $meaning,
            get: |t| $crate::settings::to_value(&t.$field),
            set: |t, v| t.$field = $crate::settings::checked(v),
        }
    };
}

/// Declares a struct of settings and its table at once, so that each setting's meaning is
/// written once: as the field's documentation, which is also the table's `meaning` (so it is
/// plain text, without links). Each field is `name: Type = kind,` under its doc comment; the
/// struct gets `pub(crate) fn settings_table()`, every field read and written as JSON, for its
/// [`Settings::table`].
///
/// ```
/// use gin_rules::settings::{Kind, Setting, Settings};
///
/// gin_rules::settings_struct! {
///     /// A demonstration.
///     #[derive(Clone, Debug, Default, PartialEq)]
///     pub struct Demo {
///         /// How many, from 0 to 9.
///         count: u32 = Kind::Int { min: 0, max: 9 },
///     }
/// }
///
/// impl Settings for Demo {
///     fn table() -> &'static [Setting<Demo>] {
///         Demo::settings_table()
///     }
/// }
///
/// let mut demo = Demo::default();
/// demo.set_text("count", "7").unwrap();
/// assert_eq!(demo.count, 7);
/// assert_eq!(Demo::table()[0].meaning, "How many, from 0 to 9.");
/// ```
#[macro_export]
macro_rules! settings_struct {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $doc:literal])+
                $field:ident: $ty:ty = $kind:expr,
            )+
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $(
                $(#[doc = $doc])+
                pub $field: $ty,
            )+
        }

        impl $name {
            /// The table of settings: one a field, its meaning the field's documentation.
            pub(crate) fn settings_table() -> &'static [$crate::settings::Setting<$name>] {
                static TABLE: &[$crate::settings::Setting<$name>] = &[
                    $(
                        $crate::field_setting!($field, $kind, $crate::settings::meaning(concat!($($doc),+))),
                    )+
                ];
                TABLE
            }
        }
    };
}

/// A doc comment's text as a table's meaning: the leading blank of each line is the join.
#[doc(hidden)]
pub const fn meaning(doc: &'static str) -> &'static str {
    doc.trim_ascii_start()
}

/// A setting's value as JSON (the table's `get` functions use it).
pub fn to_value<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// Reads a value checked against its setting's kind into `T` (the table's `set` functions use it).
///
/// # Panics
/// If the value does not deserialize into `T`: the table's kind and field type disagree.
pub fn checked<T: serde::de::DeserializeOwned>(value: &Value) -> T {
    T::deserialize(value).expect("a value checked against its setting's kind")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, PartialEq)]
    struct Demo {
        on: bool,
        count: u32,
        weight: f64,
    }

    impl Settings for Demo {
        fn table() -> &'static [Setting<Demo>] {
            static TABLE: &[Setting<Demo>] = &[
                Setting {
                    name: "on",
                    kind: Kind::Bool,
                    meaning: "Whether it is on.",
                    get: |d| d.on.into(),
                    set: |d, v| d.on = checked(v),
                },
                Setting {
                    name: "count",
                    kind: Kind::Int { min: 1, max: 9 },
                    meaning: "How many.",
                    get: |d| d.count.into(),
                    set: |d, v| d.count = checked(v),
                },
                Setting {
                    name: "weight",
                    kind: Kind::Float { min: -1.0, max: 1.5 },
                    meaning: "How much.",
                    get: |d| d.weight.into(),
                    set: |d, v| d.weight = checked(v),
                },
            ];
            TABLE
        }

        fn check_together(&self) -> Result<(), SettingError> {
            if self.on && self.count == 9 { Err(SettingError::Conflict("nine is too many when on")) } else { Ok(()) }
        }
    }

    #[test]
    fn settings_are_parsed_and_checked_by_the_table() {
        let mut demo = Demo { count: 1, ..Demo::default() };
        demo.set_text("on", "true").unwrap();
        demo.set_text("count", " 3 ").unwrap();
        demo.set_text("weight", "-0.5").unwrap();
        assert_eq!(demo, Demo { on: true, count: 3, weight: -0.5 });
        let err = |name: &str, text: &str| Demo::default().set_text(name, text).unwrap_err().to_string();
        assert_eq!(err("count", "0"), "setting `count` must be from 1 to 9, found 0");
        assert_eq!(err("count", "-2"), "setting `count` must be from 1 to 9, found -2");
        assert_eq!(err("count", "2.5"), "setting `count` expects a whole number from 1 to 9, found 2.5");
        assert_eq!(err("count", "lots"), "setting `count` expects a whole number from 1 to 9, found \"lots\"");
        assert_eq!(err("weight", "2"), "setting `weight` must be from -1 to 1.5, found 2");
        assert_eq!(err("on", "yes"), "setting `on` expects true or false, found \"yes\"");
        assert_eq!(err("of", "1"), "unknown setting `of`; valid settings: on, count, weight");
        // A conflict leaves the settings as they were.
        let mut on = Demo { on: true, count: 3, weight: 0.0 };
        assert_eq!(on.set_text("count", "9").unwrap_err().to_string(), "nine is too many when on");
        assert_eq!(on.count, 3);
    }

    #[test]
    fn the_table_gives_json_help_and_docs() {
        let demo = Demo { on: true, count: 2, weight: 0.25 };
        assert_eq!(demo.to_json_value().to_string(), r#"{"count":2,"on":true,"weight":0.25}"#);
        let mut ordered = serde_json::Serializer::new(Vec::new());
        serialize(&demo, &mut ordered).unwrap();
        assert_eq!(String::from_utf8(ordered.into_inner()).unwrap(), r#"{"on":true,"count":2,"weight":0.25}"#);
        let mut back = Demo::default();
        back.set_all(demo.to_json_value().as_object().unwrap()).unwrap();
        assert_eq!(back, demo);
        let help = help(&demo);
        assert!(help.contains("  count   a whole number from 1 to 9 (default 2): How many."), "{help}");
        let table = markdown(&[("default", &demo), ("other", &Demo::default())]);
        assert!(
            table.starts_with("| setting | takes | default | other | meaning |\n|---|---|---|---|---|\n"),
            "{table}"
        );
        assert!(table.contains("| `weight` | a number from -1 to 1.5 | `0.25` | `0.0` | How much. |"), "{table}");
        assert!(Demo { count: 0, ..demo }.validate().is_err());
    }

    #[test]
    fn kinds_say_what_they_take() {
        assert_eq!(Kind::Choice(&["a", "b", "c"]).expected(), r#""a", "b" or "c""#);
        assert_eq!(
            Kind::IntOrWord { min: 0, max: 10, word: "upcard" }.expected(),
            r#"a whole number from 0 to 10, or "upcard""#
        );
        assert_eq!(
            Kind::IntOrNull { min: 0, max: 1000, none: "no big gin" }.expected(),
            "a whole number from 0 to 1000, or null for no big gin"
        );
        let long = Value::String("x".repeat(100));
        assert!(describe(&long).ends_with('…'));
    }
}
