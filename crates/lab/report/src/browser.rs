//! The headless browser the pages are checked with: Chromium, found as `tools/check_pages.sh`
//! finds it.

use std::process::Command;

/// The path of `chromium` (or `chromium-browser`) on `PATH`, or `None` where neither is
/// installed (the page checks then skip, saying so).
pub fn chromium() -> Option<String> {
    let out = Command::new("sh")
        .args(["-c", "command -v chromium || command -v chromium-browser"])
        .output()
        .ok()?;
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !path.is_empty()).then_some(path)
}
