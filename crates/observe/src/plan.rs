//! What a test needs from a device, checked once per test: its workgroups and subgroups
//! (placement), where each location lives (storage classes), its control barriers as
//! phases, the integer width, and the device features it uses. Everything a device cannot
//! express is refused here with the instruction to blame (docs/observe.md "What is
//! refused").

use crate::error::{ObserveError, Unsupported};
use std::collections::BTreeSet;
use vkherd_litmus::{ArithOp, Operand, Span};
use vkherd_model::{AccessKind, Flags, Instruction, Observable, Program};

/// Where a location lives on the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// sc0: a word of the StorageBuffer test memory; `slot` numbers the buffer locations.
    Buffer { slot: usize },
    /// sc1: a Workgroup variable of the workgroup running test workgroup `group`.
    Workgroup { group: usize, slot: usize },
}

/// One workgroup of the test (`wg B`): its invocations, grouped by subgroup (`sg A`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The test's workgroup id.
    pub wg: u64,
    /// The test's subgroups in this workgroup, each a list of threads in thread order.
    pub subgroups: Vec<Vec<usize>>,
    /// The control barriers every thread of the group passes, in order (empty: none).
    pub barriers: Vec<Flags>,
}

impl Group {
    /// Lanes needed in one device subgroup: the largest test subgroup.
    pub fn lanes(&self) -> usize {
        self.subgroups.iter().map(Vec::len).max().unwrap_or(0)
    }
}

/// The integer type of locations and registers on the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    W32,
    W64,
}

impl Width {
    pub fn bits(self) -> u32 {
        match self {
            Width::W32 => 32,
            Width::W64 => 64,
        }
    }

    pub fn bytes(self) -> usize {
        self.bits() as usize / 8
    }
}

/// Device features a test uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Needs {
    /// Some access or barrier has Device scope (`vulkanMemoryModelDeviceScope`).
    pub device_scope: bool,
    /// Values may leave 32 bits (64-bit integers and atomics).
    pub int64: bool,
    /// Some location is in Workgroup storage (sc1).
    pub workgroup_memory: bool,
    /// Some access goes through an alias (a second binding of the test memory).
    pub aliases: bool,
}

/// A test, checked and placed, ready for code generation.
#[derive(Debug, Clone)]
pub struct Plan {
    pub groups: Vec<Group>,
    /// Per thread: its group and its subgroup's index in the group.
    pub thread_group: Vec<usize>,
    pub thread_subgroup: Vec<usize>,
    /// Per location.
    pub storage: Vec<Storage>,
    pub buffer_locations: usize,
    /// Per group, its Workgroup locations (by location id).
    pub workgroup_locations: Vec<Vec<usize>>,
    pub needs: Needs,
    /// Per thread, the registers it uses (sorted).
    pub registers: Vec<Vec<u32>>,
    /// The register columns of a final state: (column, thread, register).
    pub register_columns: Vec<(usize, usize, u32)>,
}

impl Plan {
    /// The most phases (control barriers plus one) of any group.
    pub fn phases(&self) -> usize {
        self.groups
            .iter()
            .map(|g| g.barriers.len() + 1)
            .max()
            .unwrap_or(1)
    }

    /// The widest Workgroup footprint of a piece (locations per test workgroup).
    pub fn max_workgroup_locations(&self) -> usize {
        self.workgroup_locations
            .iter()
            .map(Vec::len)
            .max()
            .unwrap_or(0)
    }

    /// Checks `program` and places it, or says what a device cannot express.
    pub fn new(program: &Program) -> Result<Plan, ObserveError> {
        let refuse = |kind, span: Option<Span>| Err(ObserveError::unsupported(kind, span));
        if !program.dialect.runs_on_device {
            return refuse(
                Unsupported::Dialect {
                    a_test: program.dialect.a_test,
                },
                None,
            );
        }
        if !program.ssw.is_empty() {
            return refuse(Unsupported::Ssw, None);
        }
        let first_qf = program.threads.first().map_or(0, qf);
        if let Some(t) = program.threads.iter().find(|t| qf(t) != first_qf) {
            return refuse(
                Unsupported::QueueFamilies {
                    first: first_qf,
                    second: qf(t),
                },
                None,
            );
        }
        let (groups, thread_group, thread_subgroup) = place(program)?;
        let mut needs = Needs::default();
        let mut classes: Vec<Option<(u8, Span)>> = vec![None; program.locations.len()];
        let mut used_by: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); program.locations.len()];
        let mut aliased: BTreeSet<usize> = BTreeSet::new();
        for (t, thread) in program.threads.iter().enumerate() {
            for ins in &thread.code {
                check_instruction(ins, &mut needs)?;
                let Instruction::Access(a) = ins else {
                    continue;
                };
                let Some(r) = a.reference else { continue };
                let loc = program.references[r].location;
                if program.references[r].name != program.locations[loc].name {
                    needs.aliases = true;
                    aliased.insert(loc);
                }
                let class = (0..4u8).find(|&i| a.flags.has(Flags::sc(i))).unwrap_or(0);
                match classes[loc] {
                    Some((c, _)) if c != class => {
                        return refuse(
                            Unsupported::MixedStorageClasses {
                                location: program.locations[loc].name.clone(),
                            },
                            Some(a.span),
                        )
                    }
                    _ => classes[loc] = Some((class, a.span)),
                }
                used_by[loc].insert(thread_group[t]);
            }
        }
        let mut storage = Vec::with_capacity(program.locations.len());
        let mut buffer_locations = 0;
        let mut workgroup_locations = vec![Vec::new(); groups.len()];
        for (loc, class) in classes.iter().enumerate() {
            let name = || program.locations[loc].name.clone();
            match class {
                Some((1, span)) => {
                    if used_by[loc].len() > 1 {
                        return refuse(
                            Unsupported::WorkgroupLocationShared { location: name() },
                            Some(*span),
                        );
                    }
                    if aliased.contains(&loc) {
                        return refuse(
                            Unsupported::WorkgroupAlias { location: name() },
                            Some(*span),
                        );
                    }
                    let group = *used_by[loc].first().expect("accessed");
                    needs.workgroup_memory = true;
                    storage.push(Storage::Workgroup {
                        group,
                        slot: workgroup_locations[group].len(),
                    });
                    workgroup_locations[group].push(loc);
                }
                Some((c @ 2..=3, span)) => {
                    return refuse(Unsupported::StorageClass { class: *c }, Some(*span))
                }
                // sc0, and locations no instruction accesses (kept in the buffer, so
                // that their final value is their initial one).
                _ => {
                    storage.push(Storage::Buffer {
                        slot: buffer_locations,
                    });
                    buffer_locations += 1;
                }
            }
        }
        let constants_fit = program
            .constants
            .iter()
            .chain(program.locations.iter().map(|l| &l.init))
            .chain(
                program
                    .threads
                    .iter()
                    .flat_map(|t| t.init_regs.iter().map(|(_, v)| v)),
            )
            .all(|&v| i32::try_from(v).is_ok());
        needs.int64 |= !constants_fit;
        let registers = program
            .threads
            .iter()
            .enumerate()
            .map(|(t, thread)| registers_of(program, t, thread))
            .collect();
        let register_columns = program
            .observed
            .iter()
            .enumerate()
            .filter_map(|(col, o)| match *o {
                Observable::Reg { thread, reg } => Some((col, thread, reg)),
                Observable::Loc(_) => None,
            })
            .collect();
        Ok(Plan {
            groups,
            thread_group,
            thread_subgroup,
            storage,
            buffer_locations,
            workgroup_locations,
            needs,
            registers,
            register_columns,
        })
    }
}

type Placement = (Vec<Group>, Vec<usize>, Vec<usize>);

/// Groups the threads by workgroup and subgroup, and checks the control barriers: a
/// device workgroup has one barrier that every invocation must reach, so every thread of
/// a test workgroup with barriers must pass the same barriers in the same order, without
/// quorum, in straight-line code.
fn place(program: &Program) -> Result<Placement, ObserveError> {
    let mut groups: Vec<Group> = Vec::new();
    let mut sg_ids: Vec<Vec<u64>> = Vec::new();
    let mut thread_group = Vec::new();
    let mut thread_subgroup = Vec::new();
    for (t, thread) in program.threads.iter().enumerate() {
        let g = match groups.iter().position(|g| g.wg == wg(thread)) {
            Some(g) => g,
            None => {
                groups.push(Group {
                    wg: wg(thread),
                    subgroups: Vec::new(),
                    barriers: Vec::new(),
                });
                sg_ids.push(Vec::new());
                groups.len() - 1
            }
        };
        let s = match sg_ids[g].iter().position(|&s| s == sg(thread)) {
            Some(s) => s,
            None => {
                sg_ids[g].push(sg(thread));
                groups[g].subgroups.push(Vec::new());
                sg_ids[g].len() - 1
            }
        };
        groups[g].subgroups[s].push(t);
        thread_group.push(g);
        thread_subgroup.push(s);
    }
    for g in &mut groups {
        let threads: Vec<usize> = g.subgroups.iter().flatten().copied().collect();
        let mut sequences = threads.iter().map(|&t| barrier_sequence(program, t));
        let first = sequences.next().expect("a group has a thread")?;
        for other in sequences {
            if other? != first {
                return Err(ObserveError::unsupported(
                    Unsupported::BarrierMismatch { workgroup: g.wg },
                    None,
                ));
            }
        }
        g.barriers = first.into_iter().map(|(flags, _)| flags).collect();
    }
    Ok((groups, thread_group, thread_subgroup))
}

/// The control barriers of a thread in order, with their names, or why they cannot run.
fn barrier_sequence(
    program: &Program,
    t: usize,
) -> Result<Vec<(Flags, vkherd_model::BarrierName)>, ObserveError> {
    let code = &program.threads[t].code;
    let has_jumps = code.iter().any(|i| matches!(i, Instruction::Jump { .. }));
    let mut out = Vec::new();
    for ins in code {
        if let Instruction::Access(a) = ins {
            if a.kind != AccessKind::Cbar {
                continue;
            }
            let name = a.barrier.clone().expect("a cbar has a barrier");
            if name.quorum.is_some() {
                return Err(ObserveError::unsupported(Unsupported::Quorum, Some(a.span)));
            }
            if has_jumps {
                return Err(ObserveError::unsupported(
                    Unsupported::BarrierInControlFlow,
                    Some(a.span),
                ));
            }
            out.push((a.flags, name));
        }
    }
    Ok(out)
}

/// A Vulkan invocation's subgroup, workgroup and queue family ids (the Vulkan dialect's
/// scope levels 0, 1 and 2; observe runs Vulkan tests only).
fn sg(t: &vkherd_model::Thread) -> u64 {
    t.scope[0]
}

fn wg(t: &vkherd_model::Thread) -> u64 {
    t.scope[1]
}

fn qf(t: &vkherd_model::Thread) -> u64 {
    t.scope[2]
}

/// Refuses what SPIR-V cannot say and notes the features an instruction uses.
fn check_instruction(ins: &Instruction, needs: &mut Needs) -> Result<(), ObserveError> {
    let refuse = |kind, span| Err(ObserveError::unsupported(kind, Some(span)));
    match ins {
        Instruction::Arith { op, span, .. } => {
            if let Some(name) = op_without_spirv(*op) {
                return refuse(Unsupported::Arithmetic { op: name }, *span);
            }
            // Local arithmetic wraps at 64 bits in the model.
            needs.int64 = true;
        }
        Instruction::Jump { .. } => {}
        Instruction::Access(a) => {
            match a.kind {
                AccessKind::AvDevice => {
                    return refuse(Unsupported::DeviceDomain { visibility: false }, a.span)
                }
                AccessKind::VisDevice => {
                    return refuse(Unsupported::DeviceDomain { visibility: true }, a.span)
                }
                _ => {}
            }
            if a.cas.is_some() {
                return refuse(Unsupported::CompareExchange, a.span);
            }
            if a.pin.is_some() {
                return refuse(Unsupported::Pin, a.span);
            }
            for class in 2..4u8 {
                if a.flags.has(Flags::sc(class)) || a.flags.has(Flags::semsc(class)) {
                    return refuse(Unsupported::StorageClass { class }, a.span);
                }
            }
            if let Some(op) = a.rmw_op {
                if let Some(name) = op_without_spirv(op) {
                    return refuse(Unsupported::Arithmetic { op: name }, a.span);
                }
                // An RMW that computes (not an exchange) may leave 32 bits.
                needs.int64 = true;
            }
            if a.flags.has(Flags::SCOPEDEV) && scope_matters(a.kind, a.flags) {
                needs.device_scope = true;
            }
        }
    }
    Ok(())
}

/// Scopes are read only on atomics, barriers and av/vis accesses; a scope written on a
/// plain access is ignored (docs/litmus-format.md, "lenient").
pub fn scope_matters(kind: AccessKind, flags: Flags) -> bool {
    matches!(kind, AccessKind::Fence | AccessKind::Cbar | AccessKind::Rmw)
        || flags.has(Flags::A)
        || (kind == AccessKind::Load && flags.has(Flags::VIS))
        || (kind == AccessKind::Store && flags.has(Flags::AV))
}

/// An operation the Vulkan dialect has no instruction for (the shared program model has
/// it for other dialects).
fn op_without_spirv(op: ArithOp) -> Option<&'static str> {
    match op {
        ArithOp::Min => Some("min"),
        ArithOp::Max => Some("max"),
        _ => None,
    }
}

/// The registers thread `t` uses: written, read, initialised or observed.
fn registers_of(program: &Program, t: usize, thread: &vkherd_model::Thread) -> Vec<u32> {
    let mut regs = BTreeSet::new();
    let operand = |o: &Operand, regs: &mut BTreeSet<u32>| {
        if let Operand::Reg(r) = o {
            regs.insert(*r);
        }
    };
    for ins in &thread.code {
        match ins {
            Instruction::Access(a) => {
                regs.extend(a.dst);
                if let Some(v) = &a.value {
                    operand(v, &mut regs);
                }
            }
            Instruction::Arith { dst, a, b, .. } => {
                regs.insert(*dst);
                operand(a, &mut regs);
                operand(b, &mut regs);
            }
            Instruction::Jump { cond, .. } => {
                if let Some((_, a, b)) = cond {
                    operand(a, &mut regs);
                    operand(b, &mut regs);
                }
            }
        }
    }
    regs.extend(thread.init_regs.iter().map(|(r, _)| *r));
    for o in &program.observed {
        if let Observable::Reg { thread, reg } = *o {
            if thread == t {
                regs.insert(reg);
            }
        }
    }
    regs.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(src: &str) -> Result<Plan, ObserveError> {
        let test = vkherd_dialects::vulkan::parse_litmus(src).expect("parses");
        Plan::new(&vkherd_dialects::vulkan::lower_litmus(&test).expect("lowers"))
    }

    const HEAD: &str = "VULKAN t\n{ x = 0; y = 0; }\n";

    #[test]
    fn groups_and_subgroups_follow_the_header() {
        let p = plan(&format!(
            "{HEAD} P0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 | P2@sg 0, wg 1, qf 0 | P3@sg 1, wg 0, qf 0 ;\n st.atom.dv.sc0 x, 1 | ld.atom.dv.sc0 r0, x | ld.atom.dv.sc0 r0, y | st.atom.wg.sc0 y, 1 ;\nexists (1:r0 == 1)\n"
        ))
        .unwrap();
        assert_eq!(p.groups.len(), 2);
        assert_eq!(p.groups[0].subgroups, vec![vec![0], vec![1, 3]]);
        assert_eq!(p.groups[1].subgroups, vec![vec![2]]);
        assert_eq!(p.thread_group, vec![0, 0, 1, 0]);
        assert_eq!(p.thread_subgroup, vec![0, 1, 0, 1]);
        assert!(p.needs.device_scope && !p.needs.int64 && !p.needs.workgroup_memory);
        assert_eq!(p.register_columns, vec![(0, 1, 0)]);
    }

    #[test]
    fn refuses_what_a_device_cannot_express() {
        let cases: &[(&str, Unsupported)] = &[
            (
                " P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 0, qf 1 ;\n st.atom.dv.sc0 x, 1 | ld.atom.dv.sc0 r0, x ;\n",
                Unsupported::QueueFamilies { first: 0, second: 1 },
            ),
            (
                " P0@sg 0, wg 0, qf 0 ;\n avdevice ;\n",
                Unsupported::DeviceDomain { visibility: false },
            ),
            (
                " P0@sg 0, wg 0, qf 0 ;\n st.sc2 x, 1 ;\n",
                Unsupported::StorageClass { class: 2 },
            ),
            (
                " P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 1, qf 0 ;\n st.sc1 x, 1 | ld.sc1 r0, x ;\n",
                Unsupported::WorkgroupLocationShared { location: "x".into() },
            ),
            (
                " P0@sg 0, wg 0, qf 0 ;\n st.sc1 x, 1 ;\n ld.sc0 r0, x ;\n",
                Unsupported::MixedStorageClasses { location: "x".into() },
            ),
            (
                " P0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 ;\n cbar.wg 1 | st.sc0 x, 1 ;\n",
                Unsupported::BarrierMismatch { workgroup: 0 },
            ),
            (
                " P0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 ;\n cbar.wg 1, 1, 1 | cbar.wg 1, 1, 1 ;\n",
                Unsupported::Quorum,
            ),
            (
                " P0@sg 0, wg 0, qf 0 ;\n LC00: ;\n cbar.wg 1 ;\n goto LC00 ;\n",
                Unsupported::BarrierInControlFlow,
            ),
        ];
        for (table, want) in cases {
            match plan(&format!("{HEAD}{table}")) {
                Err(ObserveError::Unsupported { kind, .. }) => assert_eq!(&kind, want, "{table}"),
                other => panic!("{table}: expected {want:?}, got {other:?}"),
            }
        }
    }

    #[test]
    fn ssw_is_refused() {
        let src = "VULKAN t\n{ x = 0; }\n{ ssw 0 1 }\n P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 1, qf 0 ;\n st.sc0 x, 1 | ld.sc0 r0, x ;\n";
        assert!(matches!(
            plan(src),
            Err(ObserveError::Unsupported {
                kind: Unsupported::Ssw,
                ..
            })
        ));
    }

    #[test]
    fn storage_and_width() {
        let p = plan(&format!(
            "{HEAD} P0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 ;\n st.sc1 x, 1 | ld.sc1 r0, x ;\n rmw.atom.wg.sc0.add r1, y, 1 | ;\n"
        ))
        .unwrap();
        assert_eq!(p.storage[0], Storage::Workgroup { group: 0, slot: 0 });
        assert_eq!(p.storage[1], Storage::Buffer { slot: 0 });
        assert!(p.needs.workgroup_memory && p.needs.int64 && !p.needs.device_scope);
        let wide =
            plan("VULKAN t\n{ x = 0x100000000; }\n P0@sg 0, wg 0, qf 0 ;\n ld.sc0 r0, x ;\n")
                .unwrap();
        assert!(wide.needs.int64);
    }

    #[test]
    fn barriers_make_phases() {
        let p = plan(&format!(
            "{HEAD} P0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 | P2@sg 0, wg 1, qf 0 ;\n st.av.wg.sc0 x, 1 | cbar.acq_rel.wg.semsc0 1 | ld.atom.dv.sc0 r0, y ;\n cbar.acq_rel.wg.semsc0 1 | ld.vis.wg.sc0 r0, x | ;\n"
        ))
        .unwrap();
        assert_eq!(p.groups[0].barriers.len(), 1);
        assert!(p.groups[1].barriers.is_empty());
        assert_eq!(p.phases(), 2);
    }
}
