//! Forest plots: one row per estimate, its interval as a horizontal line, the value it is
//! compared with as a vertical mark, and the row's group (e.g. a decision) as its colour.

use plotters::{
    coord::types::RangedCoordf64,
    element::DashedPathElement,
    prelude::*,
    style::text_anchor::{HPos, Pos, VPos},
};

use super::{
    Area, Chart, DESC_SIZE, DrawResult, FONT, LABEL_SIZE, bar::CategoryAxis, fmt_axis, light_lines,
    linear_range, render,
};
use crate::ReportError;

/// The colour of the reference marks and of rows whose group has no colour.
pub const REFERENCE_COLOUR: RGBColor = RGBColor(0x33, 0x33, 0x33);

/// Colour of rows whose group is not in [`ForestChart::groups`].
const UNGROUPED: RGBColor = RGBColor(0x99, 0x99, 0x99);

/// Height in pixels of one row.
const ROW_H: u32 = 30;

/// The most pixels left of the plot for the row labels (a label of about 70 characters).
const MAX_LABEL_WIDTH: u32 = 520;

/// Radius in pixels of an estimate's marker.
const MARKER_RADIUS: i32 = 5;

/// One row of a [`ForestChart`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ForestRow {
    /// The row's label on the y axis, e.g. a configuration's name.
    pub label: String,
    /// The point estimate.
    pub estimate: f64,
    /// The interval `[low, high]` around it (`[estimate, estimate]` for an exact value). An
    /// infinite end, an interval unbounded on that side, runs to the edge of the plot without
    /// an end tick.
    pub interval: [f64; 2],
    /// The value the estimate is compared with, if any, drawn as a vertical mark on the row.
    pub reference: Option<f64>,
    /// The row's group, one of [`ForestChart::groups`]' names; it gives the marker's colour.
    pub group: String,
    /// Draw the estimate as an open circle instead of a filled one (e.g. a measurement that
    /// cannot be repeated exactly, such as one under a real clock). A group whose rows are
    /// all hollow has an open marker in the legend.
    pub hollow: bool,
}

/// A forest plot: one row per estimate, top to bottom in the order given.
///
/// Values that are not finite are not drawn (the row keeps its label). An empty chart is
/// drawn with the words "no data".
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ForestChart {
    /// Title above the chart.
    pub title: String,
    /// X axis description, with unit, e.g. `change of generated positions`.
    pub x_label: String,
    /// Show the x values as percentages (0.25 is 25%).
    pub percent: bool,
    /// The legend text of the reference marks, e.g. `paper (rescoped)`; empty for a chart
    /// without reference marks (the legend then has no entry for them).
    pub reference_label: String,
    /// The groups with their colours, in legend order.
    pub groups: Vec<(String, RGBColor)>,
    /// The rows, top to bottom.
    pub rows: Vec<ForestRow>,
}

impl ForestChart {
    /// An empty chart; fill `groups` and `rows`.
    pub fn new(
        title: impl Into<String>,
        x_label: impl Into<String>,
        reference_label: impl Into<String>,
    ) -> Self {
        Self {
            title: title.into(),
            x_label: x_label.into(),
            reference_label: reference_label.into(),
            ..Self::default()
        }
    }

    /// The colour of `group`.
    fn colour(&self, group: &str) -> RGBColor {
        self.groups
            .iter()
            .find(|(name, _)| name == group)
            .map_or(UNGROUPED, |&(_, c)| c)
    }

    /// Whether `group`'s legend marker is open: the group has rows, and all of them are hollow.
    fn hollow_group(&self, group: &str) -> bool {
        let mut rows = self.rows.iter().filter(|r| r.group == group).peekable();
        rows.peek().is_some() && rows.all(|r| r.hollow)
    }

    /// Pixels left of the plot for the row labels.
    fn label_width(&self) -> u32 {
        let longest = self.rows.iter().map(|r| r.label.chars().count()).max();
        let chars = u32::try_from(longest.unwrap_or(0)).unwrap_or(u32::MAX / 8);
        (20 + chars * 7).clamp(60, MAX_LABEL_WIDTH)
    }

    /// Pixels right of the plot for the legend.
    fn legend_width(&self) -> u32 {
        let names = self.groups.iter().map(|(n, _)| n.chars().count());
        let longest = names
            .chain([self.reference_label.chars().count()])
            .max()
            .unwrap_or(0);
        let chars = u32::try_from(longest).unwrap_or(u32::MAX / 8);
        (56 + chars * 15 / 2).clamp(120, 320)
    }

    /// Writes the legend: one marker per group (open for a group of hollow rows), then the
    /// reference mark unless [`ForestChart::reference_label`] is empty.
    fn draw_legend(&self, legend: &Area<'_>) -> DrawResult {
        let text = (FONT, 16)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        let mut y = 24;
        for (name, colour) in &self.groups {
            legend.draw(&PathElement::new([(6, y), (34, y)], colour.stroke_width(2)))?;
            for circle in marker((20, y), *colour, self.hollow_group(name)) {
                legend.draw(&circle)?;
            }
            legend.draw(&Text::new(name.as_str(), (42, y), text.clone()))?;
            y += 22;
        }
        if self.reference_label.is_empty() {
            return Ok(());
        }
        let style = REFERENCE_COLOUR.stroke_width(2);
        legend.draw(&DashedPathElement::new(
            [(20, y - 9), (20, y + 9)],
            4,
            3,
            style,
        ))?;
        legend.draw(&Text::new(self.reference_label.as_str(), (42, y), text))?;
        Ok(())
    }

    /// The x range: every drawable value, 0, and a margin.
    fn x_range(&self) -> std::ops::Range<f64> {
        let values = self.rows.iter().flat_map(|r| {
            [r.estimate, r.interval[0], r.interval[1]]
                .into_iter()
                .chain(r.reference)
        });
        linear_range(values.filter(|v| v.is_finite()))
    }

    fn draw(&self, root: &Area<'_>) -> DrawResult {
        root.fill(&WHITE)?;
        let body = root.titled(&self.title, (FONT, 24).into_font().color(&BLACK))?;
        if self.rows.is_empty() {
            let (w, h) = body.dim_in_pixel();
            let style = (FONT, 20)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Center));
            let at = (
                i32::try_from(w / 2).unwrap_or(0),
                i32::try_from(h / 2).unwrap_or(0),
            );
            return body.draw(&Text::new("no data", at, style));
        }
        let (width, _) = body.dim_in_pixel();
        let (plot, legend) = body.split_horizontally(width.saturating_sub(self.legend_width()));
        self.draw_legend(&legend)?;
        self.draw_rows(&plot)
    }

    /// Draws the axes, the zero line and every row.
    fn draw_rows(&self, plot: &Area<'_>) -> DrawResult {
        let n = self.rows.len();
        let mut ctx = ChartBuilder::on(plot)
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(self.label_width())
            .build_cartesian_2d(self.x_range(), CategoryAxis { n })?;
        // Row `i` (from the top) has its centre at `n − i − 0.5`.
        let label = |v: &f64| {
            let from_bottom = v.floor();
            let i = n as f64 - 1.0 - from_bottom;
            if from_bottom >= 0.0 && i >= 0.0 {
                // A whole number in 0..n, so the cast is exact.
                self.rows[i as usize].label.clone()
            } else {
                String::new()
            }
        };
        let percent = self.percent;
        let x_text = |v: &f64| {
            if percent {
                format!("{}%", fmt_axis(v * 100.0))
            } else {
                fmt_axis(*v)
            }
        };
        ctx.configure_mesh()
            .disable_y_mesh()
            .y_labels(n)
            .x_desc(self.x_label.as_str())
            .axis_desc_style((FONT, DESC_SIZE))
            .label_style((FONT, LABEL_SIZE))
            .y_label_formatter(&label)
            .x_label_formatter(&x_text)
            .light_line_style(light_lines())
            .draw()?;
        let top = n as f64;
        ctx.draw_series([PathElement::new(
            [(0.0, 0.0), (0.0, top)],
            BLACK.mix(0.3).stroke_width(1),
        )])?;
        for (i, row) in self.rows.iter().enumerate() {
            let centre = top - i as f64 - 0.5;
            self.draw_row(&mut ctx, row, centre)?;
        }
        Ok(())
    }

    /// Draws one row centred at `y`: reference mark, interval, estimate.
    fn draw_row(
        &self,
        ctx: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<RangedCoordf64, CategoryAxis>>,
        row: &ForestRow,
        y: f64,
    ) -> DrawResult {
        if let Some(r) = row.reference.filter(|r| r.is_finite()) {
            let style = REFERENCE_COLOUR.stroke_width(2);
            let mark = [(r, y - 0.42), (r, y + 0.42)];
            ctx.plotting_area()
                .draw(&DashedPathElement::new(mark, 4, 3, style))?;
        }
        let colour = self.colour(&row.group);
        let [a, b] = row.interval;
        if !a.is_nan() && !b.is_nan() {
            let (lo, hi) = (a.min(b), a.max(b));
            let edges = ctx.x_range();
            let line = colour.stroke_width(2);
            let from = lo.max(edges.start);
            let to = hi.min(edges.end);
            ctx.draw_series([PathElement::new([(from, y), (to, y)], line)])?;
            let ends = [lo, hi].into_iter().filter(|x| x.is_finite());
            let ticks = ends.map(|x| PathElement::new([(x, y - 0.18), (x, y + 0.18)], line));
            ctx.draw_series(ticks)?;
        }
        if row.estimate.is_finite() {
            ctx.draw_series(marker((row.estimate, y), colour, row.hollow))?;
        }
        Ok(())
    }
}

/// An estimate's marker at `at`: a filled circle in `colour`, or for a `hollow` one a white
/// circle ringed in it (covering the interval line behind it).
fn marker<C: Copy>(at: C, colour: RGBColor, hollow: bool) -> Vec<Circle<C, i32>> {
    if hollow {
        vec![
            Circle::new(at, MARKER_RADIUS, WHITE.filled()),
            Circle::new(at, MARKER_RADIUS, colour.stroke_width(2)),
        ]
    } else {
        vec![Circle::new(at, MARKER_RADIUS, colour.filled())]
    }
}

impl Chart for ForestChart {
    fn title(&self) -> &str {
        &self.title
    }

    /// 800 pixels wide (more for long labels), one row's height per row plus axes and title.
    fn size(&self) -> (u32, u32) {
        let rows = u32::try_from(self.rows.len()).unwrap_or(200).min(200);
        let legend_rows = u32::try_from(self.groups.len() + 1).unwrap_or(20);
        let height = (110 + ROW_H * rows).max(70 + 22 * legend_rows).max(200);
        let width = (480 + self.label_width() + self.legend_width()).max(800);
        (width, height)
    }

    fn to_svg(&self) -> Result<String, ReportError> {
        render(&self.title, self.size(), |root| self.draw(root))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AGREE: RGBColor = RGBColor(0x11, 0x77, 0x33);
    const OPPOSITE: RGBColor = RGBColor(0xcc, 0x33, 0x11);
    const UNUSED: RGBColor = RGBColor(0x12, 0x34, 0x56);

    fn hex(RGBColor(r, g, b): RGBColor) -> String {
        format!("#{r:02x}{g:02x}{b:02x}")
    }

    fn chart(rows: Vec<ForestRow>) -> ForestChart {
        ForestChart {
            percent: true,
            groups: vec![
                ("agrees".into(), AGREE),
                ("opposite".into(), OPPOSITE),
                ("unused".into(), UNUSED),
            ],
            rows,
            ..ForestChart::new("Claim 1", "change of nodes", "paper (rescoped)")
        }
    }

    fn row(label: &str, estimate: f64, reference: Option<f64>, group: &str) -> ForestRow {
        ForestRow {
            label: label.into(),
            estimate,
            interval: [estimate - 0.05, estimate + 0.05],
            reference,
            group: group.into(),
            hollow: false,
        }
    }

    #[test]
    fn rows_reference_and_colours_are_drawn() {
        let rows = vec![
            row("config-alpha", -0.2, Some(-0.15), "agrees"),
            row("config-beta", 0.1, Some(-0.15), "opposite"),
        ];
        let svg = chart(rows).to_svg().unwrap().to_lowercase();
        for text in [
            "config-alpha",
            "config-beta",
            "paper (rescoped)",
            "agrees",
            "opposite",
        ] {
            assert!(svg.contains(text), "{text} missing");
        }
        assert!(svg.contains(&hex(AGREE)) && svg.contains(&hex(OPPOSITE)));
        assert!(svg.contains(&hex(REFERENCE_COLOUR)), "no reference mark");
        assert!(!svg.contains("no data"));
        // One marker per legend group and one per row.
        assert_eq!(svg.matches("<circle").count(), 2 + 3);
    }

    #[test]
    fn reference_and_group_colour_follow_the_rows() {
        let without = chart(vec![row("a", 0.1, None, "agrees")]).to_svg().unwrap();
        let without = without.to_lowercase();
        // The legend's reference mark is the only one in that colour; a row adds more.
        let with = chart(vec![row("a", 0.1, Some(0.2), "agrees")])
            .to_svg()
            .unwrap();
        let count = |svg: &str| svg.matches(&hex(REFERENCE_COLOUR)).count();
        assert!(count(&with.to_lowercase()) > count(&without));
        let grey = chart(vec![row("a", 0.1, None, "unknown")])
            .to_svg()
            .unwrap();
        assert!(grey.to_lowercase().contains(&hex(UNGROUPED)));
    }

    #[test]
    fn empty_chart_says_no_data() {
        let svg = chart(Vec::new()).to_svg().unwrap();
        assert!(svg.contains("no data"));
        assert!(!svg.contains("<circle"));
    }

    #[test]
    fn height_grows_with_rows() {
        let one = chart(vec![row("a", 0.1, None, "agrees")]).size();
        let many = chart((0..20).map(|_| row("a", 0.1, None, "agrees")).collect()).size();
        assert!(many.1 > one.1);
    }

    /// The points of every `<polyline>` drawn in `colour`, in the lower-cased `svg`.
    fn polylines(svg: &str, colour: &str) -> Vec<Vec<(i32, i32)>> {
        let stroke = format!("stroke=\"{colour}\"");
        svg.lines()
            .filter(|l| l.starts_with("<polyline") && l.contains(&stroke))
            .map(|l| {
                let points = l
                    .split("points=\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap();
                points
                    .split_whitespace()
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn hollow_rows_and_their_group_get_open_markers() {
        let mut clock = row("clock", 0.2, None, "opposite");
        clock.hollow = true;
        let svg = chart(vec![row("fixed", 0.1, None, "agrees"), clock])
            .to_svg()
            .unwrap()
            .to_lowercase();
        let circles = |attrs: &str| {
            svg.lines()
                .filter(|l| l.starts_with("<circle") && l.contains(attrs))
                .count()
        };
        let filled = |c| circles(&format!("fill=\"{}\"", hex(c)));
        let open = |c| circles(&format!("fill=\"none\" stroke=\"{}\"", hex(c)));
        // In the legend and on the row: `agrees` filled, `opposite` (all hollow) open, and
        // `unused` (no rows) filled in the legend alone.
        assert_eq!((filled(AGREE), open(AGREE)), (2, 0));
        assert_eq!((filled(OPPOSITE), open(OPPOSITE)), (0, 2));
        assert_eq!((filled(UNUSED), open(UNUSED)), (1, 0));
        // An open marker is white inside, hiding the interval line behind it.
        assert_eq!(circles("fill=\"#ffffff\""), 2);
    }

    #[test]
    fn an_unbounded_interval_runs_to_the_plot_edge_without_a_tick() {
        let mut unbounded = row("unbounded", 0.1, None, "opposite");
        unbounded.interval = [0.05, f64::INFINITY];
        let mut undefined = row("undefined", 0.1, None, "unused");
        undefined.interval = [f64::NAN, 0.2];
        let rows = vec![row("bounded", 0.1, None, "agrees"), unbounded, undefined];
        let svg = chart(rows).to_svg().unwrap().to_lowercase();
        // The legend's line, then the interval and its end ticks.
        assert_eq!(polylines(&svg, &hex(AGREE)).len(), 1 + 3);
        assert_eq!(polylines(&svg, &hex(OPPOSITE)).len(), 1 + 2);
        assert_eq!(polylines(&svg, &hex(UNUSED)).len(), 1);
        // The x axis is the longest horizontal black line; the unbounded interval ends where
        // it ends, the bounded one before.
        let horizontal_end = |line: &Vec<(i32, i32)>| (line[0].1 == line[1].1).then_some(line[1].0);
        let axis_end = polylines(&svg, "#000000")
            .iter()
            .filter_map(|l| horizontal_end(l).map(|end| (end - l[0].0, end)))
            .max()
            .unwrap()
            .1;
        let interval_end = |colour| polylines(&svg, &hex(colour))[1][1].0;
        assert_eq!(interval_end(OPPOSITE), axis_end);
        assert!(interval_end(AGREE) < axis_end);
    }

    #[test]
    fn without_a_reference_label_the_legend_has_no_reference_mark() {
        let rows = vec![row("a", 0.1, None, "agrees")];
        let unlabelled = ForestChart {
            reference_label: String::new(),
            ..chart(rows.clone())
        };
        let count = |c: &ForestChart| {
            let svg = c.to_svg().unwrap().to_lowercase();
            svg.matches(&hex(REFERENCE_COLOUR)).count()
        };
        assert!(count(&chart(rows)) > 0);
        assert_eq!(count(&unlabelled), 0);
    }

    #[test]
    fn long_labels_widen_the_chart_instead_of_being_cut() {
        let width = |label: &str| chart(vec![row(label, 0.1, None, "agrees")]).size().0;
        let forty = "x".repeat(40);
        let sixty = "x".repeat(60);
        assert!(width(&sixty) >= width(&forty) + 20 * 7);
    }
}
