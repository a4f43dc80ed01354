//! How an experiment tells its caller how far it has got: [`Progress`].
//!
//! Experiments report stages and units done; the command line draws them as progress bars
//! ([`Bars`], the one implementation that writes to the terminal, chosen by the caller), tests
//! and `bench` steps may pass [`Silent`]. Work spread over threads counts its units in an atomic
//! (or a channel) that the calling thread forwards here, so an implementation needs no locking.

use std::{
    io::{self, IsTerminal as _},
    sync::{Mutex, PoisonError},
    time::{Duration, Instant},
};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

/// Receives an experiment's progress.
pub trait Progress {
    /// A new stage named `label` of `total` units (0 when the total is unknown). Ends the
    /// previous stage.
    fn stage(&mut self, label: &str, total: u64);
    /// `n` more units of the current stage are done.
    fn advance(&mut self, n: u64);
    /// A message for the user (a warning, a skipped input), shown without disturbing bars.
    fn note(&mut self, text: &str);
    /// The experiment is done: clear any bar.
    fn finish(&mut self) {}
}

/// Progress that shows nothing (tests, nested steps).
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {
    fn stage(&mut self, _label: &str, _total: u64) {}
    fn advance(&mut self, _n: u64) {}
    fn note(&mut self, _text: &str) {}
}

/// Progress that records every call, for tests of an experiment's reporting.
#[derive(Clone, Debug, Default)]
pub struct Recorded {
    /// `(label, total)` of every stage, in order.
    pub stages: Vec<(String, u64)>,
    /// Units advanced, per stage (same order as `stages`).
    pub done: Vec<u64>,
    /// Every note.
    pub notes: Vec<String>,
}

impl Progress for Recorded {
    fn stage(&mut self, label: &str, total: u64) {
        self.stages.push((label.to_owned(), total));
        self.done.push(0);
    }
    fn advance(&mut self, n: u64) {
        if let Some(d) = self.done.last_mut() {
            *d += n;
        }
    }
    fn note(&mut self, text: &str) {
        self.notes.push(text.to_owned());
    }
}

/// How often, at most, a stage's progress is written as a line where stderr is not a terminal.
pub const PLAIN_EVERY: Duration = Duration::from_secs(30);

/// Draws each stage of an experiment as an indicatif bar on stderr (hidden when `quiet`, and
/// where stderr is not a terminal). Made with [`Bars::logged`], where stderr is not a terminal
/// (a log file, CI) each stage is written instead as a plain line when it starts and again
/// every [`PLAIN_EVERY`] (what it is doing, how far, how long), so a long run says it is alive.
pub struct Bars {
    bar: Option<ProgressBar>,
    quiet: bool,
    plain: bool,
}

impl Bars {
    /// Bars on stderr (shown only on a terminal), or none at all when `quiet`.
    pub fn new(quiet: bool) -> Self {
        Self {
            bar: None,
            quiet,
            plain: false,
        }
    }

    /// As [`Bars::new`], but where stderr is not a terminal each stage is written as plain
    /// lines (for long runs whose output goes to a log: `bench`).
    pub fn logged(quiet: bool) -> Self {
        Self {
            plain: !io::stderr().is_terminal(),
            ..Self::new(quiet)
        }
    }
}

impl Progress for Bars {
    fn stage(&mut self, label: &str, total: u64) {
        self.finish();
        let template = match (total, self.plain) {
            (0, false) => "{spinner} {prefix} {elapsed}",
            (_, false) => "{prefix:>18} [{bar:32}] {pos}/{len} {elapsed} (eta {eta})",
            (0, true) => "{prefix}: running, {elapsed} so far",
            (_, true) => "{prefix}: {pos}/{len} ({percent}%), {elapsed} so far, about {eta} left",
        };
        let target = match (self.quiet, self.plain) {
            (true, _) => ProgressDrawTarget::hidden(),
            (false, false) => ProgressDrawTarget::stderr(),
            (false, true) => ProgressDrawTarget::term_like(Box::new(Lines::default())),
        };
        let bar = ProgressBar::with_draw_target((total > 0).then_some(total), target);
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_prefix(label.to_owned());
        if self.plain && !self.quiet {
            // Redrawn every second, so a stage with no progress to count is still reported.
            bar.enable_steady_tick(Duration::from_secs(1));
        }
        self.bar = Some(bar);
    }

    fn advance(&mut self, n: u64) {
        self.bar.iter().for_each(|bar| bar.inc(n));
    }

    fn note(&mut self, text: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{text}")),
            None => eprintln!("{text}"),
        }
    }

    fn finish(&mut self) {
        self.bar
            .take()
            .iter()
            .for_each(ProgressBar::finish_and_clear);
    }
}

/// A stage's draws as plain lines on stderr: the first one, then one per [`PLAIN_EVERY`]; no
/// cursor movement, nothing cleared.
#[derive(Debug, Default)]
struct Lines {
    /// When the last line was written.
    last: Mutex<Option<Instant>>,
}

impl Lines {
    /// Whether a draw at `now` is written: the stage's first, or [`PLAIN_EVERY`] after the last.
    fn due(&self, now: Instant) -> bool {
        let mut last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        let due = last.is_none_or(|at| now.duration_since(at) >= PLAIN_EVERY);
        if due {
            *last = Some(now);
        }
        due
    }
}

impl TermLike for Lines {
    fn width(&self) -> u16 {
        200
    }

    fn move_cursor_up(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_down(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_right(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_left(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn write_line(&self, s: &str) -> io::Result<()> {
        self.write_str(s)
    }

    fn write_str(&self, s: &str) -> io::Result<()> {
        let line = s.trim();
        if !line.is_empty() && self.due(Instant::now()) {
            eprintln!("{line}");
        }
        Ok(())
    }

    fn clear_line(&self) -> io::Result<()> {
        Ok(())
    }

    fn flush(&self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_keep_one_stage_at_a_time_and_clear_it_when_done() {
        let mut bars = Bars::new(true);
        bars.stage("games", 3);
        bars.advance(2);
        assert_eq!(bars.bar.as_ref().map(ProgressBar::position), Some(2));
        bars.stage("shrink", 0);
        assert_eq!(bars.bar.as_ref().map(ProgressBar::position), Some(0));
        bars.note("a note between the bars");
        bars.finish();
        assert!(bars.bar.is_none());
    }

    #[test]
    fn plain_lines_come_at_the_start_then_at_most_every_thirty_seconds() {
        let lines = Lines::default();
        let start = Instant::now();
        let at = |s: u64| start + Duration::from_secs(s);
        let written: Vec<u64> = [0, 1, 29, 30, 31, 59, 61]
            .into_iter()
            .filter(|s| lines.due(at(*s)))
            .collect();
        assert_eq!(written, [0, 30, 61]);
    }
}
