//! One test's JSON object (`vkherd --json`, `vkherd merge --json`).

use super::{LivenessObject, RunInfo, ShardObject};
use crate::Verdict;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;

/// One test's report, one line. `S` is how the states are held: a list read back
/// ([`State`]s, the default), or a view the reporter streams from a run's outcomes
/// (`crate::report`), which can hold hundreds of thousands of states.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestReport<S = Vec<State>> {
    /// The path as vkherd found it (always written; absent only from hand-written logs).
    pub file: Option<String>,
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub kind: Kind,
    /// The verdict on the condition (tentative when `verdict_final` is false).
    pub verdict: Verdict,
    /// The condition as the text report prints it (`(true)` without one).
    #[serde(default)]
    pub condition: String,
    /// `null` with `--speedcheck fast`.
    pub states: Option<S>,
    /// `null` with `--states-only` or `--speedcheck fast`.
    pub positive: Option<u64>,
    pub negative: Option<u64>,
    /// The data race of the bundled models is raised (`Flag data-race`).
    pub flag_data_race: Option<bool>,
    /// Every flag raised, by name, in the order of the text's `Flag` lines: present when
    /// some flag other than the data race is (a user's model; docs/semantics.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flags: Option<Vec<String>>,
    #[serde(default)]
    pub speedcheck: SpeedcheckWord,
    #[serde(default)]
    pub notes: Vec<String>,
    /// The run was stopped by a limit.
    #[serde(default)]
    pub partial: bool,
    /// Absent from logs of versions before it existed: their verdicts are final.
    #[serde(default = "final_by_default")]
    pub verdict_final: bool,
    #[serde(default)]
    pub bounded_empty: bool,
    pub stats: Option<Stats>,
    /// With `--liveness`: the liveness answer (docs/liveness.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub liveness: Option<LivenessObject>,
    #[serde(flatten)]
    pub run: Option<RunInfo>,
    /// Only from a shard (`--shard K/N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardObject>,
}

fn final_by_default() -> bool {
    true
}

/// The condition's quantifier, as the text report's `Condition` line words it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Kind {
    /// Also a test without a condition.
    #[default]
    #[serde(rename = "exists")]
    Exists,
    #[serde(rename = "~exists")]
    NotExists,
    #[serde(rename = "forall")]
    Forall,
}

/// `--speedcheck`: `off`, `true` or `fast`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SpeedcheckWord {
    #[default]
    Off,
    True,
    Fast,
}

impl From<crate::Speedcheck> for SpeedcheckWord {
    fn from(s: crate::Speedcheck) -> SpeedcheckWord {
        match s {
            crate::Speedcheck::Off => SpeedcheckWord::Off,
            crate::Speedcheck::True => SpeedcheckWord::True,
            crate::Speedcheck::Fast => SpeedcheckWord::Fast,
        }
    }
}

impl From<SpeedcheckWord> for crate::Speedcheck {
    fn from(s: SpeedcheckWord) -> crate::Speedcheck {
        match s {
            SpeedcheckWord::Off => crate::Speedcheck::Off,
            SpeedcheckWord::True => crate::Speedcheck::True,
            SpeedcheckWord::Fast => crate::Speedcheck::Fast,
        }
    }
}

/// One final state. `V` is how its values are held: [`Values`] read back, or a view the
/// reporter writes from a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State<V = Values> {
    /// Column name to value, in the report's column order.
    pub values: V,
    /// The `# racy` mark.
    #[serde(default)]
    pub racy_only: bool,
    /// The `# flagged` mark (absent when false): only executions that raise a flag of
    /// the model reach the state, some of them not the data race.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flagged_only: bool,
    /// The `# thin-air` mark.
    #[serde(default)]
    pub thin_air_only: bool,
    /// The (execution, final state) pairs reaching it (`null` when counts are absent).
    pub count: Option<u64>,
}

/// A state's values, in column order: a JSON object `{"1:r0": 0, "x": 1}`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Values(pub Vec<(String, i64)>);

impl Serialize for Values {
    fn serialize<Z: Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (name, v) in &self.0 {
            m.serialize_entry(name, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Values {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Values, D::Error> {
        struct InOrder;
        impl<'de> Visitor<'de> for InOrder {
            type Value = Values;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of integer values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Values, A::Error> {
                let mut values = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    values.push(entry);
                }
                Ok(Values(values))
            }
        }
        d.deserialize_map(InOrder)
    }
}

/// The enumeration's counts. Every field is written; logs of older versions and
/// hand-written ones may leave some out (read as 0, `seconds` as `None`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Stats {
    pub candidates: u64,
    /// Before the filter.
    pub consistent: u64,
    pub pruned: Pruned,
    pub thin_air: u64,
    pub deadlocked_paths: u64,
    pub dropped_paths: u64,
    /// Wall-clock seconds (summed over the shards after `merge`).
    pub seconds: Option<f64>,
}

/// The candidates pruned: exact below 2^53, where a JSON reader's doubles are exact; above,
/// the nearest double (it is an estimate anyway).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pruned(pub u128);

impl Serialize for Pruned {
    fn serialize<Z: Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        if self.0 < 1 << 53 {
            s.serialize_u64(self.0 as u64)
        } else {
            s.serialize_f64(self.0 as f64)
        }
    }
}

impl<'de> Deserialize<'de> for Pruned {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Pruned, D::Error> {
        struct Count;
        impl Visitor<'_> for Count {
            type Value = Pruned;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a count")
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Pruned, E> {
                Ok(Pruned(n.into()))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Pruned, E> {
                u64::try_from(n)
                    .map(|n| Pruned(n.into()))
                    .map_err(|_| E::invalid_value(de::Unexpected::Signed(n), &self))
            }
            // Past 2^53 the count is written as a double.
            fn visit_f64<E: de::Error>(self, f: f64) -> Result<Pruned, E> {
                Ok(Pruned(f as u128))
            }
        }
        d.deserialize_any(Count)
    }
}

impl From<vkherd_model::Quantifier> for Kind {
    fn from(q: vkherd_model::Quantifier) -> Kind {
        match q {
            vkherd_model::Quantifier::Exists => Kind::Exists,
            vkherd_model::Quantifier::NotExists => Kind::NotExists,
            vkherd_model::Quantifier::Forall => Kind::Forall,
        }
    }
}

impl From<Kind> for vkherd_model::Quantifier {
    fn from(k: Kind) -> vkherd_model::Quantifier {
        match k {
            Kind::Exists => vkherd_model::Quantifier::Exists,
            Kind::NotExists => vkherd_model::Quantifier::NotExists,
            Kind::Forall => vkherd_model::Quantifier::Forall,
        }
    }
}
