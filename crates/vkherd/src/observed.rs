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
        .map(|r| state_line(report, &r.values, false, false).len())
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
            state_line(report, &r.values, false, false),
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
    let (states, count) = forbidden(rows);
    if states == 0 {
        out.push_str(&format!(
            "Ok: every observed state is allowed ({} of {} allowed states observed)\n",
            rows.iter().filter(|r| r.allowed && r.observed > 0).count(),
            report.outcomes.states.len()
        ));
    } else {
        out.push_str(&format!(
            "FORBIDDEN: {} the model forbids observed {} (a driver or compiler bug, or a model too strong)\n",
            plural(states as u64, "state"),
            plural(count, "time")
        ));
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
    let line = |values: &[i64]| {
        state_line(report, values, false, false)
            .trim_end()
            .to_string()
    };
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
        iterations: o.iterations,
        seconds: o.seconds,
    }
}
