//! The whole compute shader: every invocation reads its role (test thread of an instance,
//! stress, idle), stress invocations hammer scratch memory, test threads line up with the
//! other threads of their instance, run their code phase by phase (phases end at the
//! test's control barriers, which every invocation of a device workgroup reaches in
//! uniform control flow), and write their registers and status for the host.
//!
//! A thread without jumps runs straight through. A thread with jumps runs as a loop over a
//! program counter with a switch (SPIR-V for Vulkan needs structured control flow), for at
//! most `MaxSteps` instructions, counting how often each backward jump is taken so that
//! the host can tell runs within the `--unroll` bound from runs beyond it.

use super::builder::{Gen, Res};
use crate::bindings::{self, Binding, Param};
use crate::plan::{Plan, Storage, Width};
use rspirv::dr::{Builder, Operand};
use rspirv::spirv::{self, Word};
use vkherd_litmus::Operand as LitOperand;
use vkherd_model::{AccessKind, Instruction, Program};

/// What the shader is built for besides the test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShaderConfig {
    /// Invocations per device workgroup.
    pub workgroup_size: u32,
    /// A backward jump taken more often than this marks the run beyond the bound.
    pub unroll: u32,
    pub width: Width,
    /// Device workgroups' test pieces, for sizing Workgroup memory.
    pub pieces_per_workgroup: u32,
}

/// Global variables and values every part of the shader reads.
struct Globals {
    vars: Vec<Word>,
    /// Role word 0 and 1, thread, instance, subgroup id.
    role: Word,
    /// The invocation's index in the dispatch.
    gid: Word,
    group_word: Word,
    thread: Word,
    instance: Word,
    subgroup_id: Word,
    is_test: Word,
    /// Per register number, its Function variable.
    regs: std::collections::BTreeMap<u32, Word>,
    /// Per buffer location slot, a Function variable with its word index.
    addr: Vec<Word>,
    /// Per thread: status bits (u32 Function variable).
    status: Word,
    gave_up: Word,
    shared: Option<Word>,
}

/// Generates the module's words.
pub fn generate(program: &Program, plan: &Plan, cfg: &ShaderConfig) -> Res<Vec<u32>> {
    let mut b = Builder::new();
    b.set_version(1, 5);
    b.capability(spirv::Capability::Shader);
    b.capability(spirv::Capability::VulkanMemoryModel);
    b.capability(spirv::Capability::GroupNonUniform);
    if plan.needs.device_scope {
        b.capability(spirv::Capability::VulkanMemoryModelDeviceScope);
    }
    if cfg.width == Width::W64 {
        b.capability(spirv::Capability::Int64);
        b.capability(spirv::Capability::Int64Atomics);
    }
    b.memory_model(spirv::AddressingModel::Logical, spirv::MemoryModel::Vulkan);
    let mut g = Gen::new(b, cfg.width.bits());
    let (vars, builtins) = declare_globals(&mut g, plan, cfg);
    let fn_ty = g.b.type_function(g.t.void, []);
    let main =
        g.b.begin_function(g.t.void, None, spirv::FunctionControl::NONE, fn_ty)?;
    g.b.begin_block(None)?;
    let mut globals = read_role(&mut g, program, plan, vars, &builtins)?;
    stress(&mut g, &globals)?;
    let is_test = globals.is_test;
    g.if_then(is_test, &mut |g| {
        load_addresses(g, program, plan, &globals)?;
        init_registers(g, program, plan, &globals)?;
        line_up(g, program, &globals)
    })?;
    if plan.needs.workgroup_memory {
        workgroup_init(&mut g, program, plan, &globals)?;
    }
    for phase in 0..plan.phases() {
        g.if_then(is_test, &mut |g| {
            let threads: Vec<u32> = (0..program.threads.len() as u32).collect();
            g.switch(globals.thread, &threads, &mut |g, t| {
                thread_phase(g, program, plan, cfg, &globals, t as usize, phase)
            })
        })?;
        phase_barrier(&mut g, plan, &globals, phase)?;
    }
    if plan.needs.workgroup_memory {
        workgroup_copy_out(&mut g, program, plan, &globals)?;
    }
    g.if_then(is_test, &mut |g| write_results(g, program, plan, &globals))?;
    g.b.ret()?;
    g.b.end_function()?;
    globals.vars.extend(builtins);
    g.b.entry_point(
        spirv::ExecutionModel::GLCompute,
        main,
        "main",
        &globals.vars,
    );
    g.b.execution_mode(
        main,
        spirv::ExecutionMode::LocalSize,
        [cfg.workgroup_size, 1, 1],
    );
    Ok(rspirv::binary::Assemble::assemble(&g.b.module()))
}

/// Declares the storage buffers (one struct of a runtime array each), the Workgroup
/// array and the built-ins; returns the buffer variables (by [`Binding`]) and the
/// built-ins (global invocation id, subgroup id).
fn declare_globals(g: &mut Gen, plan: &Plan, cfg: &ShaderConfig) -> (Vec<Word>, Vec<Word>) {
    let int_array = g.b.type_runtime_array(g.t.int);
    g.b.decorate(
        int_array,
        spirv::Decoration::ArrayStride,
        [Operand::LiteralBit32(cfg.width.bytes() as u32)],
    );
    let u32_array = g.b.type_runtime_array(g.t.u32);
    g.b.decorate(
        u32_array,
        spirv::Decoration::ArrayStride,
        [Operand::LiteralBit32(4)],
    );
    let block_of = |g: &mut Gen, array: Word| {
        let s = g.b.type_struct([array]);
        g.b.decorate(s, spirv::Decoration::Block, []);
        g.b.member_decorate(s, 0, spirv::Decoration::Offset, [Operand::LiteralBit32(0)]);
        g.b.type_pointer(None, spirv::StorageClass::StorageBuffer, s)
    };
    let int_block = block_of(g, int_array);
    let u32_block = block_of(g, u32_array);
    let mut vars = Vec::new();
    for binding in bindings::BINDINGS {
        let ty = match binding {
            Binding::Mem | Binding::MemAlias | Binding::Out | Binding::WorkgroupOut => int_block,
            _ => u32_block,
        };
        let v =
            g.b.variable(ty, None, spirv::StorageClass::StorageBuffer, None);
        g.b.decorate(
            v,
            spirv::Decoration::DescriptorSet,
            [Operand::LiteralBit32(0)],
        );
        g.b.decorate(
            v,
            spirv::Decoration::Binding,
            [Operand::LiteralBit32(binding as u32)],
        );
        if plan.needs.aliases && matches!(binding, Binding::Mem | Binding::MemAlias) {
            // Two bindings of one buffer: the compiler must not assume they differ.
            g.b.decorate(v, spirv::Decoration::Aliased, []);
        }
        vars.push(v);
    }
    let global_id =
        g.b.variable(g.t.ptr_in_v3u32, None, spirv::StorageClass::Input, None);
    g.b.decorate(
        global_id,
        spirv::Decoration::BuiltIn,
        [Operand::BuiltIn(spirv::BuiltIn::GlobalInvocationId)],
    );
    let subgroup_id =
        g.b.variable(g.t.ptr_in_u32, None, spirv::StorageClass::Input, None);
    g.b.decorate(
        subgroup_id,
        spirv::Decoration::BuiltIn,
        [Operand::BuiltIn(spirv::BuiltIn::SubgroupId)],
    );
    let mut builtins = vec![global_id, subgroup_id];
    let shared_len = cfg.pieces_per_workgroup * plan.max_workgroup_locations() as u32;
    if plan.needs.workgroup_memory && shared_len > 0 {
        let len = g.u32(shared_len);
        let array = g.b.type_array(g.t.int, len);
        let ptr =
            g.b.type_pointer(None, spirv::StorageClass::Workgroup, array);
        let shared =
            g.b.variable(ptr, None, spirv::StorageClass::Workgroup, None);
        builtins.push(shared);
    }
    (vars, builtins)
}

/// A pointer to element `index` of the buffer at `binding`.
fn element(g: &mut Gen, globals: &Globals, binding: Binding, index: Word) -> Res<Word> {
    let ty = match binding {
        Binding::Mem | Binding::MemAlias | Binding::Out | Binding::WorkgroupOut => g.t.ptr_sb_int,
        _ => g.t.ptr_sb_u32,
    };
    let zero = g.u32(0);
    g.b.access_chain(ty, None, globals.vars[binding as usize], [zero, index])
}

/// Loads u32 element `index` of a u32 buffer.
fn load_u32(g: &mut Gen, globals: &Globals, binding: Binding, index: Word) -> Res<Word> {
    let p = element(g, globals, binding, index)?;
    g.b.load(g.t.u32, None, p, None, [])
}

fn param(g: &mut Gen, globals: &Globals, p: Param) -> Res<Word> {
    let i = g.u32(p as u32);
    load_u32(g, globals, Binding::Params, i)
}

/// `a * k + c` in u32.
fn affine(g: &mut Gen, a: Word, k: u32, c: Word) -> Res<Word> {
    let u32 = g.t.u32;
    let k = g.u32(k);
    let m = g.b.i_mul(u32, None, a, k)?;
    g.b.i_add(u32, None, m, c)
}

fn read_role(
    g: &mut Gen,
    program: &Program,
    plan: &Plan,
    vars: Vec<Word>,
    builtins: &[Word],
) -> Res<Globals> {
    let (u32, bool) = (g.t.u32, g.t.bool);
    let (ptr_fn_int, ptr_fn_u32) = (g.t.ptr_fn_int, g.t.ptr_fn_u32);
    let id3 = g.b.load(g.t.v3u32, None, builtins[0], None, [])?;
    let gid = g.b.composite_extract(u32, None, id3, [0])?;
    let subgroup_id = g.b.load(u32, None, builtins[1], None, [])?;
    let mut globals = Globals {
        vars,
        role: 0,
        gid,
        group_word: 0,
        thread: 0,
        instance: 0,
        subgroup_id,
        is_test: 0,
        regs: Default::default(),
        addr: Vec::new(),
        status: 0,
        gave_up: 0,
        shared: builtins.get(2).copied(),
    };
    let zero = g.u32(0);
    let one = g.u32(1);
    let w0 = affine(g, gid, 2, zero)?;
    let w1 = affine(g, gid, 2, one)?;
    globals.role = load_u32(g, &globals, Binding::Roles, w0)?;
    globals.group_word = load_u32(g, &globals, Binding::Roles, w1)?;
    let test_base = g.u32(bindings::ROLE_TEST);
    globals.is_test =
        g.b.u_greater_than_equal(bool, None, globals.role, test_base)?;
    // Idle and stress invocations compute a thread and instance too (unused).
    let rel = g.b.i_sub(u32, None, globals.role, test_base)?;
    let n = g.u32(program.threads.len() as u32);
    globals.thread = g.b.u_mod(u32, None, rel, n)?;
    globals.instance = g.b.u_div(u32, None, rel, n)?;
    let all_regs: std::collections::BTreeSet<u32> =
        plan.registers.iter().flatten().copied().collect();
    for r in all_regs {
        let v = g.function_variable(ptr_fn_int)?;
        globals.regs.insert(r, v);
    }
    for _ in 0..plan.buffer_locations {
        let v = g.function_variable(ptr_fn_u32)?;
        globals.addr.push(v);
    }
    globals.status = g.function_variable(ptr_fn_u32)?;
    globals.gave_up = g.function_variable(ptr_fn_u32)?;
    g.store(globals.status, zero)?;
    g.store(globals.gave_up, zero)?;
    Ok(globals)
}

/// Stress invocations: `StressIterations` read-increment-writes of scratch lines picked
/// by a cheap hash of the iteration and the invocation.
fn stress(g: &mut Gen, globals: &Globals) -> Res {
    let (u32, bool) = (g.t.u32, g.t.bool);
    let stress_role = g.u32(bindings::ROLE_STRESS);
    let is_stress = g.b.i_equal(bool, None, globals.role, stress_role)?;
    g.if_then(is_stress, &mut |g| {
        let iters = param(g, globals, Param::StressIterations)?;
        let mask = param(g, globals, Param::StressMask)?;
        let i = g.function_variable(g.t.ptr_fn_u32)?;
        let zero = g.u32(0);
        g.store(i, zero)?;
        let one = g.u32(1);
        g.while_loop(
            &mut |g| {
                let v = g.load(u32, i)?;
                g.b.u_less_than(bool, None, v, iters)
            },
            &mut |g| {
                let v = g.load(u32, i)?;
                let h = affine(g, v, 2_654_435_761, globals.gid)?;
                let line = g.b.bitwise_and(u32, None, h, mask)?;
                let word = affine(g, line, bindings::STRESS_LINE_WORDS, zero)?;
                let p = element(g, globals, Binding::Stress, word)?;
                let old = g.b.load(u32, None, p, None, [])?;
                let new = g.b.i_add(u32, None, old, one)?;
                g.b.store(p, new, None, [])?;
                Ok(None)
            },
            &mut |g| g.increment(i, one),
        )
    })
}

/// Each test thread reads the word indices of its instance's buffer locations.
fn load_addresses(g: &mut Gen, _program: &Program, plan: &Plan, globals: &Globals) -> Res {
    let base = g.u32(0);
    let per = plan.buffer_locations as u32;
    for (slot, &var) in globals.addr.iter().enumerate() {
        let k = g.u32(slot as u32);
        let start = affine(g, globals.instance, per, base)?;
        let u32 = g.t.u32;
        let idx = g.b.i_add(u32, None, start, k)?;
        let a = load_u32(g, globals, Binding::Addr, idx)?;
        g.store(var, a)?;
    }
    Ok(())
}

/// Registers start at 0, or at the thread's initial value.
fn init_registers(g: &mut Gen, program: &Program, plan: &Plan, globals: &Globals) -> Res {
    let zero = g.int(0);
    for &var in globals.regs.values() {
        g.store(var, zero)?;
    }
    let threads: Vec<u32> = (0..program.threads.len() as u32)
        .filter(|&t| !program.threads[t as usize].init_regs.is_empty())
        .collect();
    let _ = plan;
    g.switch(globals.thread, &threads, &mut |g, t| {
        for &(r, v) in &program.threads[t as usize].init_regs {
            let c = g.int(v);
            g.store(globals.regs[&r], c)?;
        }
        Ok(())
    })
}

/// The threads of an instance line up: each adds 1 to its instance's counter, then polls
/// it (relaxed atomics at QueueFamily scope, so no device feature and no synchronisation
/// in the model's sense) until every thread has arrived or `SpinBound` polls are spent.
fn line_up(g: &mut Gen, program: &Program, globals: &Globals) -> Res {
    let (u32, bool) = (g.t.u32, g.t.bool);
    let p = element(g, globals, Binding::Sync, globals.instance)?;
    let scope = g.u32(spirv::Scope::QueueFamily as u32);
    let relaxed = g.u32(0);
    let one = g.u32(1);
    g.b.atomic_i_add(u32, None, p, scope, relaxed, one)?;
    let bound = param(g, globals, Param::SpinBound)?;
    let n = g.u32(program.threads.len() as u32);
    let polls = g.function_variable(g.t.ptr_fn_u32)?;
    let zero = g.u32(0);
    g.store(polls, zero)?;
    g.while_loop(
        &mut |g| {
            let arrived = g.b.atomic_load(u32, None, p, scope, relaxed)?;
            let waiting = g.b.u_less_than(bool, None, arrived, n)?;
            let k = g.load(u32, polls)?;
            let left = g.b.u_less_than(bool, None, k, bound)?;
            g.b.logical_and(bool, None, waiting, left)
        },
        &mut |_| Ok(None),
        &mut |g| g.increment(polls, one),
    )
}

/// The index of Workgroup location `slot` of this invocation's piece.
fn shared_index(g: &mut Gen, plan: &Plan, globals: &Globals, slot: usize) -> Res<Word> {
    let u32 = g.t.u32;
    let mask = g.u32((1 << bindings::GROUP_SHIFT) - 1);
    let piece = g.b.bitwise_and(u32, None, globals.group_word, mask)?;
    let k = g.u32(slot as u32);
    affine(g, piece, plan.max_workgroup_locations() as u32, k)
}

fn shared_element(g: &mut Gen, plan: &Plan, globals: &Globals, slot: usize) -> Res<Word> {
    let idx = shared_index(g, plan, globals, slot)?;
    let ty = g.t.ptr_wg_int;
    g.b.access_chain(ty, None, globals.shared.expect("declared"), [idx])
}

/// The first thread of each test workgroup writes the initial values of its Workgroup
/// locations; a barrier (every invocation, uniform) orders them before the test.
fn workgroup_init(g: &mut Gen, program: &Program, plan: &Plan, globals: &Globals) -> Res {
    let leaders = leaders(plan);
    let is_test = globals.is_test;
    g.if_then(is_test, &mut |g| {
        g.switch(globals.thread, &leaders, &mut |g, t| {
            let group = plan.thread_group[t as usize];
            for (slot, &loc) in plan.workgroup_locations[group].iter().enumerate() {
                let p = shared_element(g, plan, globals, slot)?;
                let v = g.int(program.locations[loc].init);
                g.b.store(p, v, None, [])?;
            }
            Ok(())
        })
    })?;
    workgroup_barrier(g)
}

/// The final values of Workgroup locations, copied out after a barrier by each test
/// workgroup's first thread.
fn workgroup_copy_out(g: &mut Gen, _program: &Program, plan: &Plan, globals: &Globals) -> Res {
    workgroup_barrier(g)?;
    let leaders = leaders(plan);
    let is_test = globals.is_test;
    let width = plan.max_workgroup_locations() as u32;
    g.if_then(is_test, &mut |g| {
        g.switch(globals.thread, &leaders, &mut |g, t| {
            let group = plan.thread_group[t as usize];
            for slot in 0..plan.workgroup_locations[group].len() {
                let src = shared_element(g, plan, globals, slot)?;
                let v = g.b.load(g.t.int, None, src, None, [])?;
                let k = g.u32(slot as u32);
                let idx = affine(g, globals.instance, width, k)?;
                let dst = element(g, globals, Binding::WorkgroupOut, idx)?;
                g.b.store(dst, v, None, [])?;
            }
            Ok(())
        })
    })
}

/// The first thread of each group.
fn leaders(plan: &Plan) -> Vec<u32> {
    plan.groups
        .iter()
        .map(|gr| *gr.subgroups.iter().flatten().min().expect("non-empty") as u32)
        .collect()
}

/// A full workgroup barrier around the harness's own Workgroup accesses.
fn workgroup_barrier(g: &mut Gen) -> Res {
    let wg = g.u32(spirv::Scope::Workgroup as u32);
    let sem = g.u32(
        (spirv::MemorySemantics::ACQUIRE_RELEASE | spirv::MemorySemantics::WORKGROUP_MEMORY).bits(),
    );
    g.b.control_barrier(wg, wg, sem)
}

/// After phase `phase`, each device workgroup runs its test workgroup's barrier number
/// `phase`, if it has one. The group word is the same for every invocation of a device
/// workgroup, so each workgroup's invocations all take one branch: the barrier is in
/// uniform control flow.
fn phase_barrier(g: &mut Gen, plan: &Plan, globals: &Globals, phase: usize) -> Res {
    let groups: Vec<u32> = plan
        .groups
        .iter()
        .enumerate()
        .filter(|(_, gr)| gr.barriers.len() > phase)
        .map(|(k, _)| k as u32 + 1)
        .collect();
    if groups.is_empty() {
        return Ok(());
    }
    let u32 = g.t.u32;
    let shift = g.u32(bindings::GROUP_SHIFT);
    let group =
        g.b.shift_right_logical(u32, None, globals.group_word, shift)?;
    g.switch(group, &groups, &mut |g, k| {
        g.emit_control_barrier(plan.groups[k as usize - 1].barriers[phase])
    })
}

/// The value of an operand in the test's integer type.
fn operand(g: &mut Gen, globals: &Globals, o: &LitOperand) -> Res<Word> {
    match *o {
        LitOperand::Imm(v) => Ok(g.int(v)),
        LitOperand::Reg(r) => g.load(g.t.int, globals.regs[&r]),
    }
}

/// A pointer to the location of reference `r` of this instance.
fn location_pointer(
    g: &mut Gen,
    program: &Program,
    plan: &Plan,
    globals: &Globals,
    r: usize,
) -> Res<Word> {
    let loc = program.references[r].location;
    match plan.storage[loc] {
        Storage::Buffer { slot } => {
            let alias = program.references[r].name != program.locations[loc].name;
            let binding = if alias {
                Binding::MemAlias
            } else {
                Binding::Mem
            };
            let idx = g.load(g.t.u32, globals.addr[slot])?;
            element(g, globals, binding, idx)
        }
        Storage::Workgroup { slot, .. } => shared_element(g, plan, globals, slot),
    }
}

/// Emits the part of thread `t` in phase `phase`.
fn thread_phase(
    g: &mut Gen,
    program: &Program,
    plan: &Plan,
    cfg: &ShaderConfig,
    globals: &Globals,
    t: usize,
    phase: usize,
) -> Res {
    let code = &program.threads[t].code;
    let finished = g.u32(bindings::STATUS_FINISHED);
    if code.iter().any(|i| matches!(i, Instruction::Jump { .. })) {
        // No barriers in such a thread (the plan refuses them): all of it in phase 0.
        if phase == 0 {
            looped_thread(g, program, plan, cfg, globals, t)?;
        }
        return Ok(());
    }
    let mut barrier = 0;
    for ins in code {
        if let Instruction::Access(a) = ins {
            if a.kind == AccessKind::Cbar {
                barrier += 1;
                continue;
            }
        }
        if barrier == phase {
            instruction(g, program, plan, globals, ins)?;
        }
    }
    if phase == plan.groups[plan.thread_group[t]].barriers.len() {
        let gave_up = g.load(g.t.u32, globals.gave_up)?;
        let four = g.u32(bindings::STATUS_CAS_GAVE_UP);
        let bool = g.t.bool;
        let u32 = g.t.u32;
        let zero = g.u32(0);
        let failed = g.b.i_not_equal(bool, None, gave_up, zero)?;
        let bits = g.b.select(u32, None, failed, four, zero)?;
        let status = g.b.bitwise_or(u32, None, bits, finished)?;
        g.store(globals.status, status)?;
    }
    Ok(())
}

/// One instruction that is not a jump (jumps are handled by `looped_thread`).
fn instruction(
    g: &mut Gen,
    program: &Program,
    plan: &Plan,
    globals: &Globals,
    ins: &Instruction,
) -> Res {
    match ins {
        Instruction::Arith { op, dst, a, b, .. } => {
            let (a, b) = (operand(g, globals, a)?, operand(g, globals, b)?);
            let v = g.emit_arith(*op, a, b)?;
            g.store(globals.regs[dst], v)
        }
        Instruction::Jump { .. } => unreachable!("jumps are lowered by looped_thread"),
        Instruction::Access(a) => match a.kind {
            AccessKind::Load => {
                let p = location_pointer(g, program, plan, globals, a.reference.expect("ld"))?;
                let v = g.emit_load(a.flags, p)?;
                g.store(globals.regs[&a.dst.expect("ld")], v)
            }
            AccessKind::Store => {
                let p = location_pointer(g, program, plan, globals, a.reference.expect("st"))?;
                let v = operand(g, globals, a.value.as_ref().expect("st"))?;
                g.emit_store(a.flags, p, v)
            }
            AccessKind::Rmw => {
                let p = location_pointer(g, program, plan, globals, a.reference.expect("rmw"))?;
                let v = operand(g, globals, a.value.as_ref().expect("rmw"))?;
                let bound = param(g, globals, Param::CasBound)?;
                let old = g.emit_rmw(a.flags, a.rmw_op, p, v, bound, globals.gave_up)?;
                g.store(globals.regs[&a.dst.expect("rmw")], old)
            }
            AccessKind::Fence => g.emit_fence(a.flags),
            // Control barriers end a phase (phase_barrier); device-domain operations are
            // refused by the plan.
            AccessKind::Cbar | AccessKind::AvDevice | AccessKind::VisDevice => {
                unreachable!("handled by phases or refused")
            }
        },
    }
}

/// A thread with jumps: `pc` runs over the code, one instruction per loop iteration, for
/// at most `MaxSteps` iterations; each backward jump counts how often it was taken.
fn looped_thread(
    g: &mut Gen,
    program: &Program,
    plan: &Plan,
    cfg: &ShaderConfig,
    globals: &Globals,
    t: usize,
) -> Res {
    let code = &program.threads[t].code;
    let (u32, bool) = (g.t.u32, g.t.bool);
    let ptr_fn_u32 = g.t.ptr_fn_u32;
    let pc = g.function_variable(ptr_fn_u32)?;
    let steps = g.function_variable(ptr_fn_u32)?;
    let zero = g.u32(0);
    let one = g.u32(1);
    g.store(pc, zero)?;
    g.store(steps, zero)?;
    let mut taken = std::collections::BTreeMap::new();
    for (i, ins) in code.iter().enumerate() {
        if let Instruction::Jump { target, .. } = ins {
            if *target <= i {
                let c = g.function_variable(ptr_fn_u32)?;
                g.store(c, zero)?;
                taken.insert(i, c);
            }
        }
    }
    let len = g.u32(code.len() as u32);
    let max_steps = param(g, globals, Param::MaxSteps)?;
    let cases: Vec<u32> = (0..code.len() as u32).collect();
    g.while_loop(
        &mut |g| {
            let p = g.load(u32, pc)?;
            let running = g.b.u_less_than(bool, None, p, len)?;
            let s = g.load(u32, steps)?;
            let left = g.b.u_less_than(bool, None, s, max_steps)?;
            g.b.logical_and(bool, None, running, left)
        },
        &mut |g| {
            let p = g.load(u32, pc)?;
            g.switch(p, &cases, &mut |g, i| {
                let i = i as usize;
                let next = g.u32(i as u32 + 1);
                match &code[i] {
                    Instruction::Jump { cond, target, .. } => {
                        let to = g.u32(*target as u32);
                        let jump = match cond {
                            None => g.bool_const(true),
                            Some((op, a, b)) => {
                                let (a, b) = (operand(g, globals, a)?, operand(g, globals, b)?);
                                g.emit_compare(*op, a, b)?
                            }
                        };
                        let new_pc = g.b.select(u32, None, jump, to, next)?;
                        g.store(pc, new_pc)?;
                        if let Some(&counter) = taken.get(&i) {
                            let add = g.b.select(u32, None, jump, one, zero)?;
                            g.increment(counter, add)?;
                        }
                    }
                    ins => {
                        instruction(g, program, plan, globals, ins)?;
                        g.store(pc, next)?;
                    }
                }
                Ok(())
            })?;
            Ok(None)
        },
        &mut |g| g.increment(steps, one),
    )?;
    // Status: finished if pc left the code; beyond the bound if a counter passed it.
    let p = g.load(u32, pc)?;
    let done = g.b.u_greater_than_equal(bool, None, p, len)?;
    let fin = g.u32(bindings::STATUS_FINISHED);
    let mut status = g.b.select(u32, None, done, fin, zero)?;
    let unroll = g.u32(cfg.unroll);
    let beyond_bit = g.u32(bindings::STATUS_BEYOND_UNROLL);
    for &counter in taken.values() {
        let c = g.load(u32, counter)?;
        let beyond = g.b.u_greater_than(bool, None, c, unroll)?;
        let bit = g.b.select(u32, None, beyond, beyond_bit, zero)?;
        status = g.b.bitwise_or(u32, None, status, bit)?;
    }
    let gave_up = g.load(u32, globals.gave_up)?;
    let failed = g.b.i_not_equal(bool, None, gave_up, zero)?;
    let cas_bit = g.u32(bindings::STATUS_CAS_GAVE_UP);
    let bit = g.b.select(u32, None, failed, cas_bit, zero)?;
    status = g.b.bitwise_or(u32, None, status, bit)?;
    g.store(globals.status, status)
}

/// Each thread writes its observed registers, its status and its subgroup id.
fn write_results(g: &mut Gen, program: &Program, plan: &Plan, globals: &Globals) -> Res {
    let u32 = g.t.u32;
    let zero = g.u32(0);
    let one = g.u32(1);
    let n_cols = plan.register_columns.len() as u32;
    let threads: Vec<u32> = (0..program.threads.len() as u32).collect();
    g.switch(globals.thread, &threads, &mut |g, t| {
        for (k, &(_, thread, reg)) in plan.register_columns.iter().enumerate() {
            if thread != t as usize {
                continue;
            }
            let kk = g.u32(k as u32);
            let idx = affine(g, globals.instance, n_cols, kk)?;
            let p = element(g, globals, Binding::Out, idx)?;
            let v = g.load(g.t.int, globals.regs[&reg])?;
            g.b.store(p, v, None, [])?;
        }
        Ok(())
    })?;
    let slot = affine(
        g,
        globals.instance,
        program.threads.len() as u32,
        globals.thread,
    )?;
    let w0 = affine(g, slot, bindings::INFO_WORDS as u32, zero)?;
    let w1 = affine(g, slot, bindings::INFO_WORDS as u32, one)?;
    let status = g.load(u32, globals.status)?;
    let p0 = element(g, globals, Binding::Info, w0)?;
    g.b.store(p0, status, None, [])?;
    let p1 = element(g, globals, Binding::Info, w1)?;
    g.b.store(p1, globals.subgroup_id, None, [])
}
