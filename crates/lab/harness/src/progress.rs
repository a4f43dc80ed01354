//! How an experiment tells its caller how far it has got: [`Progress`].
//!
//! Experiments report stages and units done; the command line draws them as progress bars
//! ([`Bars`], the one implementation that writes to the terminal, chosen by the caller), tests
//! and `bench` steps may pass [`Silent`]. Work spread over threads counts its units in an atomic
//! (or a channel) that the calling thread forwards here, so an implementation needs no locking.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

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

/// Draws each stage of an experiment as an indicatif bar on stderr (hidden when `quiet` or
/// when stderr is not a terminal).
pub struct Bars {
    bar: Option<ProgressBar>,
    quiet: bool,
}

impl Bars {
    /// Bars on stderr, or none at all when `quiet`.
    pub fn new(quiet: bool) -> Self {
        Self { bar: None, quiet }
    }
}

impl Progress for Bars {
    fn stage(&mut self, label: &str, total: u64) {
        self.finish();
        let template = match total {
            0 => "{spinner} {prefix} {elapsed}",
            _ => "{prefix:>18} [{bar:32}] {pos}/{len} {elapsed} (eta {eta})",
        };
        let target = match self.quiet {
            true => ProgressDrawTarget::hidden(),
            false => ProgressDrawTarget::stderr(),
        };
        let bar = ProgressBar::with_draw_target((total > 0).then_some(total), target);
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_prefix(label.to_owned());
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
}
