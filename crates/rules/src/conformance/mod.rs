//! `replab conformance`: scenarios whose outcome the Laws of Chess fix (threefold and fivefold
//! repetition, false repetitions through castling rights and en passant, the 50- and 75-move
//! rules), played over UCI against replab's engine once per search detector and against any
//! external engine, judged from `score` and `bestmove`.

mod engine;
mod page;

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use anyhow::{Context, Result};
use replab_detect::DrawPolicy;
use replab_registry::SEARCH_DETECTORS;
use replab_report::Meta;
use serde::{Deserialize, Serialize};

pub use engine::{Engine, Launch};
pub use page::{failures, headline, summary_table, terminal_summary, unexpected_failures, write};

use crate::Progress;
use crate::experiment::{Conclusion, Experiment, Fact, Failure, Headline, Ranked, Site};

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
}

impl Scenario {
    /// What every rule-following engine must answer, in words.
    pub fn expected(&self) -> String {
        let mut text = match self.expect.as_str() {
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
        }
    }
}

/// The policy replab's engine runs `detector` under: `twofold`, or `moreland` for the
/// detectors refused under `twofold` (`filo`).
pub fn replab_policy(detector: &str) -> DrawPolicy {
    DrawPolicy::ALL
        .into_iter()
        .find(|p| replab_registry::check_policy(detector, *p).is_ok() && *p != DrawPolicy::Stanback)
        .unwrap_or(DrawPolicy::Twofold)
}

/// The exact detector, run under every draw policy: the registry's reference.
pub const EXACT_DETECTOR: &str = replab_registry::DetectorId::reference().name();

/// replab's engine with `detector` under `policy`.
fn replab_engine(launch: &Launch, detector: &str, policy: DrawPolicy) -> EngineSpec {
    EngineSpec {
        name: format!("replab {detector} ({policy})"),
        launch: launch.clone(),
        // The policy first: `filo` is refused under the default `twofold`.
        options: vec![
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
    let mut specs = vec![replab_engine(launch, "off", DrawPolicy::Twofold)];
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

/// The settings of a conformance run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The scenario file.
    pub scenarios: PathBuf,
    /// How replab's own engine is started (`replab uci`, or in-process).
    pub replab: Launch,
    /// External engines, each a command line (program and arguments).
    pub engines: Vec<Vec<String>>,
    /// Time allowed for one scenario (and for the handshake).
    pub timeout: Duration,
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
            scenarios: PathBuf::from(crate::datasets::CONFORMANCE),
            replab: Launch::InProcess,
            engines: Vec::new(),
            timeout: Duration::from_secs(30),
            command: "replab conformance".into(),
            include_replab: true,
            all_detectors: true,
            skip_missing: false,
        }
    }
}

impl Config {
    /// The settings of `replab conformance`: replab's engine started as `exe uci`, each of
    /// `engines` a command line split at whitespace, and replab's own configurations run when
    /// no engine is given or `with_replab`.
    pub fn with_engines(self, exe: &Path, engines: &[String], with_replab: bool) -> Self {
        Config {
            replab: Launch::Command(vec![exe.display().to_string(), "uci".into()]),
            engines: engines
                .iter()
                .map(|e| e.split_whitespace().map(String::from).collect())
                .collect(),
            include_replab: engines.is_empty() || with_replab,
            ..self
        }
    }
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
}

/// The outcome of one engine on one scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The engine did what the rule requires.
    Pass,
    /// It did not (or it hung, or failed to answer).
    Fail,
    /// Informational: the rules allow either outcome.
    NotApplicable,
}

impl Verdict {
    /// `pass`, `fail`, `n/a`.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::NotApplicable => "n/a",
        }
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
}

impl Results {
    /// The outcome of `engine` on `scenario`.
    pub fn outcome(&self, engine: &str, scenario: &str) -> Option<&Outcome> {
        self.results
            .iter()
            .find(|o| o.engine == engine && o.scenario == scenario)
    }
}

/// Reads the scenario file.
pub fn load(path: &std::path::Path) -> Result<Vec<Scenario>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{}: bad scenario file", path.display()))
}

/// The score of an `info` line: `(false, cp)` or `(true, mate moves)`.
fn parse_score(line: &str) -> Option<(bool, i32)> {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w == "score" {
            let kind = words.next()?;
            let value: i32 = words.next()?.parse().ok()?;
            return match kind {
                "cp" => Some((false, value)),
                "mate" => Some((true, value)),
                _ => None,
            };
        }
    }
    None
}

/// Judges an engine's answer (its last score and its best move) against a scenario.
pub fn judge(s: &Scenario, score: Option<(bool, i32)>, best: &str) -> (Verdict, String) {
    let Some((mate, v)) = score else {
        return (Verdict::Fail, "no score".into());
    };
    let draw = !mate && v.abs() <= DRAW_MARGIN;
    let shown = if mate {
        format!("mate {v}")
    } else {
        format!("cp {v}")
    };
    let (ok, want) = match s.expect.as_str() {
        "draw" => (draw, "a draw"),
        "no-draw" => (!draw, "not a draw"),
        "win" => ((mate && v > 0) || (!mate && v >= WIN_MARGIN), "a win"),
        "mate" => (mate && v > 0, "a mate"),
        _ => {
            let what = if draw {
                "scored a draw"
            } else {
                "did not score a draw"
            };
            return (
                Verdict::NotApplicable,
                format!("{what}: score {shown}, bestmove {best}"),
            );
        }
    };
    let mut problems = Vec::new();
    if !ok {
        problems.push(format!("expected {want}"));
    }
    if !s.bestmove.is_empty() && !s.bestmove.iter().any(|m| m == best) {
        problems.push(format!("expected bestmove {}", s.bestmove.join(" or ")));
    }
    if s.avoid.iter().any(|m| m == best) {
        problems.push(format!("{best} is the move to avoid"));
    }
    let evidence = format!("score {shown}, bestmove {best}");
    if problems.is_empty() {
        (Verdict::Pass, evidence)
    } else {
        (
            Verdict::Fail,
            format!("{evidence}: {}", problems.join("; ")),
        )
    }
}

/// Runs one scenario on a started engine: the verdict, the evidence and the move played.
fn play(engine: &mut Engine, s: &Scenario, timeout: Duration) -> Result<(Verdict, String, String)> {
    engine.send("ucinewgame")?;
    engine.send(&s.position())?;
    engine.send("isready")?;
    engine.until("readyok", timeout)?;
    engine.send(&format!("go depth {}", s.depth))?;
    let lines = engine.until("bestmove", timeout)?;
    let score = lines.iter().rev().find_map(|l| parse_score(l));
    let best = lines
        .last()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or("")
        .to_string();
    let (verdict, evidence) = judge(s, score, &best);
    Ok((verdict, evidence, best))
}

/// Starts an engine, shakes hands and sets its options.
fn open(spec: &EngineSpec, timeout: Duration) -> Result<(Engine, String)> {
    let mut e = Engine::start(&spec.launch)?;
    let id = e.handshake(timeout)?;
    for (name, value) in &spec.options {
        e.send(&format!("setoption name {name} value {value}"))?;
    }
    e.send("isready")?;
    let lines = e.until("readyok", timeout)?;
    if let Some(l) = lines.iter().find(|l| l.starts_with("info string")) {
        anyhow::bail!("option refused: {l}");
    }
    Ok((e, id))
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
            options: Vec::new(),
            external: true,
            policy: None,
        };
        match open(&spec, config.timeout) {
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
fn run_engine(
    spec: &EngineSpec,
    scenarios: &[Scenario],
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
            match play(engine, s, timeout) {
                Ok((verdict, evidence, best)) => {
                    (outcome.verdict, outcome.evidence, outcome.bestmove) =
                        (verdict, evidence, best)
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
    let scenarios = load(&config.scenarios)?;
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
        let (outcomes, id_name) = run_engine(spec, &scenarios, config.timeout, progress);
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
    Ok(Results {
        meta: Meta::collect(&config.command),
        file: config.scenarios.display().to_string(),
        engines,
        skipped,
        scenarios: scenarios.iter().map(ScenarioRecord::from).collect(),
        results,
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
        }
    }
}

/// The conformance run as an experiment of the table.
pub struct Conformance;

impl crate::experiment::Settings for Config {
    /// Conformance has no short run of its own: `bench --quick` leaves the external engines out.
    fn quick() -> Self {
        Self::default()
    }
    fn set_command(&mut self, command: String) {
        self.command = command;
    }
    /// The scenario file must load before any engine starts.
    fn check(&self) -> Result<()> {
        load(&self.scenarios).map(drop)
    }
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

    /// The one-screen summary on stdout (engines, skipped ones, each unexpected failure), the
    /// page on stderr; exit status 1 when a scenario fails ([`unexpected_failures`]).
    fn conclude(results: &Results, index: &std::path::Path) -> Result<Conclusion> {
        let failed = unexpected_failures(results).len();
        Ok(Conclusion {
            stdout: terminal_summary(results),
            stderr: format!("wrote {}\n", index.display()),
            failure: (failed > 0).then(|| Failure::check(format!("{failed} scenario failure(s)"))),
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
            command += &format!(" --engine {}", e.join(" "));
        }
        if !engines.is_empty() {
            command += " --skip-missing";
        }
        command += " --out reports/conformance";
        Ok(Config {
            scenarios: site.datasets.join("conformance.json"),
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
            context: r#" (<a href="conformance/index.html">engine × scenario</a>)"#.into(),
            text: headline(results),
        }]
    }

    /// One fact per configuration of replab's engine (detector and draw policy): the
    /// scenarios it failed.
    fn ranking(results: &Results) -> Vec<Ranked> {
        results
            .engines
            .iter()
            .filter(|e| !e.external)
            .filter_map(|e| {
                let (detector, policy) = e.name.strip_prefix("replab ")?.split_once(" (")?;
                Some(Ranked {
                    detector: detector.to_string(),
                    fact: Fact::Conformance {
                        policy: policy.strip_suffix(')')?.to_string(),
                        scenarios: results.scenarios.len(),
                        failed: failures(results, &e.name)
                            .into_iter()
                            .map(String::from)
                            .collect(),
                    },
                })
            })
            .collect()
    }
}
