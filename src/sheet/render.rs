//! A rule sheet printed as plain text, Markdown or one self-contained, printable HTML page.

use super::{Rule, Sheet, Tile};
use std::fmt::Write;

/// The output formats of a rule sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Plain text, wrapped for a terminal.
    Text,
    /// Markdown.
    Markdown,
    /// One self-contained HTML page (no network), laid out for A4.
    Html,
}

/// Text lines are wrapped to this width.
const TEXT_WIDTH: usize = 96;

/// Prints `sheet` in `format`.
pub fn render(sheet: &Sheet, format: Format) -> String {
    match format {
        Format::Text => text(sheet, TEXT_WIDTH),
        Format::Markdown => markdown(sheet),
        Format::Html => html(sheet),
    }
}

/// The rules of the section headed `heading`, a bullet a line and unwrapped (a rule under the
/// one before it indented as a bullet of its own), for a front end that wraps text to its own
/// width: a lesson quoting the sheet.
pub fn text_section(sheet: &Sheet, heading: &str) -> Option<String> {
    let section = sheet.sections.iter().find(|s| s.heading == heading)?;
    let lines: Vec<String> = section
        .rules
        .iter()
        .map(|rule| {
            let bullet = if rule.under { "  - " } else { "- " };
            format!("{bullet}{}", rule_line(rule))
        })
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

fn base_line(sheet: &Sheet) -> Option<String> {
    sheet
        .base
        .as_ref()
        .map(|b| format!("Based on {b}: what differs is marked [changed], [new] or [removed]."))
}

fn rule_line(rule: &Rule) -> String {
    let mark = rule
        .mark
        .label()
        .map_or_else(String::new, |m| format!("{m} "));
    match &rule.name {
        Some(name) => format!("{mark}{name}: {}", rule.text),
        None => format!("{mark}{}", rule.text),
    }
}

/// The text sheet with its lines wrapped to `width` columns (at most the usual width, and at
/// least 40): for a terminal or a box narrower than the usual width, which would otherwise wrap
/// the wrapped lines again.
pub fn render_text(sheet: &Sheet, width: usize) -> String {
    text(sheet, width.clamp(40, TEXT_WIDTH))
}

fn text(sheet: &Sheet, width: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}\n{}",
        sheet.title,
        "=".repeat(sheet.title.chars().count())
    );
    for line in wrap(&sheet.summary, width, "") {
        let _ = writeln!(out, "{line}");
    }
    if let Some(line) = base_line(sheet) {
        let _ = writeln!(out, "{line}");
    }
    for section in &sheet.sections {
        let _ = writeln!(
            out,
            "\n{}\n{}",
            section.heading,
            "-".repeat(section.heading.chars().count())
        );
        for rule in &section.rules {
            // A rule under the one before it (a declaration of the choices it lists) is a
            // bullet of its own, indented.
            let (bullet, indent) = if rule.under {
                ("  - ", "    ")
            } else {
                ("- ", "  ")
            };
            for (i, line) in wrap(&rule_line(rule), width - bullet.len(), indent)
                .iter()
                .enumerate()
            {
                let _ = writeln!(out, "{}{line}", if i == 0 { bullet } else { "" });
            }
        }
    }
    out
}

/// Wraps `text` at spaces to lines of at most `width` characters; lines after the first start
/// with `indent`.
fn wrap(text: &str, width: usize, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
            line.push_str(indent);
        } else if len > 0 {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

fn markdown(sheet: &Sheet) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# {}\n\n{}",
        md_escape(&sheet.title),
        md_escape(&sheet.summary)
    );
    if let Some(line) = base_line(sheet) {
        let _ = writeln!(out, "\n{}", md_escape(&line));
    }
    for section in &sheet.sections {
        let _ = writeln!(out, "\n## {}\n", md_escape(&section.heading));
        for rule in &section.rules {
            let mark = rule
                .mark
                .label()
                .map_or_else(String::new, |m| format!("**{}** ", md_escape(m)));
            let bullet = if rule.under { "  -" } else { "-" };
            let text = code_spans(
                &rule.text,
                |t| links(t, md_escape, |url| format!("<{url}>")),
                |c| format!("`{c}`"),
            );
            match &rule.name {
                Some(name) => {
                    let _ = writeln!(out, "{bullet} {mark}**{}**: {text}", md_escape(name));
                }
                None => {
                    let _ = writeln!(out, "{bullet} {mark}{text}");
                }
            }
        }
    }
    out
}

/// Escapes the characters Markdown would read as markup.
fn md_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Maps the text outside and inside backtick code spans (expressions shown as written).
fn code_spans(text: &str, plain: impl Fn(&str) -> String, code: impl Fn(&str) -> String) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { code(part) } else { plain(part) })
        .collect()
}

/// Maps the web addresses in `text` (`https://...`, up to a space or a closing bracket) with
/// `link` and the rest with `plain`, so a source's address is a link in Markdown and HTML.
fn links(text: &str, plain: impl Fn(&str) -> String, link: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("https://").or_else(|| rest.find("http://")) {
        out += &plain(&rest[..at]);
        let len = rest[at..]
            .find(|c: char| c.is_whitespace() || matches!(c, ')' | '>' | '"'))
            .unwrap_or(rest.len() - at);
        let url = rest[at..at + len].trim_end_matches(['.', ',', ';']);
        out += &link(url);
        rest = &rest[at + url.len()..];
    }
    out += &plain(rest);
    out
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page's style: A4, small type, two columns for long sections, nothing fetched.
const STYLE: &str = "@page { size: A4; margin: 12mm; }
body { font: 9pt/1.3 Georgia, 'DejaVu Serif', serif; margin: 0 auto; max-width: 186mm; color: #111; }
h1 { font-size: 15pt; margin: 0 0 2pt; }
h2 { font-size: 10.5pt; margin: 7pt 0 2pt; border-bottom: 1px solid #999; break-after: avoid; }
p { margin: 0 0 3pt; }
ul { margin: 0; padding-left: 12pt; }
li { margin: 0 0 1pt; break-inside: avoid; }
li.under { margin-left: 1.2em; list-style-type: circle; }
section.long ul { columns: 2; column-gap: 8mm; }
code { font: 8pt 'DejaVu Sans Mono', monospace; }
.changed { background: #fff1b8; }
.mark { font-weight: bold; color: #8a5a00; }
.crib { columns: 3; column-gap: 6mm; margin: 2pt 0; }
.crib div { break-inside: avoid; margin: 0 0 1pt; }
.crib .suit { display: inline-block; width: 22mm; font-size: 7.5pt; vertical-align: middle; }
.tile { display: inline-block; width: 4mm; height: 5.6mm; margin: 0 0.4mm 0 0; vertical-align: middle; }
.crib .tile { width: 5mm; height: 7mm; }
.tile svg { width: 100%; height: 100%; display: block; }
.tiles { display: inline; margin-left: 2pt; }
.need { font-size: 7pt; color: #444; }";

fn html(sheet: &Sheet) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n\
         <style>\n{STYLE}\n</style>\n</head>\n<body>\n<h1>{}</h1>\n<p>{}</p>\n",
        html_escape(&sheet.title),
        html_escape(&sheet.title),
        html_escape(&sheet.summary)
    );
    if let Some(line) = base_line(sheet) {
        let _ = writeln!(out, "<p class=\"changed\">{}</p>", html_escape(&line));
    }
    for section in &sheet.sections {
        if section.heading == "Deck" && !sheet.deck_tiles.is_empty() {
            html_deck(&mut out, sheet, section);
            continue;
        }
        let class = if section.rules.len() > 10 {
            " class=\"long\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<section{class}>\n<h2>{}</h2>\n<ul>",
            html_escape(&section.heading)
        );
        for rule in &section.rules {
            let text = code_spans(
                &rule.text,
                |t| {
                    links(t, html_escape, |url| {
                        let shown = url.split_once("://").map_or(url, |(_, rest)| rest);
                        format!(
                            "<a href=\"{}\">{}</a>",
                            html_escape(url),
                            html_escape(shown)
                        )
                    })
                },
                |c| format!("<code>{}</code>", html_escape(c)),
            );
            let name = rule
                .name
                .as_ref()
                .map(|n| format!("<b>{}</b>: ", html_escape(n)))
                .unwrap_or_default();
            // A yaku drawn as its cards.
            let text =
                match sheet.yaku_tiles.iter().find(|(yaku, _, _)| {
                    section.heading == "Yaku" && rule.name.as_ref() == Some(yaku)
                }) {
                    Some((_, tiles, need)) => {
                        let need = if *need > 0 {
                            format!("<span class=\"need\">{need} of</span> ")
                        } else {
                            String::new()
                        };
                        let drawn: String = tiles.iter().map(tile_html).collect();
                        format!("{text} <span class=\"tiles\">{need}{drawn}</span>")
                    }
                    None => text,
                };
            let under = if rule.under { " under" } else { "" };
            if let Some(mark) = rule.mark.label() {
                let _ = writeln!(
                    out,
                    "<li class=\"changed{under}\"><span class=\"mark\">{}</span> {name}{text}</li>",
                    html_escape(mark)
                );
            } else if rule.under {
                let _ = writeln!(out, "<li class=\"under\">{name}{text}</li>");
            } else {
                let _ = writeln!(out, "<li>{name}{text}</li>");
            }
        }
        let _ = writeln!(out, "</ul>\n</section>");
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// The deck section as a crib sheet: each suit (month) as a row of its cards, drawn from the
/// deck's data; the section's other lines (the deck's size, what the numbers mean) as text.
fn html_deck(out: &mut String, sheet: &Sheet, section: &super::Section) {
    let _ = writeln!(out, "<section>\n<h2>{}</h2>", html_escape(&section.heading));
    for rule in section.rules.iter().filter(|r| r.name.is_none()) {
        let _ = writeln!(out, "<p>{}</p>", html_escape(&rule.text));
    }
    out.push_str("<div class=\"crib\">\n");
    for (suit, tiles) in &sheet.deck_tiles {
        let drawn: String = tiles.iter().map(tile_html).collect();
        let _ = writeln!(
            out,
            "<div><span class=\"suit\">{}</span>{drawn}</div>",
            html_escape(suit)
        );
    }
    out.push_str("</div>\n</section>\n");
}

/// One card: its face as the browser's table draws it, named (with its suit's short name, its
/// face and its first kind) on hover and to a screen reader.
fn tile_html(tile: &Tile) -> String {
    let label = html_escape(&format!(
        "{} ({} {}; {})",
        tile.name, tile.suit, tile.face, tile.kind
    ));
    format!(
        "<span class=\"tile\" title=\"{label}\" role=\"img\" aria-label=\"{label}\">{}</span>",
        tile.svg
    )
}
