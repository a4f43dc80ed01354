//! Progress bars on stderr: the command line's [`Progress`].

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use replab_lab::Progress;

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
