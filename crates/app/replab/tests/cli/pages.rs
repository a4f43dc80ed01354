//! `tools/check_pages.sh --self-test`: the page checker's width check fails on the over-wide
//! fixtures and passes on the narrow one. Skipped, with a message, where Chromium is absent.

use std::{path::Path, process::Command};

#[test]
fn the_page_checker_fails_a_table_wider_than_the_window() {
    if replab_report::browser::chromium().is_none() {
        eprintln!("skipped: chromium not found, tools/check_pages.sh cannot render pages");
        return;
    }
    let script = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../tools/check_pages.sh"
    ));
    let out = Command::new("bash")
        .arg(script)
        .arg("--self-test")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "self-test failed:\n{stdout}");
    for line in [
        "self-test ok: narrow.html passes",
        "self-test ok: wide-page.html fails",
        "self-test ok: wide-scroll-box.html fails",
        "table \"Overflowing table in a scroll box\"",
    ] {
        assert!(stdout.contains(line), "no {line:?} in:\n{stdout}");
    }
}
