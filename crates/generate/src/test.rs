//! A generated test before it is written out: invocations with their placement, memory
//! operations on numbered locations, and the final state asked about. Both generators
//! (`diy` from a cycle, `distinguish` from the search) build one; [`super::emit`] writes
//! it in either dialect and [`super::canon`] puts it in canonical form.

use super::ann::{Access, Fence, Kind};
use super::dialects::GenDialect;

/// Where an invocation sits: its queue family (OpenCL: device), workgroup and subgroup.
/// Workgroup ids are unique across queue families, subgroup ids count within their
/// workgroup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Place {
    pub qf: u32,
    pub wg: u32,
    pub sg: u32,
}

/// A dependency of an operation on the register of an earlier read of its invocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dep {
    /// The written value is computed from the register (`(r ^ r) + V`).
    Data(u32),
    /// A branch on the register comes first (both ways lead to the operation).
    Ctrl(u32),
}

/// One operation of an invocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// A read (into `reg`), a write (of `value`) or a read-modify-write (both; an
    /// exchange).
    Access {
        kind: Kind,
        loc: usize,
        reg: Option<u32>,
        value: i64,
        access: Access,
        dep: Option<Dep>,
    },
    /// A fence or control barrier; `instance` numbers a barrier (the ones that meet
    /// share it).
    Fence { fence: Fence, instance: Option<u32> },
}

/// One invocation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Thread {
    pub place: Place,
    pub ops: Vec<Op>,
}

/// A value of the final state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Obs {
    Reg { thread: usize, reg: u32 },
    Loc(usize),
}

/// A generated test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Test {
    pub dialect: &'static dyn GenDialect,
    pub name: String,
    /// One line (no `{`), written after the header.
    pub description: String,
    pub threads: Vec<Thread>,
    /// The storage class of each location (Vulkan `scN`; OpenCL 0 global, 1 local).
    pub storage: Vec<u8>,
    /// The condition: `exists` of this conjunction (empty: no condition).
    pub exists: Vec<(Obs, i64)>,
    /// A `locations [...]` list (empty: none).
    pub observe: Vec<Obs>,
}

/// diy7's location names: x, y, z, then a, b, c, ... (no `r`, which reads as a
/// register), then x25, x26, ...
pub fn loc_name(i: usize) -> String {
    const NAMES: [&str; 25] = [
        "x", "y", "z", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o",
        "p", "q", "s", "t", "u", "v", "w",
    ];
    NAMES
        .get(i)
        .map_or_else(|| format!("x{i}"), |n| n.to_string())
}

impl Test {
    /// The location a register is read from (each register is written by one read).
    pub fn reg_loc(&self, thread: usize, reg: u32) -> Option<usize> {
        self.threads[thread].ops.iter().find_map(|op| match *op {
            Op::Access {
                reg: Some(r), loc, ..
            } if r == reg => Some(loc),
            _ => None,
        })
    }

    /// Memory events (accesses, fences and barriers) in all.
    pub fn events(&self) -> usize {
        self.threads.iter().map(|t| t.ops.len()).sum()
    }

    /// The registers of every read and the locations written more than once: the state
    /// that tells every execution's reads-from and final coherence apart.
    pub fn full_state(&self) -> Vec<Obs> {
        let mut out = Vec::new();
        let mut writes = vec![0usize; self.storage.len()];
        for (t, th) in self.threads.iter().enumerate() {
            for op in &th.ops {
                if let Op::Access { kind, loc, reg, .. } = *op {
                    if let Some(reg) = reg {
                        out.push(Obs::Reg { thread: t, reg });
                    }
                    if kind.writes() {
                        writes[loc] += 1;
                    }
                }
            }
        }
        out.extend(
            writes
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 1)
                .map(|(l, _)| Obs::Loc(l)),
        );
        out
    }
}
