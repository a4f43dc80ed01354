//! HTML pages: the [`Page`] builder over `templates/base.html`, and fragment helpers.

use std::fmt::Write as _;

use minijinja::{AutoEscape, Environment, escape_formatter, value::Serde};
use serde::Serialize;

use crate::{Meta, ReportDir, ReportError, fmt_int};

/// The base layout: title, nav bar, sections and a footer stating how to regenerate the page.
const BASE_TEMPLATE: &str = include_str!("../templates/base.html");

/// Escapes `&`, `<`, `>`, `"` and `'` so `text` can go into HTML text or attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A minijinja environment that escapes like [`escape_html`] (minijinja's default also escapes
/// `/`, which makes every `href` unreadable). Templates named `*.html` are auto-escaped.
fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_formatter(|out, state, value| match value.as_str() {
        Some(text) if *state.auto_escape() == AutoEscape::Html && !value.is_safe() => {
            Ok(out.write_str(&escape_html(text))?)
        }
        _ => escape_formatter(out, state, value),
    });
    env
}

/// Renders the template `source` (named `name`, e.g. `audit/summary.html`; a name ending in
/// `.html` escapes every interpolated string unless marked `|safe`) with `context`: how pages
/// keep their prose and markup in template files, filled from serializable values.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Ctx { detector: &'static str, errors: u64 }
/// let html = replab_report::render_fragment(
///     "example.html",
///     "<p>{{ detector }} made {{ errors }} errors.</p>",
///     &Ctx { detector: "a<b", errors: 3 },
/// )?;
/// assert_eq!(html, "<p>a&lt;b made 3 errors.</p>");
/// # Ok::<(), replab_report::ReportError>(())
/// ```
pub fn render_fragment(
    name: &str,
    source: &str,
    context: &impl Serialize,
) -> Result<String, ReportError> {
    let err = |source| ReportError::Template {
        title: name.to_owned(),
        source,
    };
    environment()
        .render_named_str(name, source, Serde(context))
        .map_err(err)
}

/// A template of the calling crate's `templates/` folder, by its path there, as `(name,
/// source)` for [`render_fragment`]: `template!("reproduce/axon/intro.html")` is that name and
/// the file's text, embedded at compile time.
#[macro_export]
macro_rules! template {
    ($path:literal) => {
        (
            $path,
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/templates/", $path)),
        )
    };
}

/// A link in the nav bar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NavLink {
    /// The link text.
    pub label: String,
    /// The target, usually relative (`../axon/index.html`).
    pub href: String,
}

#[derive(Debug, Clone, Serialize)]
struct Section {
    id: String,
    heading: String,
    html: String,
}

/// A report page: build it, then [`render`](Page::render) or [`write`](Page::write) it.
///
/// Titles, headings, nav labels and the footer are escaped; section bodies are HTML fragments
/// (from [`table_html`], [`figure_html`], or escaped with [`escape_html`]).
///
/// ```
/// use replab_report::{Meta, Page, table_html};
/// let meta = Meta::collect("replab reproduce axon");
/// let html = Page::new("Axon reproduction", &meta)
///     .nav([("Index", "../index.html"), ("Axon", "index.html")])
///     .current("index.html")
///     .section("Nodes", table_html(&["depth", "nodes"], &[vec![1.into(), 929.into()]], true))
///     .render()?;
/// assert!(html.contains("replab reproduce axon"));
/// # Ok::<(), replab_report::ReportError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Page {
    title: String,
    meta: Meta,
    nav: Vec<NavLink>,
    current: Option<String>,
    sections: Vec<Section>,
}

#[derive(Serialize)]
struct Context<'a> {
    title: &'a str,
    meta: &'a Meta,
    nav: &'a [NavLink],
    current: Option<&'a str>,
    sections: &'a [Section],
}

impl Page {
    /// A page titled `title` whose footer states `meta`.
    pub fn new(title: impl Into<String>, meta: &Meta) -> Self {
        Self {
            title: title.into(),
            meta: meta.clone(),
            nav: Vec::new(),
            current: None,
            sections: Vec::new(),
        }
    }

    /// Adds `(label, href)` links to the nav bar.
    #[must_use]
    pub fn nav<L, H>(mut self, links: impl IntoIterator<Item = (L, H)>) -> Self
    where
        L: Into<String>,
        H: Into<String>,
    {
        self.nav
            .extend(links.into_iter().map(|(label, href)| NavLink {
                label: label.into(),
                href: href.into(),
            }));
        self
    }

    /// Marks the nav link with this `href` as the current page.
    #[must_use]
    pub fn current(mut self, href: impl Into<String>) -> Self {
        self.current = Some(href.into());
        self
    }

    /// Appends a section: an `<h2>` heading (none if empty) over the HTML fragment `html`,
    /// which is inserted as is. Sections with a heading get an `id` made from it for links.
    #[must_use]
    pub fn section(mut self, heading: impl Into<String>, html: impl Into<String>) -> Self {
        let heading = heading.into();
        let id = self.unique_id(&heading);
        self.sections.push(Section {
            id,
            heading,
            html: html.into(),
        });
        self
    }

    /// A slug of `heading` not used by earlier sections; empty for an empty heading.
    fn unique_id(&self, heading: &str) -> String {
        let mut slug = String::new();
        for c in heading.chars().flat_map(char::to_lowercase) {
            if c.is_alphanumeric() {
                slug.push(c);
            } else if !slug.is_empty() && !slug.ends_with('-') {
                slug.push('-');
            }
        }
        let slug = slug.trim_end_matches('-').to_owned();
        if slug.is_empty() {
            return slug;
        }
        let taken = |id: &str| self.sections.iter().any(|s| s.id == id);
        let mut id = slug.clone();
        let mut n = 2;
        while taken(&id) {
            id = format!("{slug}-{n}");
            n += 1;
        }
        id
    }

    /// Renders the page to HTML.
    pub fn render(&self) -> Result<String, ReportError> {
        let err = |source| ReportError::Template {
            title: self.title.clone(),
            source,
        };
        let mut env = environment();
        env.add_template("base.html", BASE_TEMPLATE).map_err(err)?;
        let template = env.get_template("base.html").map_err(err)?;
        template
            .render(Serde(Context {
                title: &self.title,
                meta: &self.meta,
                nav: &self.nav,
                current: self.current.as_deref(),
                sections: &self.sections,
            }))
            .map_err(err)
    }

    /// Renders the page into the file `file_name` of the staged report `dir`.
    pub fn write(&self, dir: &ReportDir, file_name: &str) -> Result<(), ReportError> {
        dir.write(file_name, self.render()?)
    }
}

/// A table cell: text (escaped when rendered) or trusted HTML (e.g. a link).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    /// Plain text; numeric-looking text makes a right-aligned column.
    Text(String),
    /// An HTML fragment inserted as is.
    Html(String),
}

impl Cell {
    /// A plain text cell.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(text.into())
    }

    /// A raw HTML cell, inserted without escaping.
    pub fn html(html: impl Into<String>) -> Self {
        Self::Html(html.into())
    }

    fn kind(&self) -> CellKind {
        match self {
            Self::Text(t) if is_placeholder(t) => CellKind::Placeholder,
            Self::Text(t) if is_numeric(t) => CellKind::Number,
            _ => CellKind::Other,
        }
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Self {
        Self::Text(text.to_owned())
    }
}

impl From<String> for Cell {
    fn from(text: String) -> Self {
        Self::Text(text)
    }
}

macro_rules! int_cell {
    ($($t:ty)*) => {$(
        impl From<$t> for Cell {
            /// The integer with thousands separators ([`fmt_int`]).
            fn from(n: $t) -> Self {
                Self::Text(fmt_int(n))
            }
        }
    )*};
}
int_cell!(i32 i64 u32 u64 usize);

#[derive(Clone, Copy, PartialEq, Eq)]
enum CellKind {
    Number,
    Placeholder,
    Other,
}

/// Empty cells and the usual "no value" marks, which do not decide a column's alignment.
fn is_placeholder(text: &str) -> bool {
    matches!(text.trim(), "" | "-" | "\u{2014}" | "\u{2013}" | "n/a")
}

/// Whether `text` reads as a number: optional sign (`-`, `+`, `−`), digits with `,`
/// separators and a decimal point, an optional exponent, then optionally `%` or a unit
/// (`12.5 ms`). Mirrors the sort script in the base template.
fn is_numeric(text: &str) -> bool {
    let cleaned: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, ',' | '%' | '\u{a0}' | '\u{2009}' | '\u{202f}'))
        .map(|c| if c == '\u{2212}' { '-' } else { c })
        .collect();
    let number = cleaned.trim_end_matches(char::is_alphabetic).trim_end();
    number.chars().any(|c| c.is_ascii_digit()) && number.parse::<f64>().is_ok_and(f64::is_finite)
}

/// Text cells longer than this (in characters) are prose: `class="prose"` gives them a minimum
/// width, so that they wrap into a few lines instead of a narrow column many lines tall.
const PROSE_CHARS: usize = 60;

/// An HTML table. Text cells are escaped, [`Cell::Html`] cells are not. Columns whose cells
/// are all numbers (or empty, `-`, `—`, `n/a`) are right-aligned with tabular figures; text
/// cells longer than 60 characters get `class="prose"` (a minimum width).
/// `sortable` adds `class="sortable"`, which the page's script makes sortable by header click.
pub fn table_html(headers: &[impl AsRef<str>], rows: &[Vec<Cell>], sortable: bool) -> String {
    let columns = rows.iter().map(Vec::len).chain([headers.len()]).max();
    let numeric: Vec<bool> = (0..columns.unwrap_or(0))
        .map(|col| {
            let kinds = || rows.iter().filter_map(|r| r.get(col)).map(Cell::kind);
            kinds().any(|k| k == CellKind::Number) && kinds().all(|k| k != CellKind::Other)
        })
        .collect();
    let class = |col: usize| {
        if numeric.get(col).copied().unwrap_or(false) {
            " class=\"num\""
        } else {
            ""
        }
    };
    let mut out = String::from("<div class=\"table-wrap\">\n<table");
    if sortable {
        out.push_str(" class=\"sortable\"");
    }
    out.push_str(">\n<thead><tr>");
    for (col, h) in headers.iter().enumerate() {
        let _ = write!(out, "<th{}>{}</th>", class(col), escape_html(h.as_ref()));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        out.push_str("<tr>");
        for (col, cell) in row.iter().enumerate() {
            let (content, class) = match cell {
                Cell::Text(t) if t.chars().count() > PROSE_CHARS => {
                    (escape_html(t), " class=\"prose\"")
                }
                Cell::Text(t) => (escape_html(t), class(col)),
                Cell::Html(h) => (h.clone(), class(col)),
            };
            let _ = write!(out, "<td{class}>{content}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
    out
}

/// A `<figure>` showing the SVG file `svg_file_name` (beside the page) at `size` pixels,
/// linking to the file, with `caption` as caption and alt text.
pub fn figure_html(svg_file_name: &str, caption: &str, size: (u32, u32)) -> String {
    let src = escape_html(svg_file_name);
    let caption = escape_html(caption);
    let (w, h) = size;
    format!(
        "<figure>\n<a href=\"{src}\"><img src=\"{src}\" width=\"{w}\" height=\"{h}\" \
         alt=\"{caption}\" loading=\"lazy\"></a>\n<figcaption>{caption}</figcaption>\n</figure>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_cells() {
        for yes in ["0", "1,234,567", "−18.3%", "+2.5", "12.5 ms", "1e6", ".5"] {
            assert!(is_numeric(yes), "{yes}");
        }
        for no in ["", "axon", "g1f1", "inf", "NaN", "-", "1-0", "1.2.3"] {
            assert!(!is_numeric(no), "{no}");
        }
    }

    #[test]
    fn table_escapes_and_aligns() {
        let rows = vec![
            vec![
                Cell::text("<b>x</b>"),
                1234.into(),
                Cell::html("<a href=\"a\">a</a>"),
            ],
            vec!["y".into(), "—".into(), Cell::html("<i>b</i>")],
        ];
        let html = table_html(&["name", "n", "link"], &rows, false);
        assert!(html.contains("&lt;b&gt;x&lt;/b&gt;"));
        assert!(html.contains("<td class=\"num\">1,234</td>"));
        assert!(html.contains("<th class=\"num\">n</th>"));
        assert!(html.contains("<td><a href=\"a\">a</a></td>"));
        assert!(!html.contains("sortable"));
        assert!(!html.contains("prose"));
        let long = "a verdict long enough to wrap over a few lines of a narrow column";
        let html = table_html(&["verdict"], &[vec![long.into()]], false);
        assert!(html.contains(&format!("<td class=\"prose\">{long}</td>")));
    }

    #[test]
    fn section_ids_are_unique_slugs() {
        let meta = Meta::collect("test");
        let page = Page::new("t", &meta)
            .section("Nodes per depth", "")
            .section("Nodes per depth", "")
            .section("", "");
        let ids: Vec<_> = page.sections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["nodes-per-depth", "nodes-per-depth-2", ""]);
    }
}
