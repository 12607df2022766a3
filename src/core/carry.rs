//! Values carried from one hand to the next (`[[carry]]`): a field multiplier, who holds the
//! bank, a streak. The scoring script writes them at a hand's end (`carry`), or the deal counts
//! them on the table (`deal`); the next deal and script read them; every family keeps them the same way, and records show them with each
//! hand.

use crate::ruleset::{CARRY_LIMIT, Carry};
use crate::script::{CarriedValue, FactValue};

/// Records and reports show the values as a map from id to the values (one for the table,
/// one per seat).
impl serde::Serialize for Carried {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.values.iter().map(|(id, v)| (id, v)))
    }
}

/// The carried values of a game in progress: for each `[[carry]]` of the ruleset, in order,
/// its value for the table or one per seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Carried {
    values: Vec<(String, Vec<i64>)>,
}

impl Carried {
    /// Each value at its initial value, for a table of `seats`.
    pub fn new(defs: &[Carry], seats: usize) -> Carried {
        Carried {
            values: defs
                .iter()
                .map(|d| {
                    let n = if d.per_seat { seats } else { 1 };
                    (d.id.clone(), vec![d.initial; n])
                })
                .collect(),
        }
    }

    /// True when the ruleset carries nothing.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Each value by id: one number for the table, or one per seat.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[i64])> {
        self.values.iter().map(|(id, v)| (id.as_str(), &v[..]))
    }

    /// The value `id` for the table (or seat 0's), if the ruleset carries it.
    pub fn get(&self, id: &str) -> Option<&[i64]> {
        self.values
            .iter()
            .find(|(i, _)| i == id)
            .map(|(_, v)| &v[..])
    }

    /// The table-wide values, in ruleset order: the facts the deal's expressions read after
    /// their own (`round`, `rounds`).
    pub fn table_values<'a>(&'a self, defs: &'a [Carry]) -> impl Iterator<Item = i64> + 'a {
        defs.iter()
            .zip(&self.values)
            .filter(|(d, _)| !d.per_seat)
            .map(|(_, (_, v))| v[0])
    }

    /// The values as the scoring script's `hand.carry` holds them: a number for the table, an
    /// array of numbers for the seats.
    pub fn fact(&self, defs: &[Carry]) -> FactValue {
        FactValue::Map(
            defs.iter()
                .zip(&self.values)
                .map(|(d, (id, v))| (id.clone(), d.fact(v)))
                .collect(),
        )
    }

    /// Sets the table value of the `index`th `[[carry]]` (one its `deal` counted), held within
    /// [`CARRY_LIMIT`].
    pub fn set_table(&mut self, index: usize, value: i64) {
        if let Some((_, v)) = self.values.get_mut(index) {
            v[0] = value.clamp(-CARRY_LIMIT, CARRY_LIMIT);
        }
    }

    /// Applies what the scoring script wrote (`carry`): each id one the ruleset declares, a
    /// number for a table value and an array of one number per seat for a per-seat one, each
    /// within [`CARRY_LIMIT`]. `Err` says what is wrong, and nothing is changed.
    pub fn apply(
        &mut self,
        defs: &[Carry],
        writes: &[(String, CarriedValue)],
    ) -> Result<(), String> {
        let mut next = self.values.clone();
        for (id, value) in writes {
            let Some(i) = defs.iter().position(|d| d.id == *id) else {
                let help = crate::diag::did_you_mean(id, defs.iter().map(|d| d.id.as_str()))
                    .map(|h| format!(" {h}"))
                    .unwrap_or_default();
                let known: Vec<&str> = defs.iter().map(|d| d.id.as_str()).collect();
                return Err(format!(
                    "`carry` names `{id}`, which the ruleset does not carry{help} (its [[carry]] ids: {})",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ));
            };
            let slot = &mut next[i].1;
            match (value, defs[i].per_seat) {
                (CarriedValue::One(n), false) => slot[0] = *n,
                (CarriedValue::PerSeat(list), true) if list.len() == slot.len() => {
                    slot.copy_from_slice(list)
                }
                (CarriedValue::PerSeat(list), true) => {
                    return Err(format!(
                        "`carry.{id}` is carried per seat: an array of {} numbers, not {}",
                        slot.len(),
                        list.len()
                    ));
                }
                (CarriedValue::One(_), true) => {
                    return Err(format!(
                        "`carry.{id}` is carried per seat: an array of {} numbers",
                        slot.len()
                    ));
                }
                (CarriedValue::PerSeat(_), false) => {
                    return Err(format!("`carry.{id}` is carried for the table: one number"));
                }
            }
            if let Some(bad) = slot.iter().find(|v| v.abs() > CARRY_LIMIT) {
                return Err(format!(
                    "`carry.{id}` would be {bad}; a carried value stays between -{CARRY_LIMIT} and {CARRY_LIMIT}"
                ));
            }
        }
        self.values = next;
        Ok(())
    }
}
