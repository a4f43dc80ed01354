//! The page of `replab smp`.

use anyhow::Result;
use replab_report::{Page, ReportDir};

use super::{Results, TITLE};

/// Writes `index.html` into the staged `dir`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    Page::new(TITLE, &results.meta)
        .section("Headline", replab_report::escape_html(&results.headline))
        .write(dir, "index.html")?;
    Ok(())
}
