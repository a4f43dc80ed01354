#![doc = include_str!("../README.md")]

use std::{fmt, ops::RangeInclusive, sync::OnceLock};

/// How a program spells a setting's field in messages (`max_plies` → `--max-plies`).
pub type Spelling = fn(&'static str) -> String;

static SPELLING: OnceLock<Spelling> = OnceLock::new();

/// Installs the program's spelling of settings, once per process (later calls change nothing).
/// Without it, a setting reads as the library's word: its field with spaces (`max plies`).
pub fn spell_with(spelling: Spelling) {
    let _ = SPELLING.set(spelling);
}

/// The library's word for a field: `max_plies` (or `filo-slots`) → `max plies`.
pub fn word(field: &str) -> String {
    field.replace(['_', '-'], " ")
}

/// A setting, named after its configuration field; displayed through the installed spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setting {
    field: &'static str,
    word: Option<&'static str>,
}

impl Setting {
    /// The setting of the configuration field `field` (`"max_plies"`), whose word is the field
    /// with spaces.
    pub const fn new(field: &'static str) -> Self {
        Self { field, word: None }
    }

    /// The setting of `field` with a word of its own where the field says too little
    /// (`a` → `player A`).
    pub const fn worded(field: &'static str, word: &'static str) -> Self {
        Self {
            field,
            word: Some(word),
        }
    }

    /// Its configuration field.
    pub const fn field(self) -> &'static str {
        self.field
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (SPELLING.get(), self.word) {
            (Some(spell), _) => f.write_str(&spell(self.field)),
            (None, Some(w)) => f.write_str(w),
            (None, None) => f.write_str(&word(self.field)),
        }
    }
}

/// Refuses `value` outside `range`, naming the setting: `depth 40 is out of range (1 to 30)`.
pub fn check_range<T: PartialOrd + fmt::Display>(
    setting: Setting,
    value: T,
    range: RangeInclusive<T>,
) -> anyhow::Result<()> {
    anyhow::ensure!(
        range.contains(&value),
        "{setting} {value} is out of range ({} to {})",
        range.start(),
        range.end()
    );
    Ok(())
}

/// A numeric setting declared once: its field, its inclusive range and its help.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declared {
    /// The setting (its configuration field).
    pub setting: Setting,
    /// The smallest value allowed.
    pub min: u64,
    /// The largest value allowed.
    pub max: u64,
    /// What it sets, one sentence without the range.
    pub help: &'static str,
}

impl Declared {
    /// The declaration of `field`, allowed from `min` to `max`.
    pub const fn new(field: &'static str, min: u64, max: u64, help: &'static str) -> Self {
        Self {
            setting: Setting::new(field),
            min,
            max,
            help,
        }
    }

    /// Refuses a value outside the declared range, naming the setting.
    pub fn check(&self, value: impl Count) -> anyhow::Result<()> {
        check_range(self.setting, value.count(), self.min..=self.max)
    }

    /// Refuses any value of a list outside the declared range, naming the setting.
    pub fn check_each<T: Count>(&self, values: &[T]) -> anyhow::Result<()> {
        values.iter().try_for_each(|&v| self.check(v))
    }

    /// The range as help text shows it: `1 to 12`.
    pub fn range_text(&self) -> String {
        format!("{} to {}", group(self.min), group(self.max))
    }

    /// The help with its range, as `--help` shows it: `{range}` in the help replaced by the
    /// range (`Depth (each {range}).`), else the range in parentheses before the final full
    /// stop (`Search depth (1 to 12).`).
    pub fn help_text(&self) -> String {
        if self.help.contains("{range}") {
            return self.help.replace("{range}", &self.range_text());
        }
        let help = self.help.trim_end_matches('.');
        format!("{help} ({}).", self.range_text())
    }
}

/// Declares a subcommand's numeric settings once each: a [`Declared`] constant per setting
/// (`NAME: field, min, max, "help";`, documented by its help), the table of them all, and
/// `check_declared` on the configuration type, which checks every field against its
/// declaration ([`Checked`]), so no declared range goes unchecked.
///
/// ```
/// #[derive(Default)]
/// struct Config {
///     depth: u32,
///     games: Vec<u64>,
/// }
/// replab_settings::declare! {
///     /// Every declared setting of the example.
///     SETTINGS for Config = [
///         DEPTH: depth, 1, 12, "Search depth.";
///         GAMES: games, 2, 10_000, "Games played (each {range}).";
///     ]
/// }
/// assert_eq!(SETTINGS, [DEPTH, GAMES]);
/// assert_eq!(DEPTH.help_text(), "Search depth (1 to 12).");
/// let config = Config { depth: 13, ..Config::default() };
/// let refused = config.check_declared().unwrap_err().to_string();
/// assert_eq!(refused, "depth 13 is out of range (1 to 12)");
/// ```
#[macro_export]
macro_rules! declare {
    (
        $(#[$doc:meta])* $vis:vis $all:ident for $config:ty = [
            $( $name:ident: $field:ident, $min:expr, $max:expr, $help:literal; )*
        ]
    ) => {
        $(
            #[doc = $help]
            $vis const $name: $crate::Declared =
                $crate::Declared::new(stringify!($field), $min, $max, $help);
        )*
        $(#[$doc])*
        $vis const $all: &[$crate::Declared] = &[$($name),*];

        impl $config {
            /// Refuses a field outside the range of its declaration in
            #[doc = concat!("[`", stringify!($all), "`], naming the setting.")]
            $vis fn check_declared(&self) -> ::anyhow::Result<()> {
                $( $crate::Checked::check_against(&self.$field, &$name)?; )*
                Ok(())
            }
        }
    };
}

/// A setting's value as its declaration checks it: a whole number, each number of a list, an
/// optional number when it is given.
pub trait Checked {
    /// Refuses a value outside `declared`'s range, naming the setting.
    fn check_against(&self, declared: &Declared) -> anyhow::Result<()>;
}

impl<T: Count> Checked for T {
    fn check_against(&self, declared: &Declared) -> anyhow::Result<()> {
        declared.check(*self)
    }
}

impl<T: Count> Checked for Vec<T> {
    fn check_against(&self, declared: &Declared) -> anyhow::Result<()> {
        declared.check_each(self)
    }
}

impl<T: Count> Checked for Option<T> {
    fn check_against(&self, declared: &Declared) -> anyhow::Result<()> {
        self.map_or(Ok(()), |value| declared.check(value))
    }
}

/// A whole number a declared range checks.
pub trait Count: Copy {
    /// The value as a `u64`.
    fn count(self) -> u64;
}

macro_rules! count {
    ($($ty:ty),*) => {$(
        impl Count for $ty {
            fn count(self) -> u64 {
                self as u64
            }
        }
    )*};
}
count!(u8, u16, u32, u64, usize);

/// `10000000` → `10,000,000` (the range text of `--help`).
fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The declaration of `field` in `declared`, if any.
pub fn find(declared: &[Declared], field: &str) -> Option<Declared> {
    declared
        .iter()
        .copied()
        .find(|d| d.setting.field() == field)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setting_reads_as_the_library_word_without_a_spelling() {
        assert_eq!(Setting::new("max_plies").to_string(), "max plies");
        assert_eq!(Setting::worded("a", "player A").to_string(), "player A");
    }

    #[test]
    fn the_range_check_names_the_setting_and_flips_at_the_bounds() {
        let depth = Declared::new("depth", 1, 12, "Search depth.");
        assert!(depth.check(1u32).is_ok());
        assert!(depth.check(12u32).is_ok());
        let err = depth.check(13u32).unwrap_err().to_string();
        assert_eq!(err, "depth 13 is out of range (1 to 12)");
        assert!(depth.check(0u32).is_err());
    }

    #[test]
    fn the_help_carries_the_declared_range_grouped() {
        let games = Declared::new("games", 1, 10_000_000, "Audit games played.");
        assert_eq!(games.help_text(), "Audit games played (1 to 10,000,000).");
        assert_eq!(find(&[games], "games"), Some(games));
        let threads = Declared::new("threads", 1, 64, "Thread counts (each {range}; 1 added).");
        assert_eq!(
            threads.help_text(),
            "Thread counts (each 1 to 64; 1 added)."
        );
        assert!(threads.check_each(&[1u32, 64]).is_ok());
        assert!(threads.check_each(&[1u32, 65]).is_err());
        assert_eq!(find(&[games], "depth"), None);
    }
}
