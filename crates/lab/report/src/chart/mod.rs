//! SVG charts drawn with plotters: [`LineChart`], [`BarChart`] and [`ForestChart`].
//!
//! Text is written as SVG `<text>` elements with a generic `sans-serif` family, so no font
//! files or font libraries are needed: plotters (without its `ttf` feature) only estimates
//! text extents for layout, and the browser picks the font when it renders the SVG.

mod bar;
mod forest;
mod line;

use std::{io, ops::Range};

use plotters::{
    coord::Shift,
    element::DashedPathElement,
    prelude::*,
    style::text_anchor::{HPos, Pos, VPos},
};

pub use self::{
    bar::BarChart,
    forest::{ForestChart, ForestRow},
    line::LineChart,
};
use crate::{ReportDir, ReportError, palette};

/// Width and height in pixels of a chart unless it needs more room.
pub const DEFAULT_SIZE: (u32, u32) = (800, 450);

/// The font family of all chart text.
const FONT: &str = "sans-serif";
/// Font size of axis descriptions (plotters renders sizes at 1/1.24 in SVG).
const DESC_SIZE: f64 = 18.0;
/// Font size of tick labels.
const LABEL_SIZE: f64 = 15.0;

/// Faint minor grid lines.
fn light_lines() -> RGBAColor {
    BLACK.mix(0.04)
}

/// A named data series. Its colour is the caller's ([`Series::coloured`]), else
/// [`palette::colour`] of its name.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Series {
    /// Legend name, normally a detector name such as `axon` or `paper-on`.
    pub name: String,
    /// `(x, y)` points. In a [`BarChart`], `(i, v)` gives the value `v` for category `i`.
    pub points: Vec<(f64, f64)>,
    /// Draw with dashes (lines) or as light, outlined bars; meant for reference series.
    pub dashed: bool,
    /// The colour given by the caller (a detector's), if any.
    pub colour: Option<RGBColor>,
}

impl Series {
    /// A solid series.
    pub fn new(name: impl Into<String>, points: impl IntoIterator<Item = (f64, f64)>) -> Self {
        Self {
            name: name.into(),
            points: points.into_iter().collect(),
            dashed: false,
            colour: None,
        }
    }

    /// A series of one value per category, for [`BarChart`]: the `i`-th value becomes `(i, v)`.
    pub fn values(name: impl Into<String>, values: impl IntoIterator<Item = f64>) -> Self {
        Self::new(
            name,
            values.into_iter().enumerate().map(|(i, v)| (i as f64, v)),
        )
    }

    /// The same series, drawn dashed.
    #[must_use]
    pub fn dashed(mut self) -> Self {
        self.dashed = true;
        self
    }

    /// The same series in `colour`.
    #[must_use]
    pub fn coloured(mut self, colour: RGBColor) -> Self {
        self.colour = Some(colour);
        self
    }

    /// The series' colour: the caller's, else the palette's for its name.
    pub fn colour(&self) -> RGBColor {
        self.colour.unwrap_or_else(|| palette::colour(&self.name))
    }
}

/// A chart that renders to a standalone SVG document.
pub trait Chart {
    /// The chart's title.
    fn title(&self) -> &str;

    /// Width and height in pixels.
    fn size(&self) -> (u32, u32) {
        DEFAULT_SIZE
    }

    /// Renders the chart as an SVG document.
    fn to_svg(&self) -> Result<String, ReportError>;
}

impl ReportDir {
    /// Writes `chart` as the SVG file `file_name` in the staged report and returns the
    /// [`figure_html`](crate::figure_html) that shows it with `caption`.
    pub fn write_chart(
        &self,
        file_name: &str,
        chart: &dyn Chart,
        caption: &str,
    ) -> Result<String, ReportError> {
        self.write(file_name, chart.to_svg()?)?;
        Ok(crate::figure_html(file_name, caption, chart.size()))
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type DrawResult<T = ()> = Result<T, DrawingAreaErrorKind<io::Error>>;

/// Renders an SVG of `size` with `draw`, turning plotters errors into [`ReportError::Chart`].
fn render(
    title: &str,
    size: (u32, u32),
    draw: impl FnOnce(&Area<'_>) -> DrawResult,
) -> Result<String, ReportError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root)
            .and_then(|()| root.present())
            .map_err(|e| ReportError::Chart {
                title: title.to_owned(),
                message: e.to_string(),
            })?;
    }
    Ok(svg)
}

/// How a legend entry shows its series.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Swatch {
    /// A line segment with a marker.
    Line,
    /// A filled box.
    Bar,
}

/// Estimated width of the legend for these series.
fn legend_width(series: &[Series], total_width: u32) -> u32 {
    let longest = series
        .iter()
        .map(|s| s.name.chars().count())
        .max()
        .unwrap_or(0);
    // About 7.5 px per character at the legend's font size, plus swatch and padding.
    let chars = u32::try_from(longest).unwrap_or(u32::MAX / 8);
    let width = 56 + chars * 15 / 2;
    width.clamp(90, total_width / 3)
}

/// Fills the background, writes the title and the legend (on the right), and returns the
/// area left for the plot.
fn frame<'a>(
    root: &Area<'a>,
    title: &str,
    series: &[Series],
    swatch: Swatch,
) -> DrawResult<Area<'a>> {
    root.fill(&WHITE)?;
    let body = root.titled(title, (FONT, 24).into_font().color(&BLACK))?;
    let (width, _) = body.dim_in_pixel();
    let legend_w = if series.is_empty() {
        0
    } else {
        legend_width(series, width)
    };
    let (plot, legend) = body.split_horizontally(width - legend_w);
    let text = (FONT, 16)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, s) in series.iter().enumerate() {
        let y = 24 + 22 * i32::try_from(i).unwrap_or(i32::MAX / 40);
        let colour = s.colour();
        match swatch {
            Swatch::Line => {
                let style = colour.stroke_width(2);
                if s.dashed {
                    legend.draw(&DashedPathElement::new([(4, y), (36, y)], 5, 3, style))?;
                } else {
                    legend.draw(&PathElement::new([(4, y), (36, y)], style))?;
                }
                draw_marker(&legend, (20, y), colour, s.dashed)?;
            }
            Swatch::Bar => {
                legend.draw(&Rectangle::new(
                    [(8, y - 6), (32, y + 6)],
                    bar_fill(colour, s.dashed),
                ))?;
                legend.draw(&Rectangle::new(
                    [(8, y - 6), (32, y + 6)],
                    colour.stroke_width(1),
                ))?;
            }
        }
        legend.draw(&Text::new(s.name.as_str(), (42, y), text.clone()))?;
    }
    Ok(plot)
}

/// A point marker: filled for solid series, hollow for dashed ones.
fn draw_marker<DB: DrawingBackend, CT: CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    at: CT::From,
    colour: RGBColor,
    hollow: bool,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>
where
    CT::From: Clone,
{
    if hollow {
        area.draw(&Circle::new(at.clone(), 3, WHITE.filled()))?;
        area.draw(&Circle::new(at, 3, colour.stroke_width(2)))
    } else {
        area.draw(&Circle::new(at, 3, colour.filled()))
    }
}

/// The fill of a bar: the colour, or a light tint of it for dashed (reference) series.
fn bar_fill(colour: RGBColor, dashed: bool) -> ShapeStyle {
    if dashed {
        colour.mix(0.35).filled()
    } else {
        colour.filled()
    }
}

/// The y axis description, marking log scales.
fn y_desc(label: &str, log: bool) -> String {
    if log {
        format!("{label} (log scale)")
    } else {
        label.to_owned()
    }
}

/// Whether a point can be drawn: finite, and positive on a log scale.
fn drawable(y: f64, log: bool) -> bool {
    y.is_finite() && (!log || y > 0.0)
}

/// A linear range covering `values` (and 0), with a little headroom.
fn linear_range(values: impl Iterator<Item = f64>) -> Range<f64> {
    let (lo, hi) = values.fold((0.0_f64, 0.0_f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if hi <= lo {
        return 0.0..1.0;
    }
    let pad = (hi - lo) * 0.06;
    let lo = if lo < 0.0 { lo - pad } else { lo };
    let hi = if hi > 0.0 { hi + pad } else { hi };
    lo..hi
}

/// A log range from the power of ten at or below the smallest positive value to the power of
/// ten at or above the largest.
fn log_range(values: impl Iterator<Item = f64>) -> Range<f64> {
    let (lo, hi) = values
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if hi == 0.0 {
        return 1.0..10.0;
    }
    let lo = 10f64.powf(lo.log10().floor());
    let hi = 10f64.powf(hi.log10().ceil()).max(lo * 10.0);
    lo..hi
}

/// An axis tick label: integers as such, large values with SI suffixes (`250k`, `1.5M`),
/// others with up to three significant digits; negatives with `−`.
fn fmt_axis(v: f64) -> String {
    if !v.is_finite() {
        return String::new();
    }
    let abs = v.abs();
    let sign = if v < 0.0 { "\u{2212}" } else { "" };
    if abs < 1e-12 {
        return "0".to_owned();
    }
    let (scaled, suffix) = match abs {
        a if a >= 1e12 => (a / 1e12, "T"),
        a if a >= 1e9 => (a / 1e9, "G"),
        a if a >= 1e6 => (a / 1e6, "M"),
        a if a >= 1e4 => (a / 1e3, "k"),
        a => (a, ""),
    };
    let decimals = if (scaled - scaled.round()).abs() < 1e-9 * scaled.max(1.0) {
        0
    } else {
        (2 - scaled.log10().floor() as i32).clamp(0, 6) as usize
    };
    let mut s = format!("{scaled:.decimals$}");
    if s.contains('.') {
        s = s.trim_end_matches('0').trim_end_matches('.').to_owned();
    }
    format!("{sign}{s}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_labels() {
        assert_eq!(fmt_axis(0.0), "0");
        assert_eq!(fmt_axis(7.0), "7");
        assert_eq!(fmt_axis(2.5), "2.5");
        assert_eq!(fmt_axis(0.125), "0.125");
        assert_eq!(fmt_axis(1000.0), "1000");
        assert_eq!(fmt_axis(10_000.0), "10k");
        assert_eq!(fmt_axis(250_000.0), "250k");
        assert_eq!(fmt_axis(1_500_000.0), "1.5M");
        assert_eq!(fmt_axis(-3.0), "−3");
    }

    #[test]
    fn ranges() {
        assert_eq!(log_range([3.0, 0.0, 420.0].into_iter()), 1.0..1000.0);
        assert_eq!(log_range([100.0].into_iter()), 100.0..1000.0);
        assert_eq!(log_range([0.0].into_iter()), 1.0..10.0);
        assert_eq!(linear_range(std::iter::empty()), 0.0..1.0);
        let r = linear_range([1.0, 10.0].into_iter());
        assert!(r.start == 0.0 && r.end > 10.0);
    }
}
