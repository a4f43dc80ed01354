//! The UCI options: their declarations, parsing `setoption`, and the search configuration they
//! make.

use replab_detect::DrawPolicy;
use replab_registry::{Detector, SEARCH_DETECTORS, check_policy, with_detector};
use replab_search::{Profile, SearchConfig};

use crate::time::{MOVE_OVERHEAD_DEFAULT, MOVE_OVERHEAD_MAX};

/// The detector the engine starts with.
pub const DEFAULT_DETECTOR: &str = "linear";

/// The default of `DrawPolicy`: Stockfish's rule, the policy `replab match`, `replab elo` and
/// the gauntlet's baseline play by default, so the engine a GUI gets plays as they do.
pub const DEFAULT_POLICY: DrawPolicy = DrawPolicy::Stockfish;

/// Default, smallest and largest `Hash` in MB.
const HASH_DEFAULT: u32 = 16;
const HASH_MAX: u32 = 4096;
/// Smallest and largest `Contempt`.
const CONTEMPT_LIMIT: i32 = 1000;
/// Largest `Threads`.
pub const THREADS_MAX: u32 = 64;
/// Largest `MultiPV`.
pub const MULTIPV_MAX: u32 = 256;

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
    /// `Threads`: searching threads (Lazy SMP on the shared table).
    pub threads: u32,
    /// `MultiPV`: principal variations reported.
    pub multipv: u32,
    /// `Ponder`: whether the GUI may send `go ponder` (the engine ponders only when told).
    pub ponder: bool,
    /// `SearchProfile`: `engine` (the default: the modern selective search) or `paper` (the
    /// paper's fixed-depth search, as the experiments run it).
    pub profile: Profile,
}

/// What a `setoption` asks of the engine besides the new value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Nothing more.
    None,
    /// `Clear Hash`: clear the table.
    ClearHash,
}

/// The settings a search runs with: the options, with any combination the searcher cannot run
/// replaced by the nearest one it can ([`Options::effective`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Effective {
    /// The detector (always the one set).
    pub detector: String,
    /// The search configuration (depth and node limit are set per `go`).
    pub config: SearchConfig,
    /// The table size in MB.
    pub hash_mb: u32,
    /// Searching threads.
    pub threads: usize,
    /// What was replaced and why, one sentence each (for `info string` at `go`).
    pub notes: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            detector: DEFAULT_DETECTOR.to_string(),
            policy: DEFAULT_POLICY,
            contempt: 0,
            hash_mb: HASH_DEFAULT,
            null_move: true,
            move_overhead: MOVE_OVERHEAD_DEFAULT,
            threads: 1,
            multipv: 1,
            ponder: false,
            profile: Profile::Engine,
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
        DEFAULT_POLICY.name()
    );
    for p in DrawPolicy::ALL {
        policies.push_str(" var ");
        policies.push_str(p.name());
    }
    // Engine presets, each an alias of one of the policies above.
    for p in replab_registry::PRESETS
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
        format!("option name Threads type spin default 1 min 1 max {THREADS_MAX}"),
        format!("option name MultiPV type spin default 1 min 1 max {MULTIPV_MAX}"),
        "option name Ponder type check default false".to_string(),
        "option name Clear Hash type button".to_string(),
        "option name SearchProfile type combo default engine var engine var paper".to_string(),
    ]
}

impl Options {
    /// The search configuration of these options as set (depth and node limit are set per
    /// `go`), whether or not the searcher can run it ([`Options::effective`]).
    pub fn config(&self) -> SearchConfig {
        let base = match self.profile {
            Profile::Engine => SearchConfig::engine(),
            Profile::Paper => SearchConfig::default(),
        };
        SearchConfig {
            policy: self.policy,
            contempt: self.contempt,
            tt_bits: tt_bits(self.hash_mb),
            null_move: self.null_move,
            ..base
        }
    }

    /// The settings a search runs with, whatever order the options came in. The detector is
    /// kept; a draw policy it cannot serve (`replab_registry::check_policy`) is replaced by the
    /// nearest one it can, in the order `twofold`, `stanback`, `moreland`, `stockfish`,
    /// `threefold` (the earlier on a tie); a detector that needs the table
    /// (`replab_search::check_setup`: `tt-thompson`) with `Hash 0` gets `Hash 1`, and with
    /// `Threads` above 1 gets `Threads 1` (its open flags live in the table all threads share,
    /// where another thread's would read as repetitions: the `replab smp` finding). Each
    /// replacement is noted with its reason.
    pub fn effective(&self) -> Effective {
        let mut notes = Vec::new();
        let mut policy = self.policy;
        if let Err(refusal) = check_policy(&self.detector, policy) {
            policy = nearest_policy(&self.detector, policy);
            notes.push(format!(
                "{refusal}; searching with DrawPolicy {} instead",
                policy.name()
            ));
        }
        let mut options = Options {
            policy,
            ..self.clone()
        };
        if let Err(e) = crate::check(&options.detector, &options.config())
            && options.hash_mb == 0
        {
            options.hash_mb = 1;
            notes.push(format!("{e}; searching with Hash 1 instead"));
        }
        let marks_in_table =
            with_detector!(&options.detector, policy, |d| d.in_search_table()).unwrap_or(false);
        if marks_in_table && options.threads > 1 {
            notes.push(format!(
                "detector {} keeps its open flags in the table all threads share, where \
                 another thread's flags would read as repetitions; searching with Threads 1 \
                 instead",
                options.detector
            ));
            options.threads = 1;
        }
        Effective {
            detector: options.detector.clone(),
            config: options.config(),
            hash_mb: options.hash_mb,
            threads: options.threads as usize,
            notes,
        }
    }

    /// Applies `setoption` (the words after it): the option takes the value given if it is a
    /// valid value of that option; otherwise the error says why and nothing changes. Whether
    /// the options go together is decided at `go` ([`Options::effective`]), so the order they
    /// come in does not matter.
    pub fn set(&mut self, words: &[&str]) -> Result<Action, String> {
        let (name, value) = split_name_value(words)?;
        let lower = value.to_ascii_lowercase();
        match name.to_ascii_lowercase().as_str() {
            "detector" => {
                if lower != "off" && !SEARCH_DETECTORS.contains(&lower.as_str()) {
                    return Err(format!("unknown Detector {value}"));
                }
                self.detector = lower;
            }
            "drawpolicy" => {
                // A policy or an engine preset (an alias of one).
                self.policy = replab_registry::policy(&lower)
                    .map_err(|_| format!("unknown DrawPolicy {value}"))?;
            }
            "contempt" => {
                let c = spin(
                    "Contempt",
                    &value,
                    -i64::from(CONTEMPT_LIMIT),
                    CONTEMPT_LIMIT.into(),
                )?;
                self.contempt = c as i32;
            }
            "hash" => self.hash_mb = spin("Hash", &value, 0, HASH_MAX.into())? as u32,
            "move overhead" | "moveoverhead" => {
                self.move_overhead =
                    spin("Move Overhead", &value, 0, MOVE_OVERHEAD_MAX as i64)? as u64;
            }
            "nullmove" => self.null_move = check("NullMove", &lower)?,
            "threads" => self.threads = spin("Threads", &value, 1, THREADS_MAX.into())? as u32,
            "multipv" => self.multipv = spin("MultiPV", &value, 1, MULTIPV_MAX.into())? as u32,
            "ponder" => self.ponder = check("Ponder", &lower)?,
            "clear hash" | "clearhash" => return Ok(Action::ClearHash),
            "searchprofile" => {
                self.profile = Profile::from_name(&lower)
                    .ok_or_else(|| format!("unknown SearchProfile {value} (engine or paper)"))?;
            }
            _ => return Err(format!("unknown option {name}")),
        }
        Ok(Action::None)
    }
}

/// The policy nearest `policy` in [`DrawPolicy::ALL`] that `detector` can serve (the earlier
/// on a tie); `policy` itself if it can, or if none can.
fn nearest_policy(detector: &str, policy: DrawPolicy) -> DrawPolicy {
    let at = |p: DrawPolicy| DrawPolicy::ALL.iter().position(|&q| q == p).unwrap_or(0);
    let here = at(policy);
    DrawPolicy::ALL
        .into_iter()
        .filter(|&p| check_policy(detector, p).is_ok())
        .min_by_key(|&p| (at(p).abs_diff(here), at(p)))
        .unwrap_or(policy)
}

/// The value of the check option `name`: `true` or `false` (`lower`, lowercased).
fn check(name: &str, lower: &str) -> Result<bool, String> {
    match lower {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("{name} {lower} is not true or false")),
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

    fn set(o: &mut Options, name: &str, value: &str) {
        o.set(&["name", name, "value", value]).unwrap();
    }

    #[test]
    fn options_are_judged_together_whatever_their_order() {
        let mut a = Options::default();
        set(&mut a, "Detector", "filo");
        set(&mut a, "DrawPolicy", "moreland");
        let mut b = Options::default();
        set(&mut b, "DrawPolicy", "moreland");
        set(&mut b, "Detector", "filo");
        assert_eq!(a, b);
        assert_eq!(a.effective(), b.effective());
        let e = a.effective();
        assert_eq!(
            (e.detector.as_str(), e.config.policy),
            ("filo", DrawPolicy::Moreland)
        );
        assert!(e.notes.is_empty(), "{:?}", e.notes);
        assert!(o_err(&mut a, "Detector", "nosuch"));
        assert_eq!(a.detector, "filo");
    }

    fn o_err(o: &mut Options, name: &str, value: &str) -> bool {
        o.set(&["name", name, "value", value]).is_err()
    }

    #[test]
    fn an_impossible_combination_searches_with_the_nearest_valid_one() {
        // axon cannot count: only twofold.
        let mut o = Options::default();
        set(&mut o, "Detector", "axon");
        set(&mut o, "DrawPolicy", "threefold");
        assert_eq!(o.policy, DrawPolicy::Threefold);
        let e = o.effective();
        assert_eq!(e.config.policy, DrawPolicy::Twofold);
        assert!(
            e.notes[0].contains("axon cannot be used with the draw policy threefold")
                && e.notes[0].ends_with("searching with DrawPolicy twofold instead"),
            "{:?}",
            e.notes
        );
        // filo drops single history entries: moreland or stockfish, the nearer one.
        set(&mut o, "Detector", "filo");
        assert_eq!(o.effective().config.policy, DrawPolicy::Stockfish);
        set(&mut o, "DrawPolicy", "twofold");
        assert_eq!(o.effective().config.policy, DrawPolicy::Moreland);
        set(&mut o, "DrawPolicy", "stanback");
        assert_eq!(o.effective().config.policy, DrawPolicy::Moreland);
        // tt-thompson needs the table: Hash 1 instead of 0.
        set(&mut o, "Detector", "tt-thompson");
        set(&mut o, "DrawPolicy", "twofold");
        set(&mut o, "Hash", "0");
        let e = o.effective();
        assert_eq!((e.hash_mb, e.config.tt_bits), (1, tt_bits(1)));
        assert!(
            e.notes[0].ends_with("searching with Hash 1 instead"),
            "{:?}",
            e.notes
        );
        assert_eq!(e.threads, 1);
        // … and one thread: its flags in a shared table would be other threads' repetitions.
        set(&mut o, "Threads", "4");
        let e = o.effective();
        assert_eq!(e.threads, 1);
        assert!(
            e.notes[1].ends_with("searching with Threads 1 instead"),
            "{:?}",
            e.notes
        );
        set(&mut o, "Detector", "linear");
        assert_eq!((o.effective().threads, o.effective().notes.len()), (4, 0));
        // Every detector has a policy it can serve under every policy asked for.
        for d in SEARCH_DETECTORS {
            for p in DrawPolicy::ALL {
                let o = Options {
                    detector: d.to_string(),
                    policy: p,
                    hash_mb: 0,
                    ..Options::default()
                };
                let e = o.effective();
                assert!(crate::check(&e.detector, &e.config).is_ok(), "{d} {p:?}");
            }
        }
    }

    #[test]
    fn new_options() {
        let mut o = Options::default();
        set(&mut o, "Threads", "4");
        set(&mut o, "MultiPV", "3");
        set(&mut o, "Ponder", "true");
        assert_eq!((o.threads, o.multipv, o.ponder), (4, 3, true));
        assert!(o_err(&mut o, "Threads", "0"));
        assert!(o_err(&mut o, "MultiPV", "257"));
        assert!(o_err(&mut o, "Ponder", "maybe"));
        assert_eq!(o.set(&["name", "Clear", "Hash"]), Ok(Action::ClearHash));
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
