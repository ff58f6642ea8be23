//! vkherd: which outcomes of a Vulkan litmus test does the Vulkan memory model allow?
//!
//! The library behind the `vkherd` binary:
//!
//! ```no_run
//! let source = std::fs::read_to_string("litmus-tests/mp/MP-relacq-wg.litmus").unwrap();
//! let program = vkherd::load_litmus(&source).unwrap();
//! let report = vkherd::run(&program, &vkherd::Options::default()).unwrap();
//! print!("{}", vkherd::report::herd_text(&report));
//! ```

pub mod families;
pub mod khronos;
pub mod locate;
pub mod models;
pub mod report;

use std::time::Instant;
pub use vkherd_enumerate::StopReason;
use vkherd_enumerate::{collect_outcomes, EnumOptions, EnumStats, Outcomes};
pub use vkherd_litmus::Diagnostic;
use vkherd_model::{lower_litmus, Dialect, ModelOptions, Program, Quantifier};
pub use vkherd_model::{Program as LoweredProgram, Variant};

/// Options of a run.
#[derive(Debug, Clone)]
pub struct Options {
    pub model: ModelOptions,
    /// A cat model to run instead of the hand-written one ([`models::resolve`]).
    pub cat: Option<std::sync::Arc<vkherd_cat::Model>>,
    /// `--model` was given: OPENCL tests run `cat` (or are refused if it is the
    /// hand-written Vulkan model) instead of the OpenCL model.
    pub model_given: bool,
    /// A backward jump may be taken at most this many times on a path.
    pub unroll: u32,
    /// Leave out thin-air executions.
    pub no_thin_air: bool,
    /// Stop after this many candidates.
    pub max_candidates: Option<u64>,
    /// Stop after this long.
    pub timeout: Option<std::time::Duration>,
    /// Plain generate-and-test enumeration instead of the pruned search.
    pub naive: bool,
    /// Incremented once per candidate examined (for a progress display).
    pub progress: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            model: ModelOptions::default(),
            cat: None,
            model_given: false,
            unroll: 2,
            no_thin_air: false,
            max_candidates: None,
            timeout: None,
            naive: false,
            progress: None,
        }
    }
}

impl Options {
    fn enum_options(&self) -> EnumOptions {
        EnumOptions {
            model: self.model,
            cat: self.cat.clone(),
            unroll: self.unroll,
            max_candidates: self.max_candidates,
            timeout: self.timeout,
            no_thin_air: self.no_thin_air,
            naive: self.naive,
            progress: self.progress.clone(),
            ..EnumOptions::default()
        }
    }
}

/// Parses and lowers a `.litmus` source, in the dialect its header names: `VULKAN`
/// (docs/litmus-format.md) or `OPENCL` (docs/opencl.md).
pub fn load_litmus(source: &str) -> Result<Program, Diagnostic> {
    if vkherd_litmus::is_opencl(source) {
        let test = vkherd_litmus::parse_opencl(source)?;
        return vkherd_model::lower_opencl(&test);
    }
    let test = vkherd_litmus::parse_litmus(source)?;
    lower_litmus(&test)
}

/// Why a run stopped early, in words (`stopped by --timeout 5 s after 123 candidates`).
pub fn stop_text(reason: StopReason, candidates: u64) -> String {
    match reason {
        StopReason::MaxCandidates(n) => {
            format!("stopped at the limit of {n} candidates (--max-candidates)")
        }
        StopReason::Timeout(t) => format!(
            "stopped by the time limit of {} s (--timeout) after {candidates} candidates",
            t.as_secs_f64()
        ),
    }
}

/// The verdict on the final condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Ok,
    No,
}

/// Everything a report shows about one test.
#[derive(Debug, Clone)]
pub struct Report {
    pub program: Program,
    pub outcomes: Outcomes,
    pub stats: EnumStats,
    pub verdict: Verdict,
    /// Warnings: unroll bound, thin air, deadlocks.
    pub notes: Vec<String>,
    pub seconds: f64,
}

/// Enumerates a lowered program and judges its condition.
pub fn run(program: &Program, opts: &Options) -> Result<Report, Diagnostic> {
    // The model follows the dialect unless --model was given (docs/opencl.md).
    let opencl_opts;
    let opts = if program.dialect == Dialect::OpenCl && opts.cat.is_none() {
        if opts.model_given {
            // The hand-written engine is the Vulkan axioms: wrong verdicts on OpenCL.
            // A run has no source text to point into: the error names the header line.
            let start = vkherd_model::Span {
                offset: 0,
                len: 0,
                line: 1,
                column: 1,
            };
            return Err(Diagnostic::new(
                start,
                format!(
                    "`{}` is an OpenCL test and the hand-written Vulkan model cannot judge it; expected --model opencl (the default for OPENCL tests) or a cat model",
                    program.name
                ),
            ));
        }
        opencl_opts = Options {
            cat: Some(models::opencl()),
            ..opts.clone()
        };
        &opencl_opts
    } else {
        opts
    };
    let start = Instant::now();
    let (outcomes, stats) = collect_outcomes(program, &opts.enum_options())
        .map_err(|e| locate::enum_diagnostic(program, e))?;
    let quantifier = program
        .condition
        .as_ref()
        .map_or(Quantifier::Exists, |c| c.quantifier);
    let ok = match quantifier {
        Quantifier::Exists => outcomes.positive > 0,
        Quantifier::NotExists => outcomes.positive == 0,
        Quantifier::Forall => outcomes.negative == 0,
    };
    let mut notes = Vec::new();
    if stats.dropped_paths > 0 {
        notes.push(format!(
            "Warning: {} path(s) dropped by the unroll bound (--unroll {}): the result is bounded, not complete",
            stats.dropped_paths, opts.unroll
        ));
    }
    if opts.no_thin_air && stats.thin_air > 0 {
        notes.push(format!(
            "Warning: {} thin-air execution(s) left out (--no-thin-air)",
            stats.thin_air
        ));
    } else if outcomes.thin_air > 0 {
        notes.push(format!(
            "Warning: {} thin-air execution(s) counted (values that depend on themselves through rf); --no-thin-air leaves them out",
            outcomes.thin_air
        ));
    }
    if stats.deadlocked_paths > 0 {
        notes.push(format!(
            "Warning: {} path combination(s) deadlock at a control barrier and are not counted",
            stats.deadlocked_paths
        ));
    }
    if let Some(reason) = stats.stopped {
        notes.push(format!(
            "Warning: {}: the result is partial",
            stop_text(reason, stats.candidates)
        ));
    }
    Ok(Report {
        program: program.clone(),
        outcomes,
        stats,
        verdict: if ok { Verdict::Ok } else { Verdict::No },
        notes,
        seconds: start.elapsed().as_secs_f64(),
    })
}
