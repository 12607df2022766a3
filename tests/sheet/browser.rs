//! The HTML rule sheet in a real browser: headless Chromium (Debian package `chromium`) prints
//! every bundled ruleset's page to PDF; the page must render without errors and fit its page
//! budget on A4 (two pages for Koi-Koi and its house rules, as a player's memory aid should).
//!
//! Without Chromium the test says it was skipped, unless `CI` is set: there it fails, and
//! `.ci/run` installs the package.

use crate::common::{TempDir, Yaku, chromium};
use std::path::Path;
use std::process::Command;

/// A4 pages each bundled ruleset's sheet may take.
const PAGE_BUDGET: u32 = 2;

/// Prints `html` to PDF with headless Chromium in a fresh profile; returns the PDF's bytes and
/// what the browser logged.
fn print_to_pdf(browser: &Path, dir: &Path, html: &Path) -> (Vec<u8>, String) {
    let pdf = html.with_extension("pdf");
    let profile = dir.join(format!(
        "profile-{}",
        html.file_stem().unwrap().to_string_lossy()
    ));
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-pdf-header-footer",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(format!("file://{}", html.display()))
        .output()
        .expect("chromium runs");
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    let bytes = std::fs::read(&pdf).unwrap_or_else(|e| panic!("no PDF for {html:?} ({e}): {log}"));
    (bytes, log)
}

/// The number of pages of a PDF: its page objects (`/Type /Page`, not `/Pages`).
fn page_count(pdf: &[u8]) -> u32 {
    let needle = b"/Type /Page";
    pdf.windows(needle.len() + 1)
        .filter(|w| &w[..needle.len()] == needle && w[needle.len()] != b's')
        .count() as u32
}

#[test]
fn html_sheets_render_in_chromium_within_their_page_budget() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but Chromium is not installed (apt-get install chromium)"
        );
        eprintln!("SKIPPED html_sheets_render_in_chromium...: Chromium is not installed");
        return;
    };
    let dir = TempDir::new("browser");
    let mut report = Vec::new();
    for name in yaku::ruleset::bundled::ruleset_names() {
        let html = dir.join(format!("{}.html", name.replace('/', "-")));
        Yaku::new(["rules", name, "--format", "html", "--output"])
            .arg(html.display().to_string())
            .expect(0);
        let page = std::fs::read_to_string(&html).unwrap();
        // Self-contained: nothing is fetched (a link to a source is followed only by a reader).
        let fetched = page
            .replace("<a href=\"https:", "<a ")
            .replace("<a href=\"http:", "<a ");
        for outside in ["http:", "https:", "src=", "@import", "url(", "<link"] {
            assert!(
                !fetched.contains(outside),
                "{name}: the page refers to {outside}"
            );
        }
        let (pdf, log) = print_to_pdf(&browser, &dir, &html);
        assert!(pdf.starts_with(b"%PDF"), "{name}: not a PDF");
        // Chromium logs page errors as console messages.
        assert!(
            !log.lines().any(|l| l.contains("CONSOLE")),
            "{name}: the page logged errors:\n{log}"
        );
        let pages = page_count(&pdf);
        report.push(format!("{name}: {pages}"));
        assert!(
            (1..=PAGE_BUDGET).contains(&pages),
            "{name}: {pages} A4 pages, the budget is {PAGE_BUDGET}"
        );
    }
    eprintln!("A4 pages per sheet: {}", report.join(", "));
}
