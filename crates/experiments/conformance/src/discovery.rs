//! The engines a run tests: replab's own configurations (detector and draw policy), and the
//! external engines of `--engine`, found on `PATH` or in Debian's games directory and started
//! once to check that they run.

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use anyhow::Result;
use replab_detect::DrawPolicy;
use replab_harness::Progress;
use replab_registry::SEARCH_DETECTORS;
use serde::{Deserialize, Serialize};

use crate::judge::open;
use crate::{Config, Launch, mutation};

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
    /// Whether its failures decide the run's exit status: an external engine's, and those of
    /// replab's exact detector (replab's other configurations are reference rows: `off` fails
    /// by construction). Only such an engine's wrong answers are asked again deeper.
    pub fn is_judged(&self) -> bool {
        self.external || self.name.starts_with(&format!("replab {EXACT_DETECTOR} ("))
    }

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

/// replab's engine as `exe uci`, a child process.
pub fn replab_command(exe: &Path) -> Launch {
    Launch::Command(vec![exe.display().to_string(), "uci".into()])
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
pub(crate) fn external_engines(
    config: &Config,
    skipped: &mut Vec<String>,
    progress: &mut dyn Progress,
) -> Result<Vec<(EngineSpec, String)>> {
    let mut specs = Vec::new();
    for cmd in &config.engines {
        let Some(program) = cmd.first() else { continue };
        let mut launch = cmd.to_vec();
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
