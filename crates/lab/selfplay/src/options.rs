//! The options of `replab match` as text, checked and turned into a [`MatchConfig`], and the
//! summary it prints.

use std::{path::PathBuf, sync::Arc};

use anyhow::{Context, Result, anyhow, bail};
use replab_settings::Settings;
use serde::{Deserialize, Serialize};

use crate::{
    arbiter::Adjudication,
    book::Book,
    game::Control,
    run::{MatchConfig, MatchResults},
    spec::PlayerSpec,
    stats::{self, Bounds, DEFAULT_BOUNDS},
};

/// Nodes per move when neither `--nodes` nor `--tc` is given.
pub const DEFAULT_NODES: u64 = 2000;
/// Games of a match when `--games` is not given.
pub const DEFAULT_GAMES: u64 = 200;
/// Seed of the opening order when `--seed` is not given.
pub const DEFAULT_SEED: u64 = 1;
/// The most games of one match (a match's `--games`, each of the gauntlet's game counts).
pub const MAX_GAMES: u64 = 10_000_000;
/// The most nodes per move of a fixed-node match.
pub const MAX_NODES: u64 = 10_000_000;
/// The most worker threads of a match.
pub const MAX_THREADS: usize = 256;

/// A match's options as text, unchecked: `replab match`'s options, each declared on its field
/// (the doc comment is its help); [`MatchOptions::config`] checks them and names the option at
/// fault.
#[derive(Clone, Debug, Serialize, Deserialize, clap::Args, Settings)]
pub struct MatchOptions {
    /// Player A: a detector name, optionally followed by `:OPTION=VALUE,…` (docs/elo.md).
    #[arg(long, value_name = "SPEC")]
    #[setting(required)]
    pub a: String,
    /// Player B, as --a.
    #[arg(long, value_name = "SPEC")]
    #[setting(required)]
    pub b: String,
    /// Games of the whole match ({range}; even: each opening is played twice, colours
    /// swapped).
    #[arg(long, value_name = "N")]
    #[setting(range = 2..=MAX_GAMES)]
    pub games: u64,
    /// Nodes per move ({range}; deterministic; the default unless --tc is given).
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=MAX_NODES, shown = DEFAULT_NODES)]
    pub nodes: Option<u64>,
    /// Time control BASE+INCREMENT in seconds, e.g. 8+0.08 (not deterministic).
    #[arg(long, value_name = "T")]
    pub tc: Option<String>,
    /// Opening book (PGN); by default the built-in one, read by its path from anywhere.
    #[arg(long, value_name = "FILE")]
    #[setting(shown = crate::book::BUILTIN_NAME)]
    pub book: Option<PathBuf>,
    /// Seed of the opening order.
    #[arg(long, value_name = "S")]
    pub seed: u64,
    /// Stop as soon as the normalized-Elo SPRT with these bounds decides.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    pub sprt: Option<Bounds>,
    /// Play only shard K of N (the pairs i with i mod N = K-1).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Worker threads ({range}; default: every core); the games do not depend on it.
    #[arg(long, value_name = "T")]
    #[setting(range = 1..=MAX_THREADS)]
    pub threads: Option<usize>,
    /// Score adjudication, changes to fishtest's: draw=off or draw=SCORE/MOVES/FROM_MOVE,
    /// resign=off or resign=SCORE/MOVES, comma-separated.
    #[arg(long = "adjudicate", value_name = "SPEC",
          value_parser = |t: &str| Adjudication::fishtest().with(t))]
    #[setting(shown_by_display)]
    pub adjudication: Adjudication,
}

impl Default for MatchOptions {
    /// No players (`a` and `b` empty), the command line's defaults for the rest.
    fn default() -> Self {
        Self {
            a: String::new(),
            b: String::new(),
            games: DEFAULT_GAMES,
            nodes: None,
            tc: None,
            book: None,
            seed: DEFAULT_SEED,
            sprt: None,
            shard: None,
            threads: None,
            adjudication: Adjudication::fishtest(),
        }
    }
}

impl MatchOptions {
    /// The match's configuration, or why the options are refused (naming the option): the
    /// rules across the options ([`MatchConfig::check`]); their ranges are
    /// [`Settings::check_ranges`]'s, checked before.
    pub fn config(&self) -> Result<MatchConfig> {
        let a = PlayerSpec::parse(&self.a)
            .with_context(|| format!("{set_a} {:?}", self.a, set_a = MatchOptions::A))?;
        let b = PlayerSpec::parse(&self.b)
            .with_context(|| format!("{set_b} {:?}", self.b, set_b = MatchOptions::B))?;
        let control = match (&self.tc, self.nodes) {
            (Some(_), Some(_)) => bail!(
                "{set_nodes} and {set_tc} exclude each other",
                set_nodes = MatchOptions::NODES,
                set_tc = MatchOptions::TC
            ),
            (Some(tc), None) => {
                Control::parse_tc(tc).with_context(|| MatchOptions::TC.to_string())?
            }
            (None, n) => Control::Nodes(n.unwrap_or(DEFAULT_NODES)),
        };
        if !control.deterministic() {
            for (option, spec) in [(MatchOptions::A, &a), (MatchOptions::B, &b)] {
                if spec.nodes.is_some() {
                    bail!(
                        "{option} {spec}: a player's nodes= needs fixed nodes, not {set_tc}",
                        set_tc = MatchOptions::TC
                    );
                }
            }
        }
        let book = match &self.book {
            Some(path) => Book::read(path)?,
            None => Book::builtin(),
        };
        let (bounds, early_stop) = match self.sprt {
            Some(bounds) => (bounds.pair(), true),
            None => (DEFAULT_BOUNDS, false),
        };
        let shard = self.shard.as_deref().map(parse_shard).transpose()?;
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let config = MatchConfig {
            a,
            b,
            control,
            games: self.games,
            seed: self.seed,
            book: Arc::new(book),
            bounds,
            early_stop,
            three_way: false,
            shard,
            threads,
            cost_scaling: None,
            adjudication: self.adjudication,
        };
        config.check()?;
        Ok(config)
    }
}

/// `K/N`: two whole numbers (1 ≤ K ≤ N is [`MatchConfig::check`]'s rule).
fn parse_shard(text: &str) -> Result<(u32, u32)> {
    let bad = || {
        anyhow!(
            "{set_shard} {text:?}: expected K/N with 1 <= K <= N (e.g. 1/4)",
            set_shard = MatchOptions::SHARD
        )
    };
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    Ok((
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    ))
}

/// The few lines `replab match` and `replab merge` print.
pub fn summary(r: &MatchResults) -> String {
    let p = r.pentanomial;
    format!(
        "{} vs {}: {} games ({} pairs), W/D/L {}/{}/{}\n\
         pentanomial [LL, LD, WL+DD, WD, WW] = [{}, {}, {}, {}, {}]\n\
         Elo {}, nElo {}{}, LOS {:.1}%\n\
         SPRT nElo [{}, {}]: LLR {:.2} ({:.2}, {:.2}) {:?}\n\
         {:.1} s wall, {:.1} games/s, {:.1}% of the threads' time outside the searches, peak \
         memory {} KiB\n",
        r.identity.a,
        r.identity.b,
        r.games,
        r.pairs,
        r.wdl.wins,
        r.wdl.draws,
        r.wdl.losses,
        p[0],
        p[1],
        p[2],
        p[3],
        p[4],
        stats::estimate_text(&r.elo, r.no_interval()),
        stats::estimate_text(&r.nelo, r.no_interval()),
        if r.elo.interval.is_some() {
            " (95%)"
        } else {
            ""
        },
        100.0 * r.los,
        r.sprt.elo0,
        r.sprt.elo1,
        r.sprt.llr,
        r.sprt.lower,
        r.sprt.upper,
        r.sprt.decision,
        r.timing.wall_s,
        r.timing.games_per_second,
        100.0 * r.timing.outside_search_share,
        r.timing.peak_rss_kib,
    ) + &depth_line(r)
        + &sequential_line(r)
        + &cost_line(r)
}

/// Each player's median last completed depth (`play.median_depth`; "none" for a player that
/// searched no move).
fn depth_line(r: &MatchResults) -> String {
    let shown = |d: Option<u32>| d.map_or_else(|| "none".to_string(), |d| d.to_string());
    let [a, b] = r.play.median_depth;
    format!("median depth: A {}, B {}\n", shown(a), shown(b))
}

/// After an SPRT stop, fishtest's estimate that accounts for the stopping rule (empty when
/// the match was not stopped, or the estimate could not be computed).
fn sequential_line(r: &MatchResults) -> String {
    let Some(e) = r.sequential_elo.filter(|_| r.stopped_early) else {
        return String::new();
    };
    format!(
        "stopped by the SPRT: Elo {} (95%) accounting for the stop \
         (fishtest's sequential estimate; the fixed-sample figure above is biased away from 0)\n",
        stats::estimate_text(&e, None)
    )
}

/// The equal-cost line of [`summary`]: each player's budget and cost (empty for an ordinary
/// match).
fn cost_line(r: &MatchResults) -> String {
    let Some(c) = &r.identity.cost_scaling else {
        return String::new();
    };
    format!(
        "equal cost: A {} nodes/move ({:.1} instructions/node), B {} nodes/move ({:.1}); A's \
         budget is {:.4} of B's; costs from {}\n",
        c.a_nodes,
        c.a_instructions_per_node,
        c.b_nodes,
        c.b_instructions_per_node,
        c.ratio(),
        c.source
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> MatchOptions {
        MatchOptions {
            a: "linear".into(),
            b: "off".into(),
            games: 4,
            threads: Some(1),
            ..MatchOptions::default()
        }
    }

    #[test]
    fn bad_options_are_refused_by_name() {
        for (change, says) in [
            (
                (|o: &mut MatchOptions| o.shard = Some("0/2".into())) as fn(&mut MatchOptions),
                "shard",
            ),
            (|o| o.shard = Some("3/2".into()), "shard"),
            (|o| o.games = 3, "games"),
            (
                |o| o.shard = Some("3/3".into()),
                "more shards than game pairs",
            ),
            (|o| o.tc = Some("8+x".into()), "tc"),
            (|o| o.a = "linear:x=1".into(), "a"),
            (|o| o.b = "nope".into(), "b"),
            (|o| o.sprt = Some((2.0, 0.0).into()), "--sprt 2,0: "),
            (|o| o.sprt = Some((-250.0, 250.0).into()), "±231.6"),
            (|o| o.shard = Some("1-2".into()), "--shard \"1-2\""),
            (
                |o| {
                    o.sprt = Some((0.0, 2.0).into());
                    o.shard = Some("1/2".into());
                },
                "exclude",
            ),
            (|o| o.book = Some("/nonexistent/book.pgn".into()), "book"),
        ] {
            let mut o = options();
            change(&mut o);
            let e = format!("{:#}", o.config().unwrap_err());
            assert!(e.contains(says), "{e}");
        }
        assert!(options().config().is_ok());
    }

    #[test]
    fn the_ranges_are_the_options_and_checked_by_name() {
        assert!(options().check_ranges().is_ok());
        for (change, says) in [
            (
                (|o: &mut MatchOptions| o.games = 0) as fn(&mut MatchOptions),
                "--games 0 is out of range (2 to 10,000,000)",
            ),
            (|o| o.nodes = Some(0), "--nodes 0 is out of range"),
            (|o| o.threads = Some(0), "--threads 0 is out of range"),
        ] {
            let mut o = options();
            change(&mut o);
            let e = o.check_ranges().unwrap_err().to_string();
            assert_eq!(e.split(" (").next(), says.split(" (").next(), "{e}");
            assert!(e.starts_with(says), "{e}");
        }
        assert_eq!(
            MatchOptions::range_text("games").as_deref(),
            Some("2 to 10,000,000")
        );
    }
}
