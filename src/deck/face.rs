//! Card faces as SVG, drawn in code from the deck's data: the browser table, its watch page and
//! the HTML rule sheet show the same face for a card, and no picture file is needed (nor any
//! licence for one).
//!
//! The deck file's `art` says how its cards are drawn ([`ArtStyle`]); each style reads the
//! suit's and the card's `mark` and the tile's text (`short`, `face`). A deck without `art` (a
//! rule file's own cards) gets a generated face: its suit's short name and the card's face as
//! text, with a band in the colour of its first kind, as the terminal colours its tiles.
//!
//! Every face is 40 by 56 units (a card's proportions, 5:7), drawn in few, bold shapes so that it
//! reads at the size of a phone's card (about 50 pixels wide).
//!
//! ```
//! let ruleset = yaku::ruleset::load("koikoi").value.unwrap();
//! let deck = &ruleset.deck;
//! let face = yaku::deck::face::svg(deck, deck.card_by_id("pampas-moon").unwrap());
//! assert!(face.starts_with("<svg") && face.contains("class=\"motif\""));
//! ```

use super::{ArtStyle, CardId, Deck};
use std::fmt::Write;

/// The colours of a suit's `colour` names, as the browser draws them.
fn ink(colour: Option<&str>) -> &'static str {
    match colour {
        Some("red") => "#c62828",
        Some("black") => "#1b1b1b",
        Some("blue") => "#1f5fbf",
        Some("green") => "#2e7d32",
        Some("gold") => "#8a6500",
        Some("purple") => "#6a1b9a",
        _ => "#222",
    }
}

/// The colours of a card's tone (its first kind's place among the deck's kinds), the same order
/// as the terminal's palette: brights, animals, ribbons and plains differ.
const TONES: [&str; 8] = [
    "#d4a017", "#2e7d32", "#b22222", "#8a8a8a", "#1f5fbf", "#8e3a9e", "#1a8f8f", "#5c7fd6",
];

/// Text escaped for SVG (and HTML) markup.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A text element that fits `width` units: squeezed when long.
fn text(x: f32, y: f32, size: f32, fill: &str, extra: &str, body: &str, width: f32) -> String {
    let squeeze = if body.chars().count() as f32 * size * 0.6 > width {
        format!(" textLength=\"{width}\" lengthAdjust=\"spacingAndGlyphs\"")
    } else {
        String::new()
    };
    format!(
        "<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\" fill=\"{fill}\"{extra}{squeeze}>{}</text>",
        escape(body)
    )
}

/// The face of `card` as an SVG element (`<svg class="face ...">`), drawn in its deck's style.
pub fn svg(deck: &Deck, card: CardId) -> String {
    let (style, body) = match deck.art {
        Some(ArtStyle::Hanafuda) => ("hanafuda", hanafuda(deck, card)),
        Some(ArtStyle::French) => ("french", pips_card(deck, card, false)),
        Some(ArtStyle::Italian) => ("italian", pips_card(deck, card, true)),
        Some(ArtStyle::Kabufuda) => ("kabufuda", kabufuda(deck, card)),
        Some(ArtStyle::Domino) => ("domino", domino(deck, card)),
        None => ("text", generated(deck, card)),
    };
    // A suit a four-colour pack draws in another colour: the page may swap its ink for it.
    let suit = deck.suit_of(card);
    let four = match suit.four_colour {
        Some(four) if Some(four) != suit.colour => format!(
            " data-ink=\"{}\" data-four=\"{}\"",
            ink(suit.colour),
            ink(Some(four))
        ),
        _ => String::new(),
    };
    format!(
        "<svg viewBox=\"0 0 40 56\" class=\"face art-{style}\"{four} \
         aria-hidden=\"true\" font-family=\"DejaVu Sans, system-ui, sans-serif\">{body}</svg>"
    )
}

/// The face of a card of a deck without `art`: its suit's short name, its face, and a band in
/// its tone.
fn generated(deck: &Deck, card: CardId) -> String {
    let suit = deck.suit_of(card);
    let c = deck.card(card);
    let ink = ink(suit.colour);
    let tone = TONES[deck.tone(card) % TONES.len()];
    let size = if c.face.chars().count() > 3 {
        10.0
    } else {
        15.0
    };
    format!(
        "<rect x=\"1\" y=\"1\" width=\"38\" height=\"54\" rx=\"4\" fill=\"#fbfaf5\" stroke=\"{tone}\" stroke-width=\"2\"/>{}{}\
         <rect x=\"4\" y=\"44\" width=\"32\" height=\"8\" rx=\"2\" fill=\"{tone}\"/>",
        text(
            4.0,
            12.0,
            10.0,
            ink,
            " font-weight=\"bold\"",
            &suit.short,
            32.0
        ),
        text(
            20.0,
            33.0,
            size,
            ink,
            " text-anchor=\"middle\"",
            &c.face,
            32.0
        ),
    )
}

// ---- Flower cards ----

/// A flower card: the suit's plant over the whole card, the card's mark on it (a bright's red
/// sun and subject, an animal, a ribbon, a double junk's badge), the month's number in a corner.
fn hanafuda(deck: &Deck, card: CardId) -> String {
    let suit = deck.suit_of(card);
    let c = deck.card(card);
    let plant = suit.mark.as_deref().unwrap_or("");
    let mark = c.mark.as_deref().unwrap_or("plain");
    let mut out = String::from(
        "<rect x=\"1\" y=\"1\" width=\"38\" height=\"54\" rx=\"3\" fill=\"#fff8e7\" stroke=\"#3b2616\" stroke-width=\"2\"/>",
    );
    if plant == "bonus" {
        // A bonus card: gold, its worth (the card's face, `2 pi`) in large type.
        let _ = write!(
            out,
            "<g class=\"motif\" data-plant=\"bonus\"><rect x=\"4\" y=\"4\" width=\"32\" height=\"48\" rx=\"2\" fill=\"#f2c14e\" stroke=\"#b8860b\"/>\
             <path d=\"M20 10 l3 6 6 1 -4.5 4.5 1 6.5 -5.5 -3 -5.5 3 1 -6.5 -4.5 -4.5 6 -1z\" fill=\"#c62828\"/></g>{}{}",
            text(
                20.0,
                40.0,
                11.0,
                "#3b2616",
                " text-anchor=\"middle\" font-weight=\"bold\"",
                &c.face,
                30.0
            ),
            text(
                20.0,
                49.0,
                6.0,
                "#3b2616",
                " text-anchor=\"middle\"",
                "BONUS",
                28.0
            ),
        );
        return out;
    }
    out.push_str(&plant_motif(plant));
    out.push_str(&card_mark(plant, mark));
    if !plant.is_empty() {
        // The month's number, for players still learning the plants.
        let _ = write!(
            out,
            "<circle cx=\"7\" cy=\"7\" r=\"5\" fill=\"#fff8e7\" stroke=\"#3b2616\" stroke-width=\"0.8\"/>{}",
            text(
                7.0,
                9.6,
                7.0,
                "#3b2616",
                " text-anchor=\"middle\" font-weight=\"bold\"",
                &suit.number.to_string(),
                9.0
            ),
        );
    }
    out
}

/// The regular star of `points` points around (`cx`, `cy`): maple leaves, chrysanthemum petals.
fn star(cx: f32, cy: f32, outer: f32, inner: f32, points: u32, fill: &str) -> String {
    let mut d = String::new();
    for i in 0..points * 2 {
        let r = if i % 2 == 0 { outer } else { inner };
        let a = std::f32::consts::PI * i as f32 / points as f32 - std::f32::consts::FRAC_PI_2;
        let _ = write!(
            d,
            "{}{:.1} {:.1}",
            if i == 0 { "M" } else { "L" },
            cx + r * a.cos(),
            cy + r * a.sin()
        );
    }
    format!("<path d=\"{d}z\" fill=\"{fill}\"/>")
}

/// Small round blossoms at the given points.
fn blossoms(points: &[(f32, f32)], r: f32, fill: &str, centre: &str) -> String {
    points
        .iter()
        .map(|(x, y)| {
            format!(
                "<circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"{fill}\"/><circle cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"{centre}\"/>",
                r / 3.0
            )
        })
        .collect()
}

/// The month's plant, as one group (`class="motif"`, `data-plant`), over the card's lower part
/// and edges, leaving the middle for the card's mark.
fn plant_motif(plant: &str) -> String {
    let body = match plant {
        // Pine: dark green layered crowns on a brown trunk, a red sky.
        "pine" => "<rect x=\"3\" y=\"3\" width=\"34\" height=\"16\" fill=\"#e57373\" opacity=\"0.55\"/>\
            <path d=\"M19 54 L21 30 L23 54z\" fill=\"#6d4c41\"/>\
            <ellipse cx=\"14\" cy=\"40\" rx=\"11\" ry=\"5\" fill=\"#1b5e20\"/>\
            <ellipse cx=\"27\" cy=\"34\" rx=\"10\" ry=\"4.5\" fill=\"#2e7d32\"/>\
            <ellipse cx=\"18\" cy=\"48\" rx=\"13\" ry=\"4.5\" fill=\"#1b5e20\"/>"
            .to_string(),
        // Plum: a dark branch with red blossoms, a red sky.
        "plum" => format!(
            "<rect x=\"3\" y=\"3\" width=\"34\" height=\"12\" fill=\"#e57373\" opacity=\"0.55\"/>\
             <path d=\"M4 52 Q14 40 20 44 T36 30\" stroke=\"#4e342e\" stroke-width=\"2.5\" fill=\"none\"/>{}",
            blossoms(&[(9.0, 46.0), (17.0, 41.0), (25.0, 41.0), (32.0, 34.0), (30.0, 47.0)], 2.6, "#d81b60", "#ffeb3b")
        ),
        // Cherry: a cloud of pink blossoms along the bottom.
        "cherry" => format!(
            "<rect x=\"3\" y=\"38\" width=\"34\" height=\"15\" rx=\"2\" fill=\"#f8bbd0\"/>{}",
            blossoms(
                &[(7.0, 40.0), (14.0, 44.0), (21.0, 40.0), (28.0, 45.0), (34.0, 40.0), (10.0, 50.0), (24.0, 50.0), (32.0, 51.0)],
                3.0,
                "#f06292",
                "#fff59d"
            )
        ),
        // Wisteria: purple clusters hanging from the top.
        "wisteria" => {
            let mut s = String::from(
                "<path d=\"M3 5 Q20 9 37 4\" stroke=\"#4e342e\" stroke-width=\"1.5\" fill=\"none\"/>",
            );
            for (x, len) in [(8.0_f32, 4), (16.0, 5), (24.0, 4), (32.0, 5)] {
                for i in 0..len {
                    let _ = write!(
                        s,
                        "<circle cx=\"{x}\" cy=\"{}\" r=\"{:.1}\" fill=\"#7e57c2\"/>",
                        8.0 + 3.2 * i as f32,
                        2.2 - 0.25 * i as f32
                    );
                }
            }
            s.push_str("<path d=\"M6 54 Q10 44 14 54 M26 54 Q30 44 34 54\" stroke=\"#558b2f\" stroke-width=\"1.5\" fill=\"none\"/>");
            s
        }
        // Iris: tall green blades with purple flowers.
        "iris" => "<path d=\"M8 54 L10 30 L12 54 M16 54 L19 26 L21 54 M28 54 L31 32 L33 54\" fill=\"#388e3c\"/>\
            <path d=\"M10 30 l-4 -4 4 -3 4 3z M19 26 l-4 -4 4 -3 4 3z M31 32 l-4 -4 4 -3 4 3z\" fill=\"#5e35b1\"/>"
            .to_string(),
        // Peony: a large red flower with leaves.
        "peony" => format!(
            "<ellipse cx=\"12\" cy=\"50\" rx=\"8\" ry=\"3\" fill=\"#388e3c\"/><ellipse cx=\"30\" cy=\"50\" rx=\"8\" ry=\"3\" fill=\"#388e3c\"/>{}{}",
            star(20.0, 43.0, 9.0, 6.0, 8, "#c2185b"),
            "<circle cx=\"20\" cy=\"43\" r=\"3.5\" fill=\"#f48fb1\"/>"
        ),
        // Bush clover: thin arching stems with small red flowers.
        "clover" => {
            let mut s = String::from(
                "<path d=\"M6 54 Q10 30 30 24 M14 54 Q20 36 36 34 M24 54 Q26 44 36 44\" stroke=\"#6d4c41\" stroke-width=\"1.2\" fill=\"none\"/>",
            );
            for (x, y) in [(12.0, 38.0), (18.0, 30.0), (26.0, 26.0), (22.0, 41.0), (30.0, 36.0), (30.0, 45.0), (9.0, 46.0)] {
                let _ = write!(s, "<ellipse cx=\"{x}\" cy=\"{y}\" rx=\"2.2\" ry=\"1.4\" fill=\"#c62828\"/>");
            }
            s
        }
        // Pampas: a dark hill with grass under a red sky.
        "pampas" => "<rect x=\"3\" y=\"3\" width=\"34\" height=\"30\" fill=\"#ef9a9a\" opacity=\"0.6\"/>\
            <path d=\"M2 54 L2 40 Q20 24 38 40 L38 54z\" fill=\"#263238\"/>\
            <path d=\"M8 40 l2 -6 M14 34 l1 -6 M20 31 l0 -6 M26 34 l-1 -6 M32 40 l-2 -6\" stroke=\"#eceff1\" stroke-width=\"1\"/>"
            .to_string(),
        // Chrysanthemum: a yellow many-petalled flower.
        "chrysanthemum" => format!(
            "<path d=\"M20 54 L20 44 M14 54 Q12 48 18 46\" stroke=\"#388e3c\" stroke-width=\"1.5\" fill=\"none\"/>{}<circle cx=\"20\" cy=\"42\" r=\"2.6\" fill=\"#e65100\"/>",
            star(20.0, 42.0, 9.0, 4.5, 12, "#fbc02d")
        ),
        // Maple: red five-pointed leaves.
        "maple" => format!(
            "{}{}{}",
            star(11.0, 44.0, 7.0, 3.0, 5, "#d84315"),
            star(28.0, 47.0, 7.0, 3.0, 5, "#c62828"),
            star(31.0, 10.0, 5.0, 2.2, 5, "#ef6c00"),
        ),
        // Willow: drooping green strands from the top, rain lines.
        "willow" => "<rect x=\"3\" y=\"3\" width=\"34\" height=\"50\" fill=\"#cfd8dc\" opacity=\"0.5\"/>\
            <path d=\"M10 3 Q6 20 8 34 M17 3 Q14 22 16 40 M25 3 Q27 18 24 30 M33 3 Q30 20 32 36\" stroke=\"#2e7d32\" stroke-width=\"1.6\" fill=\"none\"/>\
            <path d=\"M5 44 l-2 6 M14 46 l-2 6 M23 44 l-2 6 M32 46 l-2 6\" stroke=\"#546e7a\" stroke-width=\"0.8\"/>"
            .to_string(),
        // Paulownia: broad green leaves under purple flower spikes.
        "paulownia" => "<path d=\"M4 54 Q8 38 20 44 Q32 38 36 54z\" fill=\"#2e7d32\"/>\
            <path d=\"M20 54 L20 42\" stroke=\"#1b5e20\" stroke-width=\"1\"/>\
            <ellipse cx=\"12\" cy=\"36\" rx=\"2.2\" ry=\"5\" fill=\"#7b1fa2\"/><ellipse cx=\"20\" cy=\"33\" rx=\"2.4\" ry=\"6\" fill=\"#8e24aa\"/><ellipse cx=\"28\" cy=\"36\" rx=\"2.2\" ry=\"5\" fill=\"#7b1fa2\"/>"
            .to_string(),
        _ => String::new(),
    };
    format!(
        "<g class=\"motif\" data-plant=\"{}\">{body}</g>",
        escape(plant)
    )
}

/// A ribbon across the card's middle, with writing marks on a poem ribbon.
fn ribbon(fill: &str, writing: bool) -> String {
    let mut s = format!(
        "<path d=\"M15 10 L25 10 L24 38 L27 44 L20 41 L13 44 L16 38z\" fill=\"{fill}\" stroke=\"#3b2616\" stroke-width=\"0.6\"/>"
    );
    if writing {
        s.push_str("<path d=\"M18.5 14 h3 M20 14 v5 M18 21 h4 M18.5 25 l3 2 M21.5 25 l-3 2 M20 29 v4 M18 31 h4\" stroke=\"#111\" stroke-width=\"1.1\"/>");
    }
    s
}

/// A bird's silhouette at (`x`, `y`) in `fill`.
fn bird(x: f32, y: f32, fill: &str) -> String {
    format!(
        "<g transform=\"translate({x} {y})\"><ellipse cx=\"0\" cy=\"0\" rx=\"7\" ry=\"4\" fill=\"{fill}\"/>\
         <path d=\"M-3 -2 L4 -10 L5 -2z\" fill=\"{fill}\"/><circle cx=\"6.5\" cy=\"-2.5\" r=\"2.5\" fill=\"{fill}\"/>\
         <path d=\"M8.5 -2.5 l3 0.8 -3 0.8z\" fill=\"#f9a825\"/><path d=\"M-7 0 l-4 -2 1 4z\" fill=\"{fill}\"/></g>"
    )
}

/// What makes a card of the month more than its plant: a bright's red sun with its subject, an
/// animal, a ribbon, a double junk's badge.
fn card_mark(plant: &str, mark: &str) -> String {
    let body = match mark {
        "bright" | "rain" => {
            // The red round of a bright (its corner mark on the cards), and its subject.
            let subject = match (plant, mark) {
                (_, "rain") => "<path d=\"M10 26 Q20 14 30 26z\" fill=\"#f9a825\" stroke=\"#3b2616\" stroke-width=\"0.6\"/>\
                    <path d=\"M20 26 v10\" stroke=\"#3b2616\" stroke-width=\"1\"/><circle cx=\"16\" cy=\"31\" r=\"2.5\" fill=\"#3b2616\"/>\
                    <path d=\"M14 34 l-2 10 h8z\" fill=\"#c62828\"/>"
                    .to_string(),
                ("pine", _) => format!(
                    "{}<path d=\"M24 22 l4 -6\" stroke=\"#c62828\" stroke-width=\"2\"/>",
                    bird(20.0, 28.0, "#fafafa")
                ),
                ("cherry", _) => "<rect x=\"7\" y=\"16\" width=\"26\" height=\"16\" fill=\"#fafafa\" stroke=\"#3b2616\" stroke-width=\"0.6\"/>\
                    <path d=\"M7 20 h26 M7 24 h26 M7 28 h26\" stroke=\"#c62828\" stroke-width=\"1.6\"/>"
                    .to_string(),
                ("pampas", _) => "<circle cx=\"20\" cy=\"20\" r=\"10\" fill=\"#fffde7\" stroke=\"#3b2616\" stroke-width=\"0.6\"/>".to_string(),
                ("paulownia", _) => format!(
                    "{}<path d=\"M12 27 q-4 6 -2 10 M14 28 q-2 6 0 9\" stroke=\"#c62828\" stroke-width=\"1.5\" fill=\"none\"/>",
                    bird(20.0, 24.0, "#43a047")
                ),
                _ => String::new(),
            };
            format!(
                "{subject}<circle cx=\"32\" cy=\"8\" r=\"5\" fill=\"#d32f2f\" stroke=\"#fff8e7\" stroke-width=\"1\"/>\
                 <circle cx=\"32\" cy=\"8\" r=\"2.2\" fill=\"#fff8e7\"/>"
            )
        }
        "animal" => match plant {
            "iris" => "<path d=\"M4 26 L36 20 L36 24 L4 30z\" fill=\"#8d6e63\" stroke=\"#3b2616\" stroke-width=\"0.6\"/>\
                <path d=\"M10 29 v6 M18 27 v6 M26 26 v6 M33 24 v6\" stroke=\"#3b2616\" stroke-width=\"1.2\"/>"
                .to_string(),
            "peony" => "<path d=\"M20 22 l-8 -6 -2 8z M20 22 l8 -6 2 8z M20 22 l-6 6 -1 -4z M20 22 l6 6 1 -4z\" fill=\"#1565c0\"/>\
                <path d=\"M20 18 v10\" stroke=\"#111\" stroke-width=\"1\"/>"
                .to_string(),
            "clover" => "<ellipse cx=\"20\" cy=\"24\" rx=\"11\" ry=\"6\" fill=\"#5d4037\"/><circle cx=\"30\" cy=\"22\" r=\"4\" fill=\"#5d4037\"/>\
                <path d=\"M12 28 v4 M16 29 v4 M24 29 v4 M28 28 v4\" stroke=\"#3e2723\" stroke-width=\"1.6\"/>"
                .to_string(),
            "pampas" => format!(
                "{}{}{}",
                bird(12.0, 14.0, "#424242"),
                bird(25.0, 10.0, "#424242"),
                bird(30.0, 20.0, "#424242")
            ),
            "chrysanthemum" => "<path d=\"M10 16 L30 16 L26 28 L14 28z\" fill=\"#c62828\" stroke=\"#3b2616\" stroke-width=\"0.6\"/>\
                <rect x=\"16\" y=\"28\" width=\"8\" height=\"4\" fill=\"#c62828\"/><circle cx=\"20\" cy=\"21\" r=\"3\" fill=\"#fbc02d\"/>"
                .to_string(),
            "maple" => "<ellipse cx=\"20\" cy=\"25\" rx=\"10\" ry=\"5\" fill=\"#a1887f\"/><circle cx=\"29\" cy=\"18\" r=\"3.5\" fill=\"#a1887f\"/>\
                <path d=\"M28 14 l-2 -5 M31 14 l2 -5\" stroke=\"#5d4037\" stroke-width=\"1.2\"/>\
                <path d=\"M13 29 v7 M17 30 v7 M23 30 v7 M27 29 v7\" stroke=\"#8d6e63\" stroke-width=\"1.6\"/>"
                .to_string(),
            "willow" => bird(20.0, 22.0, "#1a237e"),
            "plum" => bird(20.0, 24.0, "#689f38"),
            "wisteria" => bird(20.0, 24.0, "#37474f"),
            _ => bird(20.0, 24.0, "#5d4037"),
        },
        "poem" => ribbon("#d32f2f", true),
        "blue" => ribbon("#1e4fa8", false),
        "ribbon" => ribbon("#d32f2f", false),
        "double" | "triple" => format!(
            "<rect x=\"25\" y=\"3\" width=\"12\" height=\"9\" rx=\"2\" fill=\"#3b2616\"/>{}",
            text(31.0, 10.2, 7.0, "#fff8e7", " text-anchor=\"middle\" font-weight=\"bold\"", if mark == "double" { "×2" } else { "×3" }, 10.0)
        ),
        _ => String::new(),
    };
    format!(
        "<g class=\"mark\" data-mark=\"{}\">{body}</g>",
        escape(mark)
    )
}

// ---- French and Italian cards ----

/// A suit's pip, centred on (`x`, `y`), `size` units across.
fn pip(mark: &str, x: f32, y: f32, size: f32, fill: &str) -> String {
    let shape = match mark {
        "hearts" => format!(
            "<path d=\"M0 0.45 L-0.47 -0.05 A0.25 0.25 0 0 1 0 -0.32 A0.25 0.25 0 0 1 0.47 -0.05z\" fill=\"{fill}\"/>"
        ),
        "diamonds" => format!("<path d=\"M0 -0.5 L0.38 0 L0 0.5 L-0.38 0z\" fill=\"{fill}\"/>"),
        "spades" => format!(
            "<path d=\"M0 -0.5 L-0.47 0.02 A0.25 0.25 0 0 0 0 0.25 A0.25 0.25 0 0 0 0.47 0.02z M0 0.1 L-0.15 0.5 L0.15 0.5z\" fill=\"{fill}\"/>"
        ),
        "clubs" => format!(
            "<circle cx=\"0\" cy=\"-0.24\" r=\"0.22\" fill=\"{fill}\"/><circle cx=\"-0.25\" cy=\"0.1\" r=\"0.22\" fill=\"{fill}\"/>\
             <circle cx=\"0.25\" cy=\"0.1\" r=\"0.22\" fill=\"{fill}\"/><path d=\"M0 0 L-0.15 0.5 L0.15 0.5z\" fill=\"{fill}\"/>"
        ),
        "coins" => "<circle r=\"0.48\" fill=\"#f9a825\" stroke=\"#8a6500\" stroke-width=\"0.08\"/><circle r=\"0.26\" fill=\"none\" stroke=\"#c62828\" stroke-width=\"0.08\"/><circle r=\"0.08\" fill=\"#8a6500\"/>".to_string(),
        "cups" => "<path d=\"M-0.38 -0.45 L0.38 -0.45 Q0.38 0 0 0.08 Q-0.38 0 -0.38 -0.45z\" fill=\"#c62828\"/>\
            <path d=\"M-0.05 0.05 h0.1 v0.3 h-0.1z M-0.25 0.35 h0.5 v0.12 h-0.5z\" fill=\"#f9a825\"/>"
            .to_string(),
        "swords" => "<path d=\"M-0.07 -0.5 L0.07 -0.5 L0.07 0.2 L-0.07 0.2z\" fill=\"#1f5fbf\"/>\
            <path d=\"M-0.28 0.18 h0.56 v0.1 h-0.56z M-0.06 0.28 h0.12 v0.22 h-0.12z\" fill=\"#f9a825\"/>"
            .to_string(),
        "batons" => "<path d=\"M-0.1 -0.5 Q0.14 -0.52 0.14 -0.4 L0.1 0.5 L-0.12 0.5z\" fill=\"#2e7d32\" stroke=\"#1b5e20\" stroke-width=\"0.05\"/>\
            <path d=\"M-0.1 -0.1 l0.22 0 M-0.1 0.2 l0.22 0\" stroke=\"#c62828\" stroke-width=\"0.06\"/>"
            .to_string(),
        _ => format!("<circle r=\"0.4\" fill=\"{fill}\"/>"),
    };
    format!("<g class=\"pip\" transform=\"translate({x:.1} {y:.1}) scale({size})\">{shape}</g>")
}

/// Where `n` pips sit in the card's middle (x 12 to 28, y 11 to 45), as printed cards set them.
fn pip_places(n: u32) -> Vec<(f32, f32)> {
    let (l, c, r) = (13.0, 20.0, 27.0);
    let rows = |ys: &[f32], xs: &[f32]| -> Vec<(f32, f32)> {
        ys.iter()
            .flat_map(|&y| xs.iter().map(move |&x| (x, y)))
            .collect()
    };
    let mut out = match n {
        1 => vec![(c, 28.0)],
        2 => vec![(c, 15.0), (c, 41.0)],
        3 => vec![(c, 14.0), (c, 28.0), (c, 42.0)],
        4 => rows(&[15.0, 41.0], &[l, r]),
        5 => {
            let mut v = rows(&[15.0, 41.0], &[l, r]);
            v.push((c, 28.0));
            v
        }
        6 => rows(&[14.0, 28.0, 42.0], &[l, r]),
        7 => {
            let mut v = rows(&[14.0, 28.0, 42.0], &[l, r]);
            v.push((c, 21.0));
            v
        }
        8 => {
            let mut v = rows(&[14.0, 28.0, 42.0], &[l, r]);
            v.extend([(c, 21.0), (c, 35.0)]);
            v
        }
        9 => {
            let mut v = rows(&[13.0, 23.0, 33.0, 43.0], &[l, r]);
            v.push((c, 28.0));
            v
        }
        _ => {
            let mut v = rows(&[13.0, 23.0, 33.0, 43.0], &[l, r]);
            v.extend([(c, 18.0), (c, 38.0)]);
            v
        }
    };
    out.truncate(n as usize);
    out
}

/// A French or Italian card: the rank and a small pip in the corners, in the middle as many pips
/// as a number card's rank, one large pip for an ace, the court's letter over a pip for a court.
fn pips_card(deck: &Deck, card: CardId, italian: bool) -> String {
    let suit = deck.suit_of(card);
    let c = deck.card(card);
    let mark = suit.mark.as_deref().unwrap_or("");
    let fill = match (suit.colour, mark) {
        (Some(colour), _) => ink(Some(colour)),
        (None, "hearts" | "diamonds") => ink(Some("red")),
        _ => ink(Some("black")),
    };
    // Italian marks have their own colours; the rank is drawn in the suit's colour.
    let mut out = String::from(
        "<rect x=\"1\" y=\"1\" width=\"38\" height=\"54\" rx=\"3.5\" fill=\"#fffefa\" stroke=\"#555\" stroke-width=\"1\"/>",
    );
    let rank = c.face.as_str();
    let corner = |x: f32, y: f32, rotate: bool| -> String {
        let t = if rotate {
            format!(" transform=\"rotate(180 {x} {})\"", y - 3.0)
        } else {
            String::new()
        };
        let pip_y = if rotate { y - 17.5 } else { y + 4.5 };
        let pip_x = x;
        format!(
            "<g class=\"corner\"{t}>{}</g>{}",
            text(
                x,
                y,
                9.0,
                fill,
                " text-anchor=\"middle\" font-weight=\"bold\"",
                rank,
                10.0
            ),
            if rotate {
                String::new()
            } else {
                pip(mark, pip_x, pip_y, 5.0, fill)
            }
        )
    };
    out.push_str(&corner(6.0, 10.0, false));
    out.push_str(&corner(34.0, 49.0, true));
    match rank.parse::<u32>() {
        Ok(n @ 2..=10) => {
            for (x, y) in pip_places(n) {
                out.push_str(&pip(mark, x, y, if italian { 8.0 } else { 7.0 }, fill));
            }
        }
        _ if rank == "A" || rank == "1" => out.push_str(&pip(mark, 20.0, 28.0, 18.0, fill)),
        _ => {
            // A court card: its letter large in a frame, a pip beneath.
            let _ = write!(
                out,
                "<rect x=\"9\" y=\"11\" width=\"22\" height=\"34\" rx=\"2\" fill=\"#fff3d6\" stroke=\"{fill}\" stroke-width=\"1\"/>{}{}",
                text(
                    20.0,
                    30.0,
                    16.0,
                    fill,
                    " text-anchor=\"middle\" font-weight=\"bold\" font-family=\"DejaVu Serif, serif\"",
                    rank,
                    20.0
                ),
                pip(mark, 20.0, 38.0, 8.0, fill),
            );
        }
    }
    out
}

// ---- Kabufuda ----

/// A kabufuda card: its numeral large on a red-bordered card, as many marks as it counts.
fn kabufuda(deck: &Deck, card: CardId) -> String {
    let c = deck.card(card);
    let n: u32 = c.face.parse().unwrap_or(0);
    let mut out = format!(
        "<rect x=\"1\" y=\"1\" width=\"38\" height=\"54\" rx=\"3\" fill=\"#1d1d1d\" stroke=\"#b71c1c\" stroke-width=\"2\"/>\
         <rect x=\"5\" y=\"5\" width=\"30\" height=\"46\" rx=\"1.5\" fill=\"#fff8e1\"/>{}",
        text(
            20.0,
            30.0,
            20.0,
            "#b71c1c",
            " text-anchor=\"middle\" font-weight=\"bold\" font-family=\"DejaVu Serif, serif\"",
            &c.face,
            26.0
        ),
    );
    // The count as bars in two rows of five: the number at a glance.
    for i in 0..n.min(10) {
        let x = 9.0 + 5.0 * (i % 5) as f32;
        let y = 37.0 + 6.0 * (i / 5) as f32;
        let _ = write!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"2.5\" height=\"4.5\" fill=\"#1d1d1d\"/>"
        );
    }
    out
}

// ---- Chinese dominoes ----

/// A Gu Pai tile: a black tile, each half (from the suit's short name, `6:4`) with its pips;
/// the one and the four are red, the other pips white, as on the real tiles.
fn domino(deck: &Deck, card: CardId) -> String {
    let suit = deck.suit_of(card);
    let mut out = String::from(
        "<rect x=\"2\" y=\"1\" width=\"36\" height=\"54\" rx=\"5\" fill=\"#1c1c1c\" stroke=\"#0a0a0a\" stroke-width=\"1\"/>\
         <path d=\"M7 28 h26\" stroke=\"#9e9e9e\" stroke-width=\"0.8\"/>",
    );
    let halves: Vec<u32> = suit
        .short
        .split(':')
        .filter_map(|h| h.trim().parse().ok())
        .collect();
    if halves.len() != 2 || halves.iter().any(|&h| !(1..=6).contains(&h)) {
        let _ = write!(
            out,
            "{}",
            text(
                20.0,
                32.0,
                10.0,
                "#fafafa",
                " text-anchor=\"middle\"",
                &suit.short,
                30.0
            )
        );
        return out;
    }
    for (half, &n) in halves.iter().enumerate() {
        let top = 3.0 + 26.0 * half as f32;
        let colour = if n == 1 || n == 4 {
            "#e53935"
        } else {
            "#fafafa"
        };
        let r = if n == 1 { 4.5 } else { 2.6 };
        let (l, c, rr) = (13.0, 20.0, 27.0);
        let (t, m, b) = (top + 6.0, top + 12.5, top + 19.0);
        let places: Vec<(f32, f32)> = match n {
            1 => vec![(c, m)],
            2 => vec![(l, t), (rr, b)],
            3 => vec![(l, t), (c, m), (rr, b)],
            4 => vec![(l, t), (rr, t), (l, b), (rr, b)],
            5 => vec![(l, t), (rr, t), (c, m), (l, b), (rr, b)],
            _ => vec![(l, t), (rr, t), (l, m), (rr, m), (l, b), (rr, b)],
        };
        for (x, y) in places {
            let _ = write!(
                out,
                "<circle class=\"pip\" cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"{colour}\"/>"
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck(id: &str) -> Deck {
        crate::ruleset::load_deck(id).value.expect("bundled deck")
    }

    fn face(deck: &Deck, id: &str) -> String {
        svg(deck, deck.card_by_id(id).expect("card id"))
    }

    #[test]
    fn every_bundled_deck_draws_every_card_in_its_style() {
        for (id, style) in [
            ("hanafuda", "hanafuda"),
            ("hwatu", "hanafuda"),
            ("hwatu-seotda", "hanafuda"),
            ("french-20", "french"),
            ("french-24", "french"),
            ("french-52", "french"),
            ("french-53", "french"),
            ("hearts-52", "french"),
            ("pinochle-48", "french"),
            ("italian-40", "italian"),
            ("kabufuda", "kabufuda"),
            ("gupai", "domino"),
        ] {
            let d = deck(id);
            for card in d.all().iter() {
                let f = svg(&d, card);
                assert!(
                    f.contains(&format!("class=\"face art-{style}\"")),
                    "{id} {}: {f}",
                    d.card(card).id
                );
                if style == "hanafuda" {
                    assert!(f.contains("class=\"motif\""), "{}", d.card(card).id);
                }
            }
        }
    }

    #[test]
    fn flower_cards_show_their_plant_and_mark() {
        let koikoi = deck("hanafuda");
        // Hanafuda's November is willow; hwatu's November is paulownia: the plant is the suit's
        // mark, not its month.
        assert!(face(&koikoi, "willow-rainman").contains("data-plant=\"willow\""));
        assert!(face(&koikoi, "willow-rainman").contains("data-mark=\"rain\""));
        assert!(face(&koikoi, "pine-poetry").contains("data-mark=\"poem\""));
        assert!(face(&koikoi, "peony-blue").contains("data-mark=\"blue\""));
        assert!(
            face(&koikoi, "pine-crane").contains("#d32f2f"),
            "a bright's red sun"
        );
        let hwatu = deck("hwatu");
        assert!(face(&hwatu, "paulownia-phoenix").contains("data-plant=\"paulownia\""));
        assert!(face(&hwatu, "paulownia-double").contains("×2"));
        assert!(face(&hwatu, "bonus-triple").contains("BONUS"));
    }

    #[test]
    fn french_cards_are_coloured_by_suit_with_their_rank() {
        let d = deck("french-52");
        let seven = face(&d, "hearts-seven");
        assert_eq!(
            seven.matches("class=\"pip\"").count(),
            7 + 1,
            "seven pips and a corner"
        );
        assert!(seven.contains("#c62828") && !seven.contains("#1b1b1b"));
        let king = face(&d, "spades-king");
        assert!(king.contains(">K</text>") && king.contains("#1b1b1b"));
    }

    /// A four-colour pack's suits name their other ink on the face, for the page to swap: the
    /// diamonds' red for blue, the clubs' black for green; hearts and spades keep theirs.
    #[test]
    fn a_four_colour_suit_names_its_other_ink() {
        let d = deck("french-52");
        let diamond = face(&d, "diamonds-seven");
        assert!(
            diamond.contains("data-ink=\"#c62828\" data-four=\"#1f5fbf\""),
            "{diamond}"
        );
        let club = face(&d, "clubs-king");
        assert!(
            club.contains("data-ink=\"#1b1b1b\" data-four=\"#2e7d32\""),
            "{club}"
        );
        assert!(!face(&d, "hearts-seven").contains("data-four"));
        assert!(!face(&d, "spades-ace").contains("data-four"));
    }

    #[test]
    fn gupai_tiles_show_both_halves_with_red_ones_and_fours() {
        let d = deck("gupai");
        let tile = face(&d, "five-41-a");
        assert_eq!(tile.matches("class=\"pip\"").count(), 5);
        assert_eq!(
            tile.matches("#e53935").count(),
            5,
            "the four and the one are red"
        );
        let heaven = face(&d, "heaven-a");
        assert_eq!(heaven.matches("#fafafa").count(), 12);
    }

    #[test]
    fn a_deck_without_art_keeps_the_generated_text_face_escaped() {
        let mut d = deck("hanafuda");
        d.art = None;
        d.cards[0].face = "<b>&".to_string();
        let f = svg(&d, CardId(0));
        assert!(f.contains("art-text") && f.contains("&lt;b&gt;&amp;"));
        assert!(!f.contains("<b>"));
    }

    /// A deck file's `art` and `mark`: read, drawn, and each wrong word an error at it with the
    /// words it could be.
    #[test]
    fn a_deck_files_art_and_marks_are_read_and_checked() {
        let file = |art: &str, suit_mark: &str, card_mark: &str| {
            format!(
                "[deck]\nid = \"mine\"\n{art}\n[[suit]]\nid = \"willow\"\n{suit_mark}\n\
                 cards = [ {{ id = \"willow-rainman\", {card_mark} }}, {{ id = \"willow-1\" }} ]\n"
            )
        };
        let load = |text: String| {
            crate::ruleset::load_deck_buffer(std::path::Path::new("mine.toml"), &text)
        };
        let good = load(file(
            "art = \"hanafuda\"",
            "mark = \"willow\"",
            "mark = \"rain\"",
        ));
        let d = good.value.expect("the deck loads");
        assert_eq!(d.art, Some(ArtStyle::Hanafuda));
        assert_eq!(d.suits[0].mark.as_deref(), Some("willow"));
        assert_eq!(d.cards[0].mark.as_deref(), Some("rain"));
        assert_eq!(d.cards[1].mark, None);
        assert!(svg(&d, CardId(0)).contains("data-mark=\"rain\""));
        assert!(
            svg(&d, CardId(1)).contains("data-mark=\"plain\""),
            "plain by default"
        );
        let errors = |text: String| -> Vec<(String, Option<String>)> {
            load(text)
                .diagnostics
                .into_iter()
                .map(|e| (e.message, e.help))
                .collect()
        };
        let art = errors(file("art = \"ukiyoe\"", "", ""));
        assert_eq!(art[0].0, "`ukiyoe` is not a style of card faces");
        assert_eq!(
            art[0].1.as_deref(),
            Some("`art` is one of: hanafuda, french, italian, kabufuda, domino")
        );
        let suit = errors(file("art = \"french\"", "mark = \"willow\"", ""));
        assert_eq!(suit[0].0, "`willow` is not a suit mark");
        assert!(
            suit[0]
                .1
                .as_deref()
                .unwrap()
                .ends_with("hearts, diamonds, spades, clubs")
        );
        let card = errors(file("art = \"hanafuda\"", "", "mark = \"moon\""));
        assert_eq!(card[0].0, "`moon` is not a card mark");
        let bare = errors(file("", "", "mark = \"rain\""));
        assert_eq!(
            bare[0].1.as_deref(),
            Some("a `mark` needs the deck's `art`, the style that draws it")
        );
    }

    /// The key reference's list of styles is the loader's.
    #[test]
    fn the_key_reference_lists_every_art_style() {
        let key = crate::ruleset::keys::DECK
            .keys
            .iter()
            .find(|k| k.name == "art")
            .expect("`art` is documented");
        let names: Vec<&str> = ArtStyle::ALL.iter().map(|(n, _)| *n).collect();
        assert_eq!(key.values, &names[..]);
    }
}
