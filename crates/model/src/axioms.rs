//! The dynamic relations and predicates of the Alloy model (`spirv.als`), one function or
//! field per Alloy definition, with the same name. Each comment quotes the Alloy line.
//!
//! Inputs are the [`Statics`] of a path combination and a candidate's `rf`, `RFINIT` and
//! `asmo`. Alloy's `.` is [`Rel::seq`], `+` `union`, `&` `inter`, `-` `minus`, `~` `inv`,
//! `^` `plus`, `*` `star`, `rc[r]` `opt`, `A -> B` [`Rel::cross`]. `(stor[s]) . r` is
//! written `r.restrict_domain(s)` and `r . (stor[s])` `r.restrict_range(s)` (same
//! relation, without building the identity matrix).
//!
//! Everything that does not depend on rf or asmo is computed once per path combination
//! ([`StaticTerms`]); what depends on asmo only, once per asmo ([`AsmoTerms`]).

use crate::execution::{Statics, CLASSES};
use crate::rel::Rel;
use crate::set::EventSet;

/// A candidate: the dynamic relations chosen by the enumerator.
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'a> {
    pub rf: &'a Rel,
    pub rfinit: &'a EventSet,
    pub asmo: &'a Rel,
}

/// The parts of the definitions that depend on neither rf nor asmo.
#[derive(Debug, Clone)]
pub struct StaticTerms {
    /// The static `fence->cbar->cbar->fence` term of sw, with sw's `inscope &`.
    pub cbar_sw: Rel,
    /// `(stor[REL&F]) . posemtosc . (stor[A&W])`: the release side of fence->X sw.
    pub fence_release: Rel,
    /// `(stor[ACQ&A]) + (stor[A&R]) . posctosem . (stor[ACQ&F])`: the acquire side of sw.
    pub acquire: Rel,
    /// Per non-empty subset S of the classes in use: (mask, SEMSC_S, the transitive
    /// closure of the static summands of ithb_S: `^(ssw + (stor[SC_S+SEMSC_S]).po.(stor[REL&SEMSC_S]) +
    /// (stor[ACQ&SEMSC_S]).po.(stor[SC_S+SEMSC_S]))`). ithb_S is this closure with the
    /// candidate's sw pairs added ([`ithb`]).
    pub ithb_static: Vec<(u8, EventSet, Rel)>,
    /// `conflicting` is empty (every conflicting pair is mutually ordered, as in tests
    /// of atomics only): then `dr` is empty whatever locord is.
    pub no_conflicts: bool,
    /// `ssg & avvisinc`, `swg & avvisinc`, `sqf & avvisinc`.
    pub ssg_inc: Rel,
    pub swg_inc: Rel,
    pub sqf_inc: Rel,
    /// `(stor[W-PRIV]) . (rc[po] & avvisinc)`: the start of every non-device locord WaW/RaW.
    pub w_np_po_inc: Rel,
    /// `(rc[po] & avvisinc) . (stor[R-PRIV])`: the end of every non-device locord RaW.
    pub po_inc_r_np: Rel,
    /// `w_np_po_inc . avsg` (avsg is `stor[AVSG]`): the static start of the subgroup
    /// domain's locord terms.
    pub w_np_po_inc_avsg: Rel,
    /// `vissg . po_inc_r_np` (vissg is `stor[VISSG]`): the static end of its RaW term.
    pub vissg_po_inc_r_np: Rel,
    /// `(stor[R]) . ^ssw . (stor[R+W])`
    pub ssw_term: Rel,
    /// `sloc . (stor[W])`, for fr's RFINIT term.
    pub sloc_w: Rel,
    /// `(W -> W)`
    pub ww: Rel,
    /// `sloc & ((W -> W) + (W -> R) + (R -> W) - mutordatom - iden)`: dr before locord.
    pub conflicting: Rel,
    pub r_np: EventSet,
    pub w_np: EventSet,
    pub rw_np: EventSet,
    pub rw: EventSet,
    /// `R - A`
    pub r_na: EventSet,
    /// Chains are supported (`chains = EV->EV`), so `chains & r` is `r`.
    pub full_chains: bool,
    /// The program-order pairs the plain model's locord has between two accesses of one
    /// location in a thread, kept by the MMRA variant (None without it): `po & sref`
    /// (the single-thread term) and `(stor[R-PRIV]) . po . (stor[R+W-PRIV])` (the RaR/WaR
    /// term, which needs no sref: an access through an alias).
    pub mmra_po_coherence: Option<Rel>,
}

impl StaticTerms {
    pub fn new(s: &Statics) -> StaticTerms {
        let rel_f = s.rel.inter(&s.f);
        let acq_f = s.acq.inter(&s.f);
        // (stor[REL&F]) . posemtosc . (stor[A&W])
        let fence_release = s.posemtosc.restrict(&rel_f, &s.a.inter(&s.w));
        // (stor[ACQ&A]) + (stor[A&R]) . posctosem . (stor[ACQ&F])
        let acquire =
            Rel::stor(&s.acq.inter(&s.a)).union(&s.posctosem.restrict(&s.a.inter(&s.r), &acq_f));
        let ithb_static = class_subsets(s.classes_in_use)
            .into_iter()
            .map(|mask| {
                let (sc_s, semsc_s) = class_sets(s, mask);
                let sc_or_sem = sc_s.union(&semsc_s);
                // po_hb: po, or only its compatible pairs in the MMRA variant.
                let stat = s
                    .ssw
                    .union(&s.po_hb.restrict(&sc_or_sem, &s.rel.inter(&semsc_s)))
                    .union(&s.po_hb.restrict(&s.acq.inter(&semsc_s), &sc_or_sem))
                    .plus();
                (mask, semsc_s, stat)
            })
            .collect();
        let rw = s.r.union(&s.w);
        let r_np = s.r.minus(&s.priv_);
        let w_np = s.w.minus(&s.priv_);
        // rc[po] & avvisinc: the program order by which a release's or acquire's
        // semav/semvis includes an access. The MMRA variant drops incompatible pairs here
        // too (docs/mmra.md "Availability and visibility"); otherwise po_hb is po.
        let po_inc = if s.mmra {
            s.po_hb.opt().inter(&s.avvisinc)
        } else {
            s.po_opt.inter(&s.avvisinc)
        };
        let mmra_po_coherence = s.mmra.then(|| {
            s.po.inter(&s.sref)
                .union(&s.po.restrict(&r_np, &rw.minus(&s.priv_)))
        });
        let conflicting = Rel::cross(&s.w, &s.w)
            .union(&Rel::cross(&s.w, &s.r))
            .union(&Rel::cross(&s.r, &s.w))
            .minus(&s.mutordatom)
            .minus(&s.iden)
            .inter(&s.sloc);
        StaticTerms {
            no_conflicts: conflicting.is_empty(),
            cbar_sw: cbar_sw(s).inter(&s.inscope),
            fence_release,
            acquire,
            ithb_static,
            ssg_inc: s.same_level[0].inter(&s.avvisinc),
            swg_inc: s.same_level[1].inter(&s.avvisinc),
            sqf_inc: s.same_level[2].inter(&s.avvisinc),
            w_np_po_inc_avsg: po_inc.restrict(&w_np, &s.avsg),
            vissg_po_inc_r_np: po_inc.restrict(&s.vissg, &r_np),
            w_np_po_inc: po_inc.restrict_domain(&w_np),
            po_inc_r_np: po_inc.restrict_range(&r_np),
            ssw_term: s.ssw_plus.restrict(&s.r, &rw),
            sloc_w: s.sloc.restrict_range(&s.w),
            ww: Rel::cross(&s.w, &s.w),
            conflicting,
            rw_np: rw.minus(&s.priv_),
            r_na: s.r.minus(&s.a),
            rw,
            r_np,
            w_np,
            full_chains: s.chains == Rel::full(s.n),
            mmra_po_coherence,
        }
    }

    /// `(chains & r) . (stor[set])`, computed as `chains & (r :> set)` (the same relation:
    /// a range restriction is an intersection with `E -> set`).
    fn chains_to(&self, s: &Statics, r: &Rel, set: &EventSet) -> Rel {
        let mut x = r.restrict_range(set);
        if !self.full_chains {
            x.inter_with(&s.chains);
        }
        x
    }

    /// `(stor[set]) . (chains & r)`, computed as `chains & (set <: r)`.
    fn chains_from(&self, s: &Statics, set: &EventSet, r: &Rel) -> Rel {
        let mut x = r.restrict_domain(set);
        if !self.full_chains {
            x.inter_with(&s.chains);
        }
        x
    }
}

/// `SC_S = ∪ SCi` and `SEMSC_S = ∩ SEMSCi` over the classes i of `mask`.
fn class_sets(s: &Statics, mask: u8) -> (EventSet, EventSet) {
    let mut sc_s = EventSet::new(s.n);
    let mut semsc_s = EventSet::full(s.n);
    for i in 0..CLASSES {
        if mask & (1 << i) != 0 {
            sc_s.union_with(&s.sc[i]);
            semsc_s.inter_with(&s.semsc[i]);
        }
    }
    (sc_s, semsc_s)
}

/// The non-empty subsets of the storage classes in use, as masks. With no class in use
/// there is still one (class 0 alone, whose ithb is `^ssw`): Alloy's ithb relations always
/// contain `^ssw`, and hb must too.
pub fn class_subsets(in_use: u8) -> Vec<u8> {
    if in_use == 0 {
        return vec![1];
    }
    (1..16u8).filter(|m| m & !in_use == 0).collect()
}

/// The parts that depend on asmo but not on rf.
#[derive(Debug, Clone)]
pub struct AsmoTerms {
    pub rs: Rel,
    pub hypors: Rel,
    /// `(stor[REL&A]) . rs + (stor[REL&F]) . posemtosc . (stor[A&W]) . hypors`: the
    /// release side of the four rf-based sw terms.
    pub release: Rel,
    /// When sw cannot depend on rf with these terms: every derived relation but `fr`, the
    /// same for every candidate (see [`AsmoTerms::new`]). Its `fr` field is the empty
    /// rf's and is not to be read: [`Derived::fr_given`] computes a candidate's.
    pub rf_free: Option<Box<Derived>>,
}

impl AsmoTerms {
    /// The asmo terms, and the relations that then do not depend on rf if sw does not.
    ///
    /// Why `rf_free` is exact: sw's rf terms are `inscope & (release . (rf & mutordatom) .
    /// acquire)`, contained (`.` and `&` are monotone, `rf & mutordatom` is within
    /// `mutordatom`) in `inscope & (release . mutordatom . acquire)`. When that is empty,
    /// sw is its static fence->cbar->cbar->fence term for every rf, and every derived
    /// relation but `fr` is a function of sw, the static terms and these asmo terms only
    /// (ithb, hb, the av/vis chains, locord, dr; rs and hypors are asmo terms), so it is
    /// the same as for the empty rf. Relaxed tests (no release or no acquire) have it:
    /// their per-candidate work is `fr` and the two axioms.
    pub fn new(s: &Statics, t: &StaticTerms, asmo: &Rel) -> AsmoTerms {
        let rs = rs(s, asmo);
        let hypors = hypors(s, asmo);
        let release = rs
            .restrict_domain(&s.rel.inter(&s.a))
            .union(&t.fence_release.seq(&hypors));
        let mut terms = AsmoTerms {
            rs,
            hypors,
            release,
            rf_free: None,
        };
        let mut rf_bound = terms.release.seq(&s.mutordatom).seq(&t.acquire);
        rf_bound.inter_with(&s.inscope);
        if rf_bound.is_empty() {
            let no_rf = Rel::empty(s.n);
            let no_init = EventSet::new(s.n);
            let c = Candidate {
                rf: &no_rf,
                rfinit: &no_init,
                asmo,
            };
            terms.rf_free = Some(Box::new(Derived::compute_with(s, t, &terms, c)));
        }
        terms
    }
}

/// `(imm[asmo]) . (stor[R&W])`, shared by rs and hypors.
fn rmw_successors(s: &Statics, asmo: &Rel) -> Rel {
    let rmw = s.r.inter(&s.w);
    if rmw.is_empty() {
        // Restricted to an empty range: empty, without computing imm (a closure of asmo).
        return Rel::empty(s.n);
    }
    asmo.imm().restrict_range(&rmw)
}

/// `rs = (stor[REL&A]) . *((imm[asmo]) . (stor[R&W]))`
pub fn rs(s: &Statics, asmo: &Rel) -> Rel {
    rmw_successors(s, asmo)
        .star()
        .restrict_domain(&s.rel.inter(&s.a))
}

/// `hypors = (stor[W&A]) . *((imm[asmo]) . (stor[R&W]))`
pub fn hypors(s: &Statics, asmo: &Rel) -> Rel {
    rmw_successors(s, asmo)
        .star()
        .restrict_domain(&s.w.inter(&s.a))
}

/// The static `fence->cbar->cbar->fence` term of sw:
/// `(stor[REL&F]) . (rc[po]) . (stor[CBAR]) . (scbarinst & inscope - iden) . (stor[CBAR])
///  . (rc[po]) . (stor[ACQ&F])`
pub fn cbar_sw(s: &Statics) -> Rel {
    let meet = s
        .scbarinst
        .inter(&s.inscope)
        .minus(&s.iden)
        .restrict(&s.cbar, &s.cbar);
    s.po_opt
        .restrict_domain(&s.rel.inter(&s.f))
        .seq(&meet)
        .seq(&s.po_opt.restrict_range(&s.acq.inter(&s.f)))
}

/// `sw = inscope & (
///   ((stor[REL&A]) . rs . (rf & mutordatom) . (stor[ACQ&A])) +                     atomic->atomic
///   ((stor[REL&F]) . posemtosc . (stor[A&W]) . hypors . (rf & mutordatom) . (stor[ACQ&A])) +  fence->atomic
///   ((stor[REL&A]) . rs . (rf & mutordatom) . (stor[A&R]) . posctosem . (stor[ACQ&F])) +      atomic->fence
///   ((stor[REL&F]) . posemtosc . (stor[A&W]) . hypors . (rf & mutordatom) . (stor[A&R]) . posctosem . (stor[ACQ&F])) +
///   fence->cbar->cbar->fence)`
///
/// The four rf terms factor as `release . (rf & mutordatom) . acquire`.
pub fn sw(s: &Statics, t: &StaticTerms, a: &AsmoTerms, rf: &Rel) -> Rel {
    let rfm = rf.inter(&s.mutordatom);
    let mut sw = a.release.seq(&rfm).seq(&t.acquire).inter(&s.inscope);
    sw.union_with(&t.cbar_sw);
    sw
}

/// `ithbsemscS = ^(ssw + (stor[SEMSC_S]).sw.(stor[SEMSC_S]) +
///   (stor[SC_S+SEMSC_S]).po.(stor[REL&SEMSC_S]) + (stor[ACQ&SEMSC_S]).po.(stor[SC_S+SEMSC_S]))`
/// (semantics.md's generalisation of ithbsemsc0/1/01), given `static_closure`, the
/// closure of the three static summands: `^(S + E) = (^S + E)+`, so the candidate's sw
/// pairs E are added to the static closure one by one (`Rel::close_adding`) instead of
/// closing the whole union again (sw has a few pairs; Warshall on n events was 22% of
/// the XF barrier's time).
pub fn ithb(sw: &Rel, semsc_s: &EventSet, static_closure: &Rel) -> Rel {
    let mut r = static_closure.clone();
    let edges = sw.restrict(semsc_s, semsc_s);
    if !edges.is_empty() {
        r.close_adding(&edges);
    }
    r
}

/// The relations derived from one candidate execution.
#[derive(Debug, Clone)]
pub struct Derived {
    pub rs: Rel,
    pub hypors: Rel,
    pub sw: Rel,
    /// `ithb_S` for each non-empty subset S of the storage classes in use, with S's mask.
    pub ithb: Vec<(u8, Rel)>,
    pub hb: Rel,
    pub avsg: Rel,
    pub avwg: Rel,
    pub avqf: Rel,
    pub avsh: Rel,
    pub avdv: Rel,
    pub vissg: Rel,
    pub viswg: Rel,
    pub visqf: Rel,
    pub vissh: Rel,
    pub visdv: Rel,
    pub locord: Rel,
    pub fr: Rel,
    pub dr: Rel,
}

impl Derived {
    /// Computes every derived relation of a candidate.
    pub fn compute(s: &Statics, c: Candidate<'_>) -> Derived {
        let t = StaticTerms::new(s);
        let a = AsmoTerms::new(s, &t, c.asmo);
        Derived::compute_with(s, &t, &a, c)
    }

    /// Computes every derived relation, given the precomputed static and asmo terms.
    pub fn compute_with(s: &Statics, t: &StaticTerms, a: &AsmoTerms, c: Candidate<'_>) -> Derived {
        Derived::compute_from_sw(s, t, a, c, sw(s, t, a, c.rf))
    }

    /// [`Derived::compute_with`] given the candidate's `sw` ([`sw`]). Every relation but
    /// `fr` is a function of `sw`, the static terms and the asmo terms only: two
    /// candidates with the same asmo terms and the same `sw` have the same relations but
    /// `fr` (what the search's incremental check relies on).
    pub fn compute_from_sw(
        s: &Statics,
        t: &StaticTerms,
        a: &AsmoTerms,
        c: Candidate<'_>,
        sw: Rel,
    ) -> Derived {
        let ithb: Vec<(u8, Rel)> = t
            .ithb_static
            .iter()
            .map(|(m, semsc, stat)| (*m, ithb(&sw, semsc, stat)))
            .collect();
        // hb = ithbsemsc0 + ithbsemsc1 + ithbsemsc01 + po (every subset of classes);
        // po_hb is po, or its compatible pairs in the MMRA variant (docs/mmra.md).
        let mut hb = s.po_hb.clone();
        for (_, r) in &ithb {
            hb.union_with(r);
        }

        // hb & X & avvisinc: a step of an availability/visibility chain within group X.
        let step_sg = hb.inter(&t.ssg_inc);
        let step_wg = hb.inter(&t.swg_inc);
        let step_qf = hb.inter(&t.sqf_inc);
        // avsg = stor[AVSG]
        let avsg = Rel::stor(&s.avsg);
        // avwg = (chains & (rc[avsg . (hb & ssg & avvisinc)])) . (stor[AVWG])
        let from_sg = step_sg.restrict_domain(&s.avsg).opt();
        let avwg = t.chains_to(s, &from_sg, &s.avwg);
        // avqf = (chains & (rc[avsg . (hb & ssg & avvisinc)]) . (rc[avwg . (hb & swg & avvisinc)])) . (stor[AVQF])
        let from_wg = avwg.seq(&step_wg).opt();
        let from_sg_wg = from_sg.seq(&from_wg);
        let avqf = t.chains_to(s, &from_sg_wg, &s.avqf);
        // avsh = (chains & (rc[avsg . ...]) . (rc[avwg . ...]) . (rc[avqf . (hb & sqf & avvisinc)])) . (stor[AVSHADER])
        let from_qf = avqf.seq(&step_qf).opt();
        let avsh = t.chains_to(s, &from_sg_wg.seq(&from_qf), &s.avshader);
        // avdv = stor[AVDEVICE]
        let avdv = Rel::stor(&s.avdevice);
        // vissg = stor[VISSG]
        let vissg = Rel::stor(&s.vissg);
        // viswg = (stor[VISWG]) . (chains & (rc[(hb & ssg & avvisinc) . vissg]))
        let to_sg = step_sg.restrict_range(&s.vissg).opt();
        let viswg = t.chains_from(s, &s.viswg, &to_sg);
        // visqf = (stor[VISQF]) . (chains & (rc[(hb & swg & avvisinc) . viswg]) . (rc[(hb & ssg & avvisinc) . vissg]))
        let to_wg = step_wg.seq(&viswg).opt();
        let to_wg_sg = to_wg.seq(&to_sg);
        let visqf = t.chains_from(s, &s.visqf, &to_wg_sg);
        // vissh = (stor[VISSHADER]) . (chains & (rc[(hb & sqf & avvisinc) . visqf]) . (rc[... viswg]) . (rc[... vissg]))
        let to_qf = step_qf.seq(&visqf).opt();
        let vissh = t.chains_from(s, &s.visshader, &to_qf.seq(&to_wg_sg));
        // visdv = stor[VISDEVICE]
        let visdv = Rel::stor(&s.visdevice);

        let chains = Chains {
            avwg: &avwg,
            avqf: &avqf,
            avsh: &avsh,
            viswg: &viswg,
            visqf: &visqf,
            vissh: &vissh,
        };
        let locord = locord(s, t, &hb, &chains);
        let fr = fr(s, t, c, &locord);
        let dr = dr(t, &locord);
        Derived {
            rs: a.rs.clone(),
            hypors: a.hypors.clone(),
            sw,
            ithb,
            hb,
            avsg,
            avwg,
            avqf,
            avsh,
            avdv,
            vissg,
            viswg,
            visqf,
            vissh,
            visdv,
            locord,
            fr,
            dr,
        }
    }

    /// `pred consistent`: `is_acyclic[locord + rf + fr + asmo]` and
    /// `no (rf . (stor[R - A])) & twoplus[stor[W] . locord]`.
    pub fn consistent(&self, s: &Statics, c: Candidate<'_>) -> bool {
        Derived::consistent_given(s, c, &self.locord, &self.fr)
    }

    /// A candidate's `fr`, given its `locord` (as computed by [`Derived::compute_with`]).
    pub fn fr_given(s: &Statics, t: &StaticTerms, c: Candidate<'_>, locord: &Rel) -> Rel {
        fr(s, t, c, locord)
    }

    /// [`Derived::consistent`] from a candidate's `locord` and `fr` alone (the only
    /// derived relations the axioms read).
    pub fn consistent_given(s: &Statics, c: Candidate<'_>, locord: &Rel, fr: &Rel) -> bool {
        let mut order = locord.union(c.rf);
        order.union_with(fr);
        order.union_with(c.asmo);
        if !order.is_acyclic() {
            return false;
        }
        let nonatomic_rf = c.rf.restrict_range(&s.r.minus(&s.a));
        // No non-atomic read has a source: the intersection is empty whatever locord is.
        if nonatomic_rf.is_empty() {
            return true;
        }
        // Reachability from the few rf sources instead of the whole twoplus.
        !locord.restrict_domain(&s.w).twoplus_meets(&nonatomic_rf)
    }

    /// `pred racefree`: `no dr`.
    pub fn racy(&self) -> bool {
        !self.dr.is_empty()
    }

    /// `visto = imm[(stor[W]) . locord] . (stor[R])`
    pub fn visto(&self, s: &Statics) -> Rel {
        self.locord.restrict_domain(&s.w).imm().restrict_range(&s.r)
    }
}

/// The av/vis chains locord uses.
/// (`avsg` and `vissg` are `stor[..]`, folded into `StaticTerms`.)
struct Chains<'a> {
    avwg: &'a Rel,
    avqf: &'a Rel,
    avsh: &'a Rel,
    viswg: &'a Rel,
    visqf: &'a Rel,
    vissh: &'a Rel,
}

/// `locord = sloc & ( (hb & sthd & sref) + ... )`: the location-ordered pairs, term by term.
fn locord(s: &Statics, t: &StaticTerms, hb: &Rel, c: &Chains<'_>) -> Rel {
    // (hb & sthd & sref)  -- single-thread case
    let mut all = hb.inter(&s.sthd);
    all.inter_with(&s.sref);
    // The MMRA variant keeps single-location coherence within a thread (seed 003: a
    // reordering may not break it): the pairs the single-thread and RaR/WaR terms below
    // have by po stay in locord even where the tags take po out of hb, whether the two
    // accesses use one reference or aliases. Without the variant, hb already contains po.
    if let Some(po_coherence) = &t.mmra_po_coherence {
        all.union_with(po_coherence);
    }
    // (stor[R]) . ^ssw . (stor[R+W])  -- RaR, WaR (any)
    all.union_with(&t.ssw_term);
    // (stor[R-PRIV]) . hb . (stor[R+W-PRIV])  -- RaR, WaR (non-private)
    all.union_with(&hb.restrict(&t.r_np, &t.rw_np));

    // WaW / RaW via the subgroup, workgroup, queue family and shader domains, each
    // `sref & ...`: gathered in `via` and intersected with sref once ((a & sref) + (b &
    // sref) = (a + b) & sref). With prefix = (stor[W-PRIV]) . (rc[po] & avvisinc) . avX .
    // (hb & sX) (hb unrestricted for the shader domain):
    //   WaW: prefix . (stor[W-PRIV])
    //   RaW: prefix . visX . (rc[po] & avvisinc) . (stor[R-PRIV])
    // An empty prefix adds nothing.
    let mut via = Rel::empty(s.n);
    let mut add = |prefix: Rel, vis_po_r: &Rel| {
        if prefix.is_empty() {
            return;
        }
        via.union_with(&prefix.restrict_range(&t.w_np));
        via.union_with(&prefix.seq(vis_po_r));
    };
    // Subgroup: avsg and vissg are stor[AVSG] and stor[VISSG], so the prefix starts and
    // the RaW tail ends with static relations (StaticTerms).
    add(
        t.w_np_po_inc_avsg.seq(&hb.inter(&s.same_level[0])),
        &t.vissg_po_inc_r_np,
    );
    let avwg = t.w_np_po_inc.seq(c.avwg);
    if !avwg.is_empty() {
        add(
            avwg.seq(&hb.inter(&s.same_level[1])),
            &c.viswg.seq(&t.po_inc_r_np),
        );
    }
    let avqf = t.w_np_po_inc.seq(c.avqf);
    if !avqf.is_empty() {
        add(
            avqf.seq(&hb.inter(&s.same_level[2])),
            &c.visqf.seq(&t.po_inc_r_np),
        );
    }
    let avsh = t.w_np_po_inc.seq(c.avsh);
    if !avsh.is_empty() {
        add(avsh.seq(hb), &c.vissh.seq(&t.po_inc_r_np));
    }
    via.inter_with(&s.sref);
    all.union_with(&via);

    // (hb & avvisinc)
    let hb_inc = hb.inter(&s.avvisinc);
    // (stor[W]) . (hb & avvisinc) . avdv . (hb)
    let via_dv = hb_inc.restrict(&s.w, &s.avdevice).seq(hb);
    // ( (stor[W]) . (hb & avvisinc) . avdv . (hb ) . (stor[W]))  -- WaW via device domain
    all.union_with(&via_dv.restrict_range(&s.w));
    // ( (stor[W]) . (hb & avvisinc) . avdv . (hb ) . visdv . (hb & avvisinc) . (stor[R]))
    all.union_with(
        &via_dv
            .restrict_range(&s.visdevice)
            .seq(&hb_inc.restrict_range(&s.r)),
    );
    all.inter_with(&s.sloc);
    all
}

/// `fr = (~rf . ((W -> W) & locord)) + (~rf . asmo) + ((stor[RFINIT]) . sloc . (stor[W])) - iden`
fn fr(s: &Statics, t: &StaticTerms, c: Candidate<'_>, locord: &Rel) -> Rel {
    // ~rf . ((W -> W) & locord) + ~rf . asmo, as ~rf . (((W -> W) & locord) + asmo).
    let mut later = t.ww.inter(locord);
    later.union_with(c.asmo);
    let mut fr = c.rf.inv().seq(&later);
    fr.union_with(&t.sloc_w.restrict_domain(c.rfinit));
    fr.minus_with(&s.iden);
    fr
}

/// `dr = sloc & ((W -> W) + (W -> R) + (R -> W) - mutordatom - iden - rai[locord])`
fn dr(t: &StaticTerms, locord: &Rel) -> Rel {
    if t.no_conflicts {
        // Nothing to subtract from.
        return Rel::empty(locord.n());
    }
    t.conflicting.minus(&locord.rai())
}
