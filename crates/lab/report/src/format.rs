//! Number formatting for tables and captions.
//!
//! Sign style: negative numbers use U+2212 MINUS SIGN (`−`), which has the width of a digit in
//! tabular figures; the table sort script reads it. Positive numbers carry no sign, except
//! in [`fmt_delta_pct`], which is meant for changes. A value that rounds to zero never
//! shows a sign. Non-finite values print as `n/a`, `∞` or `−∞`.

use std::fmt::Display;

/// The minus sign used for negative numbers.
pub const MINUS: char = '\u{2212}';

mod sealed {
    pub trait Sealed {}
}

/// A primitive integer type, accepted by [`fmt_int`].
pub trait Integer: Display + sealed::Sealed {}

macro_rules! integer {
    ($($t:ty)*) => {$( impl sealed::Sealed for $t {} impl Integer for $t {} )*};
}
integer!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize);

/// Groups the digits of a plain decimal string (`-1234567` → `−1,234,567`).
fn group_digits(plain: &str) -> String {
    let (negative, digits) = match plain.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, plain),
    };
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 3);
    if negative {
        out.push(MINUS);
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// An integer with thousands separators: `fmt_int(1234567)` → `1,234,567`, `fmt_int(-5)` → `−5`.
pub fn fmt_int(n: impl Integer) -> String {
    group_digits(&n.to_string())
}

/// A non-finite value, or `None` for a finite one.
fn non_finite(x: f64) -> Option<String> {
    if x.is_nan() {
        Some("n/a".to_owned())
    } else if x.is_infinite() {
        Some(if x > 0.0 { "∞" } else { "−∞" }.to_owned())
    } else {
        None
    }
}

/// `x` with `decimals` decimals and grouped thousands; `force_plus` prefixes `+` to positives.
fn fmt_fixed(x: f64, decimals: usize, force_plus: bool) -> String {
    if let Some(s) = non_finite(x) {
        return s;
    }
    let plain = format!("{x:.decimals$}");
    // Drop the sign of a value that rounds to zero ("-0.0").
    let is_zero = plain.bytes().all(|b| matches!(b, b'-' | b'0' | b'.'));
    let plain = if is_zero {
        plain.trim_start_matches('-')
    } else {
        &plain
    };
    let (int, frac) = plain.split_at(plain.find('.').unwrap_or(plain.len()));
    let mut out = group_digits(int);
    out.push_str(frac);
    if force_plus && !is_zero && x > 0.0 {
        out.insert(0, '+');
    }
    out
}

/// A fraction as a percentage with one decimal: `fmt_pct(-0.1834)` → `−18.3%`,
/// `fmt_pct(0.5)` → `50.0%`.
pub fn fmt_pct(fraction: f64) -> String {
    if let Some(s) = non_finite(fraction) {
        return s;
    }
    format!("{}%", fmt_fixed(fraction * 100.0, 1, false))
}

/// A relative change as a signed percentage: `fmt_delta_pct(0.25)` → `+25.0%`,
/// `fmt_delta_pct(-0.1834)` → `−18.3%`, `fmt_delta_pct(0.0)` → `0.0%`.
pub fn fmt_delta_pct(fraction: f64) -> String {
    if let Some(s) = non_finite(fraction) {
        return s;
    }
    format!("{}%", fmt_fixed(fraction * 100.0, 1, true))
}

/// Milliseconds with three significant digits below 100 ms and whole milliseconds above:
/// `0.0123` → `0.0123 ms`, `1.5` → `1.50 ms`, `42.26` → `42.3 ms`, `12345.6` → `12,346 ms`.
pub fn fmt_ms(ms: f64) -> String {
    if let Some(s) = non_finite(ms) {
        return format!("{s} ms");
    }
    let abs = ms.abs();
    let decimals = if abs == 0.0 || abs >= 100.0 {
        0
    } else {
        // Three significant digits: 1.23, 12.3, 0.123, 0.0123 ...
        let exponent = abs.log10().floor() as i32;
        let decimals = (2 - exponent).clamp(0, 9);
        // One digit fewer when rounding carries into the next power of ten (9.999 -> 10.0).
        let scale = 10f64.powi(decimals);
        if (abs * scale).round() / scale >= 10f64.powi(exponent + 1) {
            (decimals - 1).max(0) as usize
        } else {
            decimals as usize
        }
    };
    format!("{} ms", fmt_fixed(ms, decimals, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints() {
        assert_eq!(fmt_int(0), "0");
        assert_eq!(fmt_int(999u32), "999");
        assert_eq!(fmt_int(1000), "1,000");
        assert_eq!(fmt_int(1_234_567), "1,234,567");
        assert_eq!(fmt_int(-1_234_567_i64), "−1,234,567");
        assert_eq!(fmt_int(u64::MAX), "18,446,744,073,709,551,615");
        assert_eq!(fmt_int(123_456usize), "123,456");
    }

    #[test]
    fn percentages() {
        assert_eq!(fmt_pct(-0.1834), "−18.3%");
        assert_eq!(fmt_pct(0.5), "50.0%");
        assert_eq!(fmt_pct(12.345), "1,234.5%");
        assert_eq!(fmt_pct(-0.0001), "0.0%");
        assert_eq!(fmt_pct(f64::NAN), "n/a");
        assert_eq!(fmt_delta_pct(0.25), "+25.0%");
        assert_eq!(fmt_delta_pct(-0.1834), "−18.3%");
        assert_eq!(fmt_delta_pct(0.0), "0.0%");
        assert_eq!(fmt_delta_pct(0.00001), "0.0%");
    }

    #[test]
    fn milliseconds() {
        assert_eq!(fmt_ms(0.0), "0 ms");
        assert_eq!(fmt_ms(0.0123), "0.0123 ms");
        assert_eq!(fmt_ms(1.5), "1.50 ms");
        assert_eq!(fmt_ms(42.26), "42.3 ms");
        assert_eq!(fmt_ms(99.99), "100 ms");
        assert_eq!(fmt_ms(9.999), "10.0 ms");
        assert_eq!(fmt_ms(12_345.6), "12,346 ms");
        assert_eq!(fmt_ms(-2.0), "−2.00 ms");
    }
}
