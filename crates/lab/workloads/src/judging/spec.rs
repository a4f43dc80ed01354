//! The audit's shared vocabulary: what is audited ([`Spec`], [`Check`]), the kinds of error
//! ([`Kind`]) and their causes ([`Cause`]). Every other audit module uses these; this one uses
//! none of them.

use std::fmt;

pub use replab_registry::Sizing;
use replab_registry::{
    AnyDetector, Detector, DetectorInfo, RootRule, TableSize, TruthDetector, by_name,
    by_name_with_key_bits, by_name_with_size, info,
};
use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error as _};

/// What a detector is checked on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Check {
    /// `probe`: does the position repeat an earlier one?
    Probe,
    /// `upcoming`: does a legal move reach an earlier position?
    Upcoming,
}

impl Check {
    /// How `info`'s detector is audited: on its upcoming-cycle answer if that is all it gives
    /// (`cuckoo`), else on its probes.
    pub fn of(info: &DetectorInfo) -> Check {
        if info.caps.upcoming_only() {
            Check::Upcoming
        } else {
            Check::Probe
        }
    }

    /// The name written in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Check::Probe => "probe",
            Check::Upcoming => "upcoming",
        }
    }
}

/// A detector under audit: a registry row with its default configuration, or a table-size
/// variant of a row whose table size is configurable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// A detector of the registry with its default configuration.
    Named(&'static DetectorInfo),
    /// A detector whose table size is configurable, at this size (of the kind its row's
    /// [`sizing`](replab_registry::Capabilities::sizing) says).
    Sized(&'static DetectorInfo, TableSize),
    /// A detector whose keys can be truncated (`key_width`), comparing this many key bits
    /// (the key-width experiment, `replab key-width`).
    Keyed(&'static DetectorInfo, u32),
}

impl Spec {
    /// The registry's detector `name` with its default configuration, if the registry knows it.
    pub fn named(name: &str) -> Option<Spec> {
        info(name).map(Spec::Named)
    }

    /// The registry's detector `name` at table size `value` (index bits or slots, as its row's
    /// [`sizing`] says), if its table size is configurable.
    pub fn sized(name: &str, value: u64) -> Option<Spec> {
        let size = sizing(name)?.size(value)?;
        info(name).map(|row| Spec::Sized(row, size))
    }

    /// The registry's detector `name` comparing `bits`-bit keys, if its keys can be truncated
    /// and `bits` is a width the registry accepts.
    pub fn keyed(name: &str, bits: u32) -> Option<Spec> {
        let row = info(name).filter(|d| d.caps.key_width)?;
        by_name_with_key_bits(name, RootRule::AnyEarlier, bits).ok()?;
        Some(Spec::Keyed(row, bits))
    }

    /// The registry row of the technique.
    pub fn info(&self) -> &'static DetectorInfo {
        match self {
            Spec::Named(i) | Spec::Sized(i, _) | Spec::Keyed(i, _) => i,
        }
    }

    /// The name shown in tables and JSON (`tt-open/2^12`, `filo/16`, `rookie/2^4` for variants).
    pub fn label(&self) -> String {
        match self {
            Spec::Named(i) => i.name.to_owned(),
            Spec::Sized(i, TableSize::Bits(b)) => format!("{}/2^{b}", i.name),
            Spec::Sized(i, TableSize::Slots(n)) => format!("{}/{n}", i.name),
            Spec::Keyed(i, bits) => format!("{}/{bits}b", i.name),
        }
    }

    /// The registry name of the technique.
    pub fn technique(&self) -> &'static str {
        self.info().name
    }

    /// The table entries of a size variant.
    pub fn size(&self) -> Option<u64> {
        match self {
            Spec::Named(_) | Spec::Keyed(..) => None,
            Spec::Sized(_, s) => Some(s.entries()),
        }
    }

    /// Which answer is audited.
    pub fn check(&self) -> Check {
        Check::of(self.info())
    }

    /// A fresh detector, with [`RootRule::AnyEarlier`] (no root rule applies to a replayed
    /// game).
    pub fn build(&self) -> AnyDetector {
        let name = self.technique();
        match *self {
            Spec::Named(_) => by_name(name, RootRule::AnyEarlier).expect("a registry row"),
            Spec::Sized(_, size) => {
                by_name_with_size(name, size).expect("Spec::sized took the row's own sizing")
            }
            Spec::Keyed(_, bits) => by_name_with_key_bits(name, RootRule::AnyEarlier, bits)
                .expect("Spec::keyed checked the row and the width"),
        }
    }
}

/// How the table of the registry's detector `name` is sized: its row's
/// [`sizing`](replab_registry::Capabilities::sizing), [`None`] if its table size is not
/// configurable (or no row has that name).
pub fn sizing(name: &str) -> Option<Sizing> {
    info(name)?.caps.sizing
}

/// The name of the oracle every detector is compared with (`truth`), which is therefore not
/// itself audited.
pub fn oracle_name() -> &'static str {
    TruthDetector::new().name()
}

/// An error kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The detector reports a repetition (or an upcoming cycle) that truth denies.
    FalsePositive = 0,
    /// The detector misses one that truth reports.
    FalseNegative = 1,
}

impl Kind {
    /// Both kinds, in report order.
    pub const ALL: [Kind; 2] = [Kind::FalsePositive, Kind::FalseNegative];

    /// The JSON field name.
    pub fn key(self) -> &'static str {
        match self {
            Kind::FalsePositive => "false_positive",
            Kind::FalseNegative => "false_negative",
        }
    }

    /// Words for tables and comments.
    pub fn words(self) -> &'static str {
        match self {
            Kind::FalsePositive => "false positive",
            Kind::FalseNegative => "false negative",
        }
    }
}

/// Declares [`Cause`] with the text of each variant (its `Display` and JSON form).
macro_rules! causes {
    ($($(#[$doc:meta])* $variant:ident = $text:literal,)*) => {
        /// Why a detector disagrees with truth at a ply: a small fixed vocabulary, so errors
        /// can be counted per cause. Shown and serialised as its sentence ([`Cause::text`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Cause {
            $($(#[$doc])* $variant,)*
        }

        impl Cause {
            /// Every cause.
            pub const ALL: &[Cause] = &[$(Cause::$variant,)*];

            /// The sentence naming the cause, as written in tables, PGN comments and JSON.
            pub fn text(self) -> &'static str {
                match self {
                    $(Cause::$variant => $text,)*
                }
            }
        }
    };
}

causes! {
    /// The side to move differs: an odd number of plies separates the two positions.
    OddLength = "odd-length triangulation: the side to move differs",
    /// Same placement and side, different castling rights.
    Castling = "castling right lost between identical arrangements",
    /// Same placement, side and castling rights, different en-passant right.
    EnPassant = "en passant right differs",
    /// Different positions with equal keys.
    KeyCollision = "hash key collision",
    /// Pieces of different kinds went round one cycle of squares.
    Squares = "different pieces went round the same squares (chains follow squares)",
    /// The detector pointed before the line's start.
    BeforeStart = "reported occurrence lies before the line's start",
    /// Same-kind pieces ended on each other's squares.
    Swapped = "same-kind pieces swapped squares",
    /// A fixed-size list overflowed during the probe.
    Overflow = "move list/chain overflow",
    /// `tt-open` could not open the earlier occurrence's entry.
    TtMiss = "table slot collision: the earlier occurrence's slot was held by another open \
              position (miss)",
    /// `filo` had no free slot for the earlier occurrence.
    FiloMiss = "table full: the earlier occurrence was not stored (miss)",
    /// Another detector lost a position.
    Miss = "a position was not stored (miss)",
    /// Cuckoo: the reversible move would lose a castling right.
    CycleCastling = "the cycling move loses a castling right",
    /// Cuckoo: no legal move repeats although a table move matches the key difference.
    TableMatch = "key difference matches a table move, no legal move repeats",
    /// Cuckoo: the repeating move is a capture, pawn move or castling.
    Irreversible = "the cycle closes with an irreversible move",
    /// Cuckoo: the earlier position lies beyond `min(halfmove clock, plies since null)`.
    BeyondSpan = "earlier position lies beyond the halfmove-clock span",
    /// None of the above.
    Unclassified = "unclassified",
    /// A replay of the case did not show the error again.
    NotReproduced = "not reproduced",
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl Serialize for Cause {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.text())
    }
}

impl<'de> Deserialize<'de> for Cause {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Cause::ALL
            .iter()
            .copied()
            .find(|c| c.text() == text)
            .ok_or_else(|| D::Error::custom(format!("unknown cause {text:?}")))
    }
}

#[cfg(test)]
mod tests {
    use replab_registry::DETECTORS;

    use super::*;

    #[test]
    fn spec_labels_and_checks() {
        for row in DETECTORS {
            let name = row.name;
            let check = if row.caps.upcoming_only() {
                Check::Upcoming
            } else {
                Check::Probe
            };
            assert_eq!(Spec::named(name).unwrap().check(), check, "{name}");
            // Index bits are labelled `2^bits`, slot counts as they are.
            let sized = Spec::sized(name, 4);
            match row.caps.sizing {
                Some(Sizing::Bits) => {
                    let spec = sized.unwrap();
                    assert_eq!(spec.label(), format!("{name}/2^4"));
                    assert_eq!(spec.size(), Some(16));
                    assert_eq!((spec.check(), spec.build().name()), (check, name));
                }
                Some(Sizing::Slots) => {
                    let spec = sized.unwrap();
                    assert_eq!(spec.label(), format!("{name}/4"));
                    assert_eq!(spec.size(), Some(4));
                    assert_eq!((spec.check(), spec.build().name()), (check, name));
                }
                None => assert!(sized.is_none(), "{name}"),
            }
            let keyed = Spec::keyed(name, 32);
            if row.caps.key_width {
                let spec = keyed.unwrap();
                assert_eq!(spec.label(), format!("{name}/32b"));
                assert_eq!(spec.check(), check, "{name}");
                assert!(Spec::keyed(name, 65).is_none(), "{name}");
            } else {
                assert!(keyed.is_none(), "{name}");
            }
        }
        assert!(Spec::named("nosuch").is_none());
        assert_eq!(oracle_name(), TruthDetector::new().name());
    }

    #[test]
    fn every_table_size_row_can_be_sized() {
        for row in DETECTORS.iter().filter(|d| d.caps.table_size) {
            let spec = Spec::sized(row.name, 4).unwrap_or_else(|| panic!("{}", row.name));
            assert_eq!(spec.build().name(), row.name);
        }
    }

    #[test]
    fn causes_serialise_as_their_sentences() {
        for &c in Cause::ALL {
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(json, format!("{:?}", c.text()));
            assert_eq!(serde_json::from_str::<Cause>(&json).unwrap(), c);
            assert_eq!(c.to_string(), c.text());
        }
        assert!(serde_json::from_str::<Cause>("\"nonsense\"").is_err());
        assert_eq!(
            serde_json::to_string(&Kind::FalseNegative).unwrap(),
            "\"false_negative\""
        );
        assert_eq!(
            serde_json::to_string(&Check::Upcoming).unwrap(),
            "\"upcoming\""
        );
    }
}
