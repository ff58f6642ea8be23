//! Running Khronos `.test` files: every `SATISFIABLE`/`NOSOLUTION` line is a check of
//! whether some candidate execution satisfies its predicate (khronos-test-format.md).

use crate::{ResolvedModel, RunConfig};
use vkherd_dialects::vulkan::khronos::ast::{KhronosCheck, KhronosPred};
use vkherd_dialects::vulkan::khronos::lower::lower_khronos;
use vkherd_enumerate::{enumerate, CandidateView, EnumOptions, Judgement, Visitor, Wanted};
use vkherd_litmus::Diagnostic;
use vkherd_model::Program;

/// The result of one check line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckResult {
    pub line: u32,
    /// `SATISFIABLE` (true) or `NOSOLUTION` (false), as the file expects.
    pub expected_satisfiable: bool,
    /// Whether some candidate satisfies the predicate.
    pub satisfiable: bool,
    pub nochains: bool,
    pub predicate: String,
    /// A limit stopped the check before a satisfying candidate was found: `satisfiable`
    /// is false only because the search was cut short.
    pub partial: bool,
}

impl CheckResult {
    /// The answer matches the expectation (never for a partial check: it has no answer).
    pub fn passed(&self) -> bool {
        !self.partial && self.expected_satisfiable == self.satisfiable
    }
}

/// Parses, lowers and runs every check of a `.test` source with the model, variants and
/// limits of `opts` (`--max-candidates` and `--timeout` apply to each check), counting
/// candidates on `opts.run.progress` when it is set. Khronos tests are Vulkan tests: a
/// model for another dialect is refused, as for a `.litmus` test.
pub fn run_khronos_with(
    source: &str,
    name: &str,
    opts: &crate::Options,
) -> Result<Vec<CheckResult>, Diagnostic> {
    let test = vkherd_dialects::vulkan::khronos::parse_khronos(source)?;
    let program = lower_khronos(&test, name)?;
    let model = (opts.model.resolve(program.dialect)).map_err(|e| e.diagnostic(name))?;
    run_checks(&test.checks, &program, &model, &opts.run)
}

/// [`run_khronos_with`], with the model resolved for Vulkan tests (once for a run:
/// `vkherd khronos`).
pub fn run_khronos(
    source: &str,
    name: &str,
    model: &ResolvedModel,
    run: &RunConfig,
) -> Result<Vec<CheckResult>, Diagnostic> {
    let test = vkherd_dialects::vulkan::khronos::parse_khronos(source)?;
    let program = lower_khronos(&test, name)?;
    debug_assert_eq!(
        program.dialect,
        model.dialect(),
        "Khronos tests are Vulkan tests"
    );
    run_checks(&test.checks, &program, model, run)
}

/// Runs `checks` on `program`; of `run`, only the limits and the progress counter apply.
fn run_checks(
    checks: &[KhronosCheck],
    program: &Program,
    model: &ResolvedModel,
    run: &RunConfig,
) -> Result<Vec<CheckResult>, Diagnostic> {
    checks
        .iter()
        .map(|check| {
            // A `NOCHAINS` check runs the model without availability/visibility chains.
            let engine = match check.nochains {
                true => model.spec().without_chains().engine(),
                false => model.engine(),
            };
            // A check asks whether some candidate satisfies its predicate: of the run's
            // configuration only the limits and the progress counter apply (`.test`
            // files have no loops; states, speedcheck and shards are about outcomes).
            let opts = EnumOptions {
                engine,
                run: RunConfig {
                    max_candidates: run.max_candidates,
                    timeout: run.timeout,
                    progress: run.progress.clone(),
                    ..RunConfig::default()
                },
                ..EnumOptions::default()
            };
            let visitor = PredicateVisitor { check };
            let (found, stats) = enumerate(program, &opts, &visitor)
                .map_err(|e| crate::locate::enum_diagnostic(program, e))?;
            Ok(CheckResult {
                line: check.span.line,
                expected_satisfiable: check.satisfiable,
                satisfiable: found,
                nochains: check.nochains,
                predicate: check.text.clone(),
                partial: stats.stopped.is_some() && !found,
            })
        })
        .collect()
}

/// Lowers a `.test` source without running it (for tools that want the program).
pub fn load_khronos(source: &str, name: &str) -> Result<Program, Diagnostic> {
    lower_khronos(
        &vkherd_dialects::vulkan::khronos::parse_khronos(source)?,
        name,
    )
}

/// The relations the predicates count, by their place in [`PredicateVisitor::wanted`].
const DR: Wanted = Wanted(0);
const RS: Wanted = Wanted(1);

/// Is some candidate satisfying the check's predicate?
struct PredicateVisitor<'a> {
    check: &'a KhronosCheck,
}

fn compare_count(count: usize, greater: bool, n: u64) -> bool {
    if greater {
        count as u64 > n
    } else {
        count as u64 == n
    }
}

impl Visitor for PredicateVisitor<'_> {
    type Acc = bool;

    fn visit<J: Judgement>(&self, acc: &mut bool, c: &CandidateView<'_, J>) {
        if *acc {
            return;
        }
        let count = |w: Wanted| c.eval.rel(w).map_or(0, |r| r.count());
        *acc = self.check.preds.iter().all(|p| match *p {
            KhronosPred::Consistent => c.consistent,
            // dr is symmetric: each racing pair counts twice, as in Alloy's #dr.
            KhronosPred::DataRaces { greater, n } => compare_count(count(DR), greater, n),
            // rs includes (w, w) for every atomic release write.
            KhronosPred::ReleaseSeq { greater, n } => compare_count(count(RS), greater, n),
        });
    }

    fn merge(&self, a: bool, b: bool) -> bool {
        a || b
    }

    /// A predicate without `consistent[X]` ranges over all candidates.
    fn needs_inconsistent(&self) -> bool {
        !self.check.preds.contains(&KhronosPred::Consistent)
    }

    /// `dr` and `rs`, found by [`DR`] and [`RS`].
    fn wanted(&self) -> Vec<&'static str> {
        vec!["dr", "rs"]
    }
}
