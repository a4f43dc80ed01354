//! The UCI crate's I/O for talking to an engine (the other side of [`run`](crate::run)): a
//! child process, or an engine function on a thread of this process, whose output lines a
//! reader thread forwards, so every wait has a timeout and a hung engine never hangs the caller.

use std::{
    fmt,
    io::{self, BufRead, BufReader, PipeReader, PipeWriter, Read, Write},
    process::{Child, Command, Stdio},
    sync::mpsc,
    thread,
    time::{Duration, Instant},
};

/// A running engine: its input, its output lines, and its process when it is a child.
pub struct Client {
    input: Box<dyn Write + Send>,
    lines: mpsc::Receiver<String>,
    child: Option<Child>,
}

/// Why [`Client::until`] returned without the line it waited for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaitError {
    /// No line starting with the prefix within the timeout.
    Timeout {
        /// The prefix waited for.
        prefix: String,
        /// The time allowed.
        timeout: Duration,
    },
    /// The engine closed its output first.
    Closed {
        /// The prefix waited for.
        prefix: String,
    },
}

impl fmt::Display for WaitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WaitError::Timeout { prefix, timeout } => {
                write!(f, "no {prefix:?} within {} s", timeout.as_secs_f64())
            }
            WaitError::Closed { prefix } => {
                write!(f, "the engine closed its output before {prefix:?}")
            }
        }
    }
}

impl std::error::Error for WaitError {}

/// Forwards the lines of `reader` to `tx` on a thread of their own, until either side closes.
fn forward(reader: impl Read + Send + 'static, tx: mpsc::Sender<String>) {
    thread::spawn(move || {
        for line in BufReader::new(reader).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
}

impl Client {
    /// Starts `program` with `args` as a child process (stderr discarded; no handshake yet).
    pub fn spawn(program: &str, args: &[String]) -> io::Result<Client> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let (stdin, stdout) = (child.stdin.take(), child.stdout.take());
        let (Some(stdin), Some(stdout)) = (stdin, stdout) else {
            return Err(io::Error::other("the child's pipes are missing"));
        };
        let (tx, lines) = mpsc::channel();
        forward(stdout, tx);
        Ok(Client {
            input: Box::new(stdin),
            lines,
            child: Some(child),
        })
    }

    /// Runs `engine` (reading commands, writing answers, like [`run`](crate::run)) on a thread
    /// of this process, connected by pipes.
    pub fn in_process<F>(engine: F) -> io::Result<Client>
    where
        F: FnOnce(BufReader<PipeReader>, PipeWriter) + Send + 'static,
    {
        let (cmd_read, input) = io::pipe()?;
        let (out_read, out_write) = io::pipe()?;
        thread::spawn(move || engine(BufReader::new(cmd_read), out_write));
        let (tx, lines) = mpsc::channel();
        forward(out_read, tx);
        Ok(Client {
            input: Box::new(input),
            lines,
            child: None,
        })
    }

    /// Sends one command line.
    pub fn send(&mut self, command: &str) -> io::Result<()> {
        writeln!(self.input, "{command}")?;
        self.input.flush()
    }

    /// The lines up to and including the first starting with `prefix`, or an error after
    /// `timeout` (or when the engine closes its output).
    pub fn until(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>, WaitError> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).map_err(|e| match e {
                mpsc::RecvTimeoutError::Timeout => WaitError::Timeout {
                    prefix: prefix.to_owned(),
                    timeout,
                },
                mpsc::RecvTimeoutError::Disconnected => WaitError::Closed {
                    prefix: prefix.to_owned(),
                },
            })?;
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return Ok(seen);
            }
        }
    }
}

impl Drop for Client {
    /// Sends `quit`; a child gets half a second to exit, then is killed.
    fn drop(&mut self) {
        let _ = self.send("quit");
        if let Some(child) = &mut self.child {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_in_process_engine_answers_and_a_silent_one_times_out() {
        let mut engine = Client::in_process(crate::run).unwrap();
        engine.send("uci").unwrap();
        let lines = engine.until("uciok", Duration::from_secs(10)).unwrap();
        assert!(lines[0].starts_with("id name replab"), "{lines:?}");
        let err = engine
            .until("never", Duration::from_millis(20))
            .unwrap_err();
        assert_eq!(err.to_string(), "no \"never\" within 0.02 s");
    }

    #[test]
    fn an_engine_that_ends_closes_its_output() {
        let mut engine = Client::in_process(|_, _| ()).unwrap();
        let err = engine.until("uciok", Duration::from_secs(10)).unwrap_err();
        assert!(matches!(err, WaitError::Closed { .. }), "{err}");
    }

    #[test]
    fn a_missing_program_is_an_error() {
        assert!(Client::spawn("/nonexistent/replab-engine", &[]).is_err());
    }
}
