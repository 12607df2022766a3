//! The standard yaku table's worked examples as data: every yaku of 003 "Yaku Listing" at its
//! threshold and one card past it, with its total in `koikoi` and in `koikoi-classic`. The
//! tests that pin them (and their snapshots) stay in the parent module.

use super::*;

/// One worked example of the standard yaku table, with its total in `koikoi` (7+ doubled, 003
/// "Play") and in `koikoi-classic` (no such doubling in 001).
pub(super) struct Std {
    pub(super) what: &'static str,
    pub(super) cards: Vec<&'static str>,
    pub(super) yaku: Vec<(&'static str, i64)>,
    pub(super) koikoi: i64,
    pub(super) classic: i64,
}

fn std_ex(
    what: &'static str,
    cards: Vec<&'static str>,
    yaku: &[(&'static str, i64)],
    koikoi: i64,
    classic: i64,
) -> Std {
    Std {
        what,
        cards,
        yaku: yaku.to_vec(),
        koikoi,
        classic,
    }
}

/// Every yaku of 003 "Yaku Listing" at its threshold and one card past it, with the group rule
/// ("only awarded points for the highest value yaku the associated cards qualify for").
pub(super) fn standard_cases() -> Vec<(&'static str, Vec<Std>)> {
    vec![
        (
            "brights_group_sanko_3_ame_shiko_with_rain_beats_sanko_shiko_4_goko_5",
            vec![
                std_ex(
                    "two brights and the Rain Man: no yaku, sanko excludes the Rain Man",
                    cat(&[&BRIGHTS[..2], &[RAIN]]),
                    &[],
                    0,
                    0,
                ),
                std_ex(
                    "sanko at three brights without the Rain Man: 5",
                    cat(&[&BRIGHTS[..3]]),
                    &[("sanko", 5)],
                    5,
                    5,
                ),
                std_ex(
                    "sanko plus the Rain Man: ame-shiko 7 beats sanko 5",
                    cat(&[&BRIGHTS[..3], &[RAIN]]),
                    &[("ame-shiko", 7)],
                    14,
                    7,
                ),
                std_ex(
                    "sanko plus the fourth bright: shiko 8 beats sanko",
                    cat(&[&BRIGHTS]),
                    &[("shiko", 8)],
                    16,
                    8,
                ),
                std_ex(
                    "all five brights: goko 10 beats shiko and ame-shiko",
                    cat(&[&BRIGHTS, &[RAIN]]),
                    &[("goko", 10)],
                    20,
                    10,
                ),
            ],
        ),
        (
            "inoshikacho_5_plus_1_per_animal_beats_tane",
            vec![
                std_ex(
                    "boar, deer, butterflies: inoshikacho 5",
                    cat(&[&INO]),
                    &[("inoshikacho", 5)],
                    5,
                    5,
                ),
                std_ex(
                    "one more animal: inoshikacho 6",
                    cat(&[&INO, &OTHER_ANIMALS[..1]]),
                    &[("inoshikacho", 6)],
                    6,
                    6,
                ),
                std_ex(
                    "two more animals, five in all: inoshikacho 7, tane 1 not counted",
                    cat(&[&INO, &OTHER_ANIMALS[..2]]),
                    &[("inoshikacho", 7)],
                    14,
                    7,
                ),
            ],
        ),
        (
            "tane_at_5_animals_1_at_6_animals_2_sake_cup_is_an_animal",
            vec![
                std_ex(
                    "four animals: no yaku",
                    cat(&[&OTHER_ANIMALS[..4]]),
                    &[],
                    0,
                    0,
                ),
                std_ex(
                    "five animals: tane 1",
                    cat(&[&OTHER_ANIMALS]),
                    &[("tane", 1)],
                    1,
                    1,
                ),
                std_ex(
                    "six animals: tane 2",
                    cat(&[&OTHER_ANIMALS, &["peony-butterflies"]]),
                    &[("tane", 2)],
                    2,
                    2,
                ),
                std_ex(
                    "four animals and the Sake Cup: tane 1",
                    cat(&[&OTHER_ANIMALS[..4], &[SAKE]]),
                    &[("tane", 1)],
                    1,
                    1,
                ),
            ],
        ),
        (
            "akatan_5_plus_1_per_ribbon_two_more_ribbons_beat_tan",
            vec![
                std_ex(
                    "two poetry ribbons: no yaku",
                    cat(&[&POETRY[..2]]),
                    &[],
                    0,
                    0,
                ),
                std_ex(
                    "three poetry ribbons: akatan 5",
                    cat(&[&POETRY]),
                    &[("akatan", 5)],
                    5,
                    5,
                ),
                std_ex(
                    "one more ribbon: akatan 6",
                    cat(&[&POETRY, &PLAIN_RED[..1]]),
                    &[("akatan", 6)],
                    6,
                    6,
                ),
                std_ex(
                    "two more ribbons (003's example): akatan 7, tan 1 not counted",
                    cat(&[&POETRY, &PLAIN_RED[..2]]),
                    &[("akatan", 7)],
                    14,
                    7,
                ),
            ],
        ),
        (
            "aotan_5_plus_1_per_ribbon_beats_tan",
            vec![
                std_ex(
                    "three blue ribbons: aotan 5",
                    cat(&[&BLUE]),
                    &[("aotan", 5)],
                    5,
                    5,
                ),
                std_ex(
                    "one more ribbon: aotan 6",
                    cat(&[&BLUE, &PLAIN_RED[..1]]),
                    &[("aotan", 6)],
                    6,
                    6,
                ),
                std_ex(
                    "two more ribbons: aotan 7, tan 1 not counted",
                    cat(&[&BLUE, &PLAIN_RED[..2]]),
                    &[("aotan", 7)],
                    14,
                    7,
                ),
            ],
        ),
        (
            "akatan_aotan_10_plus_1_per_ribbon_beats_akatan_and_aotan",
            vec![
                std_ex(
                    "three poetry and three blue ribbons: akatan-aotan 10, not akatan 8 + aotan 8",
                    cat(&[&POETRY, &BLUE]),
                    &[("akatan-aotan", 10)],
                    20,
                    10,
                ),
                std_ex(
                    "one more ribbon: akatan-aotan 11",
                    cat(&[&POETRY, &BLUE, &PLAIN_RED[..1]]),
                    &[("akatan-aotan", 11)],
                    22,
                    11,
                ),
            ],
        ),
        (
            "tan_at_5_ribbons_1_at_6_ribbons_2",
            vec![
                std_ex("four ribbons: no yaku", cat(&[&PLAIN_RED]), &[], 0, 0),
                std_ex(
                    "five ribbons: tan 1",
                    cat(&[&PLAIN_RED, &POETRY[..1]]),
                    &[("tan", 1)],
                    1,
                    1,
                ),
                std_ex(
                    "six ribbons: tan 2",
                    cat(&[&PLAIN_RED, &POETRY[..2]]),
                    &[("tan", 2)],
                    2,
                    2,
                ),
            ],
        ),
        (
            "tsukimi_and_hanami_zake_5_each_cumulative",
            vec![
                std_ex(
                    "the Moon and the Sake Cup: tsukimi-zake 5",
                    vec!["pampas-moon", SAKE],
                    &[("tsukimi-zake", 5)],
                    5,
                    5,
                ),
                std_ex(
                    "the Cherry Curtain and the Sake Cup: hanami-zake 5",
                    vec!["cherry-curtain", SAKE],
                    &[("hanami-zake", 5)],
                    5,
                    5,
                ),
                std_ex(
                    "the Moon, the Curtain and the Sake Cup: both, 10",
                    vec!["cherry-curtain", "pampas-moon", SAKE],
                    &[("tsukimi-zake", 5), ("hanami-zake", 5)],
                    20,
                    10,
                ),
                std_ex(
                    "and the Crane: sanko counts with both viewing yaku, 15",
                    vec!["pine-crane", "cherry-curtain", "pampas-moon", SAKE],
                    &[("sanko", 5), ("tsukimi-zake", 5), ("hanami-zake", 5)],
                    30,
                    15,
                ),
            ],
        ),
        (
            "kasu_at_10_plains_1_at_11_plains_2_sake_cup_is_animal_and_plain",
            vec![
                std_ex("nine plains: no yaku", cat(&[&CHAFF[..9]]), &[], 0, 0),
                std_ex(
                    "ten plains: kasu 1",
                    cat(&[&CHAFF[..10]]),
                    &[("kasu", 1)],
                    1,
                    1,
                ),
                std_ex(
                    "eleven plains: kasu 2",
                    cat(&[&CHAFF[..11]]),
                    &[("kasu", 2)],
                    2,
                    2,
                ),
                std_ex(
                    "nine plains and the Sake Cup: kasu 1, the Sake Cup is a plain",
                    cat(&[&CHAFF[..9], &[SAKE]]),
                    &[("kasu", 1)],
                    1,
                    1,
                ),
                std_ex(
                    "four animals, the Sake Cup, nine plains: tane 1 and kasu 1 at once",
                    cat(&[&OTHER_ANIMALS[..4], &[SAKE], &CHAFF[..9]]),
                    &[("tane", 1), ("kasu", 1)],
                    2,
                    2,
                ),
            ],
        ),
    ]
}
