//! Fixed colours for named series, so a series looks the same on every page.
//!
//! This crate knows no detector: a detector's colour is given by the caller
//! ([`crate::Series::coloured`]; the lab's `replab_workloads::colours` gives every detector's
//! series its registry row's colour). Other series get one of [`OTHERS`] or, failing that, of
//! [`FALLBACK`], colours no detector row uses (`replab_workloads::colours` checks it).

pub use plotters::style::RGBColor;

/// The named series that are not detectors: the paper's series, light variants of what they
/// are compared with (`paper-off` ~ `off`, `paper-on` ~ `axon`).
pub const OTHERS: [(&str, RGBColor); 2] = [
    ("paper-off", RGBColor(0xAA, 0xAA, 0xAA)),
    ("paper-on", RGBColor(0xF4, 0xA5, 0x82)),
];

/// Colours for other names (Paul Tol's "light" scheme and darker companions), none of them a
/// detector's or one of [`OTHERS`]; a name picks one by a stable hash, so it keeps its colour
/// across runs, machines and Rust versions.
pub const FALLBACK: [RGBColor; 9] = [
    RGBColor(0x77, 0xAA, 0xDD),
    RGBColor(0xEE, 0x88, 0x66),
    RGBColor(0xEE, 0xDD, 0x88),
    RGBColor(0xFF, 0xAA, 0xBB),
    RGBColor(0x99, 0xDD, 0xFF),
    RGBColor(0x44, 0xBB, 0x99),
    RGBColor(0xBB, 0xCC, 0x33),
    RGBColor(0x22, 0x55, 0x55),
    RGBColor(0x66, 0x33, 0x33),
];

/// The colour of a series `name` given no colour by its caller: its entry in [`OTHERS`], else
/// a [`FALLBACK`] colour chosen by the FNV-1a hash of the name.
pub fn colour(name: &str) -> RGBColor {
    if let Some(&(_, c)) = OTHERS.iter().find(|(n, _)| *n == name) {
        return c;
    }
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    // The remainder is below FALLBACK.len(), so the cast is lossless.
    FALLBACK[(hash % FALLBACK.len() as u64) as usize]
}

/// [`colour`] as a CSS hex colour, e.g. `#aaaaaa`.
pub fn colour_hex(name: &str) -> String {
    hex(colour(name))
}

/// A colour as a CSS hex colour, e.g. `#d55e00`.
pub fn hex(RGBColor(r, g, b): RGBColor) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}
