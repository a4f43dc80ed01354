//! One self-play match (`replab match`) and the merge of a match's shards (`replab merge`) as
//! experiments of the generic report path: each writes `results.json` and `games.pgn`
//! ([`replab_selfplay`]). Neither is a line of the bench table.

use std::{
    path::{Path, PathBuf},
    sync::OnceLock,
};

use anyhow::Result;
use replab_report::ReportDir;
use replab_selfplay::{
    MatchConfig, MatchOptions, MatchResults,
    merge::{GAMES_FILE, RESULTS_FILE},
    summary,
};
use replab_settings::Settings;
use serde::{Deserialize, Serialize};

use replab_harness::{
    Progress,
    experiment::{Conclusion, Configuration, Experiment},
};

pub mod cost;

/// A match's results and the PGN of its games, in pair order.
pub type Played = (MatchResults, String);

/// `replab match`: one self-play match between two player specifications.
pub struct Match;

/// The settings of `replab match`, each option declared on its field (the match's own in
/// [`MatchOptions`]): parsed once (the book read once) by the first of
/// [`Configuration::check`] and the run that asks.
#[derive(Clone, Debug, Default, Serialize, Deserialize, clap::Args, Settings)]
pub struct Config {
    /// The match's options.
    #[command(flatten)]
    #[serde(flatten)]
    pub options: MatchOptions,
    /// Equal cost: B searches --nodes, A as many nodes as the same instructions buy (each
    /// player's instructions per node counted by callgrind; the recorded table without
    /// valgrind).
    #[arg(long)]
    pub scale_by_cost: bool,
    /// The replab binary that counts instructions under valgrind (`replab measure`); `None`
    /// takes the recorded table.
    #[arg(skip)]
    pub exe: Option<PathBuf>,
    /// The command line recorded in `meta`.
    #[arg(skip)]
    #[serde(skip)]
    pub command: String,
    /// The options' configuration, once parsed.
    #[arg(skip)]
    #[serde(skip)]
    parsed: OnceLock<MatchConfig>,
}

impl Config {
    /// The options' configuration: parsed (and the book read) on the first call only.
    fn parsed(&self) -> Result<&MatchConfig> {
        if let Some(config) = self.parsed.get() {
            return Ok(config);
        }
        let config = self.options.config()?;
        Ok(self.parsed.get_or_init(|| config))
    }

    /// The match to play: the options' configuration, with equal-cost budgets when asked.
    fn match_config(&self) -> Result<MatchConfig> {
        let mut config = self.parsed()?.clone();
        if self.scale_by_cost {
            let scaling = cost::scaling(&config, self.exe.as_deref())?;
            config.a.nodes = Some(scaling.a_nodes);
            config.b.nodes = Some(scaling.b_nodes);
            config.cost_scaling = Some(scaling);
        }
        Ok(config)
    }
}

impl Configuration for Config {
    fn quick() -> Self {
        Self::default()
    }

    fn set_command(&mut self, command: String) {
        self.command = command;
    }

    /// The declared ranges, then the match's rules ([`MatchConfig::check`], once, as the
    /// options are parsed), then equal cost's.
    fn check(&self) -> Result<()> {
        self.check_ranges()?;
        let config = self.parsed()?;
        if self.scale_by_cost {
            cost::check(config)?;
        }
        Ok(())
    }
}

impl Experiment for Match {
    const NAME: &'static str = "match";
    const DIR: &'static str = "match";
    const TITLE: &'static str = "Self-play match";
    type Config = Config;
    type Results = Played;

    fn run(config: &Config, progress: &mut dyn Progress) -> Result<Played> {
        let mut done = 0;
        let mut on_pair = |pairs: u64, total: u64| {
            if done == 0 {
                progress.stage("pairs", total);
            }
            progress.advance(pairs.saturating_sub(done));
            done = pairs;
        };
        let (results, pgn) = replab_selfplay::play(&config.match_config()?, &mut on_pair)?;
        Ok((with_command(results, &config.command), pgn))
    }

    fn write((results, pgn): &Played, dir: &ReportDir) -> Result<()> {
        fill_dir(dir, results, pgn)
    }

    /// The summary on stdout, where `results.json` went on stderr.
    fn conclude((results, _): &Played, index: &Path) -> Result<Conclusion> {
        let written = index.with_file_name(RESULTS_FILE);
        Ok(Conclusion {
            stdout: summary(results) + &published_lines(results),
            stderr: format!("wrote {}\n", written.display()),
            failure: None,
        })
    }
}

/// `replab merge`: the shards of one match combined into the whole match's results.
pub struct Merge;

/// The settings of `replab merge`, declared on their fields.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, clap::Args, Settings)]
pub struct MergeConfig {
    /// The shards' output directories (every shard of the match, once).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// The command line recorded in `meta`.
    #[arg(skip)]
    #[serde(skip)]
    pub command: String,
}

impl Configuration for MergeConfig {
    fn quick() -> Self {
        Self::default()
    }

    fn set_command(&mut self, command: String) {
        self.command = command;
    }
}

impl Experiment for Merge {
    const NAME: &'static str = "merge";
    const DIR: &'static str = "match";
    const TITLE: &'static str = "Self-play match";
    type Config = MergeConfig;
    type Results = Played;

    fn run(config: &MergeConfig, _progress: &mut dyn Progress) -> Result<Played> {
        let (results, pgn) = replab_selfplay::merge(&config.dirs)?;
        Ok((with_command(results, &config.command), pgn))
    }

    fn write(played: &Played, dir: &ReportDir) -> Result<()> {
        Match::write(played, dir)
    }

    fn conclude(played: &Played, index: &Path) -> Result<Conclusion> {
        Match::conclude(played, index)
    }
}

/// Writes `games.pgn` and `results.json` (what `replab merge` reads back) into the staged
/// report directory `dir`.
fn fill_dir(dir: &ReportDir, results: &MatchResults, pgn: &str) -> Result<()> {
    dir.write(GAMES_FILE, pgn)?;
    dir.write(RESULTS_FILE, serde_json::to_string_pretty(results)? + "\n")?;
    Ok(())
}

/// The published figures of the gauntlet row that plays this match's players (A against B as
/// the row writes them), each set against the match's Elo by the one comparison: a line each,
/// none where no row plays them.
pub fn published_lines(results: &MatchResults) -> String {
    let (a, b) = (&results.identity.a, &results.identity.b);
    crate::ROWS
        .iter()
        .filter(|row| row.a == *a && row.b == *b)
        .filter_map(|row| {
            let p = row.published.as_ref()?;
            let direction = p.comparison(a, b, &results.elo).map_or_else(
                || "no direction to compare (a pass or fail, or no interval)".to_string(),
                |c| c.sentence(),
            );
            Some(format!(
                "published: {}\n  {direction}; {}\n",
                p.figure,
                p.caveat(&crate::running::control_text(results))
            ))
        })
        .collect()
}

/// `results` with `command` recorded in `meta`.
fn with_command(mut results: MatchResults, command: &str) -> MatchResults {
    results.meta.insert("command".into(), command.into());
    results
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `C` from `args` as the binary builds it: its defaults, then the options given.
    fn parse<C: Configuration + clap::FromArgMatches>(args: &[&str]) -> Result<C, clap::Error> {
        let command = C::augment_args(clap::Command::new("test")).no_binary_name(true);
        let matches = command
            .mut_args(|a| a.required(false))
            .try_get_matches_from(args)?;
        let mut config = C::default();
        config.update_from_arg_matches(&matches)?;
        Ok(config)
    }

    #[test]
    fn a_match_parses_its_options_and_checks_each_rule_by_name() {
        let args = ["--a", "tt-open", "--b", "linear"];
        let with = |extra: &[&str]| -> Config { parse(&[&args[..], extra].concat()).unwrap() };
        let config = with(&["--games", "4", "--sprt", "-1,3"]);
        assert_eq!(config.options.games, 4);
        assert_eq!(config.options.sprt.map(|b| b.pair()), Some((-1.0, 3.0)));
        assert!(!config.scale_by_cost);
        assert!(config.check().is_ok());
        assert!(with(&["--scale-by-cost"]).scale_by_cost);
        let refused = |extra: &[&str]| with(extra).check().unwrap_err().to_string();
        assert!(refused(&["--games", "0"]).starts_with("--games 0 is out of range"));
        assert!(refused(&["--games", "5"]).starts_with("--games 5: an even number"));
        assert!(refused(&["--sprt", "3,-1"]).starts_with("--sprt 3,-1: "));
        assert!(refused(&["--threads", "0"]).starts_with("--threads 0 is out of range"));
        let clock = refused(&["--scale-by-cost", "--tc", "1+0.01"]);
        assert!(
            clock.starts_with("--scale-by-cost scales node budgets"),
            "{clock}"
        );
        assert!(parse::<Config>(&["--sprt", "x"]).is_err());
        assert_eq!(Config::SCALE_BY_COST.to_string(), "--scale-by-cost");
    }

    #[test]
    fn a_merge_takes_the_shards_directories() {
        let config: MergeConfig = parse(&["a/1", "a/2"]).unwrap();
        assert_eq!(config.dirs, [PathBuf::from("a/1"), PathBuf::from("a/2")]);
        assert!(config.check().is_ok());
    }
}
