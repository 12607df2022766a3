//! Did-you-mean suggestions for misspelled names (keys, cards, kinds, yaku), by edit distance.

/// The closest candidate to `wrong`, if one is close enough to be a likely typo.
///
/// Failing that, an abbreviation: a name of three or more letters that starts a candidate and
/// whose letters all appear in it in order (`cnt` for `count`).
pub fn suggest<'a>(wrong: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (wrong.chars().count() / 3).clamp(1, 3);
    let wrong = wrong.to_lowercase();
    let candidates: Vec<&str> = candidates.into_iter().collect();
    candidates
        .iter()
        .map(|c| (distance(&wrong, &c.to_lowercase()), *c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, c)| (d, c.len()))
        .map(|(_, c)| c)
        .or_else(|| {
            candidates
                .iter()
                .filter(|c| wrong.chars().count() >= 3 && abbreviates(&wrong, &c.to_lowercase()))
                .min_by_key(|c| c.len())
                .copied()
        })
}

/// True when `short` starts like `long` and its letters appear in `long` in order.
fn abbreviates(short: &str, long: &str) -> bool {
    if short.chars().next() != long.chars().next() || short.len() >= long.len() {
        return false;
    }
    let mut rest = long.chars();
    short.chars().all(|c| rest.any(|l| l == c))
}

/// `did you mean `x`?` for the closest candidate, as a help line.
pub fn did_you_mean<'a>(
    wrong: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    suggest(wrong, candidates).map(|c| format!("did you mean `{c}`?"))
}

/// Edit distance counting an adjacent transposition (`nmae` for `name`) as one edit.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let names = ["bright", "animal", "ribbon", "plain"];
        assert_eq!(suggest("brigth", names), Some("bright"));
        assert_eq!(suggest("plan", names), Some("plain"));
        assert_eq!(suggest("xyzzy", names), None);
        assert_eq!(suggest("nmae", ["name", "notes"]), Some("name"));
        assert_eq!(suggest("cnt", ["count", "any", "all"]), Some("count"));
        assert_eq!(suggest("xyz", ["count"]), None);
        assert_eq!(
            did_you_mean("ribon", names).as_deref(),
            Some("did you mean `ribbon`?")
        );
    }
}
