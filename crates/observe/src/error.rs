//! The errors of `observe`, by kind: a test the device cannot express (with the
//! instruction to blame), no Vulkan, a device that lacks a feature, a Vulkan call that
//! failed.

use std::fmt;
use vkherd_litmus::Span;

/// Why a test cannot run on a device as written. Each kind names what the device lacks
/// or what SPIR-V cannot say; the test is refused rather than silently changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unsupported {
    /// A test of a dialect whose tests cannot run on a device (`a_test`: "an OpenCL test"):
    /// `observe` generates Vulkan SPIR-V only.
    Dialect { a_test: &'static str },
    /// Invocations in different queue families: one dispatch runs on one queue.
    QueueFamilies { first: u64, second: u64 },
    /// `ssw` pairs order whole commands (queue submissions), not shader instructions.
    Ssw,
    /// `avdevice` / `visdevice`: availability and visibility operations of the device
    /// domain are API-level operations (pipeline barriers), not SPIR-V instructions.
    DeviceDomain { visibility: bool },
    /// A storage class with no SPIR-V storage class in the mapping (sc2, sc3).
    StorageClass { class: u8 },
    /// A location accessed in two storage classes (one location has one storage class).
    MixedStorageClasses { location: String },
    /// A Workgroup (sc1) location accessed from invocations of different workgroups,
    /// which would each see their own copy.
    WorkgroupLocationShared { location: String },
    /// An alias of a Workgroup (sc1) location: Workgroup variables cannot be bound twice.
    WorkgroupAlias { location: String },
    /// A control barrier with a quorum: a device barrier waits for every invocation.
    Quorum,
    /// A control barrier in a thread with jumps: barriers must be in uniform control flow.
    BarrierInControlFlow,
    /// The invocations of one workgroup do not pass the same barriers in the same order
    /// (a device workgroup has one barrier that every invocation must reach).
    BarrierMismatch { workgroup: u64 },
    /// More invocations in one workgroup than the device's subgroups or workgroups hold.
    TooManyInvocations {
        workgroup: u64,
        need: u32,
        have: u32,
    },
    /// OpenCL-only arithmetic (min, max) in a Vulkan test.
    Arithmetic { op: &'static str },
    /// An OpenCL compare-exchange.
    CompareExchange,
    /// A Khronos pinned read (only `.test` files have them).
    Pin,
    /// A device feature the test needs is missing.
    Feature {
        feature: &'static str,
        why: &'static str,
    },
    /// A constant that does not fit the integer width the device offers.
    Width { value: i64 },
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unsupported::Dialect { a_test } => write!(f, "{a_test}: observe runs Vulkan tests only (it generates Vulkan SPIR-V)"),
            Unsupported::QueueFamilies { first, second } => write!(f, "invocations in queue families {first} and {second}: observe runs one dispatch on one queue, so every invocation must be in one queue family"),
            Unsupported::Ssw => write!(f, "`ssw` orders whole commands (queue submissions), not shader instructions: a single dispatch cannot express it"),
            Unsupported::DeviceDomain { visibility } => write!(f, "`{}` is an API-level {} operation of the device domain (a pipeline barrier between commands): SPIR-V has no instruction for it", if *visibility { "visdevice" } else { "avdevice" }, if *visibility { "visibility" } else { "availability" }),
            Unsupported::StorageClass { class } => write!(f, "storage class sc{class} has no SPIR-V storage class in observe's mapping (sc0 = StorageBuffer, sc1 = Workgroup)"),
            Unsupported::MixedStorageClasses { location } => write!(f, "location `{location}` is accessed in two storage classes: on a device one location lives in one storage class"),
            Unsupported::WorkgroupLocationShared { location } => write!(f, "location `{location}` is in storage class sc1 (Workgroup) but accessed from different workgroups, which would each see their own copy"),
            Unsupported::WorkgroupAlias { location } => write!(f, "`{location}` has an alias but is in storage class sc1 (Workgroup): a Workgroup variable cannot be reached through two bindings"),
            Unsupported::Quorum => write!(f, "a control barrier with a quorum: a device's OpControlBarrier waits for every invocation of the workgroup"),
            Unsupported::BarrierInControlFlow => write!(f, "a control barrier in a thread with jumps: OpControlBarrier must be reached in uniform control flow, and observe runs such threads as a loop over a program counter"),
            Unsupported::BarrierMismatch { workgroup } => write!(f, "the invocations of workgroup {workgroup} do not all pass the same control barriers in the same order: a device workgroup's OpControlBarrier waits for every invocation"),
            Unsupported::TooManyInvocations { workgroup, need, have } => write!(f, "workgroup {workgroup} needs {need} device subgroups or lanes, the workgroup size chosen gives {have} (raise --workgroup-size)"),
            Unsupported::Arithmetic { op } => write!(f, "`{op}` arithmetic is not part of the Vulkan dialect"),
            Unsupported::CompareExchange => write!(f, "a compare-exchange is not part of the Vulkan dialect"),
            Unsupported::Pin => write!(f, "a pinned read (Khronos .test files only)"),
            Unsupported::Feature { feature, why } => write!(f, "the device lacks {feature}, needed {why}"),
            Unsupported::Width { value } => write!(f, "the constant {value} does not fit in 32 bits and the device has no 64-bit atomics"),
        }
    }
}

/// An error of `observe`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ObserveError {
    /// The test cannot run on the device; `span` is the instruction to blame, if one is.
    Unsupported {
        kind: Unsupported,
        span: Option<Span>,
    },
    /// No Vulkan loader (`libvulkan.so.1`) could be opened.
    NoLoader { detail: String },
    /// The loader works but reports no physical device.
    NoDevice,
    /// `--device I` names no device.
    DeviceIndex { index: usize, count: usize },
    /// The device cannot run observe at all (no Vulkan 1.2, no memory model, no compute
    /// queue, no host-visible memory).
    DeviceUnfit { device: String, why: String },
    /// A Vulkan call failed.
    Vulkan { call: &'static str, result: i32 },
    /// A generated SPIR-V module broke a rule that `spirv::check` enforces (a bug).
    InvalidModule {
        rule: crate::spirv::check::SpirvRule,
    },
}

impl ObserveError {
    pub(crate) fn unsupported(kind: Unsupported, span: Option<Span>) -> Self {
        ObserveError::Unsupported { kind, span }
    }

    pub(crate) fn vk(call: &'static str) -> impl Fn(ash::vk::Result) -> ObserveError {
        move |r| ObserveError::Vulkan {
            call,
            result: r.as_raw(),
        }
    }
}

impl fmt::Display for ObserveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObserveError::Unsupported { kind, .. } => write!(f, "cannot run on a Vulkan device: {kind}"),
            ObserveError::NoLoader { detail } => write!(f, "no Vulkan loader: cannot open libvulkan.so.1 ({detail}); install a Vulkan loader and driver (Debian: apt-get install libvulkan1 mesa-vulkan-drivers)"),
            ObserveError::NoDevice => write!(f, "no Vulkan device: the Vulkan loader found no physical device (install a driver; Debian: apt-get install mesa-vulkan-drivers gives lavapipe, a CPU device)"),
            ObserveError::DeviceIndex { index, count } => write!(f, "no Vulkan device {index}: there {} (vkherd observe --list-devices lists them)", if *count == 1 { "is 1 device, number 0".to_string() } else { format!("are {count} devices, numbered 0 to {}", count - 1) }),
            ObserveError::DeviceUnfit { device, why } => write!(f, "device `{device}` cannot run litmus tests: {why}"),
            ObserveError::Vulkan { call, result } => write!(f, "Vulkan call {call} failed: {:?}", ash::vk::Result::from_raw(*result)),
            ObserveError::InvalidModule { rule } => write!(f, "internal error: the generated SPIR-V module breaks a rule: {rule}"),
        }
    }
}

impl std::error::Error for ObserveError {}
