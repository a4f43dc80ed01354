//! Talking UCI to an engine: a child process, or replab's engine in-process (for tests), with
//! a timeout on every wait so a hung engine fails a scenario and never hangs the run.

use std::time::Duration;

use anyhow::{Result, anyhow};
use replab_uci::client::Client;

/// How an engine is started.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Launch {
    /// A program and its arguments.
    Command(Vec<String>),
    /// `replab_uci::run` on a thread of this process (the default: replab's own engine when no
    /// binary is known).
    #[default]
    InProcess,
    /// The test engine with an injected bug ([`crate::mutant::run`]) on a thread of this
    /// process (never serialised).
    #[serde(skip)]
    Mutant(crate::mutant::Settings),
}

/// A running engine, talked to through [`replab_uci::client`] (which sends `quit` and ends a
/// child process when it is dropped).
pub struct Engine {
    client: Client,
}

impl Engine {
    /// Starts the engine (no handshake yet).
    pub fn start(launch: &Launch) -> Result<Engine> {
        let client = match launch {
            Launch::Command(cmd) => {
                let (program, args) = cmd.split_first().ok_or_else(|| anyhow!("empty command"))?;
                Client::spawn(program, args)
                    .map_err(|e| anyhow!("cannot start {}: {e}", cmd.join(" ")))?
            }
            Launch::InProcess => Client::in_process(replab_uci::run)?,
            &Launch::Mutant(settings) => Client::in_process(move |input, output| {
                crate::mutant::run(input, output, settings)
            })?,
        };
        Ok(Engine { client })
    }

    /// Sends one command.
    pub fn send(&mut self, command: &str) -> Result<()> {
        Ok(self.client.send(command)?)
    }

    /// The lines up to and including the first starting with `prefix`, or an error after
    /// `timeout` (or when the engine closes its output).
    pub fn until(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>> {
        Ok(self.client.until(prefix, timeout)?)
    }

    /// `uci` … `uciok`: the engine's `id name`.
    pub fn handshake(&mut self, timeout: Duration) -> Result<String> {
        self.send("uci")?;
        let lines = self.until("uciok", timeout)?;
        Ok(lines
            .iter()
            .find_map(|l| l.strip_prefix("id name "))
            .unwrap_or("")
            .trim()
            .to_string())
    }
}

/// Parses `--engine-option`: `NAME=VALUE` as a pair (the name may hold spaces, as UCI option
/// names do), sent as `setoption name NAME value VALUE`.
pub fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("expected NAME=VALUE, got {text:?}")),
    }
}
