//! The UCI options: their declarations, parsing `setoption`, and the search configuration they
//! make.

use replab_detect::DrawPolicy;
use replab_registry::SEARCH_DETECTORS;
use replab_search::SearchConfig;

use crate::time::{MOVE_OVERHEAD_DEFAULT, MOVE_OVERHEAD_MAX};

/// The detector the engine starts with.
pub const DEFAULT_DETECTOR: &str = "linear";

/// Default, smallest and largest `Hash` in MB.
const HASH_DEFAULT: u32 = 16;
const HASH_MAX: u32 = 4096;
/// Smallest and largest `Contempt`.
const CONTEMPT_LIMIT: i32 = 1000;

/// The engine's option values.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// `Detector`: `off` or a name of [`SEARCH_DETECTORS`].
    pub detector: String,
    /// `DrawPolicy`.
    pub policy: DrawPolicy,
    /// `Contempt`, centipawns.
    pub contempt: i32,
    /// `Hash`, MB (0: no table).
    pub hash_mb: u32,
    /// `NullMove`.
    pub null_move: bool,
    /// `Move Overhead`, ms kept back from every time budget ([`crate::time::budget`]).
    pub move_overhead: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            detector: DEFAULT_DETECTOR.to_string(),
            policy: DrawPolicy::default(),
            contempt: 0,
            hash_mb: HASH_DEFAULT,
            null_move: true,
            move_overhead: MOVE_OVERHEAD_DEFAULT,
        }
    }
}

/// The table size in bits for `mb` megabytes of 16-byte entries (rounded down to a power of
/// two), `None` for 0.
pub fn tt_bits(mb: u32) -> Option<u32> {
    (mb > 0).then(|| mb.ilog2() + 16)
}

/// The `option name …` lines of the `uci` answer.
pub fn declarations() -> Vec<String> {
    let mut detectors =
        format!("option name Detector type combo default {DEFAULT_DETECTOR} var off");
    for d in SEARCH_DETECTORS {
        detectors.push_str(" var ");
        detectors.push_str(d);
    }
    let mut policies = format!(
        "option name DrawPolicy type combo default {}",
        DrawPolicy::default().name()
    );
    for p in DrawPolicy::ALL {
        policies.push_str(" var ");
        policies.push_str(p.name());
    }
    // Engine presets, each an alias of one of the policies above.
    for p in replab_detect::PRESETS
        .iter()
        .filter(|p| DrawPolicy::ALL.iter().all(|q| q.name() != p.name))
    {
        policies.push_str(" var ");
        policies.push_str(p.name);
    }
    vec![
        detectors,
        policies,
        format!(
            "option name Contempt type spin default 0 min -{CONTEMPT_LIMIT} max {CONTEMPT_LIMIT}"
        ),
        format!("option name Hash type spin default {HASH_DEFAULT} min 0 max {HASH_MAX}"),
        "option name NullMove type check default true".to_string(),
        format!(
            "option name Move Overhead type spin default {MOVE_OVERHEAD_DEFAULT} min 0 max {MOVE_OVERHEAD_MAX}"
        ),
    ]
}

impl Options {
    /// The search configuration of these options (depth and node limit are set per `go`).
    pub fn config(&self) -> SearchConfig {
        SearchConfig {
            policy: self.policy,
            contempt: self.contempt,
            tt_bits: tt_bits(self.hash_mb),
            null_move: self.null_move,
            ..SearchConfig::engine()
        }
    }

    /// Applies `setoption` (the words after it). The option is changed only if the new
    /// values are valid and the searcher accepts them together ([`crate::check`]); otherwise
    /// the error says why. `Ok(Some(note))` is a remark worth an `info string`.
    pub fn set(&mut self, words: &[&str]) -> Result<Option<String>, String> {
        let (name, value) = split_name_value(words)?;
        let mut next = self.clone();
        let lower = value.to_ascii_lowercase();
        match name.to_ascii_lowercase().as_str() {
            "detector" => {
                if lower != "off" && !SEARCH_DETECTORS.contains(&lower.as_str()) {
                    return Err(format!("unknown Detector {value}"));
                }
                next.detector = lower;
            }
            "drawpolicy" => {
                // A policy or an engine preset (an alias of one).
                next.policy = lower
                    .parse::<DrawPolicy>()
                    .map_err(|_| format!("unknown DrawPolicy {value}"))?;
            }
            "contempt" => {
                let c = spin(
                    "Contempt",
                    &value,
                    -i64::from(CONTEMPT_LIMIT),
                    CONTEMPT_LIMIT.into(),
                )?;
                next.contempt = c as i32;
            }
            "hash" => next.hash_mb = spin("Hash", &value, 0, HASH_MAX.into())? as u32,
            "move overhead" | "moveoverhead" => {
                next.move_overhead =
                    spin("Move Overhead", &value, 0, MOVE_OVERHEAD_MAX as i64)? as u64;
            }
            "nullmove" => {
                next.null_move = match lower.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("NullMove {value} is not true or false")),
                };
            }
            _ => return Err(format!("unknown option {name}")),
        }
        crate::check(&next.detector, &next.config())
            .map_err(|e| format!("option {name} not changed: {e}"))?;
        *self = next;
        Ok(None)
    }
}

/// The value of the spin option `name`: an integer within `min..=max`.
fn spin(name: &str, value: &str, min: i64, max: i64) -> Result<i64, String> {
    if value.is_empty() {
        return Err(format!("{name} needs a value ({min} to {max})"));
    }
    let n: i64 = value
        .parse()
        .map_err(|_| format!("{name} {value} is not an integer ({min} to {max})"))?;
    if !(min..=max).contains(&n) {
        return Err(format!("{name} {n} is out of range ({min} to {max})"));
    }
    Ok(n)
}

/// `name <words…> [value <words…>]` → (name, value).
fn split_name_value(words: &[&str]) -> Result<(String, String), String> {
    if words.first().map(|w| w.to_ascii_lowercase()) != Some("name".to_string()) {
        return Err("setoption needs name".to_string());
    }
    let v = words
        .iter()
        .position(|w| w.eq_ignore_ascii_case("value"))
        .unwrap_or(words.len());
    let name = words[1..v].join(" ");
    let value = words.get(v + 1..).map(|w| w.join(" ")).unwrap_or_default();
    if name.is_empty() {
        return Err("setoption needs a name".to_string());
    }
    Ok((name, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_to_bits() {
        assert_eq!(tt_bits(0), None);
        assert_eq!(tt_bits(1), Some(16));
        assert_eq!(tt_bits(16), Some(20));
        assert_eq!(tt_bits(20), Some(20));
        assert_eq!(
            Options::default().config().tt_bits,
            SearchConfig::default().tt_bits
        );
    }

    #[test]
    fn refused_combination_keeps_the_option() {
        let mut o = Options::default();
        o.set(&["name", "Detector", "value", "axon"]).unwrap();
        let e = o
            .set(&["name", "DrawPolicy", "value", "threefold"])
            .unwrap_err();
        assert!(
            e.contains("axon cannot be used with --policy threefold"),
            "{e}"
        );
        assert_eq!(o.policy, DrawPolicy::Twofold);
        assert!(o.set(&["name", "Detector", "value", "nosuch"]).is_err());
        assert_eq!(o.detector, "axon");
    }

    #[test]
    fn spins_say_out_of_range_or_not_an_integer() {
        let mut o = Options::default();
        let e = o.set(&["name", "Hash", "value", "-1"]).unwrap_err();
        assert_eq!(e, "Hash -1 is out of range (0 to 4096)");
        let e = o.set(&["name", "Hash", "value", "4097"]).unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        let e = o.set(&["name", "Contempt", "value", "x"]).unwrap_err();
        assert!(e.contains("not an integer"), "{e}");
        let e = o.set(&["name", "Hash"]).unwrap_err();
        assert!(e.contains("needs a value"), "{e}");
        o.set(&["name", "Move", "Overhead", "value", "250"])
            .unwrap();
        assert_eq!(o.move_overhead, 250);
        let e = o
            .set(&["name", "Move", "Overhead", "value", "5001"])
            .unwrap_err();
        assert!(e.contains("out of range (0 to 5000)"), "{e}");
        assert_eq!(o.move_overhead, 250);
    }
}
