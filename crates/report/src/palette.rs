//! One fixed colour per detector, so a detector looks the same on every page.

pub use plotters::style::RGBColor;

/// The colour of every named series. Built from the Okabe–Ito and Paul Tol palettes, which stay
/// distinguishable under the common forms of colour blindness; `truth` is black, `off` grey, and
/// the paper's series are light variants of what they are compared with (`paper-off` ~ `off`,
/// `paper-on` ~ `axon`).
pub const NAMED: [(&str, RGBColor); 13] = [
    ("off", RGBColor(0x77, 0x77, 0x77)),
    ("linear", RGBColor(0x00, 0x72, 0xB2)),
    ("tt-open", RGBColor(0xE6, 0x9F, 0x00)),
    ("filo", RGBColor(0x00, 0x9E, 0x73)),
    ("rookie", RGBColor(0xCC, 0x79, 0xA7)),
    ("axon", RGBColor(0xD5, 0x5E, 0x00)),
    ("matrix", RGBColor(0x56, 0xB4, 0xE9)),
    ("matrix-checksum", RGBColor(0x33, 0x22, 0x88)),
    ("cuckoo", RGBColor(0x99, 0x99, 0x33)),
    ("linear+cuckoo", RGBColor(0x88, 0x22, 0x55)),
    ("truth", RGBColor(0x00, 0x00, 0x00)),
    ("paper-off", RGBColor(0xAA, 0xAA, 0xAA)),
    ("paper-on", RGBColor(0xF4, 0xA5, 0x82)),
];

/// Colours for names not in [`NAMED`] (Paul Tol's "muted" scheme); a name picks one by a stable
/// hash, so it keeps its colour across runs, machines and Rust versions.
pub const FALLBACK: [RGBColor; 9] = [
    RGBColor(0x33, 0x22, 0x88),
    RGBColor(0x88, 0xCC, 0xEE),
    RGBColor(0x44, 0xAA, 0x99),
    RGBColor(0x11, 0x77, 0x33),
    RGBColor(0x99, 0x99, 0x33),
    RGBColor(0xDD, 0xCC, 0x77),
    RGBColor(0xCC, 0x66, 0x77),
    RGBColor(0x88, 0x22, 0x55),
    RGBColor(0xAA, 0x44, 0x99),
];

/// The colour of the series `name`: its entry in [`NAMED`], else a [`FALLBACK`] colour chosen
/// by the FNV-1a hash of the name.
pub fn colour(name: &str) -> RGBColor {
    if let Some(&(_, c)) = NAMED.iter().find(|(n, _)| *n == name) {
        return c;
    }
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    // The remainder is below FALLBACK.len(), so the cast is lossless.
    FALLBACK[(hash % FALLBACK.len() as u64) as usize]
}

/// [`colour`] as a CSS hex colour, e.g. `#d55e00`.
pub fn colour_hex(name: &str) -> String {
    let RGBColor(r, g, b) = colour(name);
    format!("#{r:02x}{g:02x}{b:02x}")
}
