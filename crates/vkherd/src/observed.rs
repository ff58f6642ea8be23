//! A device's histogram beside the model's allowed states: which observed states the model
//! allows, which it forbids (a driver or compiler bug, or a model too strong), and which
//! allowed states were never seen (docs/observe.md "Reading the histogram").

use crate::json::{
    ObservedDevice, ObservedInstances, ObservedLine, ObservedParams, ObservedState, RunInfo, Values,
};
use crate::report::{plural, state_line};
use crate::Report;
use std::collections::BTreeSet;
use vkherd_model::Program;
use vkherd_observe::{DeviceInfo, Observation, Params};

/// One test run on a device, with what it was run with.
#[derive(Debug, Clone)]
pub struct ObservedTest {
    pub device: DeviceInfo,
    pub params: Params,
    pub observation: Observation,
    /// The model was run without availability/visibility chains because the device
    /// lacks `vulkanMemoryModelAvailabilityVisibilityChains`.
    pub no_chains_forced: bool,
    /// The model's states and the device's side by side ([`rows`]).
    pub rows: Vec<Row>,
}

/// One final state: the model's verdict on it and how often the device produced it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub values: Vec<i64>,
    /// Instances within the unroll bound that ended in this state.
    pub observed: u64,
    /// Instances beyond the unroll bound that ended in it (not judged).
    pub beyond: u64,
    /// The model allows it.
    pub allowed: bool,
    /// It satisfies the test's condition.
    pub satisfies: bool,
}

impl Row {
    /// Observed within the bound although the model forbids it.
    pub fn forbidden_observed(&self) -> bool {
        !self.allowed && self.observed > 0
    }
}

/// Every state the model allows or the device produced, in the model's order of states;
/// `report` is the model's run of `program`.
pub fn rows(program: &Program, report: &Report, obs: &Observation) -> Vec<Row> {
    let keys: BTreeSet<&Vec<i64>> = report
        .outcomes
        .states
        .keys()
        .chain(obs.within.keys())
        .chain(obs.beyond.keys())
        .collect();
    let satisfies = |v: &Vec<i64>| {
        let p = program;
        let value = |o| v[p.observed.iter().position(|x| *x == o).expect("observed")];
        p.condition.as_ref().is_none_or(|c| c.cond.eval(&value))
    };
    keys.into_iter()
        .map(|v| Row {
            values: v.clone(),
            observed: obs.within.get(v).copied().unwrap_or(0),
            beyond: obs.beyond.get(v).copied().unwrap_or(0),
            allowed: report.outcomes.states.contains_key(v),
            satisfies: satisfies(v),
        })
        .collect()
}

/// The forbidden states observed and how often, in total.
pub fn forbidden(rows: &[Row]) -> (usize, u64) {
    let f: Vec<&Row> = rows.iter().filter(|r| r.forbidden_observed()).collect();
    (f.len(), f.iter().map(|r| r.observed).sum())
}

/// How an observed test ends: its last line and its exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The device produced a state the model forbids.
    Forbidden,
    /// No instance finished: some were stopped by `--max-steps` and none ended in a
    /// state, so nothing was observed. On the device, a hang.
    Hung,
    /// Every observed state is allowed (some instances may have hung all the same: see
    /// [`hang_text`]).
    Allowed,
}

/// How a test with these rows and this observation ends.
pub fn ending(rows: &[Row], o: &Observation) -> Ending {
    let ended_in_a_state = o.judged() + o.beyond.values().sum::<u64>();
    if forbidden(rows).0 > 0 {
        Ending::Forbidden
    } else if o.unfinished > 0 && ended_in_a_state == 0 {
        Ending::Hung
    } else {
        Ending::Allowed
    }
}

/// What the instances stopped by `--max-steps` mean, in words, and what the liveness
/// check predicts for the test under the device's progress model (`report.liveness`):
/// empty when every instance finished.
pub fn hang_text(report: &Report, o: &Observation, max_steps: u32) -> Vec<String> {
    use vkherd_enumerate::liveness::Verdict;
    if o.unfinished == 0 {
        return Vec::new();
    }
    let mut out = vec![format!(
        "Hang: {} of {} never finished: a thread was still running after --max-steps {max_steps} (a hang on the device, unless the test needs more steps)",
        o.unfinished,
        plural(o.instances, "instance"),
    )];
    if let Some(l) = &report.liveness {
        let p = l.result.progress_text();
        let head = format!("Liveness check (progress {p})");
        out.push(match l.result.verdict {
            Verdict::Violation => format!(
                "{head}: violation: the model lets an invocation wait forever, as on the device (`vkherd --progress {p} FILE` shows how)"
            ),
            Verdict::Ok => format!(
                "{head}: ok: every run terminates under {p}, so the device gives less progress than {p} (or the test needs more than --max-steps)"
            ),
            Verdict::Unknown => {
                let first = l.text.lines().next().unwrap_or_default();
                let reason = first.split_once("): ").map_or(first, |(_, r)| r);
                format!("{head}: unknown: {reason}")
            }
        });
    }
    out
}

/// `llvmpipe (LLVM 15.0.6, 256 bits), CPU, Vulkan 1.3.230, driver llvmpipe`.
pub fn device_text(d: &DeviceInfo) -> String {
    format!(
        "{} ({}, Vulkan {}, driver {})",
        d.name, d.kind, d.api_version, d.driver
    )
}

/// Instances dropped without a judged state, in words (empty when none).
pub fn dropped_text(o: &Observation) -> Vec<String> {
    let mut out = Vec::new();
    let mut say = |n: u64, what: &str| {
        if n > 0 {
            out.push(format!("{} {what}", plural(n, "instance")));
        }
    };
    say(
        o.unfinished,
        "stopped by --max-steps (a thread did not finish: no final state)",
    );
    say(
        o.misplaced,
        "dropped: the driver put their threads in other subgroups than the test says",
    );
    say(
        o.cas_gave_up,
        "dropped: a compare-exchange loop (RMW mul/div) gave up",
    );
    say(
        o.filtered,
        "rejected by the test's filter (not counted, as in the model)",
    );
    out
}

/// The text report of one observed test.
pub fn text(report: &Report, t: &ObservedTest) -> String {
    let o = &t.observation;
    let rows = &t.rows;
    let mut out = String::new();
    let rate = o.iterations as f64 / o.seconds.max(1e-9);
    out.push_str(&format!(
        "Test {} observed on {}\n{}, {} ({} per iteration), {:.2} s, {rate:.0} iterations/s, seed {}\n",
        report.header.name,
        device_text(&t.device),
        plural(o.iterations, "iteration"),
        plural(o.instances, "instance"),
        o.instances / o.iterations.max(1),
        o.seconds,
        t.params.seed,
    ));
    if t.no_chains_forced {
        out.push_str("Note: the device lacks vulkanMemoryModelAvailabilityVisibilityChains: the model runs without chains (--no-chains)\n");
    }
    let width = rows
        .iter()
        .map(|r| state_line(report, &r.values, None).len())
        .max()
        .unwrap_or(0);
    out.push_str(&format!(
        "States {} allowed, {} observed\n",
        report.outcomes.states.len(),
        rows.iter().filter(|r| r.observed > 0).count()
    ));
    for r in rows {
        let verdict = match (r.allowed, r.observed > 0) {
            (true, _) => "allowed",
            (false, true) => "FORBIDDEN",
            (false, false) => "not judged",
        };
        let mut line = format!(
            "{:<width$} {:>10}  {verdict}",
            state_line(report, &r.values, None),
            r.observed
        );
        if r.beyond > 0 {
            line.push_str(&format!(
                " (+{} beyond --unroll {}, not judged)",
                r.beyond, t.params.unroll
            ));
        }
        if r.allowed && r.observed == 0 && r.beyond == 0 {
            line.push_str(" (never observed)");
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for d in dropped_text(o) {
        out.push_str(&format!("Dropped: {d}\n"));
    }
    for line in hang_text(report, o, t.params.max_steps) {
        out.push_str(&line);
        out.push('\n');
    }
    let (states, count) = forbidden(rows);
    match ending(rows, o) {
        Ending::Allowed => out.push_str(&format!(
            "Ok: every observed state is allowed ({} of {} allowed states observed)\n",
            rows.iter().filter(|r| r.allowed && r.observed > 0).count(),
            report.outcomes.states.len()
        )),
        Ending::Hung => out.push_str(&format!(
            "Hung: no instance finished: nothing was observed ({} stopped by --max-steps)\n",
            plural(o.unfinished, "instance")
        )),
        Ending::Forbidden => out.push_str(&format!(
            "FORBIDDEN: {} the model forbids observed {} (a driver or compiler bug, or a model too strong)\n",
            plural(states as u64, "state"),
            plural(count, "time")
        )),
    }
    out
}

/// The JSON object of one observed test: the model's allowed states and the device's
/// histogram side by side.
pub fn json(report: &Report, t: &ObservedTest, file: &str, info: &RunInfo) -> ObservedLine {
    let o = &t.observation;
    let rows = &t.rows;
    let (states, count) = forbidden(rows);
    let d = &t.device;
    let p = &t.params;
    let line = |values: &[i64]| state_line(report, values, None).trim_end().to_string();
    let state = |r: &Row| ObservedState {
        state: line(&r.values),
        values: Values(
            report
                .header
                .columns
                .iter()
                .cloned()
                .zip(r.values.iter().copied())
                .collect(),
        ),
        allowed: r.allowed,
        observed: r.observed,
        beyond_unroll: r.beyond,
        satisfies: r.satisfies,
    };
    ObservedLine {
        run: info.clone(),
        file: file.to_string(),
        test: report.header.name.clone(),
        device: ObservedDevice {
            index: d.index,
            name: d.name.clone(),
            kind: d.kind.to_string(),
            api_version: d.api_version.clone(),
            driver: d.driver.clone(),
            subgroup_size: d.subgroup_size,
            vulkan_memory_model_device_scope: d.features.device_scope,
            vulkan_memory_model_availability_visibility_chains: d.features.chains,
        },
        params: ObservedParams {
            iterations: p.iterations,
            workgroup_size: p.workgroup_size,
            workgroups_per_group: p.workgroups_per_group,
            stress_workgroups: p.stress_workgroups,
            stress_iterations: p.stress_iterations,
            stress_lines: p.stress_lines,
            mem_stride: p.mem_stride,
            spin_bound: p.spin_bound,
            scatter_percent: p.scatter_percent,
            max_steps: p.max_steps,
            unroll: p.unroll,
            seed: p.seed,
        },
        no_chains_forced: t.no_chains_forced,
        states: rows.iter().map(state).collect(),
        allowed_never_observed: rows
            .iter()
            .filter(|r| r.allowed && r.observed == 0)
            .map(|r| line(&r.values))
            .collect(),
        forbidden_states_observed: states,
        forbidden_observations: count,
        instances: ObservedInstances {
            total: o.instances,
            judged: o.judged(),
            beyond_unroll: o.beyond.values().sum::<u64>(),
            unfinished: o.unfinished,
            misplaced: o.misplaced,
            cas_gave_up: o.cas_gave_up,
            filtered: o.filtered,
        },
        hung: ending(rows, o) == Ending::Hung,
        liveness: report.liveness.as_ref().map(|l| l.json.clone()),
        iterations: o.iterations,
        seconds: o.seconds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::liveness::Progress;

    /// flag-handoff-sg and the model's report of it with the liveness check under `p`.
    fn handoff(p: &str) -> (Program, Report) {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../litmus-tests/liveness/flag-handoff-sg.litmus"
        );
        let program = crate::load_litmus(&std::fs::read_to_string(path).unwrap()).unwrap();
        let opts = crate::Options {
            liveness: Some(Progress::parse(p).unwrap()),
            ..crate::Options::default()
        };
        let report = crate::run(&program, &opts).unwrap();
        (program, report)
    }

    /// What `observe` says when every instance was stopped by `--max-steps` (issue 33:
    /// it said "Ok: every observed state is allowed" and exited 0): a hang, how many,
    /// and what the liveness check predicts; when some finished, the states decide.
    #[test]
    fn instances_that_never_finished_are_a_hang_with_the_liveness_prediction() {
        let (program, report) = handoff("obe");
        let all_hung = Observation {
            unfinished: 640,
            instances: 640,
            iterations: 5,
            ..Observation::default()
        };
        let r = rows(&program, &report, &all_hung);
        assert_eq!(ending(&r, &all_hung), Ending::Hung);
        let text = hang_text(&report, &all_hung, 10000);
        assert_eq!(
            text[0],
            "Hang: 640 of 640 instances never finished: a thread was still running after --max-steps 10000 (a hang on the device, unless the test needs more steps)"
        );
        assert!(
            text[1].starts_with("Liveness check (progress obe): violation: "),
            "{text:?}"
        );
        // Under fair the model says every run terminates: the device gave less.
        let (_, fair) = handoff("fair");
        assert!(hang_text(&fair, &all_hung, 10000)[1]
            .starts_with("Liveness check (progress fair): ok: every run terminates under fair"),);
        // Some instances finished in an allowed state: allowed, the hang still said.
        let mut some = all_hung.clone();
        some.unfinished = 600;
        some.within.insert(Vec::new(), 40);
        let r = rows(&program, &report, &some);
        assert_eq!(ending(&r, &some), Ending::Allowed);
        assert!(hang_text(&report, &some, 10000)[0].starts_with("Hang: 600 of 640 instances"));
        // Every instance finished: nothing about hangs.
        let done = Observation {
            unfinished: 0,
            ..some
        };
        assert!(hang_text(&report, &done, 10000).is_empty());
    }
}
