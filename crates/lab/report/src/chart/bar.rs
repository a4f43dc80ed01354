//! Grouped bar charts: one group per category, one bar per series.

use std::ops::Range;

use plotters::{
    coord::ranged1d::{AsRangedCoord, DefaultFormatting, KeyPointHint, ValueFormatter},
    prelude::*,
};

use super::{
    Area, Chart, DEFAULT_SIZE, DESC_SIZE, DrawResult, FONT, LABEL_SIZE, Series, Swatch, bar_fill,
    drawable, fmt_axis, frame, legend_width, light_lines, linear_range, log_range, render, y_desc,
};
use crate::ReportError;

/// A grouped bar chart, e.g. cost per detector.
///
/// A series' point `(i, v)` is its value for `categories[i]` (see [`Series::values`]); other
/// points are ignored, and with `log_y` so are values `<= 0`. Bars start at 0 on a linear
/// axis and at the bottom of the axis on a log one. The chart widens when the category names
/// need room.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BarChart {
    /// Title above the chart.
    pub title: String,
    /// X axis description, e.g. `detector`.
    pub x_label: String,
    /// Y axis description, with unit, e.g. `nodes (count)`.
    pub y_label: String,
    /// Logarithmic y axis.
    pub log_y: bool,
    /// One group of bars per category, labelled on the x axis.
    pub categories: Vec<String>,
    /// One bar per series in each group, in legend order.
    pub series: Vec<Series>,
}

/// Horizontal room for the y axis labels and margins.
const Y_AXIS_ROOM: u32 = 100;

impl BarChart {
    /// An empty linear chart; fill `categories` and `series`.
    pub fn new(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
    ) -> Self {
        Self {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            ..Self::default()
        }
    }

    /// The drawable bars: `(category, series, value)`.
    fn bars(&self) -> Vec<(usize, usize, f64)> {
        let n = self.categories.len();
        let mut bars = Vec::new();
        for (j, s) in self.series.iter().enumerate() {
            for &(x, v) in &s.points {
                let in_range = x >= 0.0 && x.fract() == 0.0 && x < n as f64;
                if in_range && drawable(v, self.log_y) {
                    // `x` is a whole number in 0..n, so the cast is exact.
                    bars.push((x as usize, j, v));
                }
            }
        }
        bars
    }

    fn draw(&self, root: &Area<'_>) -> DrawResult {
        let bars = self.bars();
        let plot = frame(root, &self.title, &self.series, Swatch::Bar)?;
        let values = || bars.iter().map(|b| b.2);
        if self.log_y {
            let y = log_range(values());
            let floor = y.start;
            self.draw_in(&plot, &bars, y.log_scale(), floor)
        } else {
            self.draw_in(&plot, &bars, linear_range(values()), 0.0)
        }
    }

    fn draw_in<Y>(
        &self,
        plot: &Area<'_>,
        bars: &[(usize, usize, f64)],
        y: Y,
        base: f64,
    ) -> DrawResult
    where
        Y: AsRangedCoord<Value = f64>,
        Y::CoordDescType: ValueFormatter<f64>,
    {
        let n = self.categories.len().max(1);
        let x = CategoryAxis { n };
        let mut ctx = ChartBuilder::on(plot)
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d(x, y)?;
        let category = |v: &f64| {
            let i = v.floor();
            if i >= 0.0 {
                // `i` is a whole non-negative number; out-of-range indices give no label.
                self.categories.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        ctx.configure_mesh()
            .disable_x_mesh()
            .x_labels(self.categories.len())
            .x_desc(self.x_label.as_str())
            .y_desc(y_desc(&self.y_label, self.log_y))
            .axis_desc_style((FONT, DESC_SIZE))
            .label_style((FONT, LABEL_SIZE))
            .x_label_formatter(&category)
            .y_label_formatter(&|v| fmt_axis(*v))
            .light_line_style(light_lines())
            .draw()?;
        let k = self.series.len().max(1) as f64;
        let width = 0.8 / k;
        for &(i, j, v) in bars {
            let x0 = i as f64 + 0.1 + j as f64 * width;
            let (x0, x1) = (x0 + width * 0.06, x0 + width * 0.94);
            let colour = self.series[j].colour();
            let corners = [(x0, base), (x1, v)];
            ctx.draw_series([
                Rectangle::new(corners, bar_fill(colour, self.series[j].dashed)),
                Rectangle::new(corners, colour.stroke_width(1)),
            ])?;
        }
        Ok(())
    }
}

/// An x axis of `n` categories: category `i` spans `i..i + 1`, with its tick at the centre.
pub(super) struct CategoryAxis {
    pub(super) n: usize,
}

impl Ranged for CategoryAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = f64::from(limit.1 - limit.0);
        // Pixel coordinates fit in i32.
        limit.0 + (value / self.n as f64 * span).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            (0..self.n).map(|i| i as f64 + 0.5).collect()
        }
    }

    fn range(&self) -> Range<f64> {
        0.0..self.n as f64
    }
}

impl Chart for BarChart {
    fn title(&self) -> &str {
        &self.title
    }

    /// [`DEFAULT_SIZE`], widened so neighbouring category labels do not overlap.
    fn size(&self) -> (u32, u32) {
        // Tick labels are about 6.7 px per character; neighbours share the gap between centres.
        let label_w = |c: &String| 6.7 * c.chars().count() as f64;
        let widest_pair = self
            .categories
            .windows(2)
            .map(|w| (label_w(&w[0]) + label_w(&w[1])) / 2.0)
            .chain(self.categories.first().map(label_w))
            .fold(0.0, f64::max);
        let slot = widest_pair + 14.0;
        let plot = self.categories.len() as f64 * slot + f64::from(Y_AXIS_ROOM);
        let legend = f64::from(legend_width(&self.series, 3 * DEFAULT_SIZE.0));
        // Bounded by the clamp, so the cast cannot overflow.
        let width = (plot + legend)
            .clamp(f64::from(DEFAULT_SIZE.0), 2400.0)
            .ceil() as u32;
        (width, DEFAULT_SIZE.1)
    }

    fn to_svg(&self) -> Result<String, ReportError> {
        render(&self.title, self.size(), |root| self.draw(root))
    }
}
