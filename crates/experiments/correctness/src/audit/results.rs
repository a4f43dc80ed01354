//! What an audit found, in the shape of its `results.json`: [`Results`] serialises to the file
//! (field for field as `docs/contracts.md` lists it) and reads back from it.

use std::{fmt, marker::PhantomData};

use replab_registry::Stats;
use replab_report::Meta;
use serde::{
    Deserialize, Deserializer, Serialize, Serializer,
    de::{MapAccess, Visitor},
    ser::SerializeMap,
};

use super::{
    judge::Totals,
    shrink::Case,
    spec::{Cause, Check, Kind},
};

/// A JSON object whose entries keep their order: `(key, value)` pairs.
#[derive(Clone, Debug, PartialEq)]
pub struct Ordered<T>(pub Vec<(String, T)>);

impl<T> Ordered<T> {
    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The values, in order.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter().map(|(_, v)| v)
    }
}

impl<T> Default for Ordered<T> {
    fn default() -> Self {
        Ordered(Vec::new())
    }
}

impl<T: Serialize> Serialize for Ordered<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Ordered<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Entries<T> {
            type Value = Ordered<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some(entry) = map.next_entry()? {
                    out.push(entry);
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(Entries(PhantomData))
    }
}

/// The `meta` object: provenance, the run's settings and its timings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditMeta {
    /// Where and how the report was made.
    #[serde(flatten)]
    pub meta: Meta,
    /// The settings of the run (written flat, beside the provenance; the command is the
    /// provenance's).
    #[serde(flatten)]
    pub settings: super::Config,
    /// Wall time of playing and judging the games, seconds (one measurement: a single sample).
    pub play_seconds: crate::stats::Estimate,
    /// Wall time of shrinking the counterexamples, seconds (a single sample).
    pub shrink_seconds: crate::stats::Estimate,
}

/// A shrunk counterexample: a minimal game whose last ply is an error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    /// Its length in plies; the error is at the last one.
    pub plies: usize,
    /// The game as PGN, with `SetUp`/`FEN` tags and comments naming the detector and error.
    pub pgn: String,
    /// Why the detector errs.
    pub cause: Cause,
    /// The start position (FEN).
    pub fen_start: String,
    /// The moves (SAN).
    pub moves: Vec<String>,
    /// The moves (UCI).
    pub uci: Vec<String>,
    /// What the detector and truth say at the erroneous ply.
    pub detail: String,
    /// The random game it was found in.
    pub game: u64,
    /// Plies of that game up to its error, before shrinking.
    pub found_plies: usize,
}

impl Example {
    /// The start position and moves, read back from [`Example::fen_start`] and
    /// [`Example::uci`].
    pub fn case(&self) -> Option<Case> {
        Case::from_uci(&self.fen_start, &self.uci)
    }
}

/// The shortest shrunk counterexample of each error kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counterexamples {
    /// Of a false positive, if there was one.
    pub false_positive: Option<Example>,
    /// Of a false negative, if there was one.
    pub false_negative: Option<Example>,
}

impl Counterexamples {
    /// The counterexample of `kind`.
    pub fn get(&self, kind: Kind) -> Option<&Example> {
        match kind {
            Kind::FalsePositive => self.false_positive.as_ref(),
            Kind::FalseNegative => self.false_negative.as_ref(),
        }
    }

    /// Sets the counterexample of `kind`.
    pub fn set(&mut self, kind: Kind, example: Option<Example>) {
        match kind {
            Kind::FalsePositive => self.false_positive = example,
            Kind::FalseNegative => self.false_negative = example,
        }
    }
}

/// The errors of one kind and cause.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CauseCount {
    /// The error kind.
    pub kind: Kind,
    /// The cause.
    pub cause: Cause,
    /// Erroneous plies.
    pub count: u64,
    /// The shortest erroneous game of this cause, shrunk (main detectors only).
    pub example: Option<Example>,
}

/// One audited detector (or table-size variant) against truth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Audited {
    /// The detector's name, or the variant's label (`tt-open/2^12`, `filo/64` …).
    pub detector: String,
    /// Which answer was audited.
    pub check: Check,
    /// Table entries of a size variant; `None` for a detector at its default size.
    pub size: Option<u64>,
    /// Plies where detector and oracle both say yes.
    pub true_positive: u64,
    /// The detector says yes, the oracle no.
    pub false_positive: u64,
    /// The detector says no, the oracle yes.
    pub false_negative: u64,
    /// Both say no.
    pub true_negative: u64,
    /// TP / (TP + FP), `None` when the detector never said yes.
    pub precision: Option<f64>,
    /// TP / (TP + FN), `None` when the oracle never said yes.
    pub recall: Option<f64>,
    /// (FP + FN) / plies judged.
    pub error_rate: Option<f64>,
    /// Errors made in a game after the detector had failed to store a position (a miss) or
    /// overflowed.
    pub errors_after_miss_or_overflow: u64,
    /// The detector's own counters, summed over games.
    pub stats: Stats,
    /// The shortest shrunk counterexample per error kind (main detectors only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counterexamples: Option<Counterexamples>,
    /// Every error by kind and cause: false positives first, then by count (descending), then
    /// by cause.
    pub causes: Vec<CauseCount>,
}

impl Audited {
    /// FP + FN.
    pub fn errors(&self) -> u64 {
        self.false_positive + self.false_negative
    }

    /// The counterexample of `kind`, if any.
    pub fn example(&self, kind: Kind) -> Option<&Example> {
        self.counterexamples.as_ref().and_then(|c| c.get(kind))
    }
}

/// Everything an audit found: the content of `results.json`, and all the page shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// Provenance, parameters and timings.
    pub meta: AuditMeta,
    /// Totals over all games.
    pub totals: Totals,
    /// The audited detectors by name, in the order audited.
    pub detectors: Ordered<Audited>,
    /// The table-size experiments: technique → its size variants, in the order given.
    pub table_size: Ordered<Vec<Audited>>,
}
