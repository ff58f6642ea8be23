//! A stand-in for Dat3M's Vulkan liveness suites (CADP and Barrier, not on this
//! machine): two-invocation programs of up to four instructions over one location, from
//! the alphabet of Sorensen et al.'s progress-model tests, plus a control barrier, at each
//! placement (same subgroup, subgroups of one workgroup, workgroups, queue families); and
//! a smaller OpenCL family whose loops are compare-exchange, exchange and load loops.
//! Shared by the liveness tests (crates/enumerate/tests/liveness_screen.rs) and the
//! liveness benchmark (benches/liveness.rs), which includes this file.
//!
//! Each instruction may jump to any label of its thread, so spin loops, exchange loops,
//! loops around several instructions and jumps over code all occur:
//!
//! | op | Vulkan |
//! |---|---|
//! | `Store(v)` | `st.atom.dv.sc0 x, v` |
//! | `Check(v, L)` | `ld.atom.dv.sc0 rK, x` then `beq rK, v, L` (spin-until when L is itself) |
//! | `Exchange(v, w, L)` | `rmw.atom.dv.sc0 rK, x, w` then `beq rK, v, L` |
//! | `Goto(L)` | `goto L` |
//! | `Cbar` | `cbar.wg 1` |

/// One instruction of the alphabet; targets are instruction numbers of the thread (its
/// length is the label at the end).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Store(i64),
    Check(i64, usize),
    Exchange(i64, i64, usize),
    Goto(usize),
    Cbar,
}

impl Op {
    fn target(self) -> Option<usize> {
        match self {
            Op::Check(_, t) | Op::Exchange(_, _, t) | Op::Goto(t) => Some(t),
            _ => None,
        }
    }
}

/// Where the two invocations run: which level of the tree separates them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// One subgroup (the `inv` level decides).
    Inv,
    /// Two subgroups of one workgroup (`sg`).
    Sg,
    /// Two workgroups (`wg`).
    Wg,
    /// Two queue families (`qf`).
    Qf,
}

pub const PLACEMENTS: [Placement; 4] =
    [Placement::Inv, Placement::Sg, Placement::Wg, Placement::Qf];

impl Placement {
    /// The `@sg A, wg B, qf C` of the second invocation (the first is all zeros).
    fn ids(self) -> (u64, u64, u64) {
        match self {
            Placement::Inv => (0, 0, 0),
            Placement::Sg => (1, 0, 0),
            Placement::Wg => (0, 1, 0),
            Placement::Qf => (0, 0, 1),
        }
    }
}

/// The alphabet at position `at` of a thread of `len` instructions.
fn alphabet(at: usize, len: usize) -> Vec<Op> {
    let mut ops = vec![Op::Store(0), Op::Store(1)];
    for t in 0..=len {
        ops.extend([Op::Check(0, t), Op::Check(1, t)]);
        for (v, w) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            ops.push(Op::Exchange(v, w, t));
        }
        // A goto to itself is a loop of nothing.
        if t != at {
            ops.push(Op::Goto(t));
        }
    }
    ops.push(Op::Cbar);
    ops
}

/// The thread of `len` instructions numbered `k` (mixed radix over the alphabets).
fn thread(len: usize, mut k: u64) -> Vec<Op> {
    (0..len)
        .map(|at| {
            let ops = alphabet(at, len);
            let op = ops[(k % ops.len() as u64) as usize];
            k /= ops.len() as u64;
            op
        })
        .collect()
}

fn threads_of_len(len: usize) -> u64 {
    (0..len).map(|at| alphabet(at, len).len() as u64).product()
}

/// The shapes of the suite: instructions per thread, four at most in all.
#[allow(dead_code)]
pub const SHAPES: [(usize, usize); 4] = [(1, 1), (1, 2), (2, 2), (1, 3)];

/// Is the program one the suite keeps: some backward jump (a loop), and a barrier in
/// both threads or in neither (a lone barrier only deadlocks).
fn kept(t0: &[Op], t1: &[Op]) -> bool {
    let loops =
        |t: &[Op]| (t.iter().enumerate()).any(|(at, op)| op.target().is_some_and(|l| l <= at));
    let cbar = |t: &[Op]| t.contains(&Op::Cbar);
    (loops(t0) || loops(t1)) && cbar(t0) == cbar(t1)
}

/// The `n`-th program of the space of `shapes` (every pair of threads), if kept.
fn program(shapes: &[(usize, usize)], mut n: u64) -> Option<(Vec<Op>, Vec<Op>)> {
    for &(a, b) in shapes {
        let (na, nb) = (threads_of_len(a), threads_of_len(b));
        if n < na * nb {
            let (t0, t1) = (thread(a, n % na), thread(b, n / na));
            return kept(&t0, &t1).then_some((t0, t1));
        }
        n -= na * nb;
    }
    None
}

/// The size of the space of `shapes`.
fn space(shapes: &[(usize, usize)]) -> u64 {
    shapes
        .iter()
        .map(|&(a, b)| threads_of_len(a) * threads_of_len(b))
        .sum()
}

/// `count` programs of `shapes` (the suite: [`SHAPES`]), spread evenly over their space
/// (a fixed stride, so the suite is the same on every run), placements in turn: (name,
/// `.litmus` source).
pub fn suite(shapes: &[(usize, usize)], count: usize) -> Vec<(String, String)> {
    let total = space(shapes);
    // An odd stride that is not a multiple of the radices visits every shape.
    let stride = (total / (count as u64 * 3)) | 1;
    let mut out = Vec::new();
    let mut n = 0u64;
    let mut tried = 0u64;
    while out.len() < count && tried < total {
        if let Some((t0, t1)) = program(shapes, n) {
            let placement = PLACEMENTS[out.len() % PLACEMENTS.len()];
            let name = format!("cadp-{:06}-{}", n, placement_name(placement));
            out.push((name.clone(), render(&name, [&t0, &t1], placement)));
        }
        n = (n + stride) % total;
        tried += 1;
    }
    out
}

fn placement_name(p: Placement) -> &'static str {
    match p {
        Placement::Inv => "inv",
        Placement::Sg => "sg",
        Placement::Wg => "wg",
        Placement::Qf => "qf",
    }
}

/// The `.litmus` text of two threads over `x = 0`.
pub fn render(name: &str, threads: [&[Op]; 2], placement: Placement) -> String {
    let columns: Vec<Vec<String>> = threads
        .iter()
        .enumerate()
        .map(|(t, ops)| {
            let targets: Vec<usize> = ops.iter().filter_map(|op| op.target()).collect();
            let label = |l: usize| format!("LC{t}{l}");
            let mut lines = Vec::new();
            for (at, op) in ops.iter().enumerate() {
                if targets.contains(&at) {
                    lines.push(format!("{}:", label(at)));
                }
                match *op {
                    Op::Store(v) => lines.push(format!("st.atom.dv.sc0 x, {v}")),
                    Op::Check(v, l) => {
                        lines.push(format!("ld.atom.dv.sc0 r{at}, x"));
                        lines.push(format!("beq r{at}, {v}, {}", label(l)));
                    }
                    Op::Exchange(v, w, l) => {
                        lines.push(format!("rmw.atom.dv.sc0 r{at}, x, {w}"));
                        lines.push(format!("beq r{at}, {v}, {}", label(l)));
                    }
                    Op::Goto(l) => lines.push(format!("goto {}", label(l))),
                    Op::Cbar => lines.push("cbar.wg 1".into()),
                }
            }
            if targets.contains(&ops.len()) {
                lines.push(format!("{}:", label(ops.len())));
            }
            lines
        })
        .collect();
    let (sg, wg, qf) = placement.ids();
    let heads = [
        "P0@sg 0, wg 0, qf 0".to_string(),
        format!("P1@sg {sg}, wg {wg}, qf {qf}"),
    ];
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
    let mut text = format!("VULKAN {name}\n{{ x = 0; }}\n");
    text.push_str(&format!(" {} | {} ;\n", heads[0], heads[1]));
    for r in 0..rows {
        let cell = |c: &Vec<String>| c.get(r).cloned().unwrap_or_default();
        text.push_str(&format!(
            " {} | {} ;\n",
            cell(&columns[0]),
            cell(&columns[1])
        ));
    }
    text
}

/// One step of an OpenCL thread: structured loops over compare-exchange, exchange and
/// loads, and stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Store(i64),
    /// `while (atomic_load(x) != v);`
    SpinUntil(i64),
    /// `while (atomic_exchange(x, w) == v);`
    ExchangeWhile(i64, i64),
    /// `e = v; while (!atomic_compare_exchange_strong(x, &e, w)) e = v;`: a lock's
    /// acquire when v = 0, w = 1.
    CasLoop(i64, i64),
}

const STEPS: [Step; 12] = [
    Step::Store(0),
    Step::Store(1),
    Step::SpinUntil(0),
    Step::SpinUntil(1),
    Step::ExchangeWhile(0, 1),
    Step::ExchangeWhile(1, 1),
    Step::ExchangeWhile(1, 0),
    Step::ExchangeWhile(0, 0),
    Step::CasLoop(0, 1),
    Step::CasLoop(1, 0),
    Step::CasLoop(0, 0),
    Step::CasLoop(1, 1),
];

/// The OpenCL family: each thread one or two steps, some thread a compare-exchange loop;
/// every `stride`-th program, work-items in one sub-group, in two sub-groups, in two
/// work-groups in turn.
pub fn opencl_suite(stride: usize) -> Vec<(String, String)> {
    let mut threads: Vec<Vec<Step>> = STEPS.iter().map(|&s| vec![s]).collect();
    for a in STEPS {
        for b in STEPS {
            threads.push(vec![a, b]);
        }
    }
    let cas = |t: &[Step]| t.iter().any(|s| matches!(s, Step::CasLoop(..)));
    let mut out = Vec::new();
    let mut k = 0usize;
    for t0 in &threads {
        for t1 in &threads {
            if !(cas(t0) || cas(t1)) {
                continue;
            }
            k += 1;
            if !k.is_multiple_of(stride) {
                continue;
            }
            let placement = [Placement::Inv, Placement::Sg, Placement::Wg][out.len() % 3];
            let name = format!("cas-{k:06}-{}", placement_name(placement));
            out.push((name.clone(), render_opencl(&name, [t0, t1], placement)));
        }
    }
    out
}

fn render_opencl(name: &str, threads: [&[Step]; 2], placement: Placement) -> String {
    let order = "memory_order_relaxed";
    let scope = "memory_scope_device";
    let (sg, wg, _) = placement.ids();
    let heads = [
        "P0@sg 0, wg 0, dev 0".to_string(),
        format!("P1@sg {sg}, wg {wg}, dev 0"),
    ];
    let mut text = format!("OPENCL {name}\n{{ [x] = 0; }}\n");
    for (t, steps) in threads.iter().enumerate() {
        text.push_str(&format!("{} (global atomic_int* x) {{\n", heads[t]));
        for (k, step) in steps.iter().enumerate() {
            let line = match *step {
                Step::Store(v) => format!("atomic_store_explicit(x, {v}, {order}, {scope});"),
                Step::SpinUntil(v) => {
                    format!("while (atomic_load_explicit(x, {order}, {scope}) != {v});")
                }
                Step::ExchangeWhile(v, w) => {
                    format!("while (atomic_exchange_explicit(x, {w}, {order}, {scope}) == {v});")
                }
                Step::CasLoop(v, w) => format!(
                    "int e{k} = {v};\n  while (!atomic_compare_exchange_strong_explicit(x, &e{k}, {w}, {order}, {order}, {scope})) {{ e{k} = {v}; }}"
                ),
            };
            text.push_str(&format!("  {line}\n"));
        }
        text.push_str("}\n");
    }
    text.push_str("exists (x = 0)\n");
    text
}
