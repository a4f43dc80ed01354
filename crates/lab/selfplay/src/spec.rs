//! Player specifications: `NAME[:OPTION=VALUE[,OPTION=VALUE]…]`, parsed, checked, printed in
//! a canonical form and turned into a searcher.
//!
//! `NAME` is `off` (no repetition detection) or a searchable detector of the registry
//! (`linear`, `linear+cuckoo`, `tt-open`, …). Options (each at most once):
//!
//! | option | values | default | meaning |
//! |---|---|---|---|
//! | `policy` | a draw policy or engine preset | `stockfish` | when a repetition scores as a draw |
//! | `upcoming` | an upcoming-cycle rule (`stockfish`, `any-earlier`, …) | the policy's | which cycles an upcoming-cycle detector counts |
//! | `bits` | 1 to 64 | 64 | Zobrist key bits the detector compares |
//! | `tt` | 0 to 26 | 18 | transposition table of 2^`tt` 16-byte entries (0: no table) |
//! | `hash` | a power of two, MiB | — | the table size in MiB instead of `tt` |
//! | `tt-mode` | `on`, `no-path-scores`, `no-draw-scores`, … | `on` | which scores the table keeps |
//! | `tt-cutoff` | 0 to 1000 | none | no table cut-offs at halfmove clocks from this value |
//! | `tt-bucket` | 1 to 1000 | none | halfmove-clock buckets mixed into the table key |
//! | `jitter` | `on`, `off` | `off` | draw score ±1 by node count (Stockfish #1770) |
//! | `profile` | `engine`, `paper` | `engine` | the searcher's profile: the modern engine, or the paper's fixed-depth search |
//! | `nodes` | 1 to 10^9 | the match's `--nodes` | this player's nodes per move (fixed nodes only; `--scale-by-cost` sets it) |

use std::fmt;

use anyhow::{Result, anyhow, bail};
use replab_detect::{DrawPolicy, UpcomingRule};
use replab_search::{DynSearch, MAX_PLY, Profile, SearchConfig, TtMode};
use serde::{Deserialize, Serialize};

/// The default table size of a player, in bits (2^18 entries of 16 bytes, 4 MiB). The engine
/// profile keeps its table from move to move of a game (cleared at the game's start); the
/// paper profile clears it at every search, so there a larger table only costs clearing time.
pub const DEFAULT_TT_BITS: u32 = 18;

/// The largest table a player may ask for, in bits (1 GiB).
pub const MAX_TT_BITS: u32 = 26;

/// One player's configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerSpec {
    /// The detector's name (`off` or a searchable registry detector).
    pub detector: String,
    /// The draw policy.
    pub policy: DrawPolicy,
    /// The upcoming-cycle rule, when it is not the policy's own.
    pub upcoming: Option<String>,
    /// Key bits compared by the detector (64: full keys).
    pub key_bits: u32,
    /// Table size in bits (0: no table).
    pub tt_bits: u32,
    /// Table mode (its name).
    pub tt_mode: String,
    /// No table cut-offs from this halfmove clock on.
    pub tt_cutoff: Option<u16>,
    /// Halfmove-clock bucket width mixed into the table key.
    pub tt_bucket: Option<u16>,
    /// Draw-score jitter (Stockfish #1770).
    pub jitter: bool,
    /// The searcher's profile (missing from older results: the paper profile they played).
    #[serde(default)]
    pub profile: Profile,
    /// Nodes per move for this player alone (`nodes=N`, or a budget `--scale-by-cost` gave
    /// it); `None`: the match's `--nodes`. Only with fixed nodes, never with a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
}

impl PlayerSpec {
    /// A player with the given detector and every option at its default.
    pub fn named(detector: &str) -> PlayerSpec {
        PlayerSpec {
            detector: detector.to_string(),
            policy: DrawPolicy::Stockfish,
            upcoming: None,
            key_bits: 64,
            tt_bits: DEFAULT_TT_BITS,
            tt_mode: TtMode::On.name().to_string(),
            tt_cutoff: None,
            tt_bucket: None,
            jitter: false,
            profile: Profile::Engine,
            nodes: None,
        }
    }

    /// Parses and checks a specification (see the module docs); the error names the part
    /// that is wrong.
    pub fn parse(text: &str) -> Result<PlayerSpec> {
        let (name, options) = match text.split_once(':') {
            Some((n, o)) => (n, Some(o)),
            None => (text, None),
        };
        let mut spec = PlayerSpec::named(name.trim());
        let mut seen: Vec<&str> = Vec::new();
        for option in options.into_iter().flat_map(|o| o.split(',')) {
            let (key, value) = option
                .split_once('=')
                .ok_or_else(|| anyhow!("option {option:?} is not KEY=VALUE"))?;
            let (key, value) = (key.trim(), value.trim());
            if seen.contains(&key) {
                bail!("option {key:?} given twice");
            }
            seen.push(key);
            spec.set(key, value)?;
        }
        spec.check()?;
        Ok(spec)
    }

    /// Sets one option.
    fn set(&mut self, key: &str, value: &str) -> Result<()> {
        match key {
            "policy" => self.policy = replab_registry::policy(value).map_err(|e| anyhow!("{e}"))?,
            "upcoming" => {
                rule_by_name(value)?;
                self.upcoming = Some(value.to_string());
            }
            "bits" => self.key_bits = number(key, value, 1, 64)?,
            "tt" => self.tt_bits = number(key, value, 0, u64::from(MAX_TT_BITS))?,
            "hash" => {
                let mib: u32 = number(key, value, 1, 1 << (MAX_TT_BITS - 16))?;
                if !mib.is_power_of_two() {
                    bail!("hash={value}: the table size must be a power of two MiB");
                }
                self.tt_bits = mib.trailing_zeros() + 16;
            }
            "tt-mode" => {
                TtMode::from_name(value).ok_or_else(|| {
                    let names: Vec<_> = TtMode::ALL.iter().map(|m| m.name()).collect();
                    anyhow!("unknown tt-mode {value:?} (expected {})", names.join(", "))
                })?;
                self.tt_mode = value.to_string();
            }
            "tt-cutoff" => self.tt_cutoff = Some(number(key, value, 0, 1000)?),
            "tt-bucket" => self.tt_bucket = Some(number(key, value, 1, 1000)?),
            "jitter" => {
                self.jitter = match value {
                    "on" => true,
                    "off" => false,
                    _ => bail!("jitter={value}: expected on or off"),
                }
            }
            "profile" => {
                self.profile = Profile::from_name(value)
                    .ok_or_else(|| anyhow!("profile={value}: expected engine or paper"))?
            }
            "nodes" => self.nodes = Some(number(key, value, 1, 1_000_000_000)?),
            _ => bail!(
                "unknown option {key:?} (expected policy, upcoming, bits, tt, hash, tt-mode, \
                 tt-cutoff, tt-bucket, jitter, profile or nodes)"
            ),
        }
        Ok(())
    }

    /// Whether the detector exists, can search, and accepts the options.
    fn check(&self) -> Result<()> {
        if self.detector != "off" {
            let info = replab_registry::info(&self.detector).ok_or_else(|| {
                anyhow!(
                    "unknown detector {:?} (expected off or one of {})",
                    self.detector,
                    replab_registry::SEARCH_DETECTORS.join(", ")
                )
            })?;
            if !info.caps.searchable {
                bail!("detector {:?} cannot search", self.detector);
            }
            replab_registry::check_policy(&self.detector, self.policy)?;
            if self.key_bits < 64 && !info.caps.key_width {
                bail!("the keys of {:?} cannot be truncated", self.detector);
            }
            if self.upcoming.is_some() && !info.caps.upcoming {
                bail!("{:?} has no upcoming-cycle detection", self.detector);
            }
        } else if self.key_bits < 64 || self.upcoming.is_some() {
            bail!("detector off takes no bits or upcoming option");
        }
        let config = self.search_config(Some(1));
        let setup = replab_registry::with_detector!(&self.detector, self.rule()?, |d| {
            replab_search::check_setup(&d, &config).map_err(|e| anyhow!("{e}"))
        });
        setup.map_err(|e| anyhow!("{e}"))?
    }

    /// The upcoming-cycle rule in effect.
    fn rule(&self) -> Result<UpcomingRule> {
        match &self.upcoming {
            Some(name) => rule_by_name(name),
            None => Ok(self.policy.root_rule()),
        }
    }

    /// The searcher's configuration: node limit `nodes` (`None`: stopped by the clock).
    pub fn search_config(&self, nodes: Option<u64>) -> SearchConfig {
        let base = match self.profile {
            Profile::Engine => SearchConfig::engine(),
            Profile::Paper => SearchConfig {
                max_depth: MAX_PLY as u32 / 2,
                ..SearchConfig::default()
            },
        };
        SearchConfig {
            policy: self.policy,
            tt_bits: (self.tt_bits > 0).then_some(self.tt_bits),
            tt_mode: TtMode::from_name(&self.tt_mode).unwrap_or_default(),
            tt_cutoff_halfmove: self.tt_cutoff,
            tt_halfmove_bucket: self.tt_bucket,
            node_limit: nodes,
            ..base
        }
    }

    /// Bytes of the player's transposition table.
    pub fn table_bytes(&self) -> u64 {
        if self.tt_bits == 0 {
            0
        } else {
            16u64 << self.tt_bits
        }
    }

    /// A searcher for this player (`nodes`: fixed nodes per move, else a clock).
    pub fn build(&self, nodes: Option<u64>) -> Result<Box<dyn DynSearch>> {
        let config = self.search_config(nodes);
        let rule = self.rule()?;
        let mut engine = if self.key_bits < 64 {
            let d = replab_registry::by_name_with_key_bits(&self.detector, rule, self.key_bits)?;
            replab_search::boxed(d, config).map_err(|e| anyhow!("{e}"))?
        } else {
            let built = replab_registry::with_detector!(&self.detector, rule, |d| {
                replab_search::boxed(d, config).map_err(|e| anyhow!("{e}"))
            });
            built.map_err(|e| anyhow!("{e}"))??
        };
        engine.set_draw_jitter(self.jitter);
        Ok(engine)
    }
}

impl fmt::Display for PlayerSpec {
    /// The canonical form: the name, then every option that differs from its default, in the
    /// table's order (`linear`, `linear:policy=twofold,bits=16`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = PlayerSpec::named(&self.detector);
        let mut options = Vec::new();
        if self.policy != base.policy {
            options.push(format!("policy={}", self.policy));
        }
        if let Some(u) = &self.upcoming {
            options.push(format!("upcoming={u}"));
        }
        if self.key_bits != base.key_bits {
            options.push(format!("bits={}", self.key_bits));
        }
        if self.tt_bits != base.tt_bits {
            options.push(format!("tt={}", self.tt_bits));
        }
        if self.tt_mode != base.tt_mode {
            options.push(format!("tt-mode={}", self.tt_mode));
        }
        if let Some(c) = self.tt_cutoff {
            options.push(format!("tt-cutoff={c}"));
        }
        if let Some(b) = self.tt_bucket {
            options.push(format!("tt-bucket={b}"));
        }
        if self.jitter {
            options.push("jitter=on".to_string());
        }
        if self.profile != base.profile {
            options.push(format!("profile={}", self.profile.name()));
        }
        if let Some(n) = self.nodes {
            options.push(format!("nodes={n}"));
        }
        f.write_str(&self.detector)?;
        if !options.is_empty() {
            write!(f, ":{}", options.join(","))?;
        }
        Ok(())
    }
}

/// The upcoming-cycle rule of a name.
fn rule_by_name(name: &str) -> Result<UpcomingRule> {
    UpcomingRule::ALL
        .into_iter()
        .find(|r| r.name() == name)
        .ok_or_else(|| {
            let names: Vec<_> = UpcomingRule::ALL.iter().map(|r| r.name()).collect();
            anyhow!(
                "unknown upcoming rule {name:?} (expected {})",
                names.join(", ")
            )
        })
}

/// An integer option within `lo..=hi`.
fn number<T: TryFrom<u64>>(key: &str, value: &str, lo: u64, hi: u64) -> Result<T> {
    let n: u64 = value
        .parse()
        .map_err(|_| anyhow!("{key}={value}: not a whole number"))?;
    if !(lo..=hi).contains(&n) {
        bail!("{key}={value}: out of range ({lo} to {hi})");
    }
    T::try_from(n).map_err(|_| anyhow!("{key}={value}: out of range"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_alone_and_with_options_parse() {
        assert_eq!(PlayerSpec::parse("off").unwrap().to_string(), "off");
        assert_eq!(PlayerSpec::parse("linear").unwrap().to_string(), "linear");
        let s = PlayerSpec::parse("linear:policy=twofold,bits=16,hash=16").unwrap();
        assert_eq!((s.key_bits, s.tt_bits), (16, 20));
        assert_eq!(s.to_string(), "linear:policy=twofold,bits=16,tt=20");
        assert_eq!(PlayerSpec::parse(&s.to_string()).unwrap(), s);
    }

    #[test]
    fn bad_specs_are_refused_with_a_reason() {
        // Rows chosen by capability: one the searcher cannot run, one whose keys cannot be
        // truncated, one that needs the searcher's table, one that cannot count occurrences.
        let row = |keep: fn(&replab_registry::Capabilities) -> bool| {
            replab_registry::DETECTORS
                .iter()
                .find(|d| d.caps.listed && keep(&d.caps))
                .unwrap()
                .name
        };
        let unsearchable = row(|c| c.probes && !c.searchable);
        let untruncated = row(|c| c.searchable && !c.key_width);
        let in_table = row(|c| c.needs_search_table);
        let uncounted = row(|c| c.searchable && !c.counts_occurrences);
        let (bits, tt, policy) = (
            format!("{untruncated}:bits=16"),
            format!("{in_table}:tt=0"),
            format!("{uncounted}:policy=stockfish"),
        );
        for (bad, says) in [
            ("nope", "unknown detector"),
            (unsearchable, "cannot search"),
            ("linear:color=red", "unknown option"),
            ("linear:bits=0", "out of range"),
            ("linear:bits", "KEY=VALUE"),
            ("linear:hash=3", "power of two"),
            ("linear:policy=x", "unknown draw policy"),
            ("linear:tt-mode=x", "unknown tt-mode"),
            ("linear:bits=8,bits=9", "twice"),
            (&bits, "cannot be truncated"),
            ("linear:upcoming=stockfish", "no upcoming"),
            (&tt, "table"),
            (&policy, uncounted),
        ] {
            let e = PlayerSpec::parse(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn every_searchable_detector_builds() {
        for name in replab_registry::SEARCH_DETECTORS {
            let counts = replab_registry::info(name).is_some_and(|d| d.caps.counts_occurrences);
            let policy = if !counts { "twofold" } else { "stockfish" };
            let spec = PlayerSpec::parse(&format!("{name}:policy={policy}")).unwrap();
            spec.build(Some(100)).unwrap();
        }
    }
}
