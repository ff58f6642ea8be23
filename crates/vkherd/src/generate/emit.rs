//! Writes a [`Test`] as a `.litmus` file: the Vulkan dialect (docs/litmus-format.md) or
//! the OpenCL one (docs/opencl.md).

use super::ann::{Access, Fence, FenceKind, Kind, Mode, Order, Scope};
use super::test::{loc_name, Dep, Obs, Op, Test};
use super::Dialect;

/// The test's text in its dialect.
pub fn text(test: &Test) -> String {
    match test.dialect {
        Dialect::Vulkan => vulkan(test),
        Dialect::OpenCl => opencl(test),
    }
}

fn header(test: &Test, word: &str) -> String {
    let description = test.description.replace(['{', '"'], "");
    format!("{word} {}\n\"{description}\"\n", test.name)
}

fn obs_name(test: &Test, o: Obs) -> String {
    match (o, test.dialect) {
        (Obs::Reg { thread, reg }, Dialect::Vulkan) => format!("P{thread}:r{reg}"),
        (Obs::Reg { thread, reg }, Dialect::OpenCl) => format!("{thread}:r{reg}"),
        (Obs::Loc(l), _) => loc_name(l),
    }
}

/// `locations [...]` and `exists (...)`.
fn tail(test: &Test) -> String {
    let mut out = String::new();
    if !test.observe.is_empty() {
        let items: Vec<String> = test.observe.iter().map(|&o| obs_name(test, o)).collect();
        out.push_str(&format!("locations [{}]\n", items.join("; ")));
    }
    if !test.exists.is_empty() {
        let eq = match test.dialect {
            Dialect::Vulkan => "==",
            Dialect::OpenCl => "=",
        };
        let atoms: Vec<String> = test
            .exists
            .iter()
            .map(|&(o, v)| format!("{} {eq} {v}", obs_name(test, o)))
            .collect();
        out.push_str(&format!("exists ({})\n", atoms.join(" /\\ ")));
    }
    out
}

/// The Vulkan dialect's dotted tokens of an access.
pub fn vulkan_access(kind: Kind, a: &Access, storage: u8) -> String {
    let mut t: Vec<String> = vec![match kind {
        Kind::R => "ld",
        Kind::W => "st",
        Kind::Rmw => "rmw",
    }
    .into()];
    let scope = a.scope.map(|s| s.word(Dialect::Vulkan).to_string());
    match a.mode {
        Mode::Atomic => {
            t.push("atom".into());
            if a.order != Order::Relaxed {
                t.push(a.order.word().into());
            }
            t.extend(scope);
        }
        Mode::AvVis => {
            t.push(if kind == Kind::W { "av" } else { "vis" }.into());
            t.extend(scope);
        }
        Mode::NonPriv => t.push("nonpriv".into()),
        Mode::Plain => {}
    }
    t.push(format!("sc{storage}"));
    t.extend(semantics(a.semsc, a.semav, a.semvis));
    t.join(".")
}

fn semantics(semsc: u8, semav: bool, semvis: bool) -> Vec<String> {
    let mut t: Vec<String> = (0..4)
        .filter(|k| semsc & (1 << k) != 0)
        .map(|k| format!("semsc{k}"))
        .collect();
    if semav {
        t.push("semav".into());
    }
    if semvis {
        t.push("semvis".into());
    }
    t
}

/// The Vulkan dialect's instruction for a fence or barrier.
pub fn vulkan_fence(f: &Fence, instance: Option<u32>) -> String {
    let mut t: Vec<String> = vec![match f.kind {
        FenceKind::Membar => "membar",
        FenceKind::Cbar => "cbar",
    }
    .into()];
    if let Some(o) = f.order {
        t.push(o.word().into());
    }
    t.push(f.scope.word(Dialect::Vulkan).into());
    if f.order.is_some() {
        t.extend(semantics(f.semsc, f.semav, f.semvis));
    }
    let mut s = t.join(".");
    if f.kind == FenceKind::Cbar {
        s.push_str(&format!(" {}", instance.unwrap_or(0)));
    }
    s
}

/// A register no read of the thread uses, for data dependencies.
fn scratch_base(ops: &[Op]) -> u32 {
    ops.iter()
        .filter_map(|op| match op {
            Op::Access { reg: Some(r), .. } => Some(*r + 1),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// The cells of one Vulkan invocation, in order.
fn vulkan_cells(test: &Test, ops: &[Op]) -> Vec<String> {
    let mut cells = Vec::new();
    let mut scratch = scratch_base(ops);
    let mut labels = 0;
    for op in ops {
        match *op {
            Op::Fence { fence, instance } => cells.push(vulkan_fence(&fence, instance)),
            Op::Access {
                kind,
                loc,
                reg,
                value,
                access,
                dep,
            } => {
                let name = loc_name(loc);
                let mut val = value.to_string();
                let mut label = String::new();
                match dep {
                    Some(Dep::Data(r)) => {
                        let t = scratch;
                        scratch += 1;
                        cells.push(format!("xor r{t}, r{r}, r{r}"));
                        cells.push(format!("add r{t}, r{t}, {value}"));
                        val = format!("r{t}");
                    }
                    Some(Dep::Ctrl(r)) => {
                        label = format!("LC{labels:02}");
                        labels += 1;
                        cells.push(format!("beq r{r}, 0, {label}"));
                        label.push_str(": ");
                    }
                    None => {}
                }
                let tokens = vulkan_access(kind, &access, test.storage[loc]);
                let instr = match (kind, reg) {
                    (Kind::W, _) => format!("{tokens} {name}, {val}"),
                    (Kind::R, Some(r)) => format!("{tokens} r{r}, {name}"),
                    (Kind::Rmw, Some(r)) => format!("{tokens} r{r}, {name}, {val}"),
                    (_, None) => unreachable!("every read has a register"),
                };
                cells.push(format!("{label}{instr}"));
            }
        }
    }
    cells
}

fn vulkan(test: &Test) -> String {
    let mut out = header(test, "VULKAN");
    let inits: Vec<String> = (0..test.storage.len())
        .map(|l| format!("{} = 0;", loc_name(l)))
        .collect();
    out.push_str(&format!("{{ {} }}\n", inits.join(" ")));
    let mut columns: Vec<Vec<String>> = test
        .threads
        .iter()
        .enumerate()
        .map(|(t, th)| {
            let p = th.place;
            vec![format!("P{t}@sg {}, wg {}, qf {}", p.sg, p.wg, p.qf)]
        })
        .collect();
    for (col, th) in columns.iter_mut().zip(&test.threads) {
        col.extend(vulkan_cells(test, &th.ops));
    }
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = columns
        .iter()
        .map(|c| c.iter().map(String::len).max().unwrap_or(0))
        .collect();
    for r in 0..rows {
        let cells: Vec<String> = columns
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{:<w$}", c.get(r).map_or("", String::as_str)))
            .collect();
        out.push_str(&format!(" {} ;\n", cells.join(" | ")));
    }
    out.push_str(&tail(test));
    out
}

fn opencl_order(o: Order) -> &'static str {
    match o {
        Order::Relaxed => "memory_order_relaxed",
        Order::Acquire => "memory_order_acquire",
        Order::Release => "memory_order_release",
        Order::AcqRel => "memory_order_acq_rel",
        Order::SeqCst => "memory_order_seq_cst",
    }
}

fn opencl_scope(s: Scope) -> &'static str {
    match s {
        Scope::Wi => "memory_scope_work_item",
        Scope::Sg => "memory_scope_sub_group",
        Scope::Wg => "memory_scope_work_group",
        Scope::Qf => "memory_scope_device",
        Scope::Dv => "memory_scope_all_svm_devices",
    }
}

fn opencl_flags(bits: u8) -> String {
    let mut f = Vec::new();
    if bits & 1 != 0 {
        f.push("CLK_GLOBAL_MEM_FENCE");
    }
    if bits & 2 != 0 {
        f.push("CLK_LOCAL_MEM_FENCE");
    }
    if f.is_empty() {
        "0".into()
    } else {
        f.join(" | ")
    }
}

/// The OpenCL statement of one operation.
fn opencl_statement(op: &Op) -> String {
    match *op {
        Op::Fence { fence, .. } => match (fence.kind, fence.order) {
            (FenceKind::Membar, order) => format!(
                "atomic_work_item_fence({}, {}, {});",
                opencl_flags(fence.semsc),
                opencl_order(order.unwrap_or(Order::AcqRel)),
                opencl_scope(fence.scope)
            ),
            (FenceKind::Cbar, _) => format!(
                "work_group_barrier({}, {});",
                opencl_flags(fence.semsc),
                opencl_scope(fence.scope)
            ),
        },
        Op::Access {
            kind,
            loc,
            reg,
            value,
            access,
            dep,
        } => {
            let x = loc_name(loc);
            let val = match dep {
                Some(Dep::Data(r)) => format!("(r{r} ^ r{r}) + {value}"),
                _ => value.to_string(),
            };
            let atomic = access.mode == Mode::Atomic;
            let os = || {
                format!(
                    "{}, {}",
                    opencl_order(access.order),
                    opencl_scope(access.scope.unwrap_or(Scope::Qf))
                )
            };
            let stmt = match (kind, reg) {
                (Kind::R, Some(r)) if atomic => {
                    format!("int r{r} = atomic_load_explicit({x}, {});", os())
                }
                (Kind::R, Some(r)) => format!("int r{r} = *{x};"),
                (Kind::W, _) if atomic => format!("atomic_store_explicit({x}, {val}, {});", os()),
                (Kind::W, _) => format!("*{x} = {val};"),
                (Kind::Rmw, Some(r)) => {
                    format!("int r{r} = atomic_exchange_explicit({x}, {val}, {});", os())
                }
                (_, None) => unreachable!("every read has a register"),
            };
            match dep {
                Some(Dep::Ctrl(r)) => format!("if (r{r} == r{r}) {{ {stmt} }}"),
                _ => stmt,
            }
        }
    }
}

fn opencl(test: &Test) -> String {
    let mut out = header(test, "OPENCL");
    let inits: Vec<String> = (0..test.storage.len())
        .map(|l| format!("[{}] = 0;", loc_name(l)))
        .collect();
    out.push_str(&format!("{{ {} }}\n", inits.join(" ")));
    for (t, th) in test.threads.iter().enumerate() {
        let mut used: Vec<usize> = th
            .ops
            .iter()
            .filter_map(|op| match op {
                Op::Access { loc, .. } => Some(*loc),
                _ => None,
            })
            .collect();
        used.sort_unstable();
        used.dedup();
        let params: Vec<String> = used
            .iter()
            .map(|&l| {
                let space = if test.storage[l] == 1 {
                    "local"
                } else {
                    "global"
                };
                format!("{space} atomic_int* {}", loc_name(l))
            })
            .collect();
        let p = th.place;
        out.push_str(&format!(
            "P{t}@sg {}, wg {}, dev {} ({}) {{\n",
            p.sg,
            p.wg,
            p.qf,
            params.join(", ")
        ));
        for op in &th.ops {
            out.push_str(&format!("  {}\n", opencl_statement(op)));
        }
        out.push_str("}\n");
    }
    out.push_str(&tail(test));
    out
}
