//! `replab conformance`: scenarios whose outcome the Laws of Chess fix (threefold and fivefold
//! repetition, false repetitions through castling rights and en passant, the 50- and 75-move
//! rules), played over UCI against replab's engine once per search detector and against any
//! external engine, judged from `score` and `bestmove`.

mod engine;

use std::{path::PathBuf, time::Duration};

use anyhow::{Context, Result};
use replab_detect::DrawPolicy;
use replab_registry::SEARCH_DETECTORS;
use replab_report::{Cell, Meta, Page, ReportDir, escape_html, render_fragment, table_html};
use serde::{Deserialize, Serialize};

pub use engine::{Engine, Launch};

use crate::Progress;
use crate::experiment::{Conclusion, Experiment, Headline, Site};

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

/// replab's engine once per search detector (`off` first).
pub fn replab_engines(launch: &Launch) -> Vec<EngineSpec> {
    std::iter::once("off")
        .chain(SEARCH_DETECTORS)
        .map(|d| {
            let policy = replab_policy(d);
            EngineSpec {
                name: format!("replab {d} ({policy})"),
                launch: launch.clone(),
                // The policy first: `filo` is refused under the default `twofold`.
                options: vec![
                    ("DrawPolicy".into(), policy.name().into()),
                    ("Detector".into(), d.into()),
                ],
            }
        })
        .collect()
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
}

impl Default for Config {
    fn default() -> Self {
        Config {
            scenarios: PathBuf::from(crate::datasets::CONFORMANCE),
            replab: Launch::InProcess,
            engines: Vec::new(),
            timeout: Duration::from_secs(30),
            command: "replab conformance".into(),
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

/// Runs one scenario on a started engine.
fn play(engine: &mut Engine, s: &Scenario, timeout: Duration) -> Result<(Verdict, String)> {
    engine.send("ucinewgame")?;
    let mut position = format!("position fen {}", s.fen);
    if !s.moves.trim().is_empty() {
        position.push_str(" moves ");
        position.push_str(s.moves.trim());
    }
    engine.send(&position)?;
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
    Ok(judge(s, score, &best))
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

/// Runs every engine on every scenario.
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    let scenarios = load(&config.scenarios)?;
    let mut specs = replab_engines(&config.replab);
    let mut skipped = Vec::new();
    for cmd in &config.engines {
        let Some(program) = cmd.first() else { continue };
        let Some(found) = locate(program) else {
            let msg = format!(
                "{}: not found on PATH or in {DEBIAN_GAMES_DIR}",
                cmd.join(" ")
            );
            progress.note(&format!("skipped {msg}"));
            skipped.push(msg);
            continue;
        };
        let mut launch = cmd.clone();
        launch[0] = found.display().to_string();
        specs.push(EngineSpec {
            name: cmd.join(" "),
            launch: Launch::Command(launch),
            options: Vec::new(),
        });
    }
    progress.stage("conformance", (specs.len() * scenarios.len()) as u64);
    let mut engines = Vec::new();
    let mut results = Vec::new();
    for spec in &specs {
        let mut id_name = String::new();
        let mut current: Option<Engine> = None;
        for s in &scenarios {
            if current.is_none() {
                match open(spec, config.timeout) {
                    Ok((e, id)) => {
                        id_name = id;
                        current = Some(e);
                    }
                    Err(e) => {
                        results.push(Outcome {
                            engine: spec.name.clone(),
                            scenario: s.id.clone(),
                            verdict: Verdict::Fail,
                            evidence: format!("engine did not start: {e:#}"),
                        });
                        progress.advance(1);
                        continue;
                    }
                }
            }
            let engine = current.as_mut().expect("started");
            let (verdict, evidence) = match play(engine, s, config.timeout) {
                Ok(v) => v,
                Err(e) => {
                    current = None; // a hung or broken engine is restarted for the next one
                    (Verdict::Fail, format!("{e:#}"))
                }
            };
            results.push(Outcome {
                engine: spec.name.clone(),
                scenario: s.id.clone(),
                verdict,
                evidence,
            });
            progress.advance(1);
        }
        engines.push(EngineRecord {
            name: spec.name.clone(),
            id_name,
            command: spec.command(),
        });
    }
    progress.finish();
    Ok(Results {
        meta: Meta::collect(&config.command),
        file: config.scenarios.display().to_string(),
        engines,
        skipped,
        scenarios: scenarios
            .iter()
            .map(|s| ScenarioRecord {
                id: s.id.clone(),
                rule: s.rule.clone(),
                description: s.description.clone(),
            })
            .collect(),
        results,
    })
}

/// The engine × scenario table as plain text (verdicts only), for the terminal.
pub fn summary_table(r: &Results) -> String {
    let width = r.scenarios.iter().map(|s| s.id.len()).max().unwrap_or(8);
    let mut out = format!("{:width$}", "scenario");
    for e in &r.engines {
        out.push_str(&format!(" | {}", e.name));
    }
    out.push('\n');
    for s in &r.scenarios {
        out.push_str(&format!("{:width$}", s.id));
        for e in &r.engines {
            let v = r.outcome(&e.name, &s.id).map_or("-", |o| o.verdict.label());
            out.push_str(&format!(" | {:w$}", v, w = e.name.len()));
        }
        out.push('\n');
    }
    out
}

/// The page's first paragraph and the table.
const SUMMARY: &str = include_str!("../../templates/conformance/summary.html");

#[derive(Serialize)]
struct SummaryContext {
    scenarios: usize,
    file: String,
    engines: usize,
    margin: i32,
    win: i32,
    skipped: String,
    table: String,
}

/// Writes `results.json` and `index.html` into the staged `dir`.
pub fn write(r: &Results, dir: &ReportDir) -> Result<()> {
    dir.write("results.json", serde_json::to_vec_pretty(r)?)?;
    let mut headers = vec!["scenario".to_string(), "rule".to_string()];
    headers.extend(r.engines.iter().map(|e| e.name.clone()));
    let rows: Vec<Vec<Cell>> = r
        .scenarios
        .iter()
        .map(|s| {
            let mut row = vec![Cell::text(&s.id), Cell::text(&s.rule)];
            for e in &r.engines {
                row.push(Cell::text(r.outcome(&e.name, &s.id).map_or_else(
                    || "—".to_string(),
                    |o| format!("{}: {}", o.verdict.label(), o.evidence),
                )));
            }
            row
        })
        .collect();
    let summary = render_fragment(
        "conformance/summary.html",
        SUMMARY,
        &SummaryContext {
            scenarios: r.scenarios.len(),
            file: r.file.clone(),
            engines: r.engines.len(),
            margin: DRAW_MARGIN,
            win: WIN_MARGIN,
            skipped: r.skipped.join("; "),
            table: table_html(&headers, &rows, false),
        },
    )?;
    let mut scen = String::from("<dl>");
    for s in &r.scenarios {
        scen.push_str(&format!(
            "<dt><code>{}</code> ({})</dt><dd>{}</dd>",
            escape_html(&s.id),
            escape_html(&s.rule),
            escape_html(&s.description)
        ));
    }
    scen.push_str("</dl>");
    let mut eng = String::from("<ul>");
    for e in &r.engines {
        eng.push_str(&format!(
            "<li>{}: <code>{}</code> (<code>{}</code>)</li>",
            escape_html(&e.name),
            escape_html(&e.id_name),
            escape_html(&e.command)
        ));
    }
    eng.push_str("</ul>");
    Page::new(TITLE, &r.meta)
        .nav([("All reports", "../index.html")])
        .section("Engine × scenario", summary)
        .section("Scenarios", scen)
        .section("Engines", eng)
        .write(dir, "index.html")?;
    Ok(())
}

/// The scenarios `engine` failed, in scenario order.
pub fn failures<'a>(r: &'a Results, engine: &str) -> Vec<&'a str> {
    r.results
        .iter()
        .filter(|o| o.engine == engine && o.verdict == Verdict::Fail)
        .map(|o| o.scenario.as_str())
        .collect()
}

/// The landing page's one-paragraph summary: which of replab's configurations pass every
/// scenario the rules decide, what the others fail, and each external engine's failures.
pub fn headline(r: &Results) -> String {
    let is_replab = |e: &EngineRecord| e.name.starts_with("replab ");
    let describe = |e: &EngineRecord| {
        let failed = failures(r, &e.name);
        if failed.is_empty() {
            format!("{} passes all", e.name)
        } else {
            format!("{} fails {} ({})", e.name, failed.len(), failed.join(", "))
        }
    };
    let (own, external): (Vec<&EngineRecord>, Vec<&EngineRecord>) =
        r.engines.iter().partition(|e| is_replab(e));
    let passing: Vec<&str> = own
        .iter()
        .filter(|e| failures(r, &e.name).is_empty())
        .map(|e| e.name.trim_start_matches("replab "))
        .collect();
    let failing: Vec<String> = own
        .iter()
        .filter(|e| !failures(r, &e.name).is_empty())
        .map(|e| describe(e))
        .collect();
    let mut text = format!(
        "{} scenarios over UCI. replab's engine: {} of {} detector configurations pass every \
         scenario the rules decide ({})",
        r.scenarios.len(),
        passing.len(),
        own.len(),
        passing.join(", ")
    );
    if !failing.is_empty() {
        text += &format!("; {}", failing.join("; "));
    }
    text.push('.');
    if !external.is_empty() {
        let each: Vec<String> = external
            .iter()
            .map(|e| {
                let shown = describe(e);
                if e.id_name.is_empty() {
                    shown
                } else {
                    format!("{shown} [id name {}]", e.id_name)
                }
            })
            .collect();
        text += &format!(" Other engines: {}.", each.join("; "));
    }
    if !r.skipped.is_empty() {
        text += &format!(" Not run: {}.", r.skipped.join("; "));
    }
    text
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

    fn write(results: &Results, dir: &ReportDir) -> Result<()> {
        write(results, dir)
    }

    /// The engine × scenario table on stdout; the engines not run and the page on stderr.
    fn conclude(results: &Results, index: &std::path::Path) -> Result<Conclusion> {
        let mut stderr: String = results
            .skipped
            .iter()
            .map(|s| format!("replab: skipped engine {s}\n"))
            .collect();
        stderr += &format!("wrote {}\n", index.display());
        Ok(Conclusion {
            stdout: summary_table(results),
            stderr,
            failure: None,
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
        command += " --out reports/conformance";
        Ok(Config {
            scenarios: site.datasets.join("conformance.json"),
            replab: match &site.exe {
                Some(exe) => Launch::Command(vec![exe.display().to_string(), "uci".into()]),
                None => Launch::InProcess,
            },
            engines,
            command,
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
}
