//! Line charts: one line with markers per series.

use std::ops::Range;

use plotters::{
    coord::ranged1d::{AsRangedCoord, ValueFormatter},
    prelude::*,
};

use super::{
    Area, Chart, DESC_SIZE, DrawResult, FONT, LABEL_SIZE, Series, Swatch, draw_marker, drawable,
    fmt_axis, frame, light_lines, linear_range, log_range, render, y_desc,
};
use crate::ReportError;

/// A line chart with labelled axes, a legend and a marker at every point.
///
/// With `log_y`, points with `y <= 0` cannot be drawn and are left out; lines join the
/// remaining points. Points are joined in order of `x`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LineChart {
    /// Title above the chart.
    pub title: String,
    /// X axis description, with unit, e.g. `depth (plies)`.
    pub x_label: String,
    /// Y axis description, with unit, e.g. `time (ms)`.
    pub y_label: String,
    /// Logarithmic y axis.
    pub log_y: bool,
    /// The lines, in legend order.
    pub series: Vec<Series>,
}

impl LineChart {
    /// An empty linear chart; add series to `series`.
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

    /// The drawable points of each series, sorted by x.
    fn drawable_points(&self) -> Vec<Vec<(f64, f64)>> {
        self.series
            .iter()
            .map(|s| {
                let mut pts: Vec<_> = s
                    .points
                    .iter()
                    .copied()
                    .filter(|&(x, y)| x.is_finite() && drawable(y, self.log_y))
                    .collect();
                pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                pts
            })
            .collect()
    }

    fn draw(&self, root: &Area<'_>) -> DrawResult {
        let points = self.drawable_points();
        let plot = frame(root, &self.title, &self.series, Swatch::Line)?;
        let xs = || points.iter().flatten().map(|p| p.0);
        let ys = || points.iter().flatten().map(|p| p.1);
        let x = x_range(xs());
        if self.log_y {
            self.draw_in(&plot, &points, x, log_range(ys()).log_scale())
        } else {
            self.draw_in(&plot, &points, x, linear_range(ys()))
        }
    }

    fn draw_in<Y>(
        &self,
        plot: &Area<'_>,
        points: &[Vec<(f64, f64)>],
        x: Range<f64>,
        y: Y,
    ) -> DrawResult
    where
        Y: AsRangedCoord<Value = f64>,
        Y::CoordDescType: ValueFormatter<f64>,
    {
        let mut ctx = ChartBuilder::on(plot)
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d(x, y)?;
        ctx.configure_mesh()
            .x_desc(self.x_label.as_str())
            .y_desc(y_desc(&self.y_label, self.log_y))
            .axis_desc_style((FONT, DESC_SIZE))
            .label_style((FONT, LABEL_SIZE))
            .x_label_formatter(&|v| fmt_axis(*v))
            .y_label_formatter(&|v| fmt_axis(*v))
            .light_line_style(light_lines())
            .draw()?;
        for (s, pts) in self.series.iter().zip(points) {
            let style = s.colour().stroke_width(2);
            if s.dashed {
                ctx.draw_series(DashedLineSeries::new(pts.iter().copied(), 6, 4, style))?;
            } else {
                ctx.draw_series(LineSeries::new(pts.iter().copied(), style))?;
            }
            for &p in pts {
                draw_marker(ctx.plotting_area(), p, s.colour(), s.dashed)?;
            }
        }
        Ok(())
    }
}

/// The x range of the points, padded so edge markers are not cut.
fn x_range(xs: impl Iterator<Item = f64>) -> Range<f64> {
    let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    if lo > hi {
        0.0..1.0
    } else if lo == hi {
        lo - 1.0..hi + 1.0
    } else {
        let pad = (hi - lo) * 0.03;
        lo - pad..hi + pad
    }
}

impl Chart for LineChart {
    fn title(&self) -> &str {
        &self.title
    }

    fn to_svg(&self) -> Result<String, ReportError> {
        render(&self.title, self.size(), |root| self.draw(root))
    }
}
