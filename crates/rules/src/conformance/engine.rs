//! Talking UCI to an engine: a child process, or replab's engine in-process (for tests), with
//! a timeout on every wait so a hung engine fails a scenario and never hangs the run.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, Command, Stdio},
    sync::mpsc,
    thread,
    time::{Duration, Instant},
};

use anyhow::{Result, anyhow, bail};

/// How an engine is started.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Launch {
    /// A program and its arguments.
    Command(Vec<String>),
    /// `replab_uci::run` on a thread of this process.
    InProcess,
    /// The test engine with an injected bug ([`replab_mutant::run`]) on a thread of this
    /// process (never serialised).
    #[serde(skip)]
    Mutant(replab_mutant::Settings),
}

/// A running engine.
pub struct Engine {
    input: Box<dyn Write + Send>,
    lines: mpsc::Receiver<String>,
    child: Option<Child>,
}

impl Engine {
    /// Starts the engine (no handshake yet).
    pub fn start(launch: &Launch) -> Result<Engine> {
        let (tx, lines) = mpsc::channel();
        let forward = |reader: Box<dyn std::io::Read + Send>, tx: mpsc::Sender<String>| {
            thread::spawn(move || {
                for line in BufReader::new(reader).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        };
        match launch {
            Launch::Command(cmd) => {
                let (program, args) = cmd.split_first().ok_or_else(|| anyhow!("empty command"))?;
                let mut child = Command::new(program)
                    .args(args)
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::null())
                    .spawn()
                    .map_err(|e| anyhow!("cannot start {}: {e}", cmd.join(" ")))?;
                let input = Box::new(child.stdin.take().expect("piped stdin"));
                forward(Box::new(child.stdout.take().expect("piped stdout")), tx);
                Ok(Engine {
                    input,
                    lines,
                    child: Some(child),
                })
            }
            Launch::InProcess | Launch::Mutant(_) => {
                let (cmd_read, input) = std::io::pipe()?;
                let (out_read, out_write) = std::io::pipe()?;
                let launch = launch.clone();
                thread::spawn(move || match launch {
                    Launch::Mutant(settings) => {
                        replab_mutant::run(BufReader::new(cmd_read), out_write, settings)
                    }
                    _ => replab_uci::run(BufReader::new(cmd_read), out_write),
                });
                forward(Box::new(out_read), tx);
                Ok(Engine {
                    input: Box::new(input),
                    lines,
                    child: None,
                })
            }
        }
    }

    /// Sends one command.
    pub fn send(&mut self, command: &str) -> Result<()> {
        writeln!(self.input, "{command}")?;
        self.input.flush()?;
        Ok(())
    }

    /// The lines up to and including the first starting with `prefix`, or an error after
    /// `timeout` (or when the engine closes its output).
    pub fn until(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return Ok(seen);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    bail!("no {prefix:?} within {} s", timeout.as_secs_f64())
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    bail!("the engine closed its output before {prefix:?}")
                }
            }
        }
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

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        if let Some(child) = &mut self.child {
            // Give it a moment to quit, then make sure it is gone.
            let until = Instant::now() + Duration::from_millis(500);
            while Instant::now() < until {
                if let Ok(Some(_)) = child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(10));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
