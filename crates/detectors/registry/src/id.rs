//! What a [`DetectorId`] knows, all read from its table row: its name, colour and capabilities,
//! and how it is written and read (as the contract name).

use crate::{
    Capabilities, Colour, DETECTORS, DetectorId, DetectorInfo, OFF_COLOUR, UnknownDetector,
};

impl DetectorId {
    /// Every id: `off`, then the table's rows in table order.
    pub const ALL: &[DetectorId] = &all_ids();

    /// The contract name (`off` for [`DetectorId::Off`]).
    pub const fn name(self) -> &'static str {
        match self.info() {
            Some(row) => row.name,
            None => "off",
        }
    }

    /// The id called `name` (`off` included), if any.
    pub fn from_name(name: &str) -> Option<DetectorId> {
        match name {
            "off" => Some(DetectorId::Off),
            _ => crate::info(name).map(|row| row.id),
        }
    }

    /// Its table row ([`None`] for [`DetectorId::Off`]).
    pub const fn info(self) -> Option<&'static DetectorInfo> {
        // The rows are in variant order, after `Off` (the table checks it when it compiles).
        match (self as usize).checked_sub(1) {
            Some(i) => Some(&DETECTORS[i]),
            None => None,
        }
    }

    /// Its colour on every page: its row's, [`OFF_COLOUR`] for `off`.
    pub fn colour(self) -> Colour {
        self.info().map_or(OFF_COLOUR, |d| d.colour)
    }

    /// Its capabilities ([`Capabilities::NONE`] for `off`).
    pub fn caps(self) -> Capabilities {
        self.info().map_or(Capabilities::NONE, |d| d.caps)
    }

    /// The reference detector: the row with [`Capabilities::reference`] (`linear`).
    pub const fn reference() -> DetectorId {
        let mut i = 0;
        while i < DETECTORS.len() {
            if DETECTORS[i].caps.reference {
                return DETECTORS[i].id;
            }
            i += 1;
        }
        panic!("the table has a reference row")
    }

    /// The listed rows whose capabilities satisfy `keep`, in table order.
    pub fn select(keep: impl Fn(&Capabilities) -> bool) -> Vec<DetectorId> {
        DETECTORS
            .iter()
            .filter(|d| d.caps.listed && keep(&d.caps))
            .map(|d| d.id)
            .collect()
    }
}

/// [`DetectorId::ALL`]: `off`, then every row's id.
const fn all_ids() -> [DetectorId; DETECTORS.len() + 1] {
    let mut ids = [DetectorId::Off; DETECTORS.len() + 1];
    let mut i = 0;
    while i < DETECTORS.len() {
        ids[i + 1] = DETECTORS[i].id;
        i += 1;
    }
    ids
}

impl std::fmt::Display for DetectorId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

impl std::str::FromStr for DetectorId {
    type Err = UnknownDetector;

    fn from_str(name: &str) -> Result<DetectorId, UnknownDetector> {
        DetectorId::from_name(name).ok_or_else(|| UnknownDetector(name.to_string()))
    }
}

impl AsRef<str> for DetectorId {
    fn as_ref(&self) -> &str {
        self.name()
    }
}

impl PartialEq<str> for DetectorId {
    fn eq(&self, other: &str) -> bool {
        self.name() == other
    }
}

impl PartialEq<&str> for DetectorId {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

impl serde::Serialize for DetectorId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for DetectorId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<DetectorId, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}
