#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub use replab_axon::AxonDetector;
use replab_board::Position;
pub use replab_cuckoo::{CuckooDetector, LinearCuckoo, RootRule};
pub use replab_detect::{Detector, Line, Off, Repetition, Stats, UnknownDetector};
pub use replab_filo::FiloDetector;
pub use replab_linear::LinearDetector;
pub use replab_matrix::MatrixDetector;
pub use replab_rookie::RookieDetector;
pub use replab_truth::TruthDetector;
pub use replab_tt_open::TtOpenDetector;

/// The detector names of the contract, in report order (`truth` last).
pub const DETECTOR_NAMES: [&str; 9] = [
    "linear",
    "tt-open",
    "filo",
    "rookie",
    "axon",
    "matrix",
    "matrix-checksum",
    "cuckoo",
    "truth",
];

/// The detectors the searcher runs (`off` aside): `cuckoo` only in its composition.
pub const SEARCH_DETECTORS: [&str; 8] = [
    "linear",
    "tt-open",
    "filo",
    "rookie",
    "axon",
    "matrix",
    "matrix-checksum",
    "linear+cuckoo",
];

/// The root rule the cuckoo detectors use under a draw policy: under `twofold` any earlier
/// position counts, as it would for a repetition that has happened; otherwise Stockfish's rule
/// (after the root, or a position that had already repeated).
pub fn root_rule_for(policy: replab_detect::DrawPolicy) -> RootRule {
    match policy {
        replab_detect::DrawPolicy::Twofold => RootRule::AnyEarlier,
        _ => RootRule::Stockfish,
    }
}

/// Any detector, dispatched by enum.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum AnyDetector {
    /// `linear`
    Linear(LinearDetector),
    /// `tt-open`
    TtOpen(TtOpenDetector),
    /// `filo`
    Filo(FiloDetector),
    /// `rookie`
    Rookie(RookieDetector),
    /// `axon`
    Axon(AxonDetector),
    /// `matrix` and `matrix-checksum`
    Matrix(MatrixDetector),
    /// `cuckoo`
    Cuckoo(CuckooDetector),
    /// `linear+cuckoo`
    LinearCuckoo(LinearCuckoo),
    /// `truth`
    Truth(TruthDetector),
}

/// Builds the detector called `name` with its default configuration. The cuckoo detectors get
/// `rule` for which earlier positions count.
pub fn by_name(name: &str, rule: RootRule) -> Result<AnyDetector, UnknownDetector> {
    Ok(match name {
        "linear" => AnyDetector::Linear(LinearDetector::new()),
        "tt-open" => AnyDetector::TtOpen(TtOpenDetector::new()),
        "filo" => AnyDetector::Filo(FiloDetector::new()),
        "rookie" => AnyDetector::Rookie(RookieDetector::new()),
        "axon" => AnyDetector::Axon(AxonDetector::new()),
        "matrix" => AnyDetector::Matrix(MatrixDetector::new()),
        "matrix-checksum" => AnyDetector::Matrix(MatrixDetector::with_checksum()),
        "cuckoo" => AnyDetector::Cuckoo(CuckooDetector::with_rule(rule)),
        "linear+cuckoo" => AnyDetector::LinearCuckoo(LinearCuckoo::with_rule(rule)),
        "truth" => AnyDetector::Truth(TruthDetector::new()),
        other => return Err(UnknownDetector(other.to_string())),
    })
}

/// Parses a comma-separated detector list, or `all` (every name of `all`). Names are checked;
/// duplicates are dropped, order kept.
pub fn parse_list(text: &str, all: &[&str]) -> Result<Vec<String>, UnknownDetector> {
    let mut out: Vec<String> = Vec::new();
    for name in text.split(',').map(str::trim) {
        if name == "all" {
            for n in all {
                if !out.iter().any(|o| o == n) {
                    out.push(n.to_string());
                }
            }
            continue;
        }
        if name != "off" {
            by_name(name, RootRule::default())?;
        }
        if !out.iter().any(|o| o == name) {
            out.push(name.to_string());
        }
    }
    Ok(out)
}

macro_rules! dispatch {
    ($self:ident, $d:ident => $e:expr) => {
        match $self {
            AnyDetector::Linear($d) => $e,
            AnyDetector::TtOpen($d) => $e,
            AnyDetector::Filo($d) => $e,
            AnyDetector::Rookie($d) => $e,
            AnyDetector::Axon($d) => $e,
            AnyDetector::Matrix($d) => $e,
            AnyDetector::Cuckoo($d) => $e,
            AnyDetector::LinearCuckoo($d) => $e,
            AnyDetector::Truth($d) => $e,
        }
    };
}

impl Detector for AnyDetector {
    fn name(&self) -> &'static str {
        dispatch!(self, d => d.name())
    }
    fn clear(&mut self, capacity: usize) {
        dispatch!(self, d => d.clear(capacity))
    }
    #[inline]
    fn probe(&mut self, line: &Line, pos: &Position) -> Option<Repetition> {
        dispatch!(self, d => d.probe(line, pos))
    }
    #[inline]
    fn enter(&mut self, line: &Line, pos: &Position) {
        dispatch!(self, d => d.enter(line, pos))
    }
    #[inline]
    fn leave(&mut self, line: &Line, pos: &Position) {
        dispatch!(self, d => d.leave(line, pos))
    }
    #[inline]
    fn upcoming(&mut self, line: &Line, pos: &Position) -> bool {
        dispatch!(self, d => d.upcoming(line, pos))
    }
    fn stats(&self) -> Stats {
        dispatch!(self, d => d.stats())
    }
    fn memory_bytes(&self) -> usize {
        dispatch!(self, d => d.memory_bytes())
    }
}

/// Runs `$body` with `$d` bound to a fresh concrete detector named `$name` (`off` included), so
/// generic code is monomorphised per detector. Evaluates to `Result<_, UnknownDetector>`.
///
/// ```
/// use replab_registry::{with_detector, Detector, RootRule};
/// let name = with_detector!("rookie", RootRule::Stockfish, |d| d.name().to_string()).unwrap();
/// assert_eq!(name, "rookie");
/// ```
#[macro_export]
macro_rules! with_detector {
    ($name:expr, $rule:expr, |$d:ident| $body:expr) => {{
        let name: &str = $name;
        #[allow(unused_mut)]
        match name {
            "off" => {
                let mut $d = $crate::Off;
                Ok($body)
            }
            "linear" => {
                let mut $d = $crate::LinearDetector::new();
                Ok($body)
            }
            "tt-open" => {
                let mut $d = $crate::TtOpenDetector::new();
                Ok($body)
            }
            "filo" => {
                let mut $d = $crate::FiloDetector::new();
                Ok($body)
            }
            "rookie" => {
                let mut $d = $crate::RookieDetector::new();
                Ok($body)
            }
            "axon" => {
                let mut $d = $crate::AxonDetector::new();
                Ok($body)
            }
            "matrix" => {
                let mut $d = $crate::MatrixDetector::new();
                Ok($body)
            }
            "matrix-checksum" => {
                let mut $d = $crate::MatrixDetector::with_checksum();
                Ok($body)
            }
            "cuckoo" => {
                let mut $d = $crate::CuckooDetector::with_rule($rule);
                Ok($body)
            }
            "linear+cuckoo" => {
                let mut $d = $crate::LinearCuckoo::with_rule($rule);
                Ok($body)
            }
            "truth" => {
                let mut $d = $crate::TruthDetector::new();
                Ok($body)
            }
            other => Err($crate::UnknownDetector(other.to_string())),
        }
    }};
}
