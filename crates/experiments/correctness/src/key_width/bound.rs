//! The birthday bound per detector and the exact binomial interval of a measured rate.
//!
//! A probe that compares the current key with `m` stored keys of other positions, each a
//! uniformly random `b`-bit value independent of the current one, finds a false match with
//! probability `1 − (1 − 2^−b)^m ≈ m / 2^b`. What `m` is depends on the detector ([`Walk`]):
//!
//! - `linear`, `rookie`: the keys 4, 6, 8 … plies back up to the span
//!   (`min(halfmove clock, plies since null)`), counted once per distinct position (a position
//!   that recurs on the line is one key compared several times: one chance, not several).
//!   Rookie's counter filter only lets through probes whose counter is non-zero, which a
//!   colliding key makes non-zero, so its bound is linear's.
//! - `tt-open`, `filo`: one slot (tt-open) or one probe chain (filo) holds at most one entry per
//!   stored key; a hit is reported when the entry lies within the span, whatever its parity. So
//!   `m` = the distinct positions among the entries 1 … span plies back.
//! - `cuckoo`: at each odd `i ≤ span` from 3 the XOR of the opponent's move keys is compared
//!   with 0 (a `b`-bit comparison), and where it is 0 the key difference `K_0 ^ K_i` is looked
//!   up among the stored moves whose squares between are empty in the current position (`u` of
//!   the 3,668). A false cycle needs a false zero and a false move match, or a true zero (the
//!   opponent's pieces are back, but no single unobstructed move of ours closes the cycle) and
//!   a false move match: per distinct `K_i`, `p_i = (z_i ? 1 : 2^−b) · u / 2^b`, and per call
//!   `1 − Π(1 − p_i)`. Calls the 64-bit detector already answers yes are left out (a collision
//!   cannot make them false).
//!
//! Probes that are repetitions under 64-bit keys are left out of every sum (they are true
//! positives whatever the width). A game's probability of at least one false positive is
//! `1 − Π(1 − P_probe)`, which treats the probes of a game as independent; they are not (the
//! same two positions are compared again at each recurrence), so the per-game bound overstates.

use replab_board::{Bitboard, Position, Square, attacks::between};
use replab_cuckoo::CuckooTable;
use replab_detect::{Detector, Line};
use replab_registry::{CuckooDetector, DetectorId, KeyCompare, UpcomingRule};

use crate::judging::{games::Game, judge::KeySet};

/// The detectors of the experiment, in report (table) order: every listed technique whose keys
/// can be truncated, once (no composition, no variant), from the registry's columns.
pub fn detectors() -> Vec<DetectorId> {
    DetectorId::select(|c| c.key_width && !c.composite && !c.variant)
}

/// The widest tail width the linear tail histogram records.
pub const TAIL_BITS: usize = 40;

/// The regularised incomplete beta function `I_x(a, b)` (statrs), 0 below and 1 above `[0, 1]`.
pub fn beta_inc(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        0.0
    } else if x >= 1.0 {
        1.0
    } else {
        statrs::function::beta::beta_reg(a, b, x)
    }
}

/// The `q` quantile of Beta(a, b): bisection on statrs' distribution function to a relative
/// precision of 1e-12. (statrs' own `Beta::inverse_cdf` stops at an absolute tolerance, too
/// coarse for the rates of one in millions measured here: 0.6190/n instead of 0.6187/n.)
fn beta_quantile(q: f64, a: f64, b: f64) -> f64 {
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if beta_inc(a, b, mid) < q {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-18 + 1e-12 * hi {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// The coverage of [`clopper_pearson`]'s interval over `n` trials: the exact interval covers
/// the true rate with probability at least 95% whatever the rate (it is conservative), so its
/// coverage is the level itself; with no trial there is no interval and it covers nothing (0).
pub fn clopper_pearson_coverage(n: u64) -> f64 {
    if n == 0 { 0.0 } else { crate::stats::LEVEL }
}

/// The exact (Clopper–Pearson) 95% interval of a binomial rate with `k` successes in `n`
/// trials: `[0, 0]` for `n = 0`.
pub fn clopper_pearson(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 0.0];
    }
    let alpha = 1.0 - crate::stats::LEVEL;
    let (kf, nf) = (k as f64, n as f64);
    let lo = if k == 0 {
        0.0
    } else {
        beta_quantile(alpha / 2.0, kf, nf - kf + 1.0)
    };
    let hi = if k == n {
        1.0
    } else {
        beta_quantile(1.0 - alpha / 2.0, kf + 1.0, nf - kf)
    };
    [lo, hi]
}

/// The number of distinct values in `keys` (sorts it).
fn distinct(keys: &mut [u64]) -> usize {
    keys.sort_unstable();
    keys.iter()
        .enumerate()
        .filter(|&(i, k)| i == 0 || keys[i - 1] != *k)
        .count()
}

/// `1 − (1 − p)^m`, accurate for tiny `p`.
#[inline]
fn any_of(m: f64, p: f64) -> f64 {
    -(m * (-p).ln_1p()).exp_m1()
}

/// Expected false positives of one detector at one width, summed over probes and games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Expected {
    /// Expected false positives (probes).
    pub probes: f64,
    /// Expected games with at least one false positive.
    pub games: f64,
    /// Keys compared in all (`Σ m`), over the probes that are not 64-bit repetitions.
    pub compared: f64,
}

/// The expectation walk over one run's games: per detector and width, the bound's sums, and
/// linear's exact false-positive count at every width from 1 to [`TAIL_BITS`] bits.
#[derive(Clone, Debug)]
pub struct Walk {
    widths: Vec<u32>,
    /// What each detector of [`detectors`] compares, in that order.
    compares: Vec<KeyCompare>,
    /// `[detector][width]`, detectors in [`detectors`] order.
    pub expected: Vec<Vec<Expected>>,
    /// Linear probes that are not 64-bit repetitions, by the longest run of equal low bits
    /// between the current key and a key it is compared with (`tail[z]`: at most `z` equal low
    /// bits with every compared key, `TAIL_BITS` for `TAIL_BITS` or more). A probe is a linear
    /// false positive at `b` bits exactly when its run is at least `b`.
    pub tail: Vec<u64>,
    /// `Σ m` of linear over those probes (the expected count at `b` bits is about
    /// `Σ (1 − (1 − 2^−b)^m)`, accumulated per width in `tail_expected`).
    pub tail_expected: Vec<f64>,
    /// The key differences (current ⊕ compared, the one sharing the most low bits) of linear's
    /// false positives at the narrowest width run, one per false positive: how many distinct
    /// differences the collisions come from.
    pub differences: Vec<u64>,
    /// Cuckoo table moves: the squares between the ends of each (for `u`).
    between: Vec<Bitboard>,
    cuckoo: CuckooDetector,
    seen: KeySet,
    /// Scratch keys (the compared keys of one probe).
    scratch: Vec<u64>,
    /// Scratch keys (cuckoo's comparisons whose opponent moves are not back).
    scratch_nonzero: Vec<u64>,
    /// Per width, `Σ ln(1 − P)` of the current game, per detector.
    game_log: Vec<Vec<f64>>,
}

impl Walk {
    /// A walk computing the bound at `widths`.
    pub fn new(widths: &[u32]) -> Walk {
        let between = CuckooTable::new()
            .truncated(u64::MAX)
            .iter()
            .map(|&(_, a, b)| between(Square::new(a), Square::new(b)))
            .collect();
        let compares: Vec<KeyCompare> = detectors().iter().map(|d| d.caps().key_compare).collect();
        Walk {
            widths: widths.to_vec(),
            expected: vec![vec![Expected::default(); widths.len()]; compares.len()],
            tail: vec![0; TAIL_BITS + 1],
            tail_expected: vec![0.0; TAIL_BITS + 1],
            differences: Vec::new(),
            between,
            cuckoo: CuckooDetector::with_rule(UpcomingRule::AnyEarlier),
            seen: KeySet::default(),
            scratch: Vec::new(),
            scratch_nonzero: Vec::new(),
            game_log: vec![vec![0.0; widths.len()]; compares.len()],
            compares,
        }
    }

    /// Adds `other`'s sums (another worker's games).
    pub fn merge(&mut self, other: &Walk) {
        for (mine, theirs) in self.expected.iter_mut().zip(&other.expected) {
            for (m, t) in mine.iter_mut().zip(theirs) {
                m.probes += t.probes;
                m.games += t.games;
                m.compared += t.compared;
            }
        }
        for (m, t) in self.tail.iter_mut().zip(&other.tail) {
            *m += t;
        }
        for (m, t) in self.tail_expected.iter_mut().zip(&other.tail_expected) {
            *m += t;
        }
        self.differences.extend_from_slice(&other.differences);
    }

    /// Adds the probe of every detector comparing keys as `compare` does, comparing `m` keys,
    /// with its per-width probabilities through `p`.
    fn add(&mut self, compare: KeyCompare, m: f64, p: impl Fn(u32) -> f64) {
        for d in 0..self.compares.len() {
            if self.compares[d] != compare {
                continue;
            }
            for (w, &bits) in self.widths.iter().enumerate() {
                let pr = p(bits);
                let e = &mut self.expected[d][w];
                e.probes += pr;
                e.compared += m;
                self.game_log[d][w] += (-pr).ln_1p();
            }
        }
    }

    /// Walks one game as the judge replays it (every position history, probed then entered).
    pub fn game(&mut self, game: &Game) {
        let positions = &game.positions;
        let mut line = Line::new(&positions[0], positions.len());
        self.cuckoo.clear(positions.len());
        self.cuckoo.enter(&line, &positions[0]);
        self.seen.reset(positions.len());
        self.seen.insert(positions[0].key());
        let mut window = 1u64;
        for row in &mut self.game_log {
            row.fill(0.0);
        }
        for ply in 1..positions.len() {
            let pos = &positions[ply];
            line.push(&positions[ply - 1], game.moves[ply - 1], pos);
            line.set_root();
            let entries = line.entries();
            let cur = entries.len() - 1;
            let key = entries[cur].key;
            let span = entries[cur].span() as usize;
            if span == 0 {
                self.seen.reset(positions.len());
                window = 0;
            }
            let repeated = span > 0 && self.seen.contains(key);

            if !repeated {
                // linear and rookie: the keys 4, 6 … span plies back.
                let mut run = 0u32;
                let mut difference = 0;
                let mut back = 4;
                self.scratch.clear();
                while back <= span {
                    let other = entries[cur - back].key;
                    self.scratch.push(other);
                    let shared = (other ^ key).trailing_zeros();
                    if shared > run {
                        run = shared;
                        difference = other ^ key;
                    }
                    back += 2;
                }
                if self.widths.first().is_some_and(|&w| run >= w) {
                    self.differences.push(difference);
                }
                let mf = distinct(&mut self.scratch) as f64;
                self.add(KeyCompare::LineBack, mf, |b| {
                    any_of(mf, 2f64.powi(-(b as i32)))
                });
                self.tail[(run as usize).min(TAIL_BITS)] += 1;
                for (b, e) in self.tail_expected.iter_mut().enumerate().skip(1) {
                    *e += any_of(mf, 2f64.powi(-(b as i32)));
                }
                // filo and tt-open: the distinct positions within the span.
                let md = window as f64;
                self.add(KeyCompare::Table, md, |b| {
                    any_of(md, 2f64.powi(-(b as i32)))
                });
            }
            self.seen.insert(key);
            if !repeated {
                window += 1;
            }

            // cuckoo, asked after the position is entered.
            self.cuckoo.enter(&line, pos);
            if !self.cuckoo.upcoming(&line, pos) {
                self.cuckoo_terms(&line, pos);
            }
        }
        for (d, row) in self.game_log.iter().enumerate() {
            for (w, &log) in row.iter().enumerate() {
                self.expected[d][w].games += -log.exp_m1();
            }
        }
    }

    /// The cuckoo bound's probabilities for a call the 64-bit detector answers no.
    fn cuckoo_terms(&mut self, line: &Line, pos: &Position) {
        let end = line.last().span() as usize;
        if end < 3 {
            self.add(KeyCompare::CuckooMoves, 0.0, |_| 0.0);
            return;
        }
        let occupied = pos.occupied();
        let u = self
            .between
            .iter()
            .filter(|&&b| (b & occupied).is_empty())
            .count() as f64;
        let entries = line.entries();
        let cur = entries.len() - 1;
        let key = |back: usize| entries[cur - back].key;
        let mut other = key(0) ^ key(1) ^ replab_board::zobrist::SIDE_KEY;
        self.scratch.clear();
        self.scratch_nonzero.clear();
        let mut i = 3;
        while i <= end {
            other ^= key(i - 1) ^ key(i) ^ replab_board::zobrist::SIDE_KEY;
            // A true zero here was looked up and failed (the 64-bit answer is no).
            if other == 0 {
                self.scratch.push(key(i));
            } else {
                self.scratch_nonzero.push(key(i) ^ other);
            }
            i += 2;
        }
        let zero = distinct(&mut self.scratch) as f64;
        let nonzero = distinct(&mut self.scratch_nonzero) as f64;
        self.add(KeyCompare::CuckooMoves, zero + nonzero, |b| {
            let q = (u * 2f64.powi(-(b as i32))).min(1.0);
            let p_zero = any_of(zero, q);
            let p_nonzero = any_of(nonzero, q * 2f64.powi(-(b as i32)));
            1.0 - (1.0 - p_zero) * (1.0 - p_nonzero)
        });
    }
}

/// Bytes a detector stores per key at `bits` bits, packed (no padding): the key's
/// `⌈bits / 8⌉` bytes plus what replab stores beside it, the registry's
/// [`key_overhead`](replab_registry::DetectorInfo::key_overhead) — nothing for `linear` and
/// `rookie` (one key per line entry; rookie's fixed 16 KiB of counters aside), the ply and the
/// count (8 bytes) for `filo`, the data word (8 bytes) for `tt-open`, the move's two squares
/// (2 bytes) for `cuckoo` (and `linear+cuckoo`, which stands for it in the search).
pub fn bytes_per_entry(detector: DetectorId, bits: u32) -> u32 {
    bits.div_ceil(8) + detector.info().map_or(0, |d| d.key_overhead)
}
