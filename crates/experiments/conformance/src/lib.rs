//! `replab conformance`: scenarios whose outcome the Laws of Chess fix (threefold and fivefold
//! repetition, false repetitions through castling rights, en passant and the side to move, the
//! 50- and 75-move rules, stalemate, dead positions), built into the binary, played over UCI
//! against replab's engine once per search detector and against any external engine, judged
//! from `score` and `bestmove`, with every PV replayed through the exact arbiter ([`arbiter`]);
//! JUnit and JSON for CI ([`ci`]); the mutation table of replab's test engine ([`mutation`]).

mod arbiter;
mod ci;
mod engine;
mod judge;
pub mod mutant;
pub mod mutation;
mod page;

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use anyhow::{Context, Result};
use replab_detect::DrawPolicy;
use replab_registry::{DetectorId, SEARCH_DETECTORS};
use replab_report::Meta;
use serde::{Deserialize, Serialize};

pub use arbiter::{Game, PvFailure, pv_moves};
pub use ci::{junit, list};
pub use engine::{Engine, Launch, parse_option};
pub use judge::{Limits, judge};
use judge::{open, play};
pub use page::{
    failures, headline, summary_table, terminal_summary, unexpected_failures, unexpected_passes,
    write,
};

use replab_harness::Progress;
use replab_harness::contribution::{
    Better, Column, Contribution, Measured, Phrase, Role, Rows, Unit,
};
use replab_harness::experiment::{Conclusion, Declared, Experiment, Failure, Headline, Site};

/// A score within ±`DRAW_MARGIN` centipawns is a draw (engines add small noise to draws).
pub const DRAW_MARGIN: i32 = 10;
/// A score of at least `WIN_MARGIN` centipawns (or a mate) is a win.
pub const WIN_MARGIN: i32 = 200;

/// One scenario of the battery (a record of `datasets/conformance.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// Short name.
    pub id: String,
    /// The FIDE Laws article it checks.
    pub rule: String,
    /// What happens and why the outcome is fixed.
    pub description: String,
    /// The game's start position.
    pub fen: String,
    /// The game's moves (UCI, space separated), the history the engine sees.
    #[serde(default)]
    pub moves: String,
    /// Fixed search depth.
    pub depth: u32,
    /// `draw`, `no-draw`, `win`, `mate` or `info` (informational: the rules allow either).
    pub expect: String,
    /// The best move must be one of these (if given).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bestmove: Vec<String>,
    /// The best move must not be one of these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub avoid: Vec<String>,
    /// The answer depends on recognising a repeated position: an engine with repetition
    /// detection switched off fails it (checked by the suite's own test).
    #[serde(default)]
    pub repetition: bool,
    /// Draw policies whose search rule gives another answer than the Laws here (replab's
    /// engine under them is expected to fail; e.g. `twofold` on a second occurrence).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded_policies: Vec<String>,
    /// The engine bug (tracker issue or pull request) the scenario comes from, if any.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// Why replab's own engine is not held to the scenario (a rule its searcher does not
    /// implement, such as dead positions); empty when it is.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub outside_replab: String,
    /// The scenario whose bug this one probes from another position (empty when none):
    /// `--expect-fail` of that id covers this one too, since an engine with the bug fails
    /// both.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub same_bug_as: String,
    /// The widest score, in centipawns, still taken for a draw here; `None` for
    /// [`DRAW_MARGIN`]. Wider where the Laws end the game but engines only evaluate it (a
    /// dead position scored near zero by evaluation, not as an exact draw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_margin: Option<i32>,
}

impl Scenario {
    /// The widest score (centipawns) this scenario takes for a draw.
    pub fn draw_margin(&self) -> i32 {
        self.draw_margin.unwrap_or(DRAW_MARGIN)
    }

    /// What every rule-following engine must answer, in words.
    pub fn expected(&self) -> String {
        let mut text = match self.expect.as_str() {
            "draw" if self.draw_margin() != DRAW_MARGIN => {
                format!("a draw score (within ±{} cp)", self.draw_margin())
            }
            "draw" => "a draw score".to_string(),
            "no-draw" => "not a draw score".to_string(),
            "win" => "a winning score".to_string(),
            "mate" => "a mate score".to_string(),
            _ => "either (informational)".to_string(),
        };
        if !self.bestmove.is_empty() {
            text += &format!(", bestmove {}", self.bestmove.join(" or "));
        }
        if !self.avoid.is_empty() {
            text += &format!(", not {}", self.avoid.join(" or "));
        }
        text
    }

    /// The `position` command that sets the scenario up.
    pub fn position(&self) -> String {
        let mut position = format!("position fen {}", self.fen);
        if !self.moves.trim().is_empty() {
            position.push_str(" moves ");
            position.push_str(self.moves.trim());
        }
        position
    }
}

/// The report's title.
pub const TITLE: &str = "Repetition and draw-rule conformance";

/// An engine to test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineSpec {
    /// The name in the table (`replab linear (twofold)`, or the command).
    pub name: String,
    /// How it is started.
    pub launch: Launch,
    /// `setoption name … value …` sent after the handshake.
    pub options: Vec<(String, String)>,
    /// Given with `--engine` (not one of replab's own configurations).
    pub external: bool,
    /// replab's draw policy, for replab's own configurations.
    pub policy: Option<DrawPolicy>,
}

impl EngineSpec {
    /// The command line as text (`in-process` for replab's own engine in tests).
    pub fn command(&self) -> String {
        match &self.launch {
            Launch::Command(c) => c.join(" "),
            Launch::InProcess => "in-process replab-uci".into(),
            Launch::Mutant(settings) => mutation::label(settings),
        }
    }
}

/// The policy replab's engine runs `detector` under: the one `replab uci`, `match` and `elo`
/// play by default ([`replab_uci::DEFAULT_POLICY`], so each configuration is the decision
/// table's row of that detector), or for a detector refused under it the first policy it
/// accepts other than `stanback` (`axon`: `twofold`).
pub fn replab_policy(detector: &str) -> DrawPolicy {
    std::iter::once(replab_uci::DEFAULT_POLICY)
        .chain(DrawPolicy::ALL)
        .find(|p| replab_registry::check_policy(detector, *p).is_ok() && *p != DrawPolicy::Stanback)
        .unwrap_or(DrawPolicy::Twofold)
}

/// The exact detector, run under every draw policy: the registry's reference.
pub const EXACT_DETECTOR: &str = replab_registry::DetectorId::reference().name();

/// replab's engine with `detector` under `policy`, searching with the paper profile: the
/// scenarios' depths are full-width depths, which the engine profile's selective search
/// reaches with less of the tree seen (its repetition handling is the same code).
fn replab_engine(launch: &Launch, detector: &str, policy: DrawPolicy) -> EngineSpec {
    EngineSpec {
        name: format!("replab {detector} ({policy})"),
        launch: launch.clone(),
        options: vec![
            ("SearchProfile".into(), "paper".into()),
            ("DrawPolicy".into(), policy.name().into()),
            ("Detector".into(), detector.into()),
        ],
        external: false,
        policy: Some(policy),
    }
}

/// replab's engine: detection `off`, the exact detector under every draw policy, then (with
/// `all_detectors`) every other search detector under the policy [`replab_policy`] picks.
pub fn replab_engines(launch: &Launch, all_detectors: bool) -> Vec<EngineSpec> {
    let mut specs = vec![replab_engine(launch, "off", replab_policy("off"))];
    specs.extend(
        DrawPolicy::ALL
            .into_iter()
            .map(|p| replab_engine(launch, EXACT_DETECTOR, p)),
    );
    if all_detectors {
        specs.extend(
            SEARCH_DETECTORS
                .into_iter()
                .filter(|d| *d != EXACT_DETECTOR)
                .map(|d| replab_engine(launch, d, replab_policy(d))),
        );
    }
    specs
}

/// The scenarios built into the binary (`datasets/conformance.json`).
pub const BUILT_IN: &str = include_str!("../../../../datasets/conformance.json");

/// The settings of a conformance run.
#[derive(Clone, Debug)]
pub struct Config {
    /// A scenario file whose scenarios replace the built-in ones of the same id and are added
    /// after the others; `None` for the built-in scenarios only.
    pub scenarios: Option<PathBuf>,
    /// Only these scenario ids (empty: all).
    pub only: Vec<String>,
    /// Leave these scenario ids out.
    pub skip: Vec<String>,
    /// Scenario ids every engine is expected to fail: their failures do not fail the run.
    pub expect_fail: Vec<String>,
    /// `setoption name … value …` sent to every external engine before `isready`.
    pub engine_options: Vec<(String, String)>,
    /// Search every scenario to this depth instead of its own.
    pub depth: Option<u32>,
    /// Search every scenario for this many milliseconds (`go movetime`) instead of to a depth.
    pub movetime: Option<u64>,
    /// Where to write the JUnit XML file (one testcase per engine × scenario).
    pub junit: Option<PathBuf>,
    /// Print the results as JSON on stdout (the summary goes to stderr).
    pub json: bool,
    /// Run the mutation table: replab's test engine with each injected rule bug, in both move
    /// orders ([`mutation`]).
    pub mutations: bool,
    /// How replab's own engine is started (`replab uci`, or in-process).
    pub replab: Launch,
    /// External engines, each a command line (program and arguments).
    pub engines: Vec<Vec<String>>,
    /// Seconds allowed for one scenario (and for the handshake) ([`TIMEOUT`]).
    pub timeout: u64,
    /// The command line recorded in `meta`.
    pub command: String,
    /// Run replab's own configurations ([`replab_engines`]).
    pub include_replab: bool,
    /// Every search detector of replab's, not only `off` and the exact one.
    pub all_detectors: bool,
    /// An external engine that cannot be started is listed as skipped instead of an error.
    pub skip_missing: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            scenarios: None,
            only: Vec::new(),
            skip: Vec::new(),
            expect_fail: Vec::new(),
            engine_options: Vec::new(),
            depth: None,
            movetime: None,
            junit: None,
            json: false,
            mutations: false,
            replab: Launch::InProcess,
            engines: Vec::new(),
            timeout: 30,
            command: "replab conformance".into(),
            include_replab: true,
            all_detectors: true,
            skip_missing: false,
        }
    }
}

impl Config {
    /// The settings of `replab conformance`: replab's engine started as `exe uci`, each of
    /// `engines` a command line ([`command_words`]), and replab's own configurations run when
    /// no engine is given or `with_replab`.
    pub fn with_engines(self, exe: &Path, engines: &[String], with_replab: bool) -> Result<Self> {
        Ok(Config {
            replab: Launch::Command(vec![exe.display().to_string(), "uci".into()]),
            engines: engines
                .iter()
                .map(|e| command_words(e))
                .collect::<Result<_>>()?,
            include_replab: engines.is_empty() || with_replab,
            ..self
        })
    }

    /// The scenarios this run plays: the built-in ones, those of [`Config::scenarios`]
    /// replacing or added to them, then `only` and `skip`. An id named in `only`, `skip` or
    /// `expect_fail` that no scenario has is an error.
    pub fn load(&self) -> Result<Vec<Scenario>> {
        let mut all = parse(BUILT_IN, replab_workloads::datasets::CONFORMANCE)?;
        if let Some(path) = &self.scenarios {
            for s in load(path)? {
                match all.iter_mut().find(|b| b.id == s.id) {
                    Some(b) => *b = s,
                    None => all.push(s),
                }
            }
        }
        for (option, ids) in [
            (replab_settings::Setting::new("only"), &self.only),
            (replab_settings::Setting::new("skip"), &self.skip),
            (
                replab_settings::Setting::new("expect_fail"),
                &self.expect_fail,
            ),
        ] {
            if let Some(id) = ids.iter().find(|id| !all.iter().any(|s| &s.id == *id)) {
                anyhow::bail!(
                    "{option} {id}: no such scenario (`replab conformance {set_list}`)",
                    set_list = replab_settings::Setting::new("list")
                );
            }
        }
        all.retain(|s| self.only.is_empty() || self.only.contains(&s.id));
        all.retain(|s| !self.skip.contains(&s.id));
        anyhow::ensure!(
            !all.is_empty(),
            "no scenario left to run ({set_only}, {set_skip})",
            set_only = replab_settings::Setting::new("only"),
            set_skip = replab_settings::Setting::new("skip")
        );
        for s in &all {
            Game::replay(&s.fen, &s.moves).with_context(|| format!("scenario {}", s.id))?;
        }
        Ok(all)
    }

    /// The file named in the results: the built-in scenarios, and the file given (named once
    /// when it holds the built-in scenarios).
    fn source(&self) -> String {
        match &self.scenarios {
            None => format!("{} (built in)", replab_workloads::datasets::CONFORMANCE),
            // `bench` reads the dataset itself: one file, named once.
            Some(p) if std::fs::read_to_string(p).is_ok_and(|text| text == BUILT_IN) => {
                p.display().to_string()
            }
            Some(p) => format!(
                "{} (built in) and {}",
                replab_workloads::datasets::CONFORMANCE,
                p.display()
            ),
        }
    }
}

/// An engine's command line as words: a value naming an existing file is the program itself
/// (spaces and all); anything else is split as a POSIX shell would split it, so
/// `"'/opt/my engine/run' --uci"` is a program with a space and one argument.
pub fn command_words(text: &str) -> Result<Vec<String>> {
    if Path::new(text).is_file() {
        return Ok(vec![text.to_string()]);
    }
    let words = shlex::split(text).ok_or_else(|| {
        anyhow::anyhow!(
            "{set_engine} {text:?}: unbalanced quotes or escape",
            set_engine = replab_settings::Setting::new("engine")
        )
    })?;
    anyhow::ensure!(
        !words.is_empty(),
        "{set_engine}: empty command",
        set_engine = replab_settings::Setting::new("engine")
    );
    Ok(words)
}

/// An engine in the results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineRecord {
    /// The table name.
    pub name: String,
    /// Its `id name`.
    pub id_name: String,
    /// Its command line.
    pub command: String,
    /// Given with `--engine` (not one of replab's own configurations).
    #[serde(default)]
    pub external: bool,
    /// The Debian package and version the program belongs to (`dpkg-query`), when known.
    #[serde(default)]
    pub package: String,
}

/// A scenario in the results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScenarioRecord {
    /// Short name.
    pub id: String,
    /// The FIDE article.
    pub rule: String,
    /// The description.
    pub description: String,
    /// The start position.
    #[serde(default)]
    pub fen: String,
    /// The moves played from it.
    #[serde(default)]
    pub moves: String,
    /// What a rule-following engine must answer ([`Scenario::expected`]).
    #[serde(default)]
    pub expected: String,
    /// The answer depends on recognising a repetition.
    #[serde(default)]
    pub repetition: bool,
    /// Policies under which replab's engine is expected to fail it.
    #[serde(default)]
    pub excluded_policies: Vec<String>,
    /// The engine bug the scenario comes from.
    #[serde(default)]
    pub source: String,
    /// Why replab's engine is not held to it (empty when it is).
    #[serde(default)]
    pub outside_replab: String,
    /// The scenario whose bug it probes from another position (empty when none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub same_bug_as: String,
}

/// The outcome of one engine on one scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The engine did what the rule requires.
    Pass,
    /// It did not (or it hung, or failed to answer, or gave a null or illegal move).
    Fail,
    /// Its answer was right but a PV it printed continued after the game had ended, or held an
    /// illegal move.
    PvFail,
    /// Informational: the rules allow either outcome.
    NotApplicable,
}

impl Verdict {
    /// `pass`, `fail`, `n/a`.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::PvFail => "pv-fail",
            Verdict::NotApplicable => "n/a",
        }
    }

    /// A failure of either kind.
    pub fn failed(self) -> bool {
        matches!(self, Verdict::Fail | Verdict::PvFail)
    }
}

/// One cell of the engine × scenario table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The engine's table name.
    pub engine: String,
    /// The scenario id.
    pub scenario: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Why, with the engine's own output: its last score line and its bestmove.
    pub evidence: String,
    /// The move the engine played (empty when it gave none).
    #[serde(default)]
    pub bestmove: String,
    /// The first PV the arbiter refused, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pv_failure: Option<PvFailure>,
    /// The PV lines the engine printed and the arbiter replayed.
    #[serde(default)]
    pub pvs_checked: usize,
}

/// What a run found.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Results {
    /// Provenance.
    pub meta: Meta,
    /// The scenario file.
    pub file: String,
    /// The engines that ran.
    pub engines: Vec<EngineRecord>,
    /// Engines not found, with the reason.
    pub skipped: Vec<String>,
    /// The scenarios.
    pub scenarios: Vec<ScenarioRecord>,
    /// Engine × scenario, engine-major.
    pub results: Vec<Outcome>,
    /// Scenario ids expected to fail (`--expect-fail`): their failures do not fail the run.
    #[serde(default)]
    pub expected_failures: Vec<String>,
    /// replab's test engine with each injected rule bug: the scenarios that caught it, in
    /// each move order (empty unless the run asked for it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mutations: Vec<mutation::MutationRow>,
    /// Where the JUnit file goes, and whether stdout gets JSON (not part of the results).
    #[serde(skip)]
    pub delivery: Delivery,
}

/// Where a run's machine-readable results go.
#[derive(Clone, Debug, Default)]
pub struct Delivery {
    /// The JUnit XML file.
    pub junit: Option<PathBuf>,
    /// JSON on stdout.
    pub json: bool,
}

impl Results {
    /// The outcome of `engine` on `scenario`.
    pub fn outcome(&self, engine: &str, scenario: &str) -> Option<&Outcome> {
        self.results
            .iter()
            .find(|o| o.engine == engine && o.scenario == scenario)
    }
}

/// The scenario ids `--expect-fail ids` covers: the ids, and every scenario that probes the
/// same bug as one of them ([`Scenario::same_bug_as`]), in scenario order.
pub fn expected_failures(ids: &[String], scenarios: &[Scenario]) -> Vec<String> {
    let mut covered: Vec<String> = ids.to_vec();
    for s in scenarios {
        if ids.contains(&s.same_bug_as) && !covered.contains(&s.id) {
            covered.push(s.id.clone());
        }
    }
    covered
}

/// Reads a scenario file.
pub fn load(path: &std::path::Path) -> Result<Vec<Scenario>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    parse(&text, &path.display().to_string())
}

/// Parses scenarios from JSON text (`name` for messages): ids must be unique.
pub fn parse(text: &str, name: &str) -> Result<Vec<Scenario>> {
    let all: Vec<Scenario> =
        serde_json::from_str(text).with_context(|| format!("{name}: bad scenario file"))?;
    for (i, s) in all.iter().enumerate() {
        anyhow::ensure!(
            !all[..i].iter().any(|t| t.id == s.id),
            "{name}: scenario id {} given twice",
            s.id
        );
        anyhow::ensure!(
            s.draw_margin.is_none_or(|m| (0..=1000).contains(&m)),
            "{name}: scenario {}: draw_margin {:?} is out of range (0 to 1000 cp)",
            s.id,
            s.draw_margin
        );
        anyhow::ensure!(
            s.same_bug_as.is_empty() || all.iter().any(|t| t.id == s.same_bug_as && t.id != s.id),
            "{name}: scenario {}: same_bug_as {:?} names no other scenario",
            s.id,
            s.same_bug_as
        );
    }
    Ok(all)
}

/// The built-in scenarios.
pub fn built_in() -> Vec<Scenario> {
    parse(BUILT_IN, replab_workloads::datasets::CONFORMANCE).expect("the built-in scenarios parse")
}

/// The UCI engines Debian packages (`apt-get install stockfish ethereal-chess toga2 glaurung
/// fairy-stockfish`): the external engines `replab bench` runs the scenarios against when they
/// are installed.
pub const DEBIAN_ENGINES: [&str; 5] = [
    "stockfish",
    "ethereal-chess",
    "toga2",
    "glaurung",
    "fairy-stockfish",
];

/// Where Debian installs game programs, the UCI engines among them; it is not on every user's
/// `PATH`, so [`locate`] also looks there.
pub const DEBIAN_GAMES_DIR: &str = "/usr/games";

/// Finds an external engine's program: a path as given, or a name on `PATH`, then in
/// [`DEBIAN_GAMES_DIR`]. `None` when it is not installed.
pub fn locate(program: &str) -> Option<PathBuf> {
    let p = std::path::Path::new(program);
    if p.components().count() > 1 {
        return p.is_file().then(|| p.to_path_buf());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(std::iter::once(PathBuf::from(DEBIAN_GAMES_DIR)))
        .map(|d| d.join(program))
        .find(|candidate| candidate.is_file())
}

/// The Debian package a program belongs to and its version (`stockfish 15.1-4`), or empty
/// when `dpkg-query` is missing or does not know the file.
pub fn package_version(program: &std::path::Path) -> String {
    let query = |args: &[&str]| {
        std::process::Command::new("dpkg-query")
            .args(args)
            .stderr(std::process::Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let Some(owner) = query(&["-S", &program.display().to_string()]) else {
        return String::new();
    };
    let Some(package) = owner.split(':').next().map(str::trim) else {
        return String::new();
    };
    match query(&["-W", "-f=${Version}", package]) {
        Some(version) => format!("{package} {version}"),
        None => package.to_string(),
    }
}

/// The external engines of `config`, each started once to check that it runs: an engine that
/// cannot be started is an error naming the command and the OS error, or (with
/// `skip_missing`) a line of `skipped`.
fn external_engines(
    config: &Config,
    skipped: &mut Vec<String>,
    progress: &mut dyn Progress,
) -> Result<Vec<(EngineSpec, String)>> {
    let mut specs = Vec::new();
    for cmd in &config.engines {
        let Some(program) = cmd.first() else { continue };
        let mut launch = cmd.clone();
        let mut package = String::new();
        if let Some(found) = locate(program) {
            package = package_version(&found);
            launch[0] = found.display().to_string();
        }
        let spec = EngineSpec {
            name: cmd.join(" "),
            launch: Launch::Command(launch),
            options: config.engine_options.clone(),
            external: true,
            policy: None,
        };
        match open(&spec, Duration::from_secs(config.timeout)) {
            Ok(_) => specs.push((spec, package)),
            Err(e) if config.skip_missing => {
                let msg = format!("{}: {e:#}", cmd.join(" "));
                progress.note(&format!("skipped {msg}"));
                skipped.push(msg);
            }
            Err(e) => {
                return Err(e.context(format!(
                    "engine `{}` (searched on PATH and in {DEBIAN_GAMES_DIR})",
                    cmd.join(" ")
                )));
            }
        }
    }
    Ok(specs)
}

/// Every scenario on one engine (restarted after a hang): the outcomes and its `id name`.
pub fn run_engine(
    spec: &EngineSpec,
    scenarios: &[Scenario],
    limits: Limits,
    timeout: Duration,
    progress: &mut dyn Progress,
) -> (Vec<Outcome>, String) {
    let mut id_name = String::new();
    let mut current: Option<Engine> = None;
    let mut outcomes = Vec::new();
    for s in scenarios {
        let mut outcome = Outcome {
            engine: spec.name.clone(),
            scenario: s.id.clone(),
            verdict: Verdict::Fail,
            evidence: String::new(),
            bestmove: String::new(),
            pv_failure: None,
            pvs_checked: 0,
        };
        if current.is_none() {
            match open(spec, timeout) {
                Ok((e, id)) => {
                    id_name = id;
                    current = Some(e);
                }
                Err(e) => outcome.evidence = format!("engine did not start: {e:#}"),
            }
        }
        if let Some(engine) = current.as_mut() {
            match play(engine, s, limits, timeout) {
                Ok(played) => {
                    outcome = Outcome {
                        engine: spec.name.clone(),
                        ..played
                    }
                }
                Err(e) => {
                    current = None; // a hung or broken engine is restarted for the next one
                    outcome.evidence = format!("{e:#}");
                }
            }
        }
        outcomes.push(outcome);
        progress.advance(1);
    }
    (outcomes, id_name)
}

/// Runs every engine on every scenario. An external engine that cannot be started is an
/// error unless `config.skip_missing`.
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    let scenarios = config.load()?;
    let limits = Limits {
        depth: config.depth,
        movetime: config.movetime,
    };
    let mut skipped = Vec::new();
    let mut specs: Vec<(EngineSpec, String)> = if config.include_replab {
        replab_engines(&config.replab, config.all_detectors)
            .into_iter()
            .map(|s| (s, String::new()))
            .collect()
    } else {
        Vec::new()
    };
    specs.extend(external_engines(config, &mut skipped, progress)?);
    progress.stage("conformance", (specs.len() * scenarios.len()) as u64);
    let mut engines = Vec::new();
    let mut results = Vec::new();
    for (spec, package) in &specs {
        let timeout = Duration::from_secs(config.timeout);
        let (outcomes, id_name) = run_engine(spec, &scenarios, limits, timeout, progress);
        results.extend(outcomes);
        engines.push(EngineRecord {
            name: spec.name.clone(),
            id_name,
            command: spec.command(),
            external: spec.external,
            package: package.clone(),
        });
    }
    progress.finish();
    let mutations = if config.mutations {
        mutation::table(&scenarios, Duration::from_secs(config.timeout), progress)?
    } else {
        Vec::new()
    };
    Ok(Results {
        meta: Meta::collect(&config.command),
        file: config.source(),
        engines,
        skipped,
        scenarios: scenarios.iter().map(ScenarioRecord::from).collect(),
        results,
        expected_failures: expected_failures(&config.expect_fail, &scenarios),
        mutations,
        delivery: Delivery {
            junit: config.junit.clone(),
            json: config.json,
        },
    })
}

impl From<&Scenario> for ScenarioRecord {
    fn from(s: &Scenario) -> Self {
        ScenarioRecord {
            id: s.id.clone(),
            rule: s.rule.clone(),
            description: s.description.clone(),
            fen: s.fen.clone(),
            moves: s.moves.trim().to_string(),
            expected: s.expected(),
            repetition: s.repetition,
            excluded_policies: s.excluded_policies.clone(),
            source: s.source.clone(),
            outside_replab: s.outside_replab.clone(),
            same_bug_as: s.same_bug_as.clone(),
        }
    }
}

/// The conformance run as an experiment of the table.
pub struct Conformance;

replab_settings::declare! {
    /// Every declared setting of `replab conformance`.
    pub SETTINGS for Config = [
        DEPTH: depth, 1, 64, "Search every scenario to this depth instead of its own.";
        MOVETIME: movetime, 1, 600_000,
            "Search every scenario for this many milliseconds (`go movetime`) instead of to a depth.";
        TIMEOUT: timeout, 1, 3600,
            "Seconds allowed per scenario before the engine counts as hung.";
    ]
}

impl replab_harness::experiment::Settings for Config {
    /// Conformance has no short run of its own: `bench --quick` leaves the external engines out.
    fn quick() -> Self {
        Self::default()
    }
    fn set_command(&mut self, command: String) {
        self.command = command;
    }
    /// The scenarios must load, the limits make sense, and engine options have an engine to go
    /// to, before any engine starts.
    fn check(&self) -> Result<()> {
        self.check_declared()?;
        anyhow::ensure!(
            self.engine_options.is_empty() || !self.engines.is_empty(),
            "{} is sent to {} engines; none given",
            replab_settings::Setting::new("engine_options"),
            replab_settings::Setting::new("engines")
        );
        anyhow::ensure!(
            self.depth.is_none() || self.movetime.is_none(),
            "{} and {} both set: a scenario is searched to a depth or for a time",
            DEPTH.setting,
            MOVETIME.setting
        );
        self.load().map(drop)
    }
    const DECLARED: &'static [Declared] = SETTINGS;
}

impl Experiment for Conformance {
    const NAME: &'static str = "conformance";
    const DIR: &'static str = "conformance";
    const TITLE: &'static str = TITLE;
    type Config = Config;
    type Results = Results;

    fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
        run(config, progress)
    }

    fn write(results: &Results, dir: &replab_report::ReportDir) -> Result<()> {
        write(results, dir)
    }

    /// The one-screen summary on stdout (engines, skipped ones, each unexpected failure; on
    /// stderr with `--json`, which puts the results on stdout), the page on stderr, the JUnit
    /// file when asked for; exit status 1 when a scenario fails ([`unexpected_failures`]), 2
    /// when no engine could be tested.
    fn conclude(results: &Results, index: &std::path::Path) -> Result<Conclusion> {
        if let Some(path) = &results.delivery.junit {
            std::fs::write(path, junit(results)).with_context(|| {
                format!(
                    "cannot write {set_junit} {}",
                    path.display(),
                    set_junit = replab_settings::Setting::new("junit")
                )
            })?;
        }
        let failed = unexpected_failures(results).len();
        let summary = terminal_summary(results);
        let mut stderr = format!("wrote {}\n", index.display());
        let stdout = if results.delivery.json {
            stderr = summary + &stderr;
            serde_json::to_string_pretty(results)? + "\n"
        } else {
            summary
        };
        let failure = if results.engines.is_empty() {
            Some(Failure::bad_input(format!(
                "no engine could be tested (every {} was skipped)",
                replab_settings::Setting::new("engine")
            )))
        } else {
            (failed > 0).then(|| Failure::check(format!("{failed} scenario failure(s)")))
        };
        Ok(Conclusion {
            stdout,
            stderr,
            failure,
        })
    }

    /// replab's engine once per search detector (`replab uci` in a child process when the
    /// binary is known, else in-process); the full run adds the Debian UCI engines installed
    /// on the machine (absent ones are listed as not run).
    fn bench_config(site: &Site) -> Result<Config> {
        let engines: Vec<Vec<String>> = if site.quick {
            Vec::new()
        } else {
            DEBIAN_ENGINES.iter().map(|e| vec![e.to_string()]).collect()
        };
        let mut command = "replab conformance".to_string();
        for e in &engines {
            command += &format!(
                " {set_engine} {}",
                e.join(" "),
                set_engine = replab_settings::Setting::new("engine")
            );
        }
        if !engines.is_empty() {
            command += " --skip-missing";
        }
        command += " --out reports/conformance";
        Ok(Config {
            scenarios: Some(site.datasets.join("conformance.json")),
            mutations: true,
            replab: match &site.exe {
                Some(exe) => Launch::Command(vec![exe.display().to_string(), "uci".into()]),
                None => Launch::InProcess,
            },
            engines,
            command,
            // The Debian engines are looked for, not required: absent ones are listed as not run.
            skip_missing: true,
            ..Config::default()
        })
    }

    fn headlines(results: &Results) -> Vec<Headline> {
        vec![Headline {
            label: "Conformance with the rules".into(),
            context: Phrase::parenthesised([Phrase::report("engine × scenario", "conformance")]),
            text: headline(results),
        }]
    }

    /// One value per configuration of replab's engine (detector and draw policy): the
    /// scenarios it failed, by name, under the policy it ran.
    fn contributions(results: &Results) -> Vec<Contribution> {
        let column = Column::new(
            "conformance",
            "FIDE scenarios",
            Unit::Failed {
                of: results.scenarios.len(),
            },
        )
        .what("FIDE conformance")
        .decision(Role::Shown, Better::Lower, Rows::ChoiceOrOwn);
        results
            .engines
            .iter()
            .filter(|e| !e.external)
            .filter_map(|e| {
                let (detector, policy) = e.name.strip_prefix("replab ")?.split_once(" (")?;
                let detector = DetectorId::from_name(detector)?;
                let policy: DrawPolicy = policy.strip_suffix(')')?.parse().ok()?;
                let failed: Vec<String> = failures(results, &e.name)
                    .into_iter()
                    .map(String::from)
                    .collect();
                // The policy is named where it is not the row's own (the default one).
                let value = Measured::value(failed.len() as f64).items(failed);
                let value = if policy == replab_uci::DEFAULT_POLICY {
                    value
                } else {
                    value.note(policy.name())
                };
                Some(Contribution::new(detector, column.clone(), value).under(Some(policy)))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
