//! Checks every generated module against the `spirv-val` rules the generator could break
//! (a driver given an invalid module may do anything, so no module reaches a device
//! unchecked). The project's tests also run Debian's `spirv-val` on every corpus module
//! when it is installed (tests/spirv_val.rs).

use rspirv::dr::{Instruction, Module, Operand};
use rspirv::spirv::{self, Op, Word};
use std::collections::{HashMap, HashSet};

/// The first rule the module breaks, in words.
pub fn check(words: &[u32]) -> Result<(), String> {
    let module = rspirv::dr::load_words(words).map_err(|e| format!("does not parse: {e}"))?;
    header(&module)?;
    ids(&module)?;
    let constants = constants(&module);
    capabilities(&module, &constants)?;
    for f in &module.functions {
        for (k, block) in f.blocks.iter().enumerate() {
            structured(block)?;
            for inst in &block.instructions {
                if inst.class.opcode == Op::Variable && k > 0 {
                    return Err("a Function variable outside the first block".into());
                }
                memory_semantics(inst, &constants)?;
            }
        }
    }
    interface(&module)
}

fn header(m: &Module) -> Result<(), String> {
    let version = m.header.as_ref().map(|h| h.version()).unwrap_or((0, 0));
    if version < (1, 5) {
        return Err(format!(
            "SPIR-V {}.{}: the Vulkan memory model needs 1.5",
            version.0, version.1
        ));
    }
    match m.memory_model.as_ref().map(|i| &i.operands[..]) {
        Some(
            [Operand::AddressingModel(spirv::AddressingModel::Logical), Operand::MemoryModel(spirv::MemoryModel::Vulkan)],
        ) => Ok(()),
        _ => Err("the memory model is not `Logical Vulkan`".into()),
    }
}

/// Every result id is below the bound and defined once; every id used is defined.
fn ids(m: &Module) -> Result<(), String> {
    let bound = m.header.as_ref().map_or(0, |h| h.bound);
    let mut defined = HashSet::new();
    for inst in m.all_inst_iter() {
        if let Some(id) = inst.result_id {
            if id == 0 || id >= bound {
                return Err(format!("id %{id} outside the bound {bound}"));
            }
            if !defined.insert(id) {
                return Err(format!("id %{id} defined twice"));
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
                return Err(format!(
                    "{:?} uses %{id}, which is never defined",
                    inst.class.opcode
                ));
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
fn capabilities(m: &Module, constants: &HashMap<Word, u64>) -> Result<(), String> {
    let need = |cap, why: &str| {
        if declared(m, cap) {
            Ok(())
        } else {
            Err(format!("{why} without the {cap:?} capability"))
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
        need(spirv::Capability::Int64, "a 64-bit integer type")?;
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
            need(spirv::Capability::Int64Atomics, "a 64-bit atomic")?;
        }
        for o in &inst.operands {
            if let Operand::IdScope(id) = o {
                if constants.get(id) == Some(&(spirv::Scope::Device as u64)) {
                    need(
                        spirv::Capability::VulkanMemoryModelDeviceScope,
                        "Device scope",
                    )?;
                }
            }
        }
        if inst.operands.first() == Some(&Operand::BuiltIn(spirv::BuiltIn::SubgroupId)) {
            need(
                spirv::Capability::GroupNonUniform,
                "the SubgroupId built-in",
            )?;
        }
        if inst.class.opcode == Op::Decorate
            && matches!(
                inst.operands.get(1),
                Some(Operand::Decoration(
                    spirv::Decoration::Coherent | spirv::Decoration::Volatile
                ))
            )
        {
            return Err("Coherent or Volatile under the Vulkan memory model".into());
        }
    }
    Ok(())
}

/// Branches that choose (conditional branch, switch) end a header block: one with a
/// selection or loop merge just before.
fn structured(block: &rspirv::dr::Block) -> Result<(), String> {
    let n = block.instructions.len();
    let last = block.instructions.last().ok_or("an empty block")?;
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
        return Err(format!(
            "a block ends with {:?}, not a terminator",
            last.class.opcode
        ));
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
            return Err("OpSwitch without OpSelectionMerge".into());
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
fn memory_semantics(inst: &Instruction, constants: &HashMap<Word, u64>) -> Result<(), String> {
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
    let fail = |why: &str| Err(format!("{op:?} with semantics {bits:#x}: {why}"));
    if n_orders > 1 {
        return fail("more than one ordering");
    }
    if n_orders == 1 && !storage {
        return fail("an ordering without a storage class");
    }
    if s.contains(S::MAKE_AVAILABLE) && !release {
        return fail("MakeAvailable without release");
    }
    if s.contains(S::MAKE_VISIBLE) && !acquire {
        return fail("MakeVisible without acquire");
    }
    if op == Op::AtomicLoad && release {
        return fail("a load cannot release");
    }
    if op == Op::AtomicStore && acquire {
        return fail("a store cannot acquire");
    }
    if op == Op::MemoryBarrier && n_orders == 0 {
        return fail("a memory barrier without an ordering");
    }
    if op == Op::AtomicCompareExchange {
        let unequal = S::from_bits_truncate(semantics_of(inst, 1, constants).unwrap_or(0));
        if unequal.intersects(S::RELEASE | S::ACQUIRE_RELEASE | S::MAKE_AVAILABLE) {
            return fail("the unequal semantics release");
        }
        if unequal.intersects(S::ACQUIRE) && !acquire {
            return fail("the unequal semantics are stronger than the equal ones");
        }
    }
    Ok(())
}

/// From SPIR-V 1.4 the entry point lists every global variable it uses.
fn interface(m: &Module) -> Result<(), String> {
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
            return Err(format!(
                "global variable %{} missing from the entry point's interface",
                v.result_id.unwrap_or(0)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_refused() {
        assert!(check(&[0x0723_0203, 0x0001_0500, 0, 10, 0, 99]).is_err());
    }
}
