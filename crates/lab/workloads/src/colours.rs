//! Chart series in the detectors' own colours. `replab-report` knows no detector: a series
//! named after a detector (its contract name, `off` included) gets its registry row's colour
//! from here, any other series the report palette's colour for its name.

use replab_registry::{Colour, DetectorId};
use replab_report::{RGBColor, Series, palette};

/// The colour of the series `name`: the detector's, else the report palette's.
pub fn colour(name: &str) -> RGBColor {
    DetectorId::from_name(name).map_or_else(
        || palette::colour(name),
        |id| {
            let Colour(r, g, b) = id.colour();
            RGBColor(r, g, b)
        },
    )
}

/// [`colour`] as a CSS hex colour, e.g. `#d55e00` for `axon`.
pub fn colour_hex(name: &str) -> String {
    replab_report::hex(colour(name))
}

/// A solid series `name` in its [`colour`] ([`Series::new`]).
pub fn series(name: impl Into<String>, points: impl IntoIterator<Item = (f64, f64)>) -> Series {
    let s = Series::new(name, points);
    let c = colour(&s.name);
    s.coloured(c)
}

/// A series of one value per category `name` in its [`colour`] ([`Series::values`]).
pub fn values(name: impl Into<String>, values: impl IntoIterator<Item = f64>) -> Series {
    let s = Series::values(name, values);
    let c = colour(&s.name);
    s.coloured(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detectors_have_their_rows_colours_and_others_none_of_them() {
        let named: Vec<String> = DetectorId::ALL
            .iter()
            .map(|id| id.name())
            .chain(palette::OTHERS.iter().map(|(n, _)| *n))
            .map(colour_hex)
            .collect();
        for (i, a) in named.iter().enumerate() {
            assert!(!named[i + 1..].contains(a), "{a} is two series' colour");
        }
        for id in DetectorId::ALL {
            assert_eq!(colour_hex(id.name()), id.colour().hex(), "{id}");
        }
        assert_eq!(colour_hex("axon"), "#d55e00");
        assert_eq!(colour_hex("truth"), "#000000");
        assert_eq!(values("axon", [1.0]).colour(), colour("axon"));
        assert_eq!(series("paper-on", []).colour(), palette::colour("paper-on"));
        for c in palette::FALLBACK {
            let hex = replab_report::hex(c);
            assert!(
                !named.contains(&hex),
                "fallback {hex} is a named series' colour"
            );
        }
    }
}
