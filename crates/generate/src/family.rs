//! Families: the annotated variants of one cycle (`vkherd diy --all --vary AXES`).
//!
//! What the cycle says stays; what it leaves unsaid on the chosen axes ranges over the
//! alphabet: placements of the external edges, scopes, semantics, storage classes.
//! Variants whose annotations clash (`semav` without release) or whose placement cannot
//! close the ring are skipped and counted. Variants are then grouped by canonical form
//! ([`super::canon`]): one test per group, and the index says, for every variant, the
//! values of each varied item and the test that stands for it.

use super::alphabet::Alphabet;
use super::ann::{Access, AccessSpec, Fence, FenceSpec, Kind, Level, Mode, Order, Scope};
use super::build::{Node, Shape};
use super::canon;
use super::dialects::GenDialect;
use super::dress::Choice;
use super::error::{ErrorKind, GenError};
use super::names;
use super::test::{loc_name, Test};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// What a family varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Axis {
    /// Where the invocations of each external edge sit.
    Placement,
    /// The scope of each atomic, av/vis access, fence and barrier.
    Scope,
    /// Each access's kind and semantics, each fence's semantics.
    Semantics,
    /// Each location's storage class.
    Storage,
}

impl Axis {
    pub const ALL: [Axis; 4] = [Axis::Placement, Axis::Scope, Axis::Semantics, Axis::Storage];

    pub fn word(self) -> &'static str {
        match self {
            Axis::Placement => "placement",
            Axis::Scope => "scope",
            Axis::Semantics => "semantics",
            Axis::Storage => "storage",
        }
    }

    /// Reads `--vary` words.
    pub fn parse_list(words: &[String]) -> Result<Vec<Axis>, GenError> {
        let mut out = Vec::new();
        for w in words {
            let a = Axis::ALL
                .into_iter()
                .find(|a| a.word() == w)
                .ok_or_else(|| {
                    GenError::new(
                        ErrorKind::BadOption,
                        format!(
                        "unknown --vary axis `{w}`; expected placement, scope, semantics or storage"
                    ),
                    )
                })?;
            out.push(a);
        }
        out.sort();
        out.dedup();
        Ok(out)
    }
}

/// One varied item of a family, and the values it takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dimension {
    /// `P0:Wy` (an access), `P0:Fxy` (a fence), `P0-P1` (a placement), `P0-P1:B` (a
    /// barrier), `x` (a storage class).
    pub name: String,
    pub values: Vec<String>,
}

/// One variant: the index of its value in each dimension, and its test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variant {
    pub values: Vec<usize>,
    pub test: usize,
}

/// A family and its tests.
#[derive(Debug, Clone)]
pub struct Family {
    pub cycle: String,
    pub dialect: &'static dyn GenDialect,
    pub vary: Vec<Axis>,
    pub dimensions: Vec<Dimension>,
    pub tests: Vec<Test>,
    pub variants: Vec<Variant>,
    /// Combinations skipped because their annotations clash or their placement cannot
    /// close the ring.
    pub skipped: usize,
}

/// The options of each item under one storage assignment.
struct Options {
    access: Vec<Vec<Access>>,
    fences: Vec<Vec<Option<Fence>>>,
    levels: Vec<Vec<Option<Level>>>,
}

/// Which items of a cycle the axes vary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// Every item.
    All,
    /// In a cycle with a barrier edge (`Cbar..`), the barriers and the placements only:
    /// accesses and memory fences keep what the cycle says and the defaults for the rest.
    /// A cycle without a barrier edge varies every item, as with [`Focus::All`].
    Barriers,
}

/// The annotated variants of `cycle` along `vary`, at most `max` of them (counting the
/// combinations before any is skipped).
pub fn family(
    cycle_text: &str,
    dialect: &'static dyn GenDialect,
    vary: &[Axis],
    alphabet: &Alphabet,
    max: usize,
) -> Result<Family, GenError> {
    family_focused(cycle_text, dialect, vary, alphabet, max, Focus::All)
}

/// Does the cycle have a barrier edge (`Cbar..`)? (False for a cycle that does not parse.)
pub fn has_barrier_edge(cycle_text: &str, dialect: &'static dyn GenDialect) -> bool {
    super::cycle::parse(cycle_text, dialect).is_ok_and(|c| {
        c.edges
            .iter()
            .any(|e| e.kind == super::cycle::EdgeKind::Cbar)
    })
}

/// [`family`], varying the items `focus` picks.
pub fn family_focused(
    cycle_text: &str,
    dialect: &'static dyn GenDialect,
    vary: &[Axis],
    alphabet: &Alphabet,
    max: usize,
    focus: Focus,
) -> Result<Family, GenError> {
    let shape = Shape::new(super::cycle::parse(cycle_text, dialect)?)?;
    let barriers_only = focus == Focus::Barriers
        && shape
            .cycle
            .edges
            .iter()
            .any(|e| e.kind == super::cycle::EdgeKind::Cbar);
    let focus = if barriers_only {
        Focus::Barriers
    } else {
        Focus::All
    };
    // The cycle's own annotations must hold together before they are varied, and its
    // test be one vkherd reads.
    super::check_loads(&shape.test(&shape.defaults()?))?;
    let v = |a| vary.contains(&a);
    let given = shape.storage_given()?;
    let storage_options: Vec<Vec<u8>> = (0..shape.locations)
        .map(|l| {
            let said = (0..shape.cycle.edges.len())
                .any(|i| shape.event_loc[i] == l && shape.cycle.events[i].spec.storage.is_some());
            if said || !v(Axis::Storage) {
                vec![given[l]]
            } else {
                alphabet.storage.clone()
            }
        })
        .collect();
    // Counted before anything is made: the number of options of an item does not depend
    // on the storage classes (only the default semantics do).
    let count = |o: &Options| {
        o.access
            .iter()
            .map(Vec::len)
            .chain(o.fences.iter().map(Vec::len))
            .chain(o.levels.iter().map(Vec::len))
            .fold(1u128, |acc, n| acc.saturating_mul(n as u128))
    };
    let first: Vec<u8> = storage_options.iter().map(|o| o[0]).collect();
    let total = storage_options
        .iter()
        .fold(1u128, |acc, o| acc.saturating_mul(o.len() as u128))
        .saturating_mul(count(&item_options(&shape, &first, vary, alphabet, focus)?));
    if total > max as u128 {
        return Err(GenError::new(
            ErrorKind::TooMany,
            format!(
                "the family has {total} variants, more than --max-variants {max}: annotate more of the cycle, vary fewer axes, or narrow the alphabet (--scopes, --placements, --semantics)"
            ),
        ));
    }
    let storages = product(&storage_options);
    let options = storages
        .iter()
        .map(|storage| item_options(&shape, storage, vary, alphabet, focus))
        .collect::<Result<Vec<_>, _>>()?;
    let mut fam = Family {
        cycle: cycle_text.to_string(),
        dialect,
        vary: vary.to_vec(),
        dimensions: dimension_names(&shape),
        tests: Vec::new(),
        variants: Vec::new(),
        skipped: 0,
    };
    let mut raw_values: Vec<Vec<String>> = Vec::new();
    let mut classes: HashMap<Vec<u32>, usize> = HashMap::new();
    for (storage, o) in storages.iter().zip(&options) {
        let lists: Vec<usize> = o
            .access
            .iter()
            .map(Vec::len)
            .chain(o.fences.iter().map(Vec::len))
            .chain(o.levels.iter().map(Vec::len))
            .collect();
        for pick in product_indices(&lists) {
            let (a, rest) = pick.split_at(o.access.len());
            let (f, l) = rest.split_at(o.fences.len());
            let access: Vec<Access> = a.iter().enumerate().map(|(i, &k)| o.access[i][k]).collect();
            let fences: Vec<Option<Fence>> =
                f.iter().enumerate().map(|(i, &k)| o.fences[i][k]).collect();
            let given: Vec<Option<Level>> =
                l.iter().enumerate().map(|(i, &k)| o.levels[i][k]).collect();
            let Ok(levels) = shape.levels(&given) else {
                fam.skipped += 1;
                continue;
            };
            let choice = Choice {
                access,
                fences,
                levels,
                storage: storage.clone(),
            };
            let test = shape.test(&choice);
            if dialect.check(&test).is_err() {
                fam.skipped += 1;
                continue;
            }
            let key = canon::key(&test);
            let class = *classes.entry(key).or_insert_with(|| {
                fam.tests.push(test);
                fam.tests.len() - 1
            });
            raw_values.push(values_of(&shape, &choice));
            fam.variants.push(Variant {
                values: Vec::new(),
                test: class,
            });
        }
    }
    // Keep the items that take more than one value; index their values.
    let items = fam.dimensions.len();
    let mut dims: Vec<Dimension> = Vec::new();
    let mut kept = Vec::new();
    for d in 0..items {
        let mut values: Vec<String> = Vec::new();
        for r in &raw_values {
            if !values.contains(&r[d]) {
                values.push(r[d].clone());
            }
        }
        if values.len() > 1 {
            kept.push(d);
            dims.push(Dimension {
                name: fam.dimensions[d].name.clone(),
                values,
            });
        }
    }
    for (var, r) in fam.variants.iter_mut().zip(&raw_values) {
        var.values = kept
            .iter()
            .zip(&dims)
            .map(|(&d, dim)| dim.values.iter().position(|x| *x == r[d]).unwrap_or(0))
            .collect();
    }
    fam.dimensions = dims;
    Ok(fam)
}

/// Every combination of one option per list, first list slowest.
fn product<T: Clone>(lists: &[Vec<T>]) -> Vec<Vec<T>> {
    product_indices(&lists.iter().map(Vec::len).collect::<Vec<_>>())
        .into_iter()
        .map(|p| {
            p.iter()
                .enumerate()
                .map(|(i, &k)| lists[i][k].clone())
                .collect()
        })
        .collect()
}

fn product_indices(lens: &[usize]) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for &n in lens {
        out = out
            .into_iter()
            .flat_map(|p| {
                (0..n).map(move |k| {
                    let mut q = p.clone();
                    q.push(k);
                    q
                })
            })
            .collect();
    }
    out
}

/// The options of every item for one storage assignment.
fn item_options(
    shape: &Shape,
    storage: &[u8],
    vary: &[Axis],
    alphabet: &Alphabet,
    focus: Focus,
) -> Result<Options, GenError> {
    let n = shape.cycle.edges.len();
    // With the focus on barriers, accesses and memory fences vary along no axis.
    let (access_vary, fence_vary): (&[Axis], &[Axis]) = match focus {
        Focus::All => (vary, vary),
        Focus::Barriers => (&[], &[]),
    };
    let mut access = Vec::with_capacity(n);
    for i in 0..n {
        let spec = shape.event_spec(i)?;
        let kind = shape.event_kind[i];
        let class = storage[shape.event_loc[i]];
        let mut opts: Vec<Access> = access_specs(&spec, kind, access_vary, alphabet)
            .iter()
            .filter_map(|s| Access::resolve(s, kind, class, shape.cycle.dialect).ok())
            .collect();
        opts.sort();
        opts.dedup();
        if opts.is_empty() {
            // Nothing in the alphabet fits what the cycle says: its own reading.
            opts.push(shape.resolve_access(i, &spec, storage)?);
        }
        access.push(opts);
    }
    // The two halves of an RMW are one access: the write half follows the read half.
    let rmw_write_half: Vec<bool> = (0..n)
        .map(|i| {
            shape.event_kind[i] == Kind::Rmw
                && shape.cycle.edges[(i + n - 1) % n].kind == super::cycle::EdgeKind::Rmw
        })
        .collect();
    for i in 0..n {
        if rmw_write_half[i] {
            access[i] = vec![access[(i + n - 1) % n][0]];
        }
    }
    let mut fences = Vec::with_capacity(n);
    for i in 0..n {
        let edge = &shape.cycle.edges[i];
        let spec = &edge.fence;
        let barrier = edge.kind == super::cycle::EdgeKind::Cbar
            || spec.kind == Some(super::ann::FenceKind::Cbar);
        let axes = if barrier { vary } else { fence_vary };
        let mut opts: Vec<Option<Fence>> = fence_specs(spec, axes, alphabet)
            .iter()
            .filter_map(|s| shape.resolve_fence(i, s, storage).ok())
            .collect();
        opts.sort();
        opts.dedup();
        if opts.is_empty() {
            opts.push(shape.resolve_fence(i, spec, storage)?);
        }
        fences.push(opts);
    }
    let given = shape.given_levels();
    let levels = shape
        .ring
        .iter()
        .zip(&given)
        .map(|(&e, g)| match g {
            Some(l) => vec![Some(*l)],
            None if vary.contains(&Axis::Placement) => {
                let barrier = shape.cycle.edges[e].kind == super::cycle::EdgeKind::Cbar;
                alphabet
                    .levels
                    .iter()
                    .filter(|&&l| !barrier || l <= Level::Wg)
                    .map(|&l| Some(l))
                    .collect()
            }
            None => vec![None],
        })
        .collect();
    Ok(Options {
        access,
        fences,
        levels,
    })
}

/// The access specs an event may take: what it says, the rest from the alphabet along
/// the varied axes (left unsaid otherwise, for the defaults).
fn access_specs(spec: &AccessSpec, kind: Kind, vary: &[Axis], a: &Alphabet) -> Vec<AccessSpec> {
    let semantics = vary.contains(&Axis::Semantics);
    let modes: Vec<Option<Mode>> = match (spec.mode, spec.order) {
        (Some(m), _) => vec![Some(m)],
        (None, Some(_)) => vec![Some(Mode::Atomic)],
        (None, None) if semantics => a.modes(kind).into_iter().map(Some).collect(),
        (None, None) => vec![None],
    };
    let mut out = Vec::new();
    for mode in modes {
        let atomic = mode.is_none_or(|m| m == Mode::Atomic);
        let orders: Vec<Option<Order>> = match spec.order {
            Some(o) => vec![Some(o)],
            None if semantics && atomic => a.orders(Some(kind)).into_iter().map(Some).collect(),
            None => vec![None],
        };
        for order in orders {
            let flags = match (spec.semav, spec.semvis) {
                (None, None) if semantics => a.sem_flags(order),
                (av, vis) => vec![(av.unwrap_or(false), vis.unwrap_or(false))],
            };
            let scoped = mode.is_none_or(|m| matches!(m, Mode::Atomic | Mode::AvVis));
            let scopes: Vec<Option<Scope>> = match spec.scope {
                Some(s) => vec![Some(s)],
                None if vary.contains(&Axis::Scope) && scoped => {
                    a.scopes.iter().map(|&s| Some(s)).collect()
                }
                None => vec![None],
            };
            for &(av, vis) in &flags {
                for &scope in &scopes {
                    out.push(AccessSpec {
                        mode,
                        order,
                        scope,
                        semav: Some(av),
                        semvis: Some(vis),
                        ..spec.clone()
                    });
                }
            }
        }
    }
    out
}

/// The fence specs a fence may take (see [`access_specs`]).
fn fence_specs(spec: &FenceSpec, vary: &[Axis], a: &Alphabet) -> Vec<FenceSpec> {
    let semantics = vary.contains(&Axis::Semantics);
    let orders: Vec<Option<Option<Order>>> = match spec.order {
        Some(o) => vec![Some(o)],
        None if semantics => a.orders(None).into_iter().map(|o| Some(Some(o))).collect(),
        None => vec![None],
    };
    let scopes: Vec<Option<Scope>> = match spec.scope {
        Some(s) => vec![Some(s)],
        None if vary.contains(&Axis::Scope) => a.scopes.iter().map(|&s| Some(s)).collect(),
        None => vec![None],
    };
    let mut out = Vec::new();
    for order in orders {
        let flags = match (spec.semav, spec.semvis) {
            (None, None) if semantics => {
                a.sem_flags(Some(order.flatten().unwrap_or(Order::AcqRel)))
            }
            (av, vis) => vec![(av.unwrap_or(false), vis.unwrap_or(false))],
        };
        for &(av, vis) in &flags {
            for &scope in &scopes {
                out.push(FenceSpec {
                    order,
                    scope,
                    semav: Some(av),
                    semvis: Some(vis),
                    ..spec.clone()
                });
            }
        }
    }
    out
}

/// The items of a shape, named, in order: events, fences, placements, storage classes.
fn dimension_names(shape: &Shape) -> Vec<Dimension> {
    let n = shape.cycle.edges.len();
    let thread_of = |event: usize| {
        shape
            .threads
            .iter()
            .position(|ops| {
                ops.iter()
                    .any(|node| matches!(node, Node::Access { event: e, .. } if *e == event))
            })
            .unwrap_or(0)
    };
    let op_event = |i: usize| {
        if shape.cycle.edges[(i + n - 1) % n].kind == super::cycle::EdgeKind::Rmw {
            (i + n - 1) % n
        } else {
            i
        }
    };
    let mut out = Vec::new();
    for i in 0..n {
        let kind = match shape.event_kind[i] {
            Kind::R => "R",
            Kind::W => "W",
            Kind::Rmw => "RMW",
        };
        out.push(format!(
            "P{}:{kind}{}",
            thread_of(op_event(i)),
            loc_name(shape.event_loc[i])
        ));
    }
    for i in 0..n {
        let e = &shape.cycle.edges[i];
        let (a, b) = (thread_of(op_event(i)), thread_of(op_event((i + 1) % n)));
        let (x, y) = (
            loc_name(shape.event_loc[i]),
            loc_name(shape.event_loc[(i + 1) % n]),
        );
        out.push(match e.kind {
            super::cycle::EdgeKind::Cbar => format!("P{a}-P{b}:B"),
            _ => format!("P{a}:F{x}{y}"),
        });
    }
    let k = shape.ring.len();
    for t in 0..k {
        out.push(format!("P{t}-P{}", (t + 1) % k));
    }
    for l in 0..shape.locations {
        out.push(loc_name(l));
    }
    out.into_iter()
        .map(|name| Dimension {
            name,
            values: Vec::new(),
        })
        .collect()
}

/// The value of every item of a choice, in the order of [`dimension_names`].
fn values_of(shape: &Shape, c: &Choice) -> Vec<String> {
    let n = shape.cycle.edges.len();
    let d = shape.cycle.dialect;
    let mut out: Vec<String> = (0..n)
        .map(|i| {
            names::access_code(
                shape.event_kind[i],
                &c.access[i],
                c.storage[shape.event_loc[i]],
                d,
                false,
            )
        })
        .collect();
    for i in 0..n {
        out.push(c.fences[i].map_or_else(String::new, |f| {
            let classes = (1 << c.storage[shape.event_loc[i]])
                | (1 << c.storage[shape.event_loc[(i + 1) % n]]);
            names::fence_code(&f, d, classes)
        }));
    }
    out.extend(c.levels.iter().map(|l| l.word(d).to_string()));
    out.extend(c.storage.iter().map(|&k| d.storage_word(k)));
    out
}
