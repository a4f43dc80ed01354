//! The median, defined once for the workspace: the middle value of the sorted values, or the
//! mean of the two middle values for an even count.

/// The 0-based ranks, among `n` values sorted in increasing order, of the two values a median
/// is taken from: the middle one twice for an odd `n`, the lower and the upper middle for an
/// even one; `None` for no value.
///
/// A caller that must report a value of the sample itself (a whole depth, a whole node count)
/// takes one of the two ranks instead of the [`median`] of both.
pub fn middle_ranks(n: usize) -> Option<[usize; 2]> {
    (n > 0).then(|| [(n - 1) / 2, n / 2])
}

/// The sample median of `values` (sorted by [`f64::total_cmp`]): the middle value, the mean of
/// the two middle values for an even count; `NaN` for no value.
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match middle_ranks(sorted.len()) {
        None => f64::NAN,
        Some([lower, upper]) if lower == upper => sorted[lower],
        Some([lower, upper]) => (sorted[lower] + sorted[upper]) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_middle_ranks_are_one_for_odd_counts_and_two_for_even_ones() {
        assert_eq!(middle_ranks(0), None);
        assert_eq!(middle_ranks(1), Some([0, 0]));
        assert_eq!(middle_ranks(2), Some([0, 1]));
        assert_eq!(middle_ranks(5), Some([2, 2]));
        assert_eq!(middle_ranks(6), Some([2, 3]));
    }

    #[test]
    fn the_median_is_the_middle_value_or_the_mean_of_the_two_middle_ones() {
        assert!(median(&[]).is_nan());
        assert_eq!(median(&[7.0]), 7.0);
        assert_eq!(median(&[5.0, 1.0, 4.0, 2.0, 3.0]), 3.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        // Whole numbers of an even count: the mean of the middle two, exactly.
        assert_eq!(median(&[10.0, 13.0]), 11.5);
        // The order the values come in does not matter.
        assert_eq!(median(&[3.0, -1.0, 2.0]), median(&[2.0, 3.0, -1.0]));
    }
}
