//! What every dialect's lowering shares: the names of locations and references (init
//! block, aliases, every use), register initial values, and the final-state questions
//! (`locations`, filter, condition) with names resolved.

use crate::program::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use vkherd_litmus::ast::{self, Cond, CondAtom, InitDecl, StateItem};
use vkherd_litmus::limits::MAX_LOCATIONS;
use vkherd_litmus::{Diagnostic, Span};

/// Names of locations and references, built from the init block and every use.
#[derive(Default)]
pub struct Names {
    pub locations: Vec<Location>,
    pub references: Vec<Reference>,
    by_name: HashMap<String, RefId>,
}

impl Names {
    /// The reference named `name`, creating a location of that name (init 0) if new;
    /// `span` is blamed if that passes the limit on names.
    pub fn reference(&mut self, name: &str, span: Span) -> Result<RefId, Diagnostic> {
        if let Some(&r) = self.by_name.get(name) {
            return Ok(r);
        }
        let loc = self.locations.len();
        self.add_reference(name, loc, span)?;
        self.locations.push(Location {
            name: name.to_string(),
            init: 0,
        });
        Ok(self.references.len() - 1)
    }

    /// Another reference named `name` to `location` (an alias with an address of its
    /// own).
    pub fn alias(&mut self, name: &str, location: LocId, span: Span) -> Result<RefId, Diagnostic> {
        self.add_reference(name, location, span)
    }

    /// `name` as one more name of the reference `r` (the same address under another name).
    pub fn bind(&mut self, name: &str, r: RefId) {
        self.by_name.insert(name.to_string(), r);
    }

    /// The reference named `name`, if any.
    pub fn lookup(&self, name: &str) -> Option<RefId> {
        self.by_name.get(name).copied()
    }

    fn add_reference(
        &mut self,
        name: &str,
        location: LocId,
        span: Span,
    ) -> Result<RefId, Diagnostic> {
        if self.references.len() >= MAX_LOCATIONS {
            return Err(Diagnostic::new(
                span,
                format!("too many locations: `{name}` is name number {}, expected at most {MAX_LOCATIONS} location and alias names in a test", MAX_LOCATIONS + 1),
            ));
        }
        let r = self.references.len();
        self.references.push(Reference {
            name: name.to_string(),
            location,
        });
        self.by_name.insert(name.to_string(), r);
        Ok(r)
    }
}

/// The init block: location values, register values, then aliases.
pub fn lower_init(
    init: &[InitDecl],
    names: &mut Names,
    init_regs: &mut [Vec<(u32, i64)>],
    constants: &mut BTreeSet<i64>,
) -> Result<(), Diagnostic> {
    let mut loc_seen: HashMap<&str, Span> = HashMap::new();
    // Locations first, so that aliases may name a location declared after them.
    for d in init {
        match d {
            InitDecl::Location { name, value, span } => {
                if let Some(first) = loc_seen.insert(name, *span) {
                    return Err(Diagnostic::new(
                        *span,
                        format!("second initial value for `{name}` (first at line {}): expected one value per location", first.line),
                    ));
                }
                let r = names.reference(name, *span)?;
                let loc = names.references[r].location;
                names.locations[loc].init = *value;
                constants.insert(*value);
            }
            InitDecl::Register {
                thread,
                reg,
                value,
                span,
            } => {
                let nthreads = init_regs.len();
                let Some(regs) = init_regs.get_mut(*thread) else {
                    return Err(Diagnostic::new(
                        *span,
                        format!("`P{thread}:r{reg}` names thread P{thread}, which the test does not have: expected {}", thread_range(nthreads)),
                    ));
                };
                if regs.iter().any(|&(r, _)| r == *reg) {
                    return Err(Diagnostic::new(
                        *span,
                        format!("second initial value for `P{thread}:r{reg}`: expected one value per register"),
                    ));
                }
                regs.push((*reg, *value));
                constants.insert(*value);
            }
            InitDecl::Alias { .. } => {}
        }
    }
    let mut aliases: BTreeMap<&str, (&str, Span)> = BTreeMap::new();
    for d in init {
        if let InitDecl::Alias {
            alias,
            target,
            span,
        } = d
        {
            if let Some((first, first_span)) = aliases.insert(alias, (target, *span)) {
                return Err(Diagnostic::new(
                    *span,
                    format!("second declaration of `{alias}` as an alias (line {} has `{alias} aliases {first}`): expected one `aliases` per name", first_span.line),
                ));
            }
        }
    }
    for (alias, (_, span)) in &aliases {
        if loc_seen.contains_key(alias) {
            return Err(Diagnostic::new(
                *span,
                format!("`{alias}` has an initial value and is also an alias: expected the value on the location it aliases, not on `{alias}`"),
            ));
        }
        // Follow alias chains (z aliases y, y aliases x) to the location.
        let mut target = *alias;
        let mut hops = 0;
        while let Some((t, _)) = aliases.get(target) {
            target = t;
            hops += 1;
            if hops > aliases.len() {
                return Err(Diagnostic::new(*span, format!("`{alias}` aliases itself through a cycle of aliases: expected `{alias} aliases LOCATION`")));
            }
        }
        let r = names.reference(target, *span)?;
        let loc = names.references[r].location;
        names.add_reference(alias, loc, *span)?;
    }
    Ok(())
}

/// The final-state questions of a test, names resolved.
pub struct Finals {
    pub observed: Vec<Observable>,
    pub filter: Option<Condition>,
    pub condition: Option<FinalCondition>,
}

/// Resolves `locations`, the filter and the condition. The final-state columns are every
/// register and location they mention: registers by thread then number, then locations
/// by name (semantics.md "Output").
pub fn resolve_finals(
    locations: &[ast::Spanned<StateItem>],
    filter: Option<&Cond>,
    condition: Option<&ast::FinalCond>,
    names: &mut Names,
    regs_used: &[BTreeSet<u32>],
    constants: &mut BTreeSet<i64>,
) -> Result<Finals, Diagnostic> {
    let mut observed = BTreeSet::new();
    let mut resolver = CondResolver {
        names,
        regs_used,
        observed: &mut observed,
        constants,
    };
    for item in locations {
        resolver.item(item)?;
    }
    let filter = filter.map(|c| resolver.cond(c)).transpose()?;
    let condition = match condition {
        Some(fc) => Some(FinalCondition {
            quantifier: fc.quantifier,
            cond: resolver.cond(&fc.cond)?,
            text: fc.text.clone(),
        }),
        None => None,
    };
    let mut observed: Vec<Observable> = observed.into_iter().collect();
    // Ord on Observable::Reg orders registers by thread then number.
    observed.sort_by(|a, b| match (a, b) {
        (Observable::Loc(x), Observable::Loc(y)) => {
            names.locations[*x].name.cmp(&names.locations[*y].name)
        }
        _ => a.cmp(b),
    });
    Ok(Finals {
        observed,
        filter,
        condition,
    })
}

/// Resolves names in conditions and `locations`, collecting the observed columns.
struct CondResolver<'a> {
    names: &'a mut Names,
    regs_used: &'a [BTreeSet<u32>],
    observed: &'a mut BTreeSet<Observable>,
    constants: &'a mut BTreeSet<i64>,
}

impl CondResolver<'_> {
    fn item(&mut self, item: &ast::Spanned<StateItem>) -> Result<Observable, Diagnostic> {
        let obs = match &item.value {
            StateItem::Reg { thread, reg } => {
                let Some(used) = self.regs_used.get(*thread) else {
                    return Err(Diagnostic::new(
                        item.span,
                        format!("`{thread}:r{reg}` names thread P{thread}, which the test does not have: expected {}", thread_range(self.regs_used.len())),
                    ));
                };
                if !used.contains(reg) {
                    let expected = if used.is_empty() {
                        format!("expected a register that P{thread} writes, reads or initialises, but it has none")
                    } else {
                        let list: Vec<String> =
                            used.iter().take(16).map(|r| format!("r{r}")).collect();
                        let more = if used.len() > 16 { ", ..." } else { "" };
                        format!(
                            "expected a register P{thread} writes, reads or initialises ({}{more})",
                            list.join(", ")
                        )
                    };
                    return Err(Diagnostic::new(
                        item.span,
                        format!("`{thread}:r{reg}`: thread P{thread} has no register r{reg}: {expected}"),
                    ));
                }
                Observable::Reg {
                    thread: *thread,
                    reg: *reg,
                }
            }
            StateItem::Loc(name) => {
                let r = self.names.reference(name, item.span)?;
                Observable::Loc(self.names.references[r].location)
            }
        };
        self.observed.insert(obs);
        Ok(obs)
    }

    fn term(&mut self, a: &CondAtom) -> Result<Term, Diagnostic> {
        Ok(match a {
            CondAtom::Item(item) => Term::Obs(self.item(item)?),
            CondAtom::Const(c) => {
                self.constants.insert(*c);
                Term::Const(*c)
            }
        })
    }

    fn cond(&mut self, c: &Cond) -> Result<Condition, Diagnostic> {
        Ok(match c {
            Cond::True => Condition::True,
            Cond::Cmp { op, a, b } => Condition::Cmp {
                op: *op,
                a: self.term(a)?,
                b: self.term(b)?,
            },
            Cond::Not(x) => Condition::Not(Box::new(self.cond(x)?)),
            Cond::And(x, y) => Condition::And(Box::new(self.cond(x)?), Box::new(self.cond(y)?)),
            Cond::Or(x, y) => Condition::Or(Box::new(self.cond(x)?), Box::new(self.cond(y)?)),
        })
    }
}

/// "a thread from P0 to P3", for messages about a thread the test does not have.
fn thread_range(nthreads: usize) -> String {
    match nthreads {
        0 => "a thread, but the test has none".to_string(),
        1 => "thread P0, the only one".to_string(),
        n => format!("a thread from P0 to P{}", n - 1),
    }
}
