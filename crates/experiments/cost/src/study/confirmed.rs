//! Axon with truth confirmation: the same search as `axon`'s except that every repetition axon
//! reports is checked with the exact oracle ([`TruthDetector`], FIDE identity) before the
//! searcher may score it as a draw. Searching WAC.018 with it and with plain `axon` separates
//! axon's tree change against `off` into the part its own false draws cause and the rest.
//!
//! Axon's misses (repetitions it does not see) stay missed: only its false reports are removed.

use anyhow::{Result, anyhow};
use replab_board::Position;
use replab_detect::{Detector, Line, Repetition, Stats};
use replab_registry::{AxonDetector, TruthDetector};
use replab_search::{Counters, Searcher};

use super::{
    grid::{COUNT_NOISE, SUBJECT, change},
    results::{FalseDraws, GridConfig, GridTotal},
};
use crate::{Progress, engine::parallel};

/// `axon` whose every reported repetition the exact oracle must confirm.
///
/// [`Detector::stats`] are axon's own (its `hits` count every candidate it reported), with
/// `futile` raised by the candidates the oracle refuted: the false draws this search did not
/// score.
#[derive(Clone, Debug, Default)]
pub struct ConfirmedAxon {
    axon: AxonDetector,
    truth: TruthDetector,
    refuted: u64,
}

impl ConfirmedAxon {
    /// A new detector.
    pub fn new() -> Self {
        Self::default()
    }

    /// Axon's reports the oracle refuted since the last [`Detector::clear`].
    pub fn refuted(&self) -> u64 {
        self.refuted
    }
}

impl Detector for ConfirmedAxon {
    fn name(&self) -> &'static str {
        "axon-confirmed"
    }

    fn clear(&mut self, capacity: usize) {
        self.axon.clear(capacity);
        self.truth.clear(capacity);
        self.refuted = 0;
    }

    fn probe(&mut self, line: &Line, pos: &Position) -> Option<Repetition> {
        let claimed = self.axon.probe(line, pos)?;
        if self.truth.probe(line, pos).is_some() {
            Some(claimed)
        } else {
            self.refuted += 1;
            None
        }
    }

    fn enter(&mut self, line: &Line, pos: &Position) {
        self.axon.enter(line, pos);
        self.truth.enter(line, pos);
    }

    fn leave(&mut self, line: &Line, pos: &Position) {
        self.axon.leave(line, pos);
        self.truth.leave(line, pos);
    }

    fn stats(&self) -> Stats {
        let mut s = self.axon.stats();
        s.futile += self.refuted;
        s
    }

    fn memory_bytes(&self) -> usize {
        self.axon.memory_bytes() + self.truth.memory_bytes()
    }
}

/// Searches WAC.018 with [`ConfirmedAxon`] under every grid configuration (counters only: they
/// are exact, so one search each) and sets it against the grid's `off` and `axon` totals of the
/// same configuration. Progress: one unit per configuration.
pub fn measure(
    root: &Position,
    configs: &[GridConfig],
    totals: &[GridTotal],
    threads: usize,
    progress: &mut dyn Progress,
) -> Result<Vec<FalseDraws>> {
    progress.stage(
        "axon with truth confirmation (WAC.018)",
        configs.len() as u64,
    );
    let counters = parallel(
        configs.len(),
        threads,
        progress,
        || Ok(()),
        |_, i, done| {
            let mut searcher = Searcher::try_new(ConfirmedAxon::new(), configs[i].search)
                .map_err(|e| anyhow!("{}: axon with confirmation: {e}", configs[i].name))?;
            let res = searcher.search_game(std::slice::from_ref(root), &[]);
            done.add(1);
            Ok(res.totals())
        },
    )?;
    let total = |config: &str, detector: &str| {
        totals
            .iter()
            .find(|t| t.config == config && t.detector == detector)
            .map(|t| t.counters)
            .ok_or_else(|| anyhow!("{config}: no {detector} total in the grid"))
    };
    configs
        .iter()
        .zip(counters)
        .map(|(c, confirmed)| {
            Ok(false_draws(
                &c.name,
                &total(&c.name, "off")?,
                &total(&c.name, SUBJECT.name())?,
                confirmed,
            ))
        })
        .collect()
}

/// One configuration's comparison of axon, axon confirmed, and `off` (see [`FalseDraws`]).
pub fn false_draws(
    config: &str,
    off: &Counters,
    axon: &Counters,
    confirmed: Counters,
) -> FalseDraws {
    let terminal = |c: &Counters| c.terminal_nodes as f64;
    let generated = |c: &Counters| c.generated as f64;
    let share_of = |f: fn(&Counters) -> f64| {
        let axon_change = change(f(axon), f(off));
        let confirmed_change = change(f(&confirmed), f(off));
        (axon_change.abs() >= COUNT_NOISE).then(|| (axon_change - confirmed_change) / axon_change)
    };
    FalseDraws {
        config: config.to_string(),
        refuted: confirmed.hits.saturating_sub(confirmed.repetitions),
        axon_repetitions: axon.repetitions,
        terminal_change: change(terminal(&confirmed), terminal(off)),
        generated_change: change(generated(&confirmed), generated(off)),
        terminal_share: share_of(terminal),
        generated_share: share_of(generated),
        confirmed,
    }
}

#[cfg(test)]
mod tests {
    use replab_truth::kit::replay;

    use super::*;

    #[test]
    fn confirms_true_repetitions_and_refuses_false_ones() {
        let start = Position::START_FEN;
        // A true repetition: both detectors see it.
        let knights = ["Nc3", "Nc6", "Nb1", "Nb8"];
        let plain = replay(&mut AxonDetector::new(), start, &knights).unwrap();
        let confirmed = replay(&mut ConfirmedAxon::new(), start, &knights).unwrap();
        assert_eq!(plain, confirmed);
        assert_eq!(plain.last(), Some(&true));
        // The king goes out and back: every piece that moved is back, but White has lost
        // its castling right, so the position is not the same. Axon reports it (a move that
        // only loses a castling right is not irreversible to it); the oracle refutes it.
        let fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1";
        let kings = ["Ke2", "Kd7", "Ke1", "Ke8"];
        let plain = replay(&mut AxonDetector::new(), fen, &kings).unwrap();
        let mut c = ConfirmedAxon::new();
        let confirmed = replay(&mut c, fen, &kings).unwrap();
        let truth = replay(&mut TruthDetector::new(), fen, &kings).unwrap();
        assert_eq!(plain.last(), Some(&true), "axon reports it");
        assert_eq!(truth.last(), Some(&false), "it is no repetition");
        assert_eq!(confirmed.last(), Some(&false), "confirmation refuses it");
        assert_eq!(c.refuted(), 1);
        assert_eq!(c.stats().futile, 1);
    }
}
