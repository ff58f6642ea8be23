//! The contract between the shader and the host: descriptor bindings, the role words,
//! the status bits and the parameter words (docs/observe.md "Harness").

/// Descriptor bindings of set 0, all storage buffers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    /// The test memory: one word (the test's integer width) per buffer location per
    /// instance, at the addresses of `Addr`.
    Mem = 0,
    /// The same buffer again, for accesses through an alias (`z aliases x`).
    MemAlias = 1,
    /// Two u32 per invocation of the dispatch: its role and its workgroup's group.
    Roles = 2,
    /// Per instance and buffer location, the word index of the location in `Mem`.
    Addr = 3,
    /// Per instance, the observed registers (the test's integer width).
    Out = 4,
    /// Per instance and thread, two u32: status bits and the subgroup id seen.
    Info = 5,
    /// Per instance, the counter the threads line up on.
    Sync = 6,
    /// Scratch memory for the stress workgroups.
    Stress = 7,
    /// The run parameters ([`Param`]).
    Params = 8,
    /// Per instance, the final values of the Workgroup locations.
    WorkgroupOut = 9,
}

pub const BINDINGS: [Binding; 10] = [
    Binding::Mem,
    Binding::MemAlias,
    Binding::Roles,
    Binding::Addr,
    Binding::Out,
    Binding::Info,
    Binding::Sync,
    Binding::Stress,
    Binding::Params,
    Binding::WorkgroupOut,
];

/// Words of the `Params` buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// Most polls of the line-up counter before a thread starts anyway.
    SpinBound = 0,
    /// Accesses each stress invocation makes.
    StressIterations = 1,
    /// Stress lines minus one (a power of two minus one).
    StressMask = 2,
    /// Most instructions a thread with jumps executes before it is stopped.
    MaxSteps = 3,
    /// Most tries of a compare-exchange loop (RMW `mul` and `div`).
    CasBound = 4,
}

pub const PARAM_WORDS: usize = 5;

/// Role word 0: an idle invocation (a lane no test instance uses).
pub const ROLE_IDLE: u32 = 0;
/// Role word 0: an invocation of a stress workgroup.
pub const ROLE_STRESS: u32 = 1;
/// Role word 0 of thread `t` of instance `i` of a test with `n` threads: `ROLE_TEST + i * n + t`.
pub const ROLE_TEST: u32 = 2;

/// Role word 1: `(group + 1) << GROUP_SHIFT | piece`, where group is the test workgroup
/// that the invocation's device workgroup runs (0: none) and piece numbers the test
/// instance's slot among those of its workgroup (for Workgroup memory).
pub const GROUP_SHIFT: u32 = 16;

/// Status bit: the thread ran to its end.
pub const STATUS_FINISHED: u32 = 1;
/// Status bit: some backward jump was taken more often than the unroll bound.
pub const STATUS_BEYOND_UNROLL: u32 = 2;
/// Status bit: a compare-exchange loop gave up.
pub const STATUS_CAS_GAVE_UP: u32 = 4;

/// Words per (instance, thread) in `Info`.
pub const INFO_WORDS: usize = 2;

/// Words (u32) between two stress lines.
pub const STRESS_LINE_WORDS: u32 = 16;
