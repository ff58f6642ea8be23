//! A seeded generator of small random `.litmus` tests: varied shapes, scopes, semantics,
//! storage classes, RMWs, aliases, barriers and jumps. Shared by the differential tests
//! here and in crates/vkherd/tests (which includes this file).

/// xorshift64*: small, seeded, reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

const SCOPES: [&str; 4] = ["sg", "wg", "qf", "dv"];

fn semantics(rng: &mut Rng, acq: bool, rel: bool) -> String {
    let mut s = String::new();
    match rng.below(4) {
        0 => s.push_str(".semsc0"),
        1 => s.push_str(".semsc1"),
        _ => s.push_str(".semsc0.semsc1"),
    }
    if rel && rng.chance(40) {
        s.push_str(".semav");
    }
    if acq && rng.chance(40) {
        s.push_str(".semvis");
    }
    s
}

/// One random memory instruction of thread `t`.
fn instruction(rng: &mut Rng, locs: &[&str], reg: &mut u32) -> String {
    let loc = *rng.pick(locs);
    let sc = if rng.chance(80) { "sc0" } else { "sc1" };
    let scope = *rng.pick(&SCOPES);
    let val = 1 + rng.below(2);
    let mut next_reg = || {
        let r = *reg;
        *reg += 1;
        r
    };
    match rng.below(12) {
        0 => format!("ld.{sc} r{}, {loc}", next_reg()),
        1 => format!("ld.nonpriv.{sc} r{}, {loc}", next_reg()),
        2 => format!("ld.vis.{scope}.{sc} r{}, {loc}", next_reg()),
        3 => format!(
            "st.{}{sc} {loc}, {val}",
            if rng.chance(50) { "nonpriv." } else { "" }
        ),
        4 => format!("st.av.{scope}.{sc} {loc}, {val}"),
        5 => {
            if rng.chance(50) {
                format!("ld.atom.{scope}.{sc} r{}, {loc}", next_reg())
            } else {
                format!(
                    "ld.atom.acq.{scope}.{sc}{} r{}, {loc}",
                    semantics(rng, true, false),
                    next_reg()
                )
            }
        }
        6 | 7 => {
            if rng.chance(50) {
                format!("st.atom.{scope}.{sc} {loc}, {val}")
            } else {
                format!(
                    "st.atom.rel.{scope}.{sc}{} {loc}, {val}",
                    semantics(rng, false, true)
                )
            }
        }
        8 => {
            let (sem, acq, rel) = *rng.pick(&[
                ("", false, false),
                (".acq", true, false),
                (".rel", false, true),
                (".acq_rel", true, true),
            ]);
            let sems = if acq || rel {
                semantics(rng, acq, rel)
            } else {
                String::new()
            };
            let op = *rng.pick(&["", ".add", ".xor", ".or"]);
            format!(
                "rmw.atom{sem}.{scope}.{sc}{sems}{op} r{}, {loc}, {val}",
                next_reg()
            )
        }
        9 => {
            let (sem, acq, rel) = *rng.pick(&[
                (".acq", true, false),
                (".rel", false, true),
                (".acq_rel", true, true),
            ]);
            format!("membar{sem}.{scope}{}", semantics(rng, acq, rel))
        }
        10 => {
            if rng.chance(50) {
                "avdevice".into()
            } else {
                "visdevice".into()
            }
        }
        _ => format!("ld.atom.{scope}.{sc} r{}, {loc}", next_reg()),
    }
}

/// A random small test. `jumps` allows branches and spin loops.
pub fn random_test(seed: u64, jumps: bool) -> String {
    let mut rng = Rng::new(seed);
    let nthreads = 2 + rng.below(2) as usize + usize::from(rng.chance(10));
    let alias = rng.chance(15);
    let mut locs = vec!["x", "y"];
    if alias {
        locs.push("z");
    }
    let barrier = rng.chance(20);
    let barrier_text = format!(
        "cbar{}.{} 1",
        if rng.chance(70) { ".acq_rel" } else { "" },
        rng.pick(&SCOPES)
    );
    let barrier_text = if barrier_text.starts_with("cbar.acq_rel") {
        format!("{}{}", barrier_text.trim_end_matches(" 1"), ".semsc0 1")
    } else {
        barrier_text
    };
    let mut columns: Vec<Vec<String>> = Vec::new();
    let mut headers = Vec::new();
    let mut regs_of = Vec::new();
    for t in 0..nthreads {
        let (qf, wg, sg) = (rng.below(2).min(rng.below(2)), rng.below(2), rng.below(2));
        headers.push(format!("P{t}@sg {sg}, wg {wg}, qf {qf}"));
        let mut reg = 0u32;
        let mut code = Vec::new();
        let len = 1 + rng.below(3) as usize;
        for _ in 0..len {
            code.push(instruction(&mut rng, &locs, &mut reg));
        }
        if barrier && rng.chance(70) {
            let at = rng.below(code.len() as u64 + 1) as usize;
            code.insert(at, barrier_text.clone());
        }
        if jumps && reg > 0 && rng.chance(35) {
            if rng.chance(50) {
                // A spin loop on the first load: re-execute it while it reads 0.
                let first = code.iter().position(|c| c.contains(" r0,")).unwrap_or(0);
                code.insert(first, "LC00:".into());
                code.insert(first + 2, "beq r0, 0, LC00".into());
            } else {
                // A forward branch skipping the last instruction.
                let n = code.len();
                code.insert(n - 1, format!("bne r0, {}, LC01", 1 + rng.below(2)));
                code.push("LC01:".into());
            }
        }
        if reg > 0 && rng.chance(20) {
            code.push(format!("add r{reg}, r0, 1"));
            code.push(format!("st.atom.dv.sc0 y, r{reg}"));
            reg += 1;
        }
        regs_of.push(reg);
        columns.push(code);
    }
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
    let mut text = format!("VULKAN random-{seed}\n\"generated\"\n{{ x = 0; y = 0;");
    if alias {
        text.push_str(" z aliases x;");
    }
    text.push_str(" }\n");
    if rng.chance(10) {
        text.push_str("{ ssw 0 1; }\n");
    }
    text.push_str(&headers.join(" | "));
    text.push_str(" ;\n");
    for r in 0..rows {
        let cells: Vec<&str> = columns
            .iter()
            .map(|c| c.get(r).map_or("", String::as_str))
            .collect();
        text.push_str(&cells.join(" | "));
        text.push_str(" ;\n");
    }
    let mut shown = vec!["x".to_string(), "y".to_string()];
    for (t, &n) in regs_of.iter().enumerate() {
        for r in 0..n {
            shown.push(format!("P{t}:r{r}"));
        }
    }
    text.push_str(&format!("locations [{};]\n", shown.join("; ")));
    let cond_reg = regs_of.iter().position(|&n| n > 0);
    match (cond_reg, rng.below(3)) {
        (Some(t), 0) => text.push_str(&format!("exists (P{t}:r0 == 1 /\\ x == 1)\n")),
        (Some(t), 1) => text.push_str(&format!("~exists (P{t}:r0 == 0)\n")),
        _ => text.push_str("forall (x == 1 \\/ y == 1 \\/ x == 2)\n"),
    }
    text
}

/// A random RMW-heavy test: 2 or 3 invocations working on a location `m` with spin loops
/// over RMWs (`bne`/`beq`), several RMWs, atomic loads and stores, and plain or atomic
/// accesses to `x`; mostly one workgroup and one scope so that the RMWs are mutually
/// ordered. Returns the test and the `--unroll` to run it at (1 to 3).
pub fn random_rmw_test(seed: u64) -> (String, u32) {
    let mut rng = Rng::new(seed ^ 0x5EED_0FAB);
    let unroll = 1 + rng.below(3) as u32;
    // Small enough for the naive enumeration to finish: fewer loops at higher unrolls.
    let mut loops_left = 4 - unroll;
    let nthreads = 2 + usize::from(unroll == 1 && rng.chance(30));
    let one_scope = rng.chance(75);
    let scope_of = |rng: &mut Rng| {
        if one_scope {
            "wg"
        } else {
            *rng.pick(&SCOPES)
        }
    };
    let mut columns: Vec<Vec<String>> = Vec::new();
    let mut headers = Vec::new();
    let mut regs_of = Vec::new();
    for t in 0..nthreads {
        let wg = if one_scope { 0 } else { rng.below(2) };
        headers.push(format!("P{t}@sg {}, wg {wg}, qf 0", rng.below(2)));
        let mut reg = 0u32;
        let mut code = Vec::new();
        let mut loops = 0;
        for _ in 0..1 + rng.below(2) {
            let scope = scope_of(&mut rng);
            let (sem, acq, rel) = *rng.pick(&[
                ("", false, false),
                (".acq", true, false),
                (".rel", false, true),
                (".acq_rel", true, true),
            ]);
            let sems = if acq || rel {
                semantics(&mut rng, acq, rel)
            } else {
                String::new()
            };
            let op = *rng.pick(&["", "", ".add", ".or"]);
            let val = rng.below(3);
            let r = reg;
            match rng.below(7) {
                0..=2 if loops == 0 && loops_left > 0 => {
                    loops_left -= 1;
                    // A spin loop over an RMW: leave only on reading `exit`.
                    let exit = rng.below(2);
                    let jump = if rng.chance(50) { "bne" } else { "beq" };
                    let cmp = if jump == "bne" { exit } else { 1 - exit };
                    code.push(format!("LC0{loops}:"));
                    code.push(format!(
                        "rmw.atom{sem}.{scope}.sc0{sems}{op} r{r}, m, {val}"
                    ));
                    code.push(format!("{jump} r{r}, {cmp}, LC0{loops}"));
                    loops += 1;
                    reg += 1;
                }
                0..=3 => {
                    code.push(format!(
                        "rmw.atom{sem}.{scope}.sc0{sems}{op} r{r}, m, {val}"
                    ));
                    reg += 1;
                }
                4 => {
                    let rel = if rng.chance(50) {
                        format!(".rel.{scope}.sc0{}", semantics(&mut rng, false, true))
                    } else {
                        format!(".{scope}.sc0")
                    };
                    code.push(format!("st.atom{rel} m, {val}"));
                }
                5 => {
                    code.push(format!("ld.atom.acq.{scope}.sc0.semsc0 r{r}, m"));
                    reg += 1;
                }
                _ => {
                    if rng.chance(50) {
                        code.push(format!("ld.vis.dv.sc0 r{r}, x"));
                        reg += 1;
                    } else {
                        code.push(format!("st.av.dv.sc0 x, {}", t + 1));
                    }
                }
            }
        }
        regs_of.push(reg);
        columns.push(code);
    }
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
    let mut text = format!("VULKAN random-rmw-{seed}\n\"generated\"\n{{ m = 0; x = 0; }}\n");
    text.push_str(&headers.join(" | "));
    text.push_str(" ;\n");
    for r in 0..rows {
        let cells: Vec<&str> = columns
            .iter()
            .map(|c| c.get(r).map_or("", String::as_str))
            .collect();
        text.push_str(&cells.join(" | "));
        text.push_str(" ;\n");
    }
    // Half the tests observe registers only, so that a state can be known before the
    // leaf (the cuts of --states-only and --speedcheck get exercised).
    let registers_only = rng.chance(50) && regs_of.iter().any(|&n| n > 0);
    let mut shown = if registers_only {
        Vec::new()
    } else {
        vec!["m".to_string(), "x".to_string()]
    };
    for (t, &n) in regs_of.iter().enumerate() {
        for r in 0..n {
            shown.push(format!("P{t}:r{r}"));
        }
    }
    if !shown.is_empty() {
        text.push_str(&format!("locations [{};]\n", shown.join("; ")));
    }
    let with_regs: Vec<usize> = (0..nthreads).filter(|&t| regs_of[t] > 0).collect();
    if registers_only {
        match (with_regs.as_slice(), rng.below(3)) {
            ([a, b, ..], 0) => text.push_str(&format!("exists (P{a}:r0 == 0 /\\ P{b}:r0 == 0)\n")),
            ([a, ..], 1) => text.push_str(&format!("~exists (P{a}:r0 == 1)\n")),
            ([a, ..], _) => text.push_str(&format!("forall (P{a}:r0 == 0 \\/ P{a}:r0 == 2)\n")),
            ([], _) => unreachable!("some thread has a register"),
        }
        return (text, unroll);
    }
    match (regs_of.iter().position(|&n| n > 0), rng.below(3)) {
        (Some(t), 0) => text.push_str(&format!("exists (P{t}:r0 == 0 /\\ m == 1)\n")),
        (Some(t), 1) => text.push_str(&format!("~exists (P{t}:r0 == 1)\n")),
        _ => text.push_str("forall (m == 0 \\/ m == 1 \\/ x == 1)\n"),
    }
    (text, unroll)
}

/// A random OpenCL test with lock loops: 2 or 3 work-items on a lock `l` (global atomic)
/// and a counter `x` (plain, global or local), each taking the lock with a
/// compare-exchange loop (strong or weak, `while (!cas(...)) { e = 0; }`), an exchange
/// loop (`while (atomic_exchange(...) != 0);`) or a single compare-exchange, then
/// incrementing or writing `x`, releasing with an atomic store, or a fetch-add or atomic
/// load of `l`; orders, failure orders and scopes vary. Returns the test and the
/// `--unroll` to run it at (0 or 1, small enough for the naive enumeration).
pub fn random_opencl_lock_test(seed: u64) -> (String, u32) {
    let mut rng = Rng::new(seed ^ 0x0C1_10C5);
    let unroll = rng.below(2) as u32;
    let nthreads = 2 + usize::from(unroll == 0 && rng.chance(40));
    let same_wg = rng.chance(30);
    let local_x = same_wg && rng.chance(50);
    let orders = [
        "memory_order_relaxed",
        "memory_order_acquire",
        "memory_order_acq_rel",
        "memory_order_seq_cst",
    ];
    let release = [
        "memory_order_relaxed",
        "memory_order_release",
        "memory_order_seq_cst",
    ];
    let scopes = ["", ", memory_scope_work_group", ", memory_scope_device"];
    let mut text =
        format!("OPENCL random-opencl-lock-{seed}\n\"generated\"\n{{ [l] = 0; [x] = 0; }}\n");
    let mut shown = vec!["x".to_string(), "l".to_string()];
    let mut loops_left = if unroll == 0 { 3 } else { 2 };
    for t in 0..nthreads {
        let wg = if same_wg { 0 } else { t };
        let space = if local_x { "local" } else { "global" };
        text.push_str(&format!(
            "P{t}@wg {wg}, dev 0 (global atomic_int* l, {space} int* x) {{\n"
        ));
        let mut regs = 0;
        let scope = if same_wg {
            *rng.pick(&scopes)
        } else {
            *rng.pick(&scopes[..1])
        };
        for _ in 0..1 + rng.below(2) {
            let succ = *rng.pick(&orders);
            let fail = *rng.pick(&orders[..2]);
            match rng.below(8) {
                0..=2 if loops_left > 0 => {
                    loops_left -= 1;
                    let kind = *rng.pick(&["strong", "weak"]);
                    text.push_str(&format!(
                        "  int e{regs} = 0;\n  while (!atomic_compare_exchange_{kind}_explicit(l, &e{regs}, 1, {succ}, {fail}{scope})) {{ e{regs} = 0; }}\n"
                    ));
                    shown.push(format!("{t}:e{regs}"));
                    regs += 1;
                }
                3 if loops_left > 0 => {
                    loops_left -= 1;
                    text.push_str(&format!(
                        "  while (atomic_exchange_explicit(l, 1, {succ}{scope}) != 0);\n"
                    ));
                }
                0..=3 => {
                    let kind = *rng.pick(&["strong", "weak"]);
                    let expected = rng.below(2);
                    text.push_str(&format!(
                        "  int e{regs} = {expected};\n  int ok{regs} = atomic_compare_exchange_{kind}_explicit(l, &e{regs}, {}, {succ}, {fail}{scope});\n",
                        1 - expected
                    ));
                    shown.push(format!("{t}:ok{regs}"));
                    regs += 1;
                }
                4 => {
                    text.push_str(&format!("  int c{regs} = *x;\n  *x = c{regs} + 1;\n"));
                    shown.push(format!("{t}:c{regs}"));
                    regs += 1;
                }
                5 => text.push_str(&format!("  *x = {};\n", t + 1)),
                6 => {
                    let ord = *rng.pick(&release);
                    text.push_str(&format!("  atomic_store_explicit(l, 0, {ord}{scope});\n"));
                }
                _ => {
                    if rng.chance(50) {
                        text.push_str(&format!(
                            "  int f{regs} = atomic_fetch_add_explicit(l, 1, {succ}{scope});\n"
                        ));
                        shown.push(format!("{t}:f{regs}"));
                    } else {
                        let ord = *rng.pick(&["memory_order_relaxed", "memory_order_acquire"]);
                        text.push_str(&format!(
                            "  int f{regs} = atomic_load_explicit(l, {ord}{scope});\n"
                        ));
                        shown.push(format!("{t}:f{regs}"));
                    }
                    regs += 1;
                }
            }
        }
        text.push_str("}\n");
    }
    text.push_str(&format!("locations [{}]\n", shown.join("; ")));
    text.push_str(&format!("exists (x = {nthreads})\n"));
    (text, unroll)
}
