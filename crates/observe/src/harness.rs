//! Runs a test on a device: one pipeline, then per iteration a fresh random layout, the
//! initial memory, one dispatch, and the decoding of every instance into a final state.

use crate::bindings::{self, Binding, Param};
use crate::device::{Device, Kernel};
use crate::error::{ObserveError, Unsupported};
use crate::histogram::Observation;
use crate::layout::{self, Geometry, Shape};
use crate::plan::{Plan, Storage, Width};
use crate::spirv::{self, ShaderConfig};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;
use vkherd_model::{Observable, Program};

/// The parameters of a run (docs/observe.md "Parameters").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Params {
    /// Dispatches.
    pub iterations: u64,
    /// Invocations per device workgroup (0: eight subgroups' worth, at most the device's
    /// limit).
    pub workgroup_size: u32,
    /// Device workgroups per test workgroup.
    pub workgroups_per_group: u32,
    /// Stress workgroups per dispatch (0: no stress).
    pub stress_workgroups: u32,
    /// Accesses per stress invocation.
    pub stress_iterations: u32,
    /// Scratch lines the stress invocations spread over (rounded up to a power of two).
    pub stress_lines: u32,
    /// Words between two location slots.
    pub mem_stride: u32,
    /// Polls of the line-up counter before a thread starts anyway.
    pub spin_bound: u32,
    /// Percent of dispatches whose instances are scattered at random over the
    /// workgroups instead of aligned pair by pair (layout.rs).
    pub scatter_percent: u32,
    /// Instructions a thread with jumps may execute.
    pub max_steps: u32,
    /// Tries of a compare-exchange loop.
    pub cas_bound: u32,
    /// The model's `--unroll`: runs beyond it are not judged.
    pub unroll: u32,
    pub seed: u64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            iterations: 100,
            workgroup_size: 0,
            workgroups_per_group: 4,
            stress_workgroups: 0,
            stress_iterations: 256,
            stress_lines: 1024,
            mem_stride: 16,
            spin_bound: 20_000,
            scatter_percent: 0,
            max_steps: 10_000,
            cas_bound: 1000,
            unroll: 2,
            seed: 0,
        }
    }
}

/// The integer width a test runs with on a device: 32 bits unless values may leave them.
pub fn width(plan: &Plan, device: &Device) -> Result<Width, ObserveError> {
    if !plan.needs.int64 {
        return Ok(Width::W32);
    }
    let f = device.info.features;
    let missing = if !f.int64 {
        Some("shaderInt64")
    } else if !f.buffer_int64_atomics {
        Some("shaderBufferInt64Atomics")
    } else if plan.needs.workgroup_memory && !f.shared_int64_atomics {
        Some("shaderSharedInt64Atomics")
    } else {
        None
    };
    match missing {
        Some(feature) => Err(ObserveError::unsupported(
            Unsupported::Feature {
                feature,
                why: "for 64-bit values (the test has arithmetic, an RMW operation or a constant beyond 32 bits)",
            },
            None,
        )),
        None => Ok(Width::W64),
    }
}

/// Refuses a test whose scopes the device cannot honour.
pub fn check_features(plan: &Plan, device: &Device) -> Result<(), ObserveError> {
    if plan.needs.device_scope && !device.info.features.device_scope {
        return Err(ObserveError::unsupported(
            Unsupported::Feature {
                feature: "vulkanMemoryModelDeviceScope",
                why: "for Device scope (`dv`)",
            },
            None,
        ));
    }
    Ok(())
}

/// The shape a run uses on a device.
fn shape(params: &Params, device: &Device) -> Shape {
    let sg = device.info.subgroup_size.max(1);
    let max = device.info.max_workgroup_size.max(sg);
    let size = if params.workgroup_size == 0 {
        (8 * sg).min(max)
    } else {
        params.workgroup_size
    };
    // A whole number of subgroups.
    let size = (size / sg).max(1) * sg;
    Shape {
        workgroup_size: size.min(max),
        subgroup_size: sg,
        workgroups_per_group: params.workgroups_per_group.max(1),
        stress_workgroups: params.stress_workgroups,
        mem_stride: params.mem_stride.max(1),
    }
}

/// The checked SPIR-V module `run` would use, its geometry and integer width.
fn build(
    device: &Device,
    program: &Program,
    plan: &Plan,
    params: &Params,
) -> Result<(Vec<u32>, Geometry, Width), ObserveError> {
    check_features(plan, device)?;
    let width = width(plan, device)?;
    let geo = Geometry::new(plan, shape(params, device))?;
    let cfg = ShaderConfig {
        workgroup_size: geo.shape.workgroup_size,
        unroll: params.unroll,
        width,
        pieces_per_workgroup: geo.max_pieces(),
    };
    let words = spirv::generate(program, plan, &cfg)?;
    Ok((words, geo, width))
}

/// The SPIR-V module of `program` on `device` (what `run` dispatches).
pub fn module(
    device: &Device,
    program: &Program,
    plan: &Plan,
    params: &Params,
) -> Result<Vec<u32>, ObserveError> {
    build(device, program, plan, params).map(|(words, _, _)| words)
}

/// Runs `program` for `params.iterations` dispatches, calling `tick` after each.
pub fn run(
    device: &Device,
    program: &Program,
    plan: &Plan,
    params: &Params,
    tick: &mut dyn FnMut(u64),
) -> Result<Observation, ObserveError> {
    let (words, geo, width) = build(device, program, plan, params)?;
    let mut rng = ChaCha8Rng::seed_from_u64(params.seed);
    let n = geo.instances as usize;
    let threads = program.threads.len();
    let stress_lines = params.stress_lines.max(1).next_power_of_two();
    let wb = width.bytes();
    let sizes = {
        let mut s = vec![0usize; bindings::BINDINGS.len()];
        s[Binding::Mem as usize] =
            n * plan.buffer_locations.max(1) * geo.shape.mem_stride as usize * wb;
        s[Binding::Roles as usize] = 2 * geo.invocations() as usize * 4;
        s[Binding::Addr as usize] = n * plan.buffer_locations.max(1) * 4;
        s[Binding::Out as usize] = n * plan.register_columns.len().max(1) * wb;
        s[Binding::Info as usize] = n * threads * bindings::INFO_WORDS * 4;
        s[Binding::Sync as usize] = n * 4;
        s[Binding::Stress as usize] = (stress_lines * bindings::STRESS_LINE_WORDS) as usize * 4;
        s[Binding::Params as usize] = bindings::PARAM_WORDS * 4;
        s[Binding::WorkgroupOut as usize] = n * plan.max_workgroup_locations().max(1) * wb;
        s
    };
    let mut kernel = device.kernel(&words, &sizes)?;
    let mut param_words = [0u32; bindings::PARAM_WORDS];
    param_words[Param::SpinBound as usize] = params.spin_bound;
    param_words[Param::StressIterations as usize] = params.stress_iterations;
    param_words[Param::StressMask as usize] = stress_lines - 1;
    param_words[Param::MaxSteps as usize] = params.max_steps;
    param_words[Param::CasBound as usize] = params.cas_bound.max(1);
    write_u32(&mut kernel, Binding::Params, &param_words);
    let mut obs = Observation::default();
    let start = Instant::now();
    for k in 0..params.iterations {
        let scattered = rng.random_range(0..100) < params.scatter_percent;
        let l = layout::draw(plan, &geo, !scattered, &mut rng);
        write_u32(&mut kernel, Binding::Roles, &l.roles);
        write_u32(&mut kernel, Binding::Addr, &l.addr);
        zero(&mut kernel, Binding::Sync);
        zero(&mut kernel, Binding::Info);
        zero(&mut kernel, Binding::Out);
        init_memory(&mut kernel, program, plan, &l, n, width);
        kernel.dispatch(geo.workgroups())?;
        decode(&kernel, program, plan, &l, &geo, width, &mut obs);
        obs.instances += n as u64;
        obs.iterations = k + 1;
        tick(k + 1);
    }
    obs.seconds = start.elapsed().as_secs_f64();
    Ok(obs)
}

fn write_u32(k: &mut Kernel, b: Binding, words: &[u32]) {
    let bytes = k.buffers[b as usize].bytes_mut();
    for (chunk, w) in bytes.chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
}

fn zero(k: &mut Kernel, b: Binding) {
    k.buffers[b as usize].bytes_mut().fill(0);
}

fn put(bytes: &mut [u8], index: usize, v: i64, width: Width) {
    match width {
        Width::W32 => bytes[index * 4..][..4].copy_from_slice(&(v as i32).to_le_bytes()),
        Width::W64 => bytes[index * 8..][..8].copy_from_slice(&v.to_le_bytes()),
    }
}

fn get(bytes: &[u8], index: usize, width: Width) -> i64 {
    match width {
        Width::W32 => i64::from(i32::from_le_bytes(
            bytes[index * 4..][..4].try_into().expect("4 bytes"),
        )),
        Width::W64 => i64::from_le_bytes(bytes[index * 8..][..8].try_into().expect("8 bytes")),
    }
}

/// Every instance's buffer locations get their initial values.
fn init_memory(
    k: &mut Kernel,
    program: &Program,
    plan: &Plan,
    l: &layout::Layout,
    n: usize,
    width: Width,
) {
    let mem = k.buffers[Binding::Mem as usize].bytes_mut();
    for i in 0..n {
        for (loc, s) in plan.storage.iter().enumerate() {
            if let Storage::Buffer { slot } = *s {
                let a = l.addr[i * plan.buffer_locations + slot] as usize;
                put(mem, a, program.locations[loc].init, width);
            }
        }
    }
}

/// Reads every instance's final state into the observation.
fn decode(
    k: &Kernel,
    program: &Program,
    plan: &Plan,
    l: &layout::Layout,
    geo: &Geometry,
    width: Width,
    obs: &mut Observation,
) {
    let info = k.buffers[Binding::Info as usize].bytes();
    let out = k.buffers[Binding::Out as usize].bytes();
    let mem = k.buffers[Binding::Mem as usize].bytes();
    let wg_out = k.buffers[Binding::WorkgroupOut as usize].bytes();
    let threads = program.threads.len();
    let word = |bytes: &[u8], i: usize| {
        u32::from_le_bytes(bytes[i * 4..][..4].try_into().expect("4 bytes"))
    };
    let cols = plan.register_columns.len();
    for i in 0..geo.instances as usize {
        let status: Vec<u32> = (0..threads)
            .map(|t| word(info, (i * threads + t) * 2))
            .collect();
        let subgroup: Vec<u32> = (0..threads)
            .map(|t| word(info, (i * threads + t) * 2 + 1))
            .collect();
        if status.iter().any(|s| s & bindings::STATUS_FINISHED == 0) {
            obs.unfinished += 1;
            continue;
        }
        if status.iter().any(|s| s & bindings::STATUS_CAS_GAVE_UP != 0) {
            obs.cas_gave_up += 1;
            continue;
        }
        if !placement_honoured(plan, &subgroup) {
            obs.misplaced += 1;
            continue;
        }
        let state: Vec<i64> = program
            .observed
            .iter()
            .enumerate()
            .map(|(col, o)| match *o {
                Observable::Reg { .. } => {
                    let k = plan
                        .register_columns
                        .iter()
                        .position(|c| c.0 == col)
                        .expect("a register column");
                    get(out, i * cols + k, width)
                }
                Observable::Loc(loc) => match plan.storage[loc] {
                    Storage::Buffer { slot } => get(
                        mem,
                        l.addr[i * plan.buffer_locations + slot] as usize,
                        width,
                    ),
                    Storage::Workgroup { slot, .. } => {
                        get(wg_out, i * plan.max_workgroup_locations() + slot, width)
                    }
                },
            })
            .collect();
        if let Some(f) = &program.filter {
            let value = |o: Observable| {
                state[program
                    .observed
                    .iter()
                    .position(|x| *x == o)
                    .expect("observed")]
            };
            if !f.eval(&value) {
                obs.filtered += 1;
                continue;
            }
        }
        let beyond = status
            .iter()
            .any(|s| s & bindings::STATUS_BEYOND_UNROLL != 0);
        let hist = if beyond {
            &mut obs.beyond
        } else {
            &mut obs.within
        };
        *hist.entry(state).or_default() += 1;
    }
}

/// Threads of one test workgroup share a device subgroup exactly when the test puts them
/// in one subgroup (threads of different workgroups are in different workgroups by
/// construction).
fn placement_honoured(plan: &Plan, subgroup: &[u32]) -> bool {
    let n = subgroup.len();
    (0..n).all(|t| {
        (t + 1..n).all(|u| {
            plan.thread_group[t] != plan.thread_group[u]
                || (plan.thread_subgroup[t] == plan.thread_subgroup[u])
                    == (subgroup[t] == subgroup[u])
        })
    })
}
