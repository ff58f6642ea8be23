//! Checks every generated module against the `spirv-val` rules the generator could break
//! (a driver given an invalid module may do anything, so no module reaches a device
//! unchecked). The project's tests also run Debian's `spirv-val` on every corpus module
//! when it is installed (tests/spirv_val.rs).

use rspirv::dr::{Instruction, Module, Operand};
use rspirv::spirv::{self, Op, Word};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// A rule a module breaks; `Display` says it in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpirvRule {
    /// The builder refused an instruction (its error, in its words).
    Builder(String),
    /// The words are no module (rspirv's reason).
    Unparsable(String),
    /// A version below 1.5.
    Version { major: u8, minor: u8 },
    /// Not `OpMemoryModel Logical Vulkan`.
    MemoryModel,
    /// A result id 0 or at least the bound.
    IdOutOfBound { id: Word, bound: Word },
    /// A result id defined twice.
    IdDefinedTwice { id: Word },
    /// `op` uses an id never defined.
    IdUndefined { op: Op, id: Word },
    /// `need` without the capability it requires.
    Capability {
        need: Need,
        capability: spirv::Capability,
    },
    /// Coherent or Volatile, which the Vulkan memory model forbids.
    CoherentOrVolatile,
    /// A block without instructions.
    EmptyBlock,
    /// A block whose last instruction `op` is no terminator.
    NoTerminator { op: Op },
    /// OpSwitch not in a header block.
    SwitchWithoutMerge,
    /// A Function-storage variable after the first block.
    VariableOutsideFirstBlock,
    /// `op` with memory semantics `bits` breaks `rule`.
    Semantics {
        op: Op,
        bits: u32,
        rule: SemanticsRule,
    },
    /// Global variable `id` missing from the entry point's interface.
    Interface { id: Word },
}

/// What needs a capability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    Int64Type,
    Int64Atomic,
    DeviceScope,
    SubgroupId,
}

/// The Vulkan rules on memory semantics ([`memory_semantics`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SemanticsRule {
    SeveralOrderings,
    OrderingWithoutStorageClass,
    AvailableWithoutRelease,
    VisibleWithoutAcquire,
    LoadReleases,
    StoreAcquires,
    BarrierWithoutOrdering,
    UnequalReleases,
    UnequalStronger,
}

impl fmt::Display for Need {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Need::Int64Type => "a 64-bit integer type",
            Need::Int64Atomic => "a 64-bit atomic",
            Need::DeviceScope => "Device scope",
            Need::SubgroupId => "the SubgroupId built-in",
        })
    }
}

impl fmt::Display for SemanticsRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SemanticsRule::SeveralOrderings => "more than one ordering",
            SemanticsRule::OrderingWithoutStorageClass => "an ordering without a storage class",
            SemanticsRule::AvailableWithoutRelease => "MakeAvailable without release",
            SemanticsRule::VisibleWithoutAcquire => "MakeVisible without acquire",
            SemanticsRule::LoadReleases => "a load cannot release",
            SemanticsRule::StoreAcquires => "a store cannot acquire",
            SemanticsRule::BarrierWithoutOrdering => "a memory barrier without an ordering",
            SemanticsRule::UnequalReleases => "the unequal semantics release",
            SemanticsRule::UnequalStronger => {
                "the unequal semantics are stronger than the equal ones"
            }
        })
    }
}

impl fmt::Display for SpirvRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpirvRule::Builder(e) => write!(f, "the builder refused an instruction: {e}"),
            SpirvRule::Unparsable(e) => write!(f, "does not parse: {e}"),
            SpirvRule::Version { major, minor } => {
                write!(
                    f,
                    "SPIR-V {major}.{minor}: the Vulkan memory model needs 1.5"
                )
            }
            SpirvRule::MemoryModel => f.write_str("the memory model is not `Logical Vulkan`"),
            SpirvRule::IdOutOfBound { id, bound } => {
                write!(f, "id %{id} outside the bound {bound}")
            }
            SpirvRule::IdDefinedTwice { id } => write!(f, "id %{id} defined twice"),
            SpirvRule::IdUndefined { op, id } => {
                write!(f, "{op:?} uses %{id}, which is never defined")
            }
            SpirvRule::Capability { need, capability } => {
                write!(f, "{need} without the {capability:?} capability")
            }
            SpirvRule::CoherentOrVolatile => {
                f.write_str("Coherent or Volatile under the Vulkan memory model")
            }
            SpirvRule::EmptyBlock => f.write_str("an empty block"),
            SpirvRule::NoTerminator { op } => {
                write!(f, "a block ends with {op:?}, not a terminator")
            }
            SpirvRule::SwitchWithoutMerge => f.write_str("OpSwitch without OpSelectionMerge"),
            SpirvRule::VariableOutsideFirstBlock => {
                f.write_str("a Function variable outside the first block")
            }
            SpirvRule::Semantics { op, bits, rule } => {
                write!(f, "{op:?} with semantics {bits:#x}: {rule}")
            }
            SpirvRule::Interface { id } => write!(
                f,
                "global variable %{id} missing from the entry point's interface"
            ),
        }
    }
}

impl std::error::Error for SpirvRule {}

/// The first rule the module breaks.
pub fn check(words: &[u32]) -> Result<(), SpirvRule> {
    let module = rspirv::dr::load_words(words).map_err(|e| SpirvRule::Unparsable(e.to_string()))?;
    header(&module)?;
    ids(&module)?;
    let constants = constants(&module);
    capabilities(&module, &constants)?;
    for f in &module.functions {
        for (k, block) in f.blocks.iter().enumerate() {
            structured(block)?;
            for inst in &block.instructions {
                if inst.class.opcode == Op::Variable && k > 0 {
                    return Err(SpirvRule::VariableOutsideFirstBlock);
                }
                memory_semantics(inst, &constants)?;
            }
        }
    }
    interface(&module)
}

fn header(m: &Module) -> Result<(), SpirvRule> {
    let version = m.header.as_ref().map(|h| h.version()).unwrap_or((0, 0));
    if version < (1, 5) {
        return Err(SpirvRule::Version {
            major: version.0,
            minor: version.1,
        });
    }
    match m.memory_model.as_ref().map(|i| &i.operands[..]) {
        Some(
            [Operand::AddressingModel(spirv::AddressingModel::Logical), Operand::MemoryModel(spirv::MemoryModel::Vulkan)],
        ) => Ok(()),
        _ => Err(SpirvRule::MemoryModel),
    }
}

/// Every result id is below the bound and defined once; every id used is defined.
fn ids(m: &Module) -> Result<(), SpirvRule> {
    let bound = m.header.as_ref().map_or(0, |h| h.bound);
    let mut defined = HashSet::new();
    for inst in m.all_inst_iter() {
        if let Some(id) = inst.result_id {
            if id == 0 || id >= bound {
                return Err(SpirvRule::IdOutOfBound { id, bound });
            }
            if !defined.insert(id) {
                return Err(SpirvRule::IdDefinedTwice { id });
            }
        }
    }
    for f in &m.functions {
        for b in &f.blocks {
            if let Some(l) = b.label.as_ref().and_then(|l| l.result_id) {
                defined.insert(l);
            }
        }
    }
    for inst in m.all_inst_iter() {
        let used = inst.operands.iter().filter_map(|o| match o {
            Operand::IdRef(id) | Operand::IdScope(id) | Operand::IdMemorySemantics(id) => Some(*id),
            _ => None,
        });
        for id in used.chain(inst.result_type) {
            if !defined.contains(&id) {
                return Err(SpirvRule::IdUndefined {
                    op: inst.class.opcode,
                    id,
                });
            }
        }
    }
    Ok(())
}

/// The u32 values of the module's integer constants.
fn constants(m: &Module) -> HashMap<Word, u64> {
    m.types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::Constant)
        .filter_map(|i| {
            let v = match i.operands.first()? {
                Operand::LiteralBit32(v) => u64::from(*v),
                Operand::LiteralBit64(v) => *v,
                _ => return None,
            };
            Some((i.result_id?, v))
        })
        .collect()
}

fn declared(m: &Module, cap: spirv::Capability) -> bool {
    m.capabilities
        .iter()
        .any(|i| i.operands.first() == Some(&Operand::Capability(cap)))
}

/// 64-bit integers need Int64 (and Int64Atomics for atomics on them); Device scope needs
/// VulkanMemoryModelDeviceScope; SubgroupId needs GroupNonUniform.
fn capabilities(m: &Module, constants: &HashMap<Word, u64>) -> Result<(), SpirvRule> {
    let need = |capability, need| {
        if declared(m, capability) {
            Ok(())
        } else {
            Err(SpirvRule::Capability { need, capability })
        }
    };
    let int64: HashSet<Word> = m
        .types_global_values
        .iter()
        .filter(|i| {
            i.class.opcode == Op::TypeInt && i.operands.first() == Some(&Operand::LiteralBit32(64))
        })
        .filter_map(|i| i.result_id)
        .collect();
    if !int64.is_empty() {
        need(spirv::Capability::Int64, Need::Int64Type)?;
    }
    for inst in m.all_inst_iter() {
        let atomic = matches!(
            inst.class.opcode,
            Op::AtomicLoad
                | Op::AtomicStore
                | Op::AtomicExchange
                | Op::AtomicCompareExchange
                | Op::AtomicIAdd
                | Op::AtomicISub
                | Op::AtomicAnd
                | Op::AtomicOr
                | Op::AtomicXor
        );
        if atomic && inst.result_type.is_some_and(|t| int64.contains(&t)) {
            need(spirv::Capability::Int64Atomics, Need::Int64Atomic)?;
        }
        for o in &inst.operands {
            if let Operand::IdScope(id) = o {
                if constants.get(id) == Some(&(spirv::Scope::Device as u64)) {
                    need(
                        spirv::Capability::VulkanMemoryModelDeviceScope,
                        Need::DeviceScope,
                    )?;
                }
            }
        }
        if inst.operands.first() == Some(&Operand::BuiltIn(spirv::BuiltIn::SubgroupId)) {
            need(spirv::Capability::GroupNonUniform, Need::SubgroupId)?;
        }
        if inst.class.opcode == Op::Decorate
            && matches!(
                inst.operands.get(1),
                Some(Operand::Decoration(
                    spirv::Decoration::Coherent | spirv::Decoration::Volatile
                ))
            )
        {
            return Err(SpirvRule::CoherentOrVolatile);
        }
    }
    Ok(())
}

/// Branches that choose (conditional branch, switch) end a header block: one with a
/// selection or loop merge just before.
fn structured(block: &rspirv::dr::Block) -> Result<(), SpirvRule> {
    let n = block.instructions.len();
    let last = block.instructions.last().ok_or(SpirvRule::EmptyBlock)?;
    let terminator = matches!(
        last.class.opcode,
        Op::Branch
            | Op::BranchConditional
            | Op::Switch
            | Op::Return
            | Op::ReturnValue
            | Op::Unreachable
            | Op::Kill
    );
    if !terminator {
        return Err(SpirvRule::NoTerminator {
            op: last.class.opcode,
        });
    }
    if matches!(last.class.opcode, Op::BranchConditional | Op::Switch) {
        let header = n >= 2
            && matches!(
                block.instructions[n - 2].class.opcode,
                Op::SelectionMerge | Op::LoopMerge
            );
        // A loop's break or continue branch (no merge) is allowed in its body; the
        // generator only emits those as the last block of a loop body, which has the
        // merge and continue targets of the enclosing loop as its two targets.
        if !header && last.class.opcode == Op::Switch {
            return Err(SpirvRule::SwitchWithoutMerge);
        }
    }
    Ok(())
}

fn semantics_of(inst: &Instruction, k: usize, constants: &HashMap<Word, u64>) -> Option<u32> {
    let ids: Vec<Word> = inst
        .operands
        .iter()
        .filter_map(|o| match o {
            Operand::IdMemorySemantics(id) => Some(*id),
            _ => None,
        })
        .collect();
    ids.get(k)
        .and_then(|id| constants.get(id))
        .map(|&v| v as u32)
}

/// The Vulkan rules on memory semantics: at most one ordering; an ordering names a
/// storage class; MakeAvailable needs release, MakeVisible acquire; loads do not release,
/// stores do not acquire; a failed compare-exchange neither releases nor is stronger than
/// success.
fn memory_semantics(inst: &Instruction, constants: &HashMap<Word, u64>) -> Result<(), SpirvRule> {
    use spirv::MemorySemantics as S;
    let op = inst.class.opcode;
    let Some(bits) = semantics_of(inst, 0, constants) else {
        return Ok(());
    };
    let s = S::from_bits_truncate(bits);
    let orders = [
        S::ACQUIRE,
        S::RELEASE,
        S::ACQUIRE_RELEASE,
        S::SEQUENTIALLY_CONSISTENT,
    ];
    let n_orders = orders.iter().filter(|o| s.contains(**o)).count();
    let acquire = s.intersects(S::ACQUIRE | S::ACQUIRE_RELEASE);
    let release = s.intersects(S::RELEASE | S::ACQUIRE_RELEASE);
    let storage = s.intersects(S::UNIFORM_MEMORY | S::WORKGROUP_MEMORY | S::IMAGE_MEMORY);
    let fail = |rule| Err(SpirvRule::Semantics { op, bits, rule });
    if n_orders > 1 {
        return fail(SemanticsRule::SeveralOrderings);
    }
    if n_orders == 1 && !storage {
        return fail(SemanticsRule::OrderingWithoutStorageClass);
    }
    if s.contains(S::MAKE_AVAILABLE) && !release {
        return fail(SemanticsRule::AvailableWithoutRelease);
    }
    if s.contains(S::MAKE_VISIBLE) && !acquire {
        return fail(SemanticsRule::VisibleWithoutAcquire);
    }
    if op == Op::AtomicLoad && release {
        return fail(SemanticsRule::LoadReleases);
    }
    if op == Op::AtomicStore && acquire {
        return fail(SemanticsRule::StoreAcquires);
    }
    if op == Op::MemoryBarrier && n_orders == 0 {
        return fail(SemanticsRule::BarrierWithoutOrdering);
    }
    if op == Op::AtomicCompareExchange {
        let unequal = S::from_bits_truncate(semantics_of(inst, 1, constants).unwrap_or(0));
        if unequal.intersects(S::RELEASE | S::ACQUIRE_RELEASE | S::MAKE_AVAILABLE) {
            return fail(SemanticsRule::UnequalReleases);
        }
        if unequal.intersects(S::ACQUIRE) && !acquire {
            return fail(SemanticsRule::UnequalStronger);
        }
    }
    Ok(())
}

/// From SPIR-V 1.4 the entry point lists every global variable it uses.
fn interface(m: &Module) -> Result<(), SpirvRule> {
    let listed: HashSet<Word> = m
        .entry_points
        .iter()
        .flat_map(|e| e.operands.iter().skip(3))
        .filter_map(|o| match o {
            Operand::IdRef(id) => Some(*id),
            _ => None,
        })
        .collect();
    for v in &m.types_global_values {
        if v.class.opcode == Op::Variable && !listed.contains(&v.result_id.unwrap_or(0)) {
            return Err(SpirvRule::Interface {
                id: v.result_id.unwrap_or(0),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{Plan, Width};
    use crate::spirv::ShaderConfig;
    use rspirv::binary::Assemble;

    /// A message passing test with device-scope atomics: its module passes every rule.
    const MP: &str = "VULKAN MP\n{ x = 0; y = 0; }\nP0@sg 0, wg 0, qf 0 | P1@sg 0, wg 1, qf 0 ;\n\
        st.av.dv.sc0 x, 1 | ld.atom.acq.dv.sc0.semsc0.semvis r0, y ;\n\
        st.atom.rel.dv.sc0.semsc0.semav y, 1 | ld.vis.dv.sc0 r1, x ;\n\
        exists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

    fn module() -> Module {
        let program = vkherd_dialects::vulkan::lower_litmus(
            &vkherd_dialects::vulkan::parse_litmus(MP).unwrap(),
        )
        .unwrap();
        let plan = Plan::new(&program).unwrap();
        let cfg = ShaderConfig {
            workgroup_size: 64,
            unroll: 2,
            width: Width::W32,
            pieces_per_workgroup: 4,
        };
        let words = crate::spirv::generate(&program, &plan, &cfg).unwrap();
        rspirv::dr::load_words(words).unwrap()
    }

    /// The rule `m` breaks, once changed by `change`.
    fn broken(change: impl FnOnce(&mut Module)) -> SpirvRule {
        let mut m = module();
        change(&mut m);
        check(&m.assemble()).unwrap_err()
    }

    #[test]
    fn garbage_is_refused() {
        let e = check(&[0x0723_0203, 0x0001_0500, 0, 10, 0, 99]).unwrap_err();
        assert!(matches!(e, SpirvRule::Unparsable(_)), "{e:?}");
        assert!(e.to_string().starts_with("does not parse: "), "{e}");
    }

    /// A generated module, broken one rule at a time: each is its kind, worded.
    #[test]
    fn each_broken_rule_is_its_kind() {
        assert_eq!(check(&module().assemble()), Ok(()));

        let e = broken(|m| m.header.as_mut().unwrap().set_version(1, 3));
        assert_eq!(e, SpirvRule::Version { major: 1, minor: 3 });
        assert_eq!(
            e.to_string(),
            "SPIR-V 1.3: the Vulkan memory model needs 1.5"
        );

        let e = broken(|m| {
            m.memory_model.as_mut().unwrap().operands[1] =
                Operand::MemoryModel(spirv::MemoryModel::GLSL450)
        });
        assert_eq!(e, SpirvRule::MemoryModel);

        let e = broken(|m| {
            let h = m.header.as_mut().unwrap();
            h.bound -= 1;
        });
        assert!(matches!(e, SpirvRule::IdOutOfBound { .. }), "{e:?}");

        let e = broken(|m| {
            let twice = m.types_global_values[0].clone();
            m.types_global_values.push(twice);
        });
        assert!(matches!(e, SpirvRule::IdDefinedTwice { .. }), "{e:?}");
        assert!(e.to_string().ends_with("defined twice"), "{e}");

        let e = broken(|m| {
            m.capabilities.retain(|c| {
                c.operands[0]
                    != Operand::Capability(spirv::Capability::VulkanMemoryModelDeviceScope)
            })
        });
        assert_eq!(
            e,
            SpirvRule::Capability {
                need: Need::DeviceScope,
                capability: spirv::Capability::VulkanMemoryModelDeviceScope
            }
        );
        assert_eq!(
            e.to_string(),
            "Device scope without the VulkanMemoryModelDeviceScope capability"
        );

        let e = broken(|m| m.entry_points[0].operands.truncate(3));
        assert!(matches!(e, SpirvRule::Interface { .. }), "{e:?}");
        assert!(
            e.to_string()
                .ends_with("missing from the entry point's interface"),
            "{e}"
        );
    }

    /// The block rules, on blocks made by hand (rspirv refuses to load a module with a
    /// block that does not end in a terminator).
    #[test]
    fn each_block_rule_is_its_kind() {
        let block = |ops: &[Op]| rspirv::dr::Block {
            label: None,
            instructions: ops
                .iter()
                .map(|&op| Instruction::new(op, None, None, vec![]))
                .collect(),
        };
        assert_eq!(structured(&block(&[])), Err(SpirvRule::EmptyBlock));
        let e = structured(&block(&[Op::Nop])).unwrap_err();
        assert_eq!(e, SpirvRule::NoTerminator { op: Op::Nop });
        assert_eq!(e.to_string(), "a block ends with Nop, not a terminator");
        assert_eq!(
            structured(&block(&[Op::Nop, Op::Switch])),
            Err(SpirvRule::SwitchWithoutMerge)
        );
        assert_eq!(
            structured(&block(&[Op::SelectionMerge, Op::Switch])),
            Ok(())
        );
    }

    /// Each semantics rule, on one instruction whose semantics are the constant %5.
    #[test]
    fn each_semantics_rule_is_its_kind() {
        use spirv::MemorySemantics as S;
        let uniform = S::UNIFORM_MEMORY.bits();
        let at = |op, equal: S, unequal: Option<S>| {
            let mut operands = vec![Operand::IdRef(3), Operand::IdScope(4)];
            operands.push(Operand::IdMemorySemantics(5));
            let mut constants = HashMap::from([(5, u64::from(equal.bits()))]);
            if let Some(u) = unequal {
                operands.push(Operand::IdMemorySemantics(6));
                constants.insert(6, u64::from(u.bits()));
            }
            let inst = Instruction::new(op, Some(1), Some(2), operands);
            match memory_semantics(&inst, &constants) {
                Err(SpirvRule::Semantics { rule, .. }) => Some(rule),
                Err(e) => panic!("{e}"),
                Ok(()) => None,
            }
        };
        let u = S::from_bits_truncate(uniform);
        let cases = [
            (
                Op::AtomicLoad,
                S::ACQUIRE | S::RELEASE | u,
                None,
                SemanticsRule::SeveralOrderings,
            ),
            (
                Op::AtomicLoad,
                S::ACQUIRE,
                None,
                SemanticsRule::OrderingWithoutStorageClass,
            ),
            (
                Op::AtomicStore,
                S::MAKE_AVAILABLE | u,
                None,
                SemanticsRule::AvailableWithoutRelease,
            ),
            (
                Op::AtomicLoad,
                S::MAKE_VISIBLE | u,
                None,
                SemanticsRule::VisibleWithoutAcquire,
            ),
            (
                Op::AtomicLoad,
                S::RELEASE | u,
                None,
                SemanticsRule::LoadReleases,
            ),
            (
                Op::AtomicStore,
                S::ACQUIRE | u,
                None,
                SemanticsRule::StoreAcquires,
            ),
            (
                Op::MemoryBarrier,
                u,
                None,
                SemanticsRule::BarrierWithoutOrdering,
            ),
            (
                Op::AtomicCompareExchange,
                S::ACQUIRE_RELEASE | u,
                Some(S::RELEASE | u),
                SemanticsRule::UnequalReleases,
            ),
            (
                Op::AtomicCompareExchange,
                S::RELEASE | u,
                Some(S::ACQUIRE | u),
                SemanticsRule::UnequalStronger,
            ),
        ];
        for (op, equal, unequal, rule) in cases {
            assert_eq!(at(op, equal, unequal), Some(rule), "{op:?} {equal:?}");
        }
        assert_eq!(at(Op::AtomicLoad, S::ACQUIRE | u, None), None);
        let e = SpirvRule::Semantics {
            op: Op::AtomicLoad,
            bits: 0x44,
            rule: SemanticsRule::LoadReleases,
        };
        assert_eq!(
            e.to_string(),
            "AtomicLoad with semantics 0x44: a load cannot release"
        );
    }
}
