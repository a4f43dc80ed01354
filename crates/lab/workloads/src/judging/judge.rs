//! Drives every audited detector and the oracle identically over a game (game replay, per the
//! detect crate's protocol) and tallies where they agree.
//!
//! For each position after the first: `line.push`, `line.set_root` (in game replay every
//! position is history), then `probe` and `enter` for the oracle and every detector. The
//! cuckoo detector answers a different question — can the side to move reach an earlier
//! position with one legal move — so it is asked `upcoming` after `enter` and compared with
//! [`TruthDetector::upcoming_exact`], called at the same point.
//!
//! This is the replay protocol of the truth test kit (`replab_truth::kit::replay_probes`), but
//! the judge does not call the kit. The kit replays one detector per call from a FEN and SAN
//! text: it parses every move again (a legal-move generation per ply), builds a new line and
//! allocates its answers. The judge's hot loop drives every audited detector and the oracle in
//! lockstep over positions the game generator has already made, allocating nothing per game.
//! Driving the (by default 18) audited detectors and the oracle through the kit would repeat
//! that work 19 times a game: measured over 400 games, the kit's parsing and line building
//! alone for those 19 replays (with a detector that does nothing) cost about 60% of the
//! judge's whole time. The shrinker, whose replays are few and short, uses the kit (the
//! `shrink` module).

use anyhow::Result;
use rayon::{iter::ParallelBridge, prelude::*};
use replab_board::{Move, MoveList, Position};
use replab_registry::{AnyDetector, Detector, Line, Repetition, Stats, TruthDetector};
use serde::{Deserialize, Serialize};

use crate::{Progress, engine::on_pool};

use super::{
    cause::{ErrorCtx, cause},
    games::{self, Game},
    spec::{Cause, Check, Kind, Spec},
};

/// Agreement counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Confusion {
    /// Both say yes.
    pub tp: u64,
    /// The detector says yes, truth no.
    pub fp: u64,
    /// The detector says no, truth yes.
    pub fn_: u64,
    /// Both say no.
    pub tn: u64,
}

impl Confusion {
    #[inline]
    fn record(&mut self, detected: bool, truth: bool) {
        match (detected, truth) {
            (true, true) => self.tp += 1,
            (true, false) => self.fp += 1,
            (false, true) => self.fn_ += 1,
            (false, false) => self.tn += 1,
        }
    }

    fn add(&mut self, o: &Confusion) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
        self.tn += o.tn;
    }

    /// Plies judged.
    pub fn total(&self) -> u64 {
        self.tp + self.fp + self.fn_ + self.tn
    }

    /// FP + FN.
    pub fn errors(&self) -> u64 {
        self.fp + self.fn_
    }

    /// TP / (TP + FP), `None` when the detector never said yes.
    pub fn precision(&self) -> Option<f64> {
        ratio(self.tp, self.tp + self.fp)
    }

    /// TP / (TP + FN), `None` when truth never said yes.
    pub fn recall(&self) -> Option<f64> {
        ratio(self.tp, self.tp + self.fn_)
    }

    /// (FP + FN) / plies judged.
    pub fn error_rate(&self) -> Option<f64> {
        ratio(self.errors(), self.total())
    }
}

fn ratio(a: u64, b: u64) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

/// Adds the counters of `b` to `a`.
pub fn add_stats(a: &mut Stats, b: &Stats) {
    a.probes += b.probes;
    a.hits += b.hits;
    a.verified += b.verified;
    a.futile += b.futile;
    a.misses += b.misses;
    a.collisions += b.collisions;
    a.overflows += b.overflows;
    a.comparisons += b.comparisons;
}

/// The erroneous ply of a game, kept to be shrunk: the game's moves up to that ply.
#[derive(Clone, Debug)]
pub struct Witness {
    /// Plies from the game's start to the erroneous position.
    pub plies: usize,
    /// The game's index.
    pub game: u64,
    /// The game's start position.
    pub start: Position,
    /// The moves up to the erroneous position.
    pub moves: Vec<Move>,
}

impl Witness {
    fn order(&self) -> (usize, u64) {
        (self.plies, self.game)
    }
}

/// Errors of one kind and cause.
#[derive(Clone, Debug)]
pub struct CauseTally {
    /// The error kind.
    pub kind: Kind,
    /// The cause.
    pub cause: Cause,
    /// Erroneous plies.
    pub count: u64,
    /// The shortest erroneous ply with this cause.
    pub witness: Option<Witness>,
}

/// Offers the erroneous ply `ply` of game `index` as the witness in `slot`: kept if it has
/// fewer plies (then a lower game index) than the one held. Allocates only when kept.
fn offer(slot: &mut Option<Witness>, ply: usize, index: u64, game: &Game) {
    if slot.as_ref().is_none_or(|w| (ply, index) < w.order()) {
        *slot = Some(Witness {
            plies: ply,
            game: index,
            start: game.positions[0],
            moves: game.moves[..ply].to_vec(),
        });
    }
}

/// Keeps the better of two witnesses in `mine`.
fn keep_better(mine: &mut Option<Witness>, theirs: Option<Witness>) {
    if let Some(t) = theirs
        && mine.as_ref().is_none_or(|m| t.order() < m.order())
    {
        *mine = Some(t);
    }
}

/// Everything counted for one audited detector.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Agreement with truth.
    pub confusion: Confusion,
    /// The detector's own counters, summed over games.
    pub stats: Stats,
    /// Errors made in a game after the detector had lost a position to a full or taken table
    /// slot (a miss) or an overflow earlier in that game.
    pub capacity_errors: u64,
    /// The shortest erroneous ply found per [`Kind`] (fewest plies, then lowest game index).
    pub witness: [Option<Witness>; 2],
    /// Errors per kind and cause, in order of first appearance (sorted by [`Tally::sort`]).
    pub causes: Vec<CauseTally>,
    /// Games with at least one error, per [`Kind`].
    pub games_with: [u64; 2],
}

impl Tally {
    /// Adds `o` (from another thread) to `self`; keeps the better witnesses.
    pub fn merge(&mut self, o: Tally) {
        self.confusion.add(&o.confusion);
        add_stats(&mut self.stats, &o.stats);
        self.capacity_errors += o.capacity_errors;
        self.games_with[0] += o.games_with[0];
        self.games_with[1] += o.games_with[1];
        for (mine, theirs) in self.witness.iter_mut().zip(o.witness) {
            keep_better(mine, theirs);
        }
        for c in o.causes {
            match self
                .causes
                .iter_mut()
                .find(|m| m.kind == c.kind && m.cause == c.cause)
            {
                Some(m) => {
                    m.count += c.count;
                    keep_better(&mut m.witness, c.witness);
                }
                None => self.causes.push(c),
            }
        }
    }

    /// Orders the causes: false positives first, then by count (descending), then by name.
    pub fn sort(&mut self) {
        self.causes.sort_by(|a, b| {
            (a.kind, b.count, a.cause.text()).cmp(&(b.kind, a.count, b.cause.text()))
        });
    }

    fn record_error(&mut self, kind: Kind, cause: Cause, ply: usize, index: u64, game: &Game) {
        offer(&mut self.witness[kind as usize], ply, index, game);
        let c = match self
            .causes
            .iter_mut()
            .position(|c| c.kind == kind && c.cause == cause)
        {
            Some(i) => &mut self.causes[i],
            None => {
                self.causes.push(CauseTally {
                    kind,
                    cause,
                    count: 0,
                    witness: None,
                });
                self.causes.last_mut().expect("just pushed")
            }
        };
        c.count += 1;
        offer(&mut c.witness, ply, index, game);
    }
}

/// Totals over all games (the `totals` object of `results.json`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    /// Games played.
    pub games: u64,
    /// Plies judged (positions after the start).
    pub plies: u64,
    /// Plies at which truth reports a repetition.
    pub repetitions: u64,
    /// Plies at which truth reports that a legal move reaches an earlier position (counted
    /// only when `cuckoo` is audited).
    pub upcoming: u64,
    /// Games that ended in checkmate or stalemate before the ply limit.
    #[serde(rename = "finished_games")]
    pub finished: u64,
}

impl Totals {
    /// Adds `o` to `self`.
    pub fn merge(&mut self, o: &Totals) {
        self.games += o.games;
        self.plies += o.plies;
        self.repetitions += o.repetitions;
        self.upcoming += o.upcoming;
        self.finished += o.finished;
    }
}

/// A set of 64-bit keys (open addressing), cleared per game without allocating.
#[derive(Clone, Debug, Default)]
pub struct KeySet {
    slots: Vec<u64>,
    mask: usize,
    has_zero: bool,
}

impl KeySet {
    /// Empties the set, sized for `n` keys.
    pub fn reset(&mut self, n: usize) {
        let cap = (4 * n).next_power_of_two().max(64);
        if self.slots.len() != cap {
            self.slots = vec![0; cap];
        } else {
            self.slots.fill(0);
        }
        self.mask = cap - 1;
        self.has_zero = false;
    }

    /// Adds `k`.
    pub fn insert(&mut self, k: u64) {
        if k == 0 {
            self.has_zero = true;
            return;
        }
        let mut i = (k >> 7) as usize & self.mask;
        while self.slots[i] != 0 {
            if self.slots[i] == k {
                return;
            }
            i = (i + 1) & self.mask;
        }
        self.slots[i] = k;
    }

    /// Whether `k` was added.
    pub fn contains(&self, k: u64) -> bool {
        if k == 0 {
            return self.has_zero;
        }
        let mut i = (k >> 7) as usize & self.mask;
        while self.slots[i] != 0 {
            if self.slots[i] == k {
                return true;
            }
            i = (i + 1) & self.mask;
        }
        false
    }
}

/// [`TruthDetector::upcoming_exact`] for the line's current position (already entered), with
/// a sound shortcut: equal identities have equal Zobrist keys, so when no legal move leads to
/// a key of the line (`keys`), no legal move leads to an earlier position and the oracle's
/// answer is `false` without asking it. Otherwise the oracle decides.
pub fn exact_upcoming(
    truth: &mut TruthDetector,
    line: &Line,
    pos: &Position,
    keys: &KeySet,
    legal: &mut MoveList,
) -> bool {
    pos.legal_moves_into(legal);
    let candidate = legal.iter().any(|&m| keys.contains(pos.play(m).key()));
    candidate && truth.upcoming_exact(line, pos)
}

/// One thread's judge: the detectors of every spec plus the oracle, and reusable buffers.
pub struct Judge {
    checks: Vec<Check>,
    dets: Vec<AnyDetector>,
    truth: TruthDetector,
    line: Line,
    keys: KeySet,
    legal: MoveList,
    specs: Vec<Spec>,
    need_upcoming: bool,
    /// Each tally's counts when the current game started (to count games with errors).
    before: Vec<Confusion>,
}

impl Judge {
    /// A judge for `specs`.
    pub fn new(specs: &[Spec]) -> Judge {
        let checks: Vec<Check> = specs.iter().map(Spec::check).collect();
        Judge {
            need_upcoming: checks.contains(&Check::Upcoming),
            checks,
            dets: specs.iter().map(Spec::build).collect(),
            truth: TruthDetector::new(),
            line: Line::default(),
            keys: KeySet::default(),
            legal: MoveList::new(),
            before: Vec::with_capacity(specs.len()),
            specs: specs.to_vec(),
        }
    }

    /// Judges every ply of `game` (game number `index`), adding to `tallies` (one per spec)
    /// and `totals`.
    pub fn judge(&mut self, index: u64, game: &Game, tallies: &mut [Tally], totals: &mut Totals) {
        let positions = &game.positions;
        let capacity = positions.len();
        let start = &positions[0];
        self.line.reset(start, capacity);
        self.truth.clear(capacity);
        self.truth.enter(&self.line, start);
        if self.need_upcoming {
            self.keys.reset(capacity);
            self.keys.insert(start.key());
        }
        for d in &mut self.dets {
            d.clear(capacity);
            d.enter(&self.line, start);
        }
        self.before.clear();
        self.before.extend(tallies.iter().map(|t| t.confusion));

        for ply in 1..positions.len() {
            let pos = &positions[ply];
            self.line
                .push(&positions[ply - 1], game.moves[ply - 1], pos);
            self.line.set_root();
            let truth_rep = self.truth.probe(&self.line, pos);
            let truth = truth_rep.is_some();
            self.truth.enter(&self.line, pos);
            totals.repetitions += u64::from(truth);
            let mut exact = None;
            if self.need_upcoming {
                self.keys.insert(pos.key());
            }
            for (i, d) in self.dets.iter_mut().enumerate() {
                let before = d.stats();
                let mut rep: Option<Repetition> = None;
                let (detected, truth) = match self.checks[i] {
                    Check::Probe => {
                        rep = d.probe(&self.line, pos);
                        d.enter(&self.line, pos);
                        (rep.is_some(), truth)
                    }
                    Check::Upcoming => {
                        // Its probe answers nothing; called so every detector is driven alike.
                        let _ = d.probe(&self.line, pos);
                        d.enter(&self.line, pos);
                        let u = d.upcoming(&self.line, pos);
                        let e = *exact.get_or_insert_with(|| {
                            exact_upcoming(
                                &mut self.truth,
                                &self.line,
                                pos,
                                &self.keys,
                                &mut self.legal,
                            )
                        });
                        (u, e)
                    }
                };
                let tally = &mut tallies[i];
                tally.confusion.record(detected, truth);
                if detected != truth {
                    let kind = if detected {
                        Kind::FalsePositive
                    } else {
                        Kind::FalseNegative
                    };
                    let after = d.stats();
                    if after.misses + after.overflows > 0 {
                        tally.capacity_errors += 1;
                    }
                    let why = cause(&ErrorCtx {
                        spec: &self.specs[i],
                        kind,
                        positions: &positions[..=ply],
                        moves: &game.moves[..ply],
                        detected: rep,
                        truth: truth_rep,
                        before,
                        after,
                    });
                    tally.record_error(kind, why, ply, index, game);
                }
            }
            totals.upcoming += u64::from(exact == Some(true));
        }
        for ((d, tally), before) in self.dets.iter().zip(tallies.iter_mut()).zip(&self.before) {
            add_stats(&mut tally.stats, &d.stats());
            let c = &tally.confusion;
            tally.games_with[0] += u64::from(c.fp > before.fp);
            tally.games_with[1] += u64::from(c.fn_ > before.fn_);
        }
        totals.games += 1;
        totals.plies += positions.len() as u64 - 1;
        let last = &positions[positions.len() - 1];
        if !last.has_legal_move() {
            totals.finished += 1;
        }
    }
}

/// What [`play_all`] plays: `games` games of at most `max_plies` plies from `seed`.
#[derive(Clone, Copy, Debug)]
pub struct Games {
    /// Seed of the game generator.
    pub seed: u64,
    /// Games to play.
    pub games: u64,
    /// Longest game in plies.
    pub max_plies: usize,
}

/// Plays and judges every game on a pool of `threads` threads ([`on_pool`]); games are handed
/// out by index and the per-worker results merged, so the result does not depend on the thread
/// count. Progress: one unit per game.
pub fn play_all(
    specs: &[Spec],
    run: Games,
    threads: usize,
    progress: &mut dyn Progress,
) -> Result<(Vec<Tally>, Totals)> {
    let starts = games::parse_starts();
    let per_worker: Vec<(Vec<Tally>, Totals)> = on_pool(threads, progress, |done| {
        (0..run.games)
            .par_bridge()
            .fold(
                || Worker::new(specs, run.max_plies),
                |mut w, i| {
                    games::play(
                        run.seed,
                        i,
                        run.max_plies,
                        &starts,
                        &mut w.game,
                        &mut w.scratch,
                    );
                    w.judge.judge(i, &w.game, &mut w.tallies, &mut w.totals);
                    done.add(1);
                    w
                },
            )
            .map(|w| (w.tallies, w.totals))
            .collect()
    })?;
    let mut tallies = vec![Tally::default(); specs.len()];
    let mut totals = Totals::default();
    for (t, tot) in per_worker {
        for (mine, theirs) in tallies.iter_mut().zip(t) {
            mine.merge(theirs);
        }
        totals.merge(&tot);
    }
    Ok((tallies, totals))
}

/// One worker of [`play_all`]: its judge, its tallies and its game buffers.
struct Worker {
    judge: Judge,
    tallies: Vec<Tally>,
    totals: Totals,
    game: Game,
    scratch: games::Scratch,
}

impl Worker {
    fn new(specs: &[Spec], max_plies: usize) -> Self {
        let mut game = Game::default();
        game.positions.reserve(max_plies + 1);
        game.moves.reserve(max_plies);
        Worker {
            judge: Judge::new(specs),
            tallies: vec![Tally::default(); specs.len()],
            totals: Totals::default(),
            game,
            scratch: games::Scratch::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_set() {
        let mut s = KeySet::default();
        s.reset(10);
        for k in [0u64, 1, 1 << 7, 2 << 7, u64::MAX] {
            assert!(!s.contains(k));
            s.insert(k);
            s.insert(k);
            assert!(s.contains(k));
        }
        assert!(!s.contains(3 << 7));
        s.reset(10);
        assert!(!s.contains(1) && !s.contains(0));
    }

    #[test]
    fn key_shortcut_never_changes_the_oracle() {
        use crate::judging::games::{Scratch, parse_starts, play};
        let starts = parse_starts();
        let (mut game, mut scratch) = (Game::default(), Scratch::default());
        let (mut truth, mut keys, mut legal) =
            (TruthDetector::new(), KeySet::default(), MoveList::new());
        let mut upcoming = 0;
        for i in 0..60 {
            play(11, i, 120, &starts, &mut game, &mut scratch);
            let p = &game.positions;
            let mut line = Line::new(&p[0], p.len());
            truth.clear(p.len());
            truth.enter(&line, &p[0]);
            keys.reset(p.len());
            keys.insert(p[0].key());
            for ply in 1..p.len() {
                line.push(&p[ply - 1], game.moves[ply - 1], &p[ply]);
                line.set_root();
                truth.enter(&line, &p[ply]);
                keys.insert(p[ply].key());
                let fast = exact_upcoming(&mut truth, &line, &p[ply], &keys, &mut legal);
                assert_eq!(
                    fast,
                    truth.upcoming_exact(&line, &p[ply]),
                    "game {i} ply {ply}"
                );
                upcoming += u32::from(fast);
            }
        }
        assert!(upcoming > 100, "{upcoming}");
    }
}
