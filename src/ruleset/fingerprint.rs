//! A ruleset's content hash, over what plays rather than how it is written: a record keeps it to
//! tell whether the rules it is replayed with are those it was played with, so an edited
//! comment, a re-indented table or keys put in another order must not count as a change.
//!
//! TOML files are hashed as their parsed tables (keys sorted, arrays in order, no comments or
//! layout); scripts as their text without comments and with each run of blanks as one space.
//! The hash of the whole text, yaku's earlier content hash, is kept beside it so that records
//! written before still match ([`crate::ruleset::Ruleset::same_rules`]).

use crate::diag::SourceMap;

/// FNV-1a, fed in steps.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// A length-prefixed piece, so that no two sequences of pieces feed the same bytes.
    fn piece(&mut self, tag: u8, bytes: &[u8]) {
        self.bytes(&[tag]);
        self.bytes(&(bytes.len() as u64).to_le_bytes());
        self.bytes(bytes);
    }
}

/// The files a ruleset is built from that the hash reads: the spec of a combination
/// (`koikoi+house/a`) names files, which are hashed themselves, and `--set` is not one.
fn hashed(sources: &SourceMap) -> impl Iterator<Item = &crate::diag::SourceFile> {
    sources
        .files()
        .iter()
        .filter(|f| f.name != "<command line>")
}

/// The hash of what plays in every file read, in load order.
pub(super) fn content_hash(sources: &SourceMap) -> u64 {
    let mut h = Fnv::new();
    for file in hashed(sources) {
        if file.name.ends_with(".rhai") {
            h.piece(b's', script_tokens(&file.text).as_bytes());
        } else {
            match toml::from_str::<toml::Table>(&file.text) {
                Ok(table) => table_hash(&mut h, &table),
                // Not TOML (a ruleset that would not load): its text.
                Err(_) => h.piece(b'x', file.text.as_bytes()),
            }
        }
    }
    h.0
}

/// The earlier content hash: FNV-1a over every text read, each followed by 0xff.
pub(super) fn text_hash(sources: &SourceMap) -> u64 {
    let mut h = Fnv::new();
    for file in hashed(sources) {
        h.bytes(file.text.as_bytes());
        h.bytes(&[0xff]);
    }
    h.0
}

fn table_hash(h: &mut Fnv, table: &toml::Table) {
    let mut keys: Vec<&String> = table.keys().collect();
    keys.sort();
    h.piece(b'{', &(keys.len() as u64).to_le_bytes());
    for key in keys {
        h.piece(b'k', key.as_bytes());
        value_hash(h, &table[key]);
    }
}

fn value_hash(h: &mut Fnv, value: &toml::Value) {
    match value {
        toml::Value::String(s) => h.piece(b'"', s.as_bytes()),
        toml::Value::Integer(i) => h.piece(b'i', &i.to_le_bytes()),
        toml::Value::Float(f) => h.piece(b'f', &f.to_bits().to_le_bytes()),
        toml::Value::Boolean(b) => h.piece(b'b', &[u8::from(*b)]),
        toml::Value::Datetime(d) => h.piece(b'd', d.to_string().as_bytes()),
        toml::Value::Array(items) => {
            h.piece(b'[', &(items.len() as u64).to_le_bytes());
            for item in items {
                value_hash(h, item);
            }
        }
        toml::Value::Table(table) => table_hash(h, table),
    }
}

/// A script's text without its comments (`//` to the end of the line, `/* */`, nested as
/// rhai nests them) and with each run of blanks as one space; strings and characters stay as
/// written.
fn script_tokens(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut blank = false;
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                blank = true;
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut depth = 1;
                let mut last = ' ';
                for c in chars.by_ref() {
                    match (last, c) {
                        ('/', '*') => {
                            depth += 1;
                            last = ' ';
                            continue;
                        }
                        ('*', '/') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                            last = ' ';
                            continue;
                        }
                        _ => {}
                    }
                    last = c;
                }
                blank = true;
            }
            '"' | '`' | '\'' => {
                if std::mem::take(&mut blank) && !out.is_empty() {
                    out.push(' ');
                }
                out.push(c);
                let mut escaped = false;
                for d in chars.by_ref() {
                    out.push(d);
                    match d {
                        '\\' if !escaped && c != '`' => escaped = true,
                        _ if d == c && !escaped => break,
                        _ => escaped = false,
                    }
                }
            }
            c if c.is_whitespace() => blank = true,
            c => {
                if std::mem::take(&mut blank) && !out.is_empty() {
                    out.push(' ');
                }
                out.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hash_of(files: &[(&str, &str)]) -> u64 {
        let mut sources = SourceMap::default();
        for (name, text) in files {
            sources.add(*name, *text);
        }
        content_hash(&sources)
    }

    #[test]
    fn comments_layout_and_key_order_do_not_count() {
        let a = "# Koi-Koi\nid = \"k\"\n[flow]\nhands = 12 # a year\n";
        let b = "id=\"k\"\n\n[flow]   # the flow\n  hands =   12\n";
        let c = "[flow]\nhands = 12\n[meta]\n";
        assert_eq!(
            hash_of(&[("r.toml", a)]),
            hash_of(&[("r.toml", b)]),
            "comments and layout"
        );
        let reordered = "[flow]\nhands = 12\n\n[x]\ny = 1\n";
        let ordered = "[x]\ny = 1\n[flow]\nhands = 12\n";
        assert_eq!(
            hash_of(&[("r.toml", reordered)]),
            hash_of(&[("r.toml", ordered)])
        );
        assert_ne!(hash_of(&[("r.toml", a)]), hash_of(&[("r.toml", c)]));
    }

    #[test]
    fn what_plays_counts() {
        let base = hash_of(&[("r.toml", "[flow]\nhands = 12\n")]);
        for changed in [
            "[flow]\nhands = 11\n",
            "[flow]\nhands = \"12\"\n",
            "[flow]\nhand = 12\n",
            "[flow]\nhands = [12]\n",
        ] {
            assert_ne!(base, hash_of(&[("r.toml", changed)]), "{changed}");
        }
        // Arrays keep their order (the yaku table is numbered by it).
        assert_ne!(
            hash_of(&[("r.toml", "a = [1, 2]\n")]),
            hash_of(&[("r.toml", "a = [2, 1]\n")])
        );
    }

    #[test]
    fn a_scripts_comments_and_blanks_do_not_count_but_its_strings_do() {
        let script = "// points\nlet x = 1;   /* one /* nested */ */\nx + 2";
        let same = "let x = 1;\n\n\tx + 2 // two";
        let other = "let x = 1; x + 3";
        let h = |t: &str| hash_of(&[("s.rhai", t)]);
        assert_eq!(h(script), h(same));
        assert_ne!(h(script), h(other));
        assert_ne!(h("\"a  b\""), h("\"a b\""), "strings stay as written");
        assert_eq!(
            script_tokens("\"// not a comment\" // a comment"),
            "\"// not a comment\""
        );
        assert_eq!(script_tokens("a+b"), "a+b");
        assert_ne!(h("a+b"), h("a +b"));
    }

    #[test]
    fn the_earlier_text_hash_is_kept() {
        let mut sources = SourceMap::default();
        sources.add("r.toml", "id = \"k\"\n");
        // FNV-1a of the text and 0xff, as yaku hashed rule files before.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in "id = \"k\"\n".bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        assert_eq!(text_hash(&sources), h);
    }
}
