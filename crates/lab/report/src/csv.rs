//! Tables out: every table a page shows can also be written as CSV beside the page
//! ([`ReportDir::write_table`]), so its rows can be read by a program instead of scraped.

use crate::{Cell, ReportDir, ReportError, escape_html, table_html};

/// The plain text of a cell: text as it is; HTML with its tags dropped (a closing `summary`,
/// a `br` or a `li` read as a space), its entities decoded and its white space collapsed.
pub fn cell_text(cell: &Cell) -> String {
    match cell {
        Cell::Text(text) => text.clone(),
        Cell::Html(html) => collapse(&decode(&strip_tags(html))),
    }
}

/// `html` without its tags; a tag that separates words becomes a space.
fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find('>') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let tag = rest[start + 1..start + end].to_ascii_lowercase();
        let name = tag.trim_start_matches('/').split_whitespace().next();
        if matches!(name, Some("br" | "li" | "p" | "td" | "th" | "tr"))
            || tag.starts_with("/summary")
        {
            out.push(' ');
        }
        rest = &rest[start + end + 1..];
    }
    out + rest
}

/// `text` with the entities [`escape_html`] writes, and `&nbsp;`, decoded.
fn decode(text: &str) -> String {
    text.replace("&nbsp;", "\u{a0}")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

/// `text` with every run of white space (no-break spaces included) one space, trimmed.
fn collapse(text: &str) -> String {
    text.split(|c: char| c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One CSV field (RFC 4180): quoted, quotes doubled, when it holds a comma, a quote or a line
/// break.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// The table as CSV (RFC 4180, CRLF line ends): the header row, then one line per row, each
/// cell's [`cell_text`].
pub fn table_csv(headers: &[impl AsRef<str>], rows: &[Vec<Cell>]) -> String {
    let line = |fields: Vec<String>| {
        let fields: Vec<String> = fields.iter().map(|f| field(f)).collect();
        fields.join(",") + "\r\n"
    };
    let mut out = line(headers.iter().map(|h| h.as_ref().to_owned()).collect());
    for row in rows {
        out += &line(row.iter().map(cell_text).collect());
    }
    out
}

impl ReportDir {
    /// Writes the table as the CSV file `name` (e.g. `decision.csv`) in this report and
    /// returns the table's HTML ([`table_html`]) with a link to the file under it.
    pub fn write_table(
        &self,
        name: &str,
        headers: &[impl AsRef<str>],
        rows: &[Vec<Cell>],
        sortable: bool,
    ) -> Result<String, ReportError> {
        self.write(name, table_csv(headers, rows))?;
        Ok(table_html(headers, rows, sortable) + &csv_link(name))
    }
}

/// The line under a table linking to its CSV file `name`.
pub fn csv_link(name: &str) -> String {
    let name = escape_html(name);
    format!("<p class=\"csv\">The table as CSV: <a href=\"{name}\">{name}</a>.</p>\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_cells_read_as_their_text() {
        let cell =
            Cell::html("<details><summary>fails 2 of 3</summary>a-scenario, b&lt;c</details>");
        assert_eq!(cell_text(&cell), "fails 2 of 3 a-scenario, b<c");
        assert_eq!(cell_text(&Cell::html("off:<wbr>twofold")), "off:twofold");
        assert_eq!(
            cell_text(&Cell::html("a&nbsp;b &amp; <em>c</em>")),
            "a b & c"
        );
        assert_eq!(cell_text(&Cell::text("<kept>")), "<kept>");
    }

    #[test]
    fn fields_are_quoted_only_when_they_must_be() {
        let rows = vec![vec![
            Cell::text("a,b"),
            Cell::text("say \"x\""),
            Cell::text("plain"),
        ]];
        assert_eq!(
            table_csv(&["one", "two", "three"], &rows),
            "one,two,three\r\n\"a,b\",\"say \"\"x\"\"\",plain\r\n"
        );
    }
}
