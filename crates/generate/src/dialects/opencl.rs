//! The generators' OpenCL: its annotation words (docs/generate.md "Annotations"), its
//! alphabets, its rules on barriers and local memory, and its C-like `.litmus` syntax
//! (docs/opencl.md).

use super::GenDialect;
use crate::alphabet::Sem;
use crate::ann::{FenceKind, Kind, Mode, Order, Scope, Word};
use crate::emit::{self, Condition};
use crate::error::{ErrorKind, GenError};
use crate::test::{loc_name, Dep, Op, Test, Thread};
use vkherd_model::Dialect;

pub struct OpenCl;

impl GenDialect for OpenCl {
    fn dialect(&self) -> &'static Dialect {
        &vkherd_dialects::opencl::OPENCL
    }

    fn root_word(&self) -> &'static str {
        "all"
    }

    fn scopes(&self) -> &'static [Scope] {
        &[Scope::Wi, Scope::Sg, Scope::Wg, Scope::Qf, Scope::Dv]
    }

    /// OpenCL C's default, `memory_scope_device`.
    fn default_scope(&self) -> Scope {
        Scope::Qf
    }

    fn sems(&self) -> &'static [Sem] {
        &[Sem::Na, Sem::Rlx, Sem::RelAcq, Sem::Sc]
    }

    fn family_sems(&self) -> &'static [Sem] {
        self.sems()
    }

    /// Every scope but the work-item's.
    fn family_scopes(&self) -> &'static [Scope] {
        &[Scope::Sg, Scope::Wg, Scope::Qf, Scope::Dv]
    }

    fn word(&self, text: &str) -> Option<Word> {
        match text {
            "sc" => Some(Word::Order(Order::SeqCst)),
            "global" => Some(Word::Storage(0)),
            "local" => Some(Word::Storage(1)),
            "fence" => Some(Word::Membar),
            "barrier" => Some(Word::Cbar),
            _ => None,
        }
    }

    fn vocabulary(&self) -> &'static str {
        "na, atom, rlx, acq, rel, acq_rel, sc, wi, sg, wg, dev, all, global, local"
    }

    fn fence_vocabulary(&self) -> &'static str {
        "fence, barrier, acq, rel, acq_rel, sc, nosem (barrier only), wi, sg, wg, dev, all, global, local"
    }

    fn fence_word(&self, kind: FenceKind) -> &'static str {
        match kind {
            FenceKind::Membar => "fence",
            FenceKind::Cbar => "barrier",
        }
    }

    fn storage_word(&self, class: u8) -> String {
        if class == 0 { "global" } else { "local" }.into()
    }

    /// `global` and `local` on a fence are its flags.
    fn storage_on_fences(&self) -> bool {
        true
    }

    /// Accesses carry no storage classes in their semantics.
    fn access_classes(&self, _: Option<u8>, _: bool, _: u8) -> Result<u8, String> {
        Ok(0)
    }

    fn check_fence(
        &self,
        kind: FenceKind,
        order: Option<Order>,
        _said: Option<u8>,
    ) -> Result<(), String> {
        if kind == FenceKind::Cbar && order.is_some() && order != Some(Order::AcqRel) {
            return Err(
                "an OpenCL barrier has acq_rel semantics (or `nosem`); expected no order word"
                    .into(),
            );
        }
        Ok(())
    }

    /// A local location is used by one work-group only, and barriers (which meet by
    /// count in a work-group) come as many in every invocation of a work-group that has
    /// any.
    fn check(&self, test: &Test) -> Result<(), GenError> {
        for (loc, &k) in test.storage.iter().enumerate() {
            if k != 1 {
                continue;
            }
            let groups: std::collections::BTreeSet<(u32, u32)> = test
                .threads
                .iter()
                .filter(|t| {
                    t.ops
                        .iter()
                        .any(|op| matches!(op, Op::Access { loc: l, .. } if *l == loc))
                })
                .map(|t| (t.place.qf, t.place.wg))
                .collect();
            if groups.len() > 1 {
                return Err(GenError::new(
                    ErrorKind::Incompatible,
                    format!(
                        "location {} is local, and local memory belongs to one work-group, but invocations of {} work-groups use it; expected `global` or one work-group",
                        loc_name(loc),
                        groups.len()
                    ),
                ));
            }
        }
        let barriers = |t: &Thread| {
            t.ops
                .iter()
                .filter(|op| matches!(op, Op::Fence { fence, .. } if fence.kind == FenceKind::Cbar))
                .count()
        };
        for t in &test.threads {
            let same: Vec<usize> = test
                .threads
                .iter()
                .filter(|u| u.place.qf == t.place.qf && u.place.wg == t.place.wg)
                .map(barriers)
                .filter(|&b| b > 0)
                .collect();
            if same.windows(2).any(|w| w[0] != w[1]) {
                return Err(GenError::new(
                    ErrorKind::NotExpressible,
                    "OpenCL barriers meet by count within a work-group, and the invocations of one work-group here have different numbers of barriers: keep one barrier edge per work-group",
                ));
            }
        }
        Ok(())
    }

    fn write(&self, test: &Test) -> String {
        let mut out = emit::header(test);
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
                    let space = self.storage_word(test.storage[l]);
                    format!("{space} atomic_int* {}", loc_name(l))
                })
                .collect();
            out.push_str(&format!(
                "P{t}@{} ({}) {{\n",
                emit::place_words(self, th.place),
                params.join(", ")
            ));
            for op in &th.ops {
                out.push_str(&format!("  {}\n", statement(op)));
            }
            out.push_str("}\n");
        }
        out.push_str(&emit::tail(
            test,
            &Condition {
                reg: |t, r| format!("{t}:r{r}"),
                eq: "=",
            },
        ));
        out
    }
}

fn order(o: Order) -> &'static str {
    match o {
        Order::Relaxed => "memory_order_relaxed",
        Order::Acquire => "memory_order_acquire",
        Order::Release => "memory_order_release",
        Order::AcqRel => "memory_order_acq_rel",
        Order::SeqCst => "memory_order_seq_cst",
    }
}

fn scope(s: Scope) -> &'static str {
    match s {
        Scope::Wi => "memory_scope_work_item",
        Scope::Sg => "memory_scope_sub_group",
        Scope::Wg => "memory_scope_work_group",
        Scope::Qf => "memory_scope_device",
        Scope::Dv => "memory_scope_all_svm_devices",
    }
}

fn flags(bits: u8) -> String {
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

/// The statement of one operation.
fn statement(op: &Op) -> String {
    match *op {
        Op::Fence { fence, .. } => match (fence.kind, fence.order) {
            (FenceKind::Membar, o) => format!(
                "atomic_work_item_fence({}, {}, {});",
                flags(fence.semsc),
                order(o.unwrap_or(Order::AcqRel)),
                scope(fence.scope)
            ),
            (FenceKind::Cbar, _) => format!(
                "work_group_barrier({}, {});",
                flags(fence.semsc),
                scope(fence.scope)
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
                    order(access.order),
                    scope(access.scope.unwrap_or(Scope::Qf))
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
