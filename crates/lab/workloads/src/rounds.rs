//! Timed rounds: repeats of several configurations *interleaved* (round `r` runs every
//! configuration once, in order, so a slow spell of the machine hits all of them alike), each
//! later round checked against the first (the search is deterministic: only the time may
//! differ), and a configuration's time as the median of its rounds with its interval.

use anyhow::{Error, Result};
use replab_harness::stats::{Estimate, median_ci};

/// Runs `configs` configurations `rounds` times each, interleaved: round by round, every
/// configuration once per round, in order. `run(config, round)` returns one sample; the first
/// error ends the rounds. Returns the samples per configuration, in round order.
pub fn interleaved<S>(
    configs: usize,
    rounds: usize,
    mut run: impl FnMut(usize, usize) -> Result<S>,
) -> Result<Vec<Vec<S>>> {
    let mut samples: Vec<Vec<S>> = (0..configs).map(|_| Vec::with_capacity(rounds)).collect();
    for round in 0..rounds {
        for (c, s) in samples.iter_mut().enumerate() {
            s.push(run(c, round)?);
        }
    }
    Ok(samples)
}

/// One configuration's rounds: the first round's outcome (every later round gave the same) and
/// every round's sample, in round order.
#[derive(Clone, Debug)]
pub struct Timed<T, S> {
    /// The outcome of the first round.
    pub first: T,
    /// Each round's sample.
    pub samples: Vec<S>,
}

impl<T> Timed<T, f64> {
    /// The median of the rounds with its interval ([`median_ci`]).
    pub fn estimate(&self) -> Estimate {
        median_ci(&self.samples)
    }
}

/// [`interleaved`] rounds of `configs` configurations where `run(config)` searches once (its
/// error ends the rounds) and `sample` reads its time. Every round after the first must match
/// the first: `same(first, later)` (all but the time), else the rounds fail with
/// `differs(config, round)` (`round` counted from 1). Returns each configuration's first
/// outcome with every round's sample.
pub fn timed<T, S>(
    configs: usize,
    rounds: usize,
    mut run: impl FnMut(usize) -> Result<T>,
    sample: impl Fn(&T) -> S,
    same: impl Fn(&T, &T) -> bool,
    differs: impl Fn(usize, usize) -> Error,
) -> Result<Vec<Timed<T, S>>> {
    let mut first: Vec<Option<T>> = (0..configs).map(|_| None).collect();
    let samples = interleaved(configs, rounds, |c, round| {
        let out = run(c)?;
        let s = sample(&out);
        match &first[c] {
            None => first[c] = Some(out),
            Some(f) if same(f, &out) => {}
            Some(_) => return Err(differs(c, round + 1)),
        }
        Ok(s)
    })?;
    Ok(first
        .into_iter()
        .zip(samples)
        .map(|(f, samples)| Timed {
            first: f.expect("at least one round"),
            samples,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::anyhow;

    #[test]
    fn interleaving_runs_rounds_in_order() {
        let mut order = Vec::new();
        let s = interleaved(2, 3, |c, r| {
            order.push((c, r));
            Ok((10 * c + r) as f64)
        })
        .unwrap();
        assert_eq!(order, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]);
        assert_eq!(s, [vec![0.0, 1.0, 2.0], vec![10.0, 11.0, 12.0]]);
    }

    #[test]
    fn rounds_keep_the_first_outcome_and_every_sample() {
        let mut calls = 0.0;
        let timed = timed(
            2,
            3,
            |c| {
                calls += 1.0;
                Ok((c as u32, calls))
            },
            |o| o.1,
            |a, b| a.0 == b.0,
            |c, r| anyhow!("config {c} round {r}"),
        )
        .unwrap();
        assert_eq!(timed[0].first, (0, 1.0));
        assert_eq!(timed[1].samples, [2.0, 4.0, 6.0]);
        assert_eq!(timed[1].estimate().value, 4.0);
    }

    #[test]
    fn a_round_that_differs_fails_naming_it() {
        let mut calls = 0;
        let e = timed(
            2,
            3,
            |c| {
                calls += 1;
                Ok((if calls == 4 { 9 } else { c as u32 }, 0.0))
            },
            |o| o.1,
            |a, b| a.0 == b.0,
            |c, r| anyhow!("config {c} round {r}"),
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "config 1 round 2");
    }
}
