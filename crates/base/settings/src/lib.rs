#![doc = include_str!("../README.md")]

use std::{fmt, ops::RangeInclusive};

// The derive names this crate by its path, in its own tests too.
extern crate self as replab_settings;

pub use anyhow::Result;
pub use replab_settings_derive::Settings;

/// A configuration whose settings are declared on its fields; derived with
/// `#[derive(Settings)]` beside `#[derive(clap::Args)]`.
pub trait Settings: clap::Args {
    /// Refuses a field outside its declared range (`#[setting(range = …)]`), naming it.
    fn check_ranges(&self) -> Result<()>;
    /// The declared range of the option whose field is `field`, as `--help` shows it
    /// (`1 to 12`); `None` when it has none.
    fn range_text(field: &str) -> Option<String>;
    /// The default `--help` shows for the option `field` when its value in `Default` is
    /// unset but stands for a built-in one (`#[setting(shown = EXPR)]`); `None` otherwise.
    fn shown_default(field: &str) -> Option<String>;
    /// Whether the command line must give the option `field` (`#[setting(required)]`); the
    /// other options start from the configuration's `Default`.
    fn required(field: &str) -> bool;
}

/// A setting: the option of one configuration field, a typed handle made by
/// `#[derive(Settings)]` (`Config::DEPTH`). It prints as its option (`--depth`), found in its
/// configuration's clap declaration.
#[derive(Clone, Copy)]
pub struct Setting {
    field: &'static str,
    options: fn() -> clap::Command,
}

impl Setting {
    /// The setting of field `field` of configuration `C`.
    pub const fn of<C: clap::Args>(field: &'static str) -> Self {
        Self {
            field,
            options: options_of::<C>,
        }
    }

    /// Its configuration field.
    pub const fn field(self) -> &'static str {
        self.field
    }

    /// Its option as a command line spells it: `--depth` (`--` and the field with hyphens
    /// when the declaration has no long name).
    pub fn flag(self) -> String {
        let options = (self.options)();
        let long = options
            .get_arguments()
            .find(|a| a.get_id() == self.field)
            .and_then(|a| a.get_long().map(str::to_owned));
        format!("--{}", long.unwrap_or_else(|| self.field.replace('_', "-")))
    }
}

/// The options of `C`, as clap declares them.
fn options_of<C: clap::Args>() -> clap::Command {
    C::augment_args(clap::Command::new("settings"))
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.flag())
    }
}

impl fmt::Debug for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Setting({})", self.field)
    }
}

impl PartialEq for Setting {
    fn eq(&self, other: &Self) -> bool {
        self.field == other.field && self.flag() == other.flag()
    }
}

/// Refuses `value` outside `range`, naming the setting: `--depth 40 is out of range (1 to 12)`.
pub fn check_range<T: PartialOrd + fmt::Display>(
    setting: Setting,
    value: T,
    range: &RangeInclusive<T>,
) -> Result<()> {
    anyhow::ensure!(
        range.contains(&value),
        "{setting} {value} is out of range ({})",
        range_text(range)
    );
    Ok(())
}

/// A value a declared range checks: a number ([`Bound`]), each number of a list, an optional
/// number when it is given.
pub trait Ranged<T> {
    /// Refuses a value outside `range`, naming `setting`.
    fn check_in(&self, setting: Setting, range: &RangeInclusive<T>) -> Result<()>;
}

/// A number a range bounds: integers and floats.
pub trait Bound: Copy + PartialOrd + fmt::Display {}

impl<T: Copy + PartialOrd + fmt::Display> Bound for T {}

impl<T: Bound> Ranged<T> for T {
    fn check_in(&self, setting: Setting, range: &RangeInclusive<T>) -> Result<()> {
        check_range(setting, *self, range)
    }
}

impl<T: Bound> Ranged<T> for Vec<T> {
    fn check_in(&self, setting: Setting, range: &RangeInclusive<T>) -> Result<()> {
        self.iter().try_for_each(|v| v.check_in(setting, range))
    }
}

impl<T: Bound> Ranged<T> for Option<T> {
    fn check_in(&self, setting: Setting, range: &RangeInclusive<T>) -> Result<()> {
        self.as_ref().map_or(Ok(()), |v| v.check_in(setting, range))
    }
}

/// A range as help and messages show it: `1 to 12`, whole numbers grouped (`10,000,000`).
pub fn range_text<T: fmt::Display>(range: &RangeInclusive<T>) -> String {
    format!("{} to {}", group(range.start()), group(range.end()))
}

/// An option's help with its declared range, ending in a full stop (clap takes the doc comment's
/// off): `{range}` in the help replaced by the range (`Thread counts (each {range}).`), else the
/// range in parentheses before the final full stop (`Search depth (1 to 12).`); the help
/// unchanged without a range.
pub fn help_text(help: &str, range: Option<&str>) -> String {
    let Some(range) = range else {
        return help.to_owned();
    };
    if help.contains("{range}") {
        let help = help.replace("{range}", range);
        return format!("{}.", help.trim_end_matches('.'));
    }
    format!("{} ({range}).", help.trim_end_matches('.'))
}

/// `10000000` → `10,000,000`; anything but a whole number unchanged.
fn group(n: &impl fmt::Display) -> String {
    let digits = n.to_string();
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return digits;
    }
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A throwaway configuration declared as every experiment declares its own.
    #[derive(clap::Args, Settings, Default)]
    struct Example {
        /// Search depth.
        #[arg(long, value_name = "N")]
        #[setting(range = 1..=12)]
        depth: u32,
        /// Thread counts (each {range}).
        #[arg(long = "thread-counts", value_delimiter = ',')]
        #[setting(range = 1..=64)]
        threads: Vec<usize>,
        /// A share, when given.
        #[arg(long)]
        #[setting(range = 0.0..=1.0, shown = 0.5)]
        share: Option<f64>,
        /// Unbounded, and required.
        #[arg(long)]
        #[setting(required)]
        label: String,
        /// Not an option.
        #[arg(skip)]
        command: String,
    }

    #[test]
    fn a_handle_prints_as_its_option() {
        assert_eq!(Example::DEPTH.to_string(), "--depth");
        assert_eq!(Example::THREADS.to_string(), "--thread-counts");
        assert_eq!(Example::LABEL.field(), "label");
    }

    #[test]
    fn the_range_check_names_the_setting_and_flips_at_the_bounds() {
        let mut config = Example {
            depth: 12,
            threads: vec![1, 64],
            share: Some(1.0),
            ..Example::default()
        };
        assert!(config.check_ranges().is_ok());
        config.depth = 13;
        let refused = config.check_ranges().unwrap_err().to_string();
        assert_eq!(refused, "--depth 13 is out of range (1 to 12)");
        config.depth = 1;
        config.threads.push(65);
        let refused = config.check_ranges().unwrap_err().to_string();
        assert_eq!(refused, "--thread-counts 65 is out of range (1 to 64)");
        config.threads.pop();
        config.share = Some(1.5);
        let refused = config.check_ranges().unwrap_err().to_string();
        assert_eq!(refused, "--share 1.5 is out of range (0 to 1)");
        config.share = None;
        assert!(config.check_ranges().is_ok());
        assert!(config.command.is_empty());
    }

    #[test]
    fn the_help_carries_the_declared_range_grouped() {
        let depth = Example::range_text("depth");
        assert_eq!(depth.as_deref(), Some("1 to 12"));
        assert_eq!(
            help_text("Search depth", depth.as_deref()),
            "Search depth (1 to 12)."
        );
        let threads = Example::range_text("threads");
        assert_eq!(
            help_text("Thread counts (each {range})", threads.as_deref()),
            "Thread counts (each 1 to 64)."
        );
        assert_eq!(Example::range_text("label"), None);
        assert_eq!(Example::shown_default("share").as_deref(), Some("0.5"));
        assert_eq!(Example::shown_default("depth"), None);
        assert!(Example::required("label") && !Example::required("depth"));
        assert_eq!(help_text("Unbounded", None), "Unbounded");
        assert_eq!(range_text(&(1u64..=10_000_000)), "1 to 10,000,000");
    }
}
