//! The generators' Vulkan: its annotation words (docs/generate.md "Annotations"), its
//! alphabets, the storage classes of its semantics, and its `.litmus` syntax
//! (docs/litmus-format.md).

use super::GenDialect;
use crate::alphabet::Sem;
use crate::ann::{Access, Fence, FenceKind, Kind, Mode, Order, Scope, Word};
use crate::emit::{self, Condition};
use crate::test::{loc_name, Dep, Op, Test};
use vkherd_dialects::vulkan::ast::MAX_STORAGE_CLASSES;
use vkherd_model::Dialect;

pub struct Vulkan;

impl GenDialect for Vulkan {
    fn dialect(&self) -> &'static Dialect {
        &vkherd_dialects::vulkan::VULKAN
    }

    fn root_word(&self) -> &'static str {
        "dv"
    }

    fn scopes(&self) -> &'static [Scope] {
        &[Scope::Sg, Scope::Wg, Scope::Qf, Scope::Dv]
    }

    /// Device, as the corpus writes its classic shapes.
    fn default_scope(&self) -> Scope {
        Scope::Dv
    }

    fn sems(&self) -> &'static [Sem] {
        &[
            Sem::Na,
            Sem::NonPriv,
            Sem::AvVis,
            Sem::Rlx,
            Sem::RelAcq,
            Sem::SemAvVis,
        ]
    }

    fn family_sems(&self) -> &'static [Sem] {
        &[Sem::Na, Sem::AvVis, Sem::Rlx, Sem::RelAcq, Sem::SemAvVis]
    }

    fn family_scopes(&self) -> &'static [Scope] {
        self.scopes()
    }

    fn word(&self, text: &str) -> Option<Word> {
        let digit = |prefix: &str| {
            text.strip_prefix(prefix)
                .and_then(|d| d.parse::<u8>().ok())
                .filter(|d| *d < MAX_STORAGE_CLASSES)
        };
        match text {
            "nonpriv" => Some(Word::Mode(Mode::NonPriv)),
            "av" => Some(Word::AvVis(true)),
            "vis" => Some(Word::AvVis(false)),
            "semav" => Some(Word::SemAv),
            "semvis" => Some(Word::SemVis),
            "membar" => Some(Word::Membar),
            "cbar" => Some(Word::Cbar),
            _ => digit("semsc")
                .map(Word::SemSc)
                .or_else(|| digit("sc").map(Word::Storage)),
        }
    }

    fn vocabulary(&self) -> &'static str {
        "na, nonpriv, av, vis, atom, rlx, acq, rel, acq_rel, semav, semvis, sg, wg, qf, dv, sc0..sc3, semsc0..semsc3"
    }

    fn fence_vocabulary(&self) -> &'static str {
        "membar, cbar, acq, rel, acq_rel, nosem (cbar only), sg, wg, qf, dv, semsc0..semsc3, semav, semvis"
    }

    fn fence_word(&self, kind: FenceKind) -> &'static str {
        match kind {
            FenceKind::Membar => "membar",
            FenceKind::Cbar => "cbar",
        }
    }

    fn storage_word(&self, class: u8) -> String {
        format!("sc{class}")
    }

    fn storage_on_fences(&self) -> bool {
        false
    }

    /// The semantics of an acquire or release cover the access's own storage class
    /// unless `semscN` says otherwise; a relaxed access has none.
    fn access_classes(
        &self,
        said: Option<u8>,
        synchronises: bool,
        storage: u8,
    ) -> Result<u8, String> {
        match said {
            Some(_) if !synchronises => Err(
                "`semscN` without acquire or release: expected `acq`, `rel` or `acq_rel`".into(),
            ),
            Some(bits) => Ok(bits),
            None if synchronises => Ok(1 << storage),
            None => Ok(0),
        }
    }

    fn check_fence(
        &self,
        _kind: FenceKind,
        order: Option<Order>,
        said: Option<u8>,
    ) -> Result<(), String> {
        if order.is_none() && said.is_some() {
            return Err("`semscN` on a barrier without semantics (`nosem`)".into());
        }
        Ok(())
    }

    fn write(&self, test: &Test) -> String {
        let mut out = emit::header(test);
        let inits: Vec<String> = (0..test.storage.len())
            .map(|l| format!("{} = 0;", loc_name(l)))
            .collect();
        out.push_str(&format!("{{ {} }}\n", inits.join(" ")));
        let columns: Vec<Vec<String>> = test
            .threads
            .iter()
            .enumerate()
            .map(|(t, th)| {
                let mut col = vec![format!("P{t}@{}", emit::place_words(self, th.place))];
                col.extend(cells(test, &th.ops));
                col
            })
            .collect();
        out.push_str(&emit::table(&columns));
        out.push_str(&emit::tail(
            test,
            &Condition {
                reg: |t, r| format!("P{t}:r{r}"),
                eq: "==",
            },
        ));
        out
    }
}

/// The dotted tokens of an access.
fn access(kind: Kind, a: &Access, storage: u8) -> String {
    let mut t: Vec<String> = vec![match kind {
        Kind::R => "ld",
        Kind::W => "st",
        Kind::Rmw => "rmw",
    }
    .into()];
    let scope = a.scope.map(|s| s.word(&Vulkan).to_string());
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

/// The instruction of a fence or barrier.
fn fence(f: &Fence, instance: Option<u32>) -> String {
    let mut t: Vec<String> = vec![Vulkan.fence_word(f.kind).into()];
    if let Some(o) = f.order {
        t.push(o.word().into());
    }
    t.push(f.scope.word(&Vulkan).into());
    if f.order.is_some() {
        t.extend(semantics(f.semsc, f.semav, f.semvis));
    }
    let mut s = t.join(".");
    if f.kind == FenceKind::Cbar {
        s.push_str(&format!(" {}", instance.unwrap_or(0)));
    }
    s
}

/// The cells of one invocation, in order.
fn cells(test: &Test, ops: &[Op]) -> Vec<String> {
    let mut cells = Vec::new();
    let mut scratch = emit::scratch_base(ops);
    let mut labels = 0;
    for op in ops {
        match *op {
            Op::Fence { fence: f, instance } => cells.push(fence(&f, instance)),
            Op::Access {
                kind,
                loc,
                reg,
                value,
                access: a,
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
                let tokens = access(kind, &a, test.storage[loc]);
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
