//! The JSON that vkherd writes and reads back, as types: this module is the schema of
//! every JSON object a run prints (docs/cli.md "JSON output", docs/sharding.md), written
//! by the reporters with `serde` and read back by `merge`, `compare` and the log reader
//! (`crate::logs`) with the same types.
//!
//! Field order in a type is the key order of the output, and the output is byte for byte
//! what serde_json makes of it: a field is never reordered, renamed or skipped without
//! changing the JSON every archived log holds.
//!
//! Reading is lenient where logs of older versions (or short hand-written logs, which
//! `compare` accepts) leave a field out: such fields are `Option`s or have a default, and
//! the reader that needs one (`merge`) says so when it is missing.
//!
//! - [`TestReport`]: one test's object (`--json`), with its [`State`]s, [`Stats`], the
//!   [`RunInfo`] every object of a run carries, with `--liveness` its
//!   [`LivenessObject`] and, from a shard, its [`ShardObject`];
//! - [`ErrorLine`]: the object of a file that failed;
//! - [`BenchLine`], [`KhronosCheck`], [`KhronosSummaryLine`], [`ObservedLine`]: the
//!   objects of `vkherd bench`, `vkherd khronos` and `vkherd observe`;
//! - [`Line`]: any line of a JSON log, as the readers tell them apart.

mod bench;
mod error;
mod khronos;
mod line;
mod liveness;
mod observe;
mod run_info;
mod shard;
mod test_report;

pub use bench::BenchLine;
pub use error::{ErrorLine, ErrorObject};
pub use khronos::{KhronosCheck, KhronosSummary, KhronosSummaryLine};
pub use line::Line;
pub use liveness::{LivenessObject, ProgressLevels, StuckThread};
pub use observe::{
    ObservedDevice, ObservedError, ObservedErrorObject, ObservedInstances, ObservedLine,
    ObservedParams, ObservedState,
};
pub use run_info::{Limits, RunInfo};
pub use shard::{ShardBy, ShardObject, Stopped};
pub use test_report::{Kind, Pruned, SpeedcheckWord, State, Stats, TestReport, Values};

#[cfg(test)]
mod tests;
