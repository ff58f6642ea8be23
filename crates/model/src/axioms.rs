//! The dynamic relations and predicates of the Alloy model (`spirv.als`), one function or
//! field per Alloy definition, with the same name. Each comment quotes the Alloy line.
//!
//! Inputs are the [`Statics`] of a path combination and a candidate's `rf`, `RFINIT` and
//! `asmo`. Alloy's `.` is [`Rel::seq`], `+` `union`, `&` `inter`, `-` `minus`, `~` `inv`,
//! `^` `plus`, `*` `star`, `stor[s]` [`Rel::stor`], `A -> B` [`Rel::cross`].

use crate::execution::{Statics, CLASSES};
use crate::rel::Rel;
use crate::set::EventSet;

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

/// A candidate: the dynamic relations chosen by the enumerator.
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'a> {
    pub rf: &'a Rel,
    pub rfinit: &'a EventSet,
    pub asmo: &'a Rel,
}

/// `rs = (stor[REL&A]) . *((imm[asmo]) . (stor[R&W]))`
pub fn rs(s: &Statics, asmo: &Rel) -> Rel {
    Rel::stor(&s.rel.inter(&s.a)).seq(&rmw_successors(s, asmo).star())
}

/// `hypors = (stor[W&A]) . *((imm[asmo]) . (stor[R&W]))`
pub fn hypors(s: &Statics, asmo: &Rel) -> Rel {
    Rel::stor(&s.w.inter(&s.a)).seq(&rmw_successors(s, asmo).star())
}

/// `(imm[asmo]) . (stor[R&W])`, shared by rs and hypors.
fn rmw_successors(s: &Statics, asmo: &Rel) -> Rel {
    asmo.imm().seq(&Rel::stor(&s.r.inter(&s.w)))
}

/// `sw = inscope & ( atomic->atomic + fence->atomic + atomic->fence + fence->fence +
/// fence->cbar->cbar->fence )`
pub fn sw(s: &Statics, rs: &Rel, hypors: &Rel, rf: &Rel) -> Rel {
    let st = Rel::stor;
    let rel_a = st(&s.rel.inter(&s.a));
    let rel_f = st(&s.rel.inter(&s.f));
    let acq_a = st(&s.acq.inter(&s.a));
    let acq_f = st(&s.acq.inter(&s.f));
    let a_w = st(&s.a.inter(&s.w));
    let a_r = st(&s.a.inter(&s.r));
    // rf & mutordatom
    let rfm = rf.inter(&s.mutordatom);
    // release side: (stor[REL&A]) . rs   or   (stor[REL&F]) . posemtosc . (stor[A&W]) . hypors
    let from_atomic = rel_a.seq(rs);
    let from_fence = rel_f.seq(&s.posemtosc).seq(&a_w).seq(hypors);
    // acquire side: (stor[ACQ&A])   or   (stor[A&R]) . posctosem . (stor[ACQ&F])
    let to_fence = a_r.seq(&s.posctosem).seq(&acq_f);
    let release = from_atomic.union(&from_fence);
    let acquire = acq_a.union(&to_fence);
    // The four atomic/fence combinations factor as release . rfm . acquire.
    let through_rf = release.seq(&rfm).seq(&acquire);
    through_rf.union(&cbar_sw(s)).inter(&s.inscope)
}

/// The static `fence->cbar->cbar->fence` term of sw:
/// `(stor[REL&F]) . (rc[po]) . (stor[CBAR]) . (scbarinst & inscope - iden) . (stor[CBAR])
///  . (rc[po]) . (stor[ACQ&F])`
pub fn cbar_sw(s: &Statics) -> Rel {
    let st = Rel::stor;
    let meet = s.scbarinst.inter(&s.inscope).minus(&s.iden);
    st(&s.rel.inter(&s.f))
        .seq(&s.po_opt)
        .seq(&st(&s.cbar))
        .seq(&meet)
        .seq(&st(&s.cbar))
        .seq(&s.po_opt)
        .seq(&st(&s.acq.inter(&s.f)))
}

/// `ithbsemscS = ^(ssw + (stor[SEMSC_S]).sw.(stor[SEMSC_S]) +
///   (stor[SC_S+SEMSC_S]).po.(stor[REL&SEMSC_S]) + (stor[ACQ&SEMSC_S]).po.(stor[SC_S+SEMSC_S]))`
/// with `SC_S = ∪ SCi` and `SEMSC_S = ∩ SEMSCi` over i in S (semantics.md).
pub fn ithb(s: &Statics, sw: &Rel, mask: u8) -> Rel {
    let mut sc_s = EventSet::new(s.n);
    let mut semsc_s = EventSet::full(s.n);
    for i in 0..CLASSES {
        if mask & (1 << i) != 0 {
            sc_s.union_with(&s.sc[i]);
            semsc_s.inter_with(&s.semsc[i]);
        }
    }
    let st = Rel::stor;
    let sc_or_sem = st(&sc_s.union(&semsc_s));
    s.ssw
        .union(&st(&semsc_s).seq(sw).seq(&st(&semsc_s)))
        .union(&sc_or_sem.seq(&s.po).seq(&st(&s.rel.inter(&semsc_s))))
        .union(&st(&s.acq.inter(&semsc_s)).seq(&s.po).seq(&sc_or_sem))
        .plus()
}

/// The non-empty subsets of the storage classes in use, as masks.
pub fn class_subsets(in_use: u8) -> Vec<u8> {
    (1..16u8).filter(|m| m & !in_use == 0).collect()
}

/// `hb = ithbsemsc0 + ithbsemsc1 + ithbsemsc01 + po` (generalised to every subset).
pub fn hb(s: &Statics, ithb: &[(u8, Rel)]) -> Rel {
    ithb.iter().fold(s.po.clone(), |acc, (_, r)| acc.union(r))
}

/// `hb & X & avvisinc`, the step of an availability/visibility chain within group X.
fn chain_step(hb: &Rel, group: &Rel, s: &Statics) -> Rel {
    hb.inter(group).inter(&s.avvisinc)
}

impl Derived {
    /// Computes every derived relation of a candidate.
    pub fn compute(s: &Statics, c: Candidate<'_>) -> Derived {
        let st = Rel::stor;
        let rs = rs(s, c.asmo);
        let hypors = hypors(s, c.asmo);
        let sw = sw(s, &rs, &hypors, c.rf);
        let ithb: Vec<(u8, Rel)> = class_subsets(s.classes_in_use)
            .into_iter()
            .map(|m| (m, ithb(s, &sw, m)))
            .collect();
        let hb = hb(s, &ithb);

        let step_sg = chain_step(&hb, &s.ssg, s);
        let step_wg = chain_step(&hb, &s.swg, s);
        let step_qf = chain_step(&hb, &s.sqf, s);
        // avsg = stor[AVSG]
        let avsg = st(&s.avsg);
        // avwg = (chains & (rc[avsg . (hb & ssg & avvisinc)])) . (stor[AVWG])
        let from_sg = avsg.seq(&step_sg).opt();
        let avwg = s.chains.inter(&from_sg).seq(&st(&s.avwg));
        // avqf = (chains & (rc[avsg . (hb & ssg & avvisinc)]) . (rc[avwg . (hb & swg & avvisinc)])) . (stor[AVQF])
        let from_wg = avwg.seq(&step_wg).opt();
        let avqf = s.chains.inter(&from_sg.seq(&from_wg)).seq(&st(&s.avqf));
        // avsh = (chains & (rc[avsg . ...]) . (rc[avwg . ...]) . (rc[avqf . (hb & sqf & avvisinc)])) . (stor[AVSHADER])
        let from_qf = avqf.seq(&step_qf).opt();
        let avsh = s
            .chains
            .inter(&from_sg.seq(&from_wg).seq(&from_qf))
            .seq(&st(&s.avshader));
        // avdv = stor[AVDEVICE]
        let avdv = st(&s.avdevice);
        // vissg = stor[VISSG]
        let vissg = st(&s.vissg);
        // viswg = (stor[VISWG]) . (chains & (rc[(hb & ssg & avvisinc) . vissg]))
        let to_sg = step_sg.seq(&vissg).opt();
        let viswg = st(&s.viswg).seq(&s.chains.inter(&to_sg));
        // visqf = (stor[VISQF]) . (chains & (rc[(hb & swg & avvisinc) . viswg]) . (rc[(hb & ssg & avvisinc) . vissg]))
        let to_wg = step_wg.seq(&viswg).opt();
        let visqf = st(&s.visqf).seq(&s.chains.inter(&to_wg.seq(&to_sg)));
        // vissh = (stor[VISSHADER]) . (chains & (rc[(hb & sqf & avvisinc) . visqf]) . (rc[... viswg]) . (rc[... vissg]))
        let to_qf = step_qf.seq(&visqf).opt();
        let vissh = st(&s.visshader).seq(&s.chains.inter(&to_qf.seq(&to_wg).seq(&to_sg)));
        // visdv = stor[VISDEVICE]
        let visdv = st(&s.visdevice);

        let locord = locord(
            s,
            &hb,
            [&avsg, &avwg, &avqf, &avsh, &avdv],
            [&vissg, &viswg, &visqf, &vissh, &visdv],
        );
        let fr = fr(s, c, &locord);
        let dr = dr(s, &locord);
        Derived {
            rs,
            hypors,
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
        let order = self.locord.union(c.rf).union(&self.fr).union(c.asmo);
        if !order.is_acyclic() {
            return false;
        }
        let nonatomic_rf = c.rf.seq(&Rel::stor(&s.r.minus(&s.a)));
        let shadowed = Rel::stor(&s.w).seq(&self.locord).twoplus();
        nonatomic_rf.inter(&shadowed).is_empty()
    }

    /// `pred racefree`: `no dr`.
    pub fn racy(&self) -> bool {
        !self.dr.is_empty()
    }

    /// `visto = imm[(stor[W]) . locord] . (stor[R])`
    pub fn visto(&self, s: &Statics) -> Rel {
        Rel::stor(&s.w)
            .seq(&self.locord)
            .imm()
            .seq(&Rel::stor(&s.r))
    }
}

/// `locord = sloc & ( (hb & sthd & sref) + ... )`: the location-ordered pairs, term by term.
fn locord(s: &Statics, hb: &Rel, av: [&Rel; 5], vis: [&Rel; 5]) -> Rel {
    let st = Rel::stor;
    let [avsg, avwg, avqf, avsh, avdv] = av;
    let [vissg, viswg, visqf, vissh, visdv] = vis;
    let r_np = st(&s.r.minus(&s.priv_)); // stor[R-PRIV]
    let w_np = st(&s.w.minus(&s.priv_)); // stor[W-PRIV]
    let rw_np = st(&s.r.union(&s.w).minus(&s.priv_)); // stor[R+W-PRIV]
    let stw = st(&s.w);
    let str_ = st(&s.r);
    // rc[po] & avvisinc
    let po_inc = s.po_opt.inter(&s.avvisinc);
    // hb & avvisinc
    let hb_inc = hb.inter(&s.avvisinc);
    let hb_ssg = hb.inter(&s.ssg);
    let hb_swg = hb.inter(&s.swg);
    let hb_sqf = hb.inter(&s.sqf);
    // (stor[W-PRIV]) . (rc[po] & avvisinc) . avX . (hb & sX)   -- the shared prefix
    let waw_rw = |avx: &Rel, hbx: &Rel| w_np.seq(&po_inc).seq(avx).seq(hbx);
    let waw = |avx: &Rel, hbx: &Rel| s.sref.inter(&waw_rw(avx, hbx).seq(&w_np));
    let raw = |avx: &Rel, hbx: &Rel, visx: &Rel| {
        s.sref
            .inter(&waw_rw(avx, hbx).seq(visx).seq(&po_inc).seq(&r_np))
    };
    let terms = [
        // (hb & sthd & sref)  -- single-thread case
        hb.inter(&s.sthd).inter(&s.sref),
        // (stor[R-PRIV]) . hb . (stor[R+W-PRIV])  -- RaR, WaR (non-private)
        r_np.seq(hb).seq(&rw_np),
        // (stor[R]) . ^ssw . (stor[R+W])  -- RaR, WaR (any)
        str_.seq(&s.ssw_plus).seq(&st(&s.r.union(&s.w))),
        // WaW / RaW via subgroup instance domain
        waw(avsg, &hb_ssg),
        raw(avsg, &hb_ssg, vissg),
        // via workgroup instance domain
        waw(avwg, &hb_swg),
        raw(avwg, &hb_swg, viswg),
        // via queue family instance domain
        waw(avqf, &hb_sqf),
        raw(avqf, &hb_sqf, visqf),
        // via shader domain: hb unrestricted
        waw(avsh, hb),
        raw(avsh, hb, vissh),
        // ( (stor[W]) . (hb & avvisinc) . avdv . (hb ) . (stor[W]))  -- WaW via device domain
        stw.seq(&hb_inc).seq(avdv).seq(hb).seq(&stw),
        // ( (stor[W]) . (hb & avvisinc) . avdv . (hb ) . visdv . (hb & avvisinc) . (stor[R]))
        stw.seq(&hb_inc)
            .seq(avdv)
            .seq(hb)
            .seq(visdv)
            .seq(&hb_inc)
            .seq(&str_),
    ];
    let mut all = Rel::empty(s.n);
    for t in &terms {
        all.union_with(t);
    }
    s.sloc.inter(&all)
}

/// `fr = (~rf . ((W -> W) & locord)) + (~rf . asmo) + ((stor[RFINIT]) . sloc . (stor[W])) - iden`
fn fr(s: &Statics, c: Candidate<'_>, locord: &Rel) -> Rel {
    let ww = Rel::cross(&s.w, &s.w);
    let rf_inv = c.rf.inv();
    rf_inv
        .seq(&ww.inter(locord))
        .union(&rf_inv.seq(c.asmo))
        .union(&Rel::stor(c.rfinit).seq(&s.sloc).seq(&Rel::stor(&s.w)))
        .minus(&s.iden)
}

/// `dr = sloc & ((W -> W) + (W -> R) + (R -> W) - mutordatom - iden - rai[locord])`
fn dr(s: &Statics, locord: &Rel) -> Rel {
    let conflicting = Rel::cross(&s.w, &s.w)
        .union(&Rel::cross(&s.w, &s.r))
        .union(&Rel::cross(&s.r, &s.w));
    s.sloc.inter(
        &conflicting
            .minus(&s.mutordatom)
            .minus(&s.iden)
            .minus(&locord.rai()),
    )
}
