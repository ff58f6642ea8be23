//! Register-dependent addresses (`y[r0]`, `x+r2`, `[r0]`), as the lowerings and the shared
//! pass `vkherd_model::addresses::resolve` turn them into code: one access per value the
//! index can hold, chosen by address jumps, or a located refusal.

use vkherd_model::*;

fn opencl(src: &str) -> Result<Program, String> {
    let t = vkherd_dialects::opencl::parse_opencl(src).map_err(|e| e.to_string())?;
    vkherd_dialects::opencl::lower_opencl(&t).map_err(|e| e.to_string())
}

fn vulkan(src: &str) -> Result<Program, String> {
    vkherd_dialects::load(src).map_err(|e| e.to_string())
}

fn ptx(src: &str) -> Result<Program, String> {
    let t = vkherd_dialects::ptx::parse_ptx(src).map_err(|e| e.to_string())?;
    vkherd_dialects::ptx::lower_ptx(&t).map_err(|e| e.to_string())
}

/// The name of the location an access reaches.
fn loc_of(p: &Program, a: &Access) -> String {
    let r = a.reference.expect("a resolved access has a reference");
    p.locations[p.references[r].location].name.clone()
}

/// A two-thread OpenCL test whose P1 reads `r0` from x (P0 stores 1) and then runs `body`.
fn indexed(body: &str) -> String {
    format!(
        "OPENCL t\n{{ [x] = 0; int y[2] = {{5, 6}}; }}\n\
         P0 (global atomic_int* x, global int* y) {{\n  atomic_store(x, 1);\n}}\n\
         P1 (global atomic_int* x, global int* y) {{\n  int r0 = atomic_load(x);\n{body}\n}}\n\
         exists (1:r0 = 1)\n"
    )
}

/// `y[r0]` with r0 in {0, 1}: one address jump (r0 == 0) to the access of y[0], the
/// fallthrough access of y[1] (the last value), each access keeping its `Address`; the
/// jump is marked `address`.
#[test]
fn two_values_make_one_address_jump_to_the_right_cells() {
    let p = opencl(&indexed("  int r1 = y[r0];")).unwrap();
    let code = &p.threads[1].code;
    // 0: load x; 1: beq r0, 0 -> 4; 2: load y[1]; 3: goto 5; 4: load y[0]; 5: end.
    let Instruction::Jump {
        cond: Some((CmpOp::Eq, Operand::Reg(0), Operand::Imm(0))),
        target,
        address: true,
        ..
    } = code[1]
    else {
        panic!("{:#?}", code[1]);
    };
    let Instruction::Access(at0) = &code[target] else {
        panic!("{:#?}", code[target]);
    };
    assert_eq!(loc_of(&p, at0), "y[0]");
    let Instruction::Access(last) = &code[2] else {
        panic!("{:#?}", code[2]);
    };
    assert_eq!(loc_of(&p, last), "y[1]");
    assert!(at0.address.is_some() && last.address.is_some());
    let Instruction::Jump {
        cond: None,
        target: end,
        address: true,
        ..
    } = code[3]
    else {
        panic!("{:#?}", code[3]);
    };
    assert_eq!(end, code.len(), "the goto skips the other access");
}

/// herd's fake dependency `r0 ^ r0` (and `r0 - r0`, `r0 * 0`, `r0 & 0`) is 0 whatever
/// r0 holds: one access, no jump, still carrying its address (the `addr` dependency).
#[test]
fn a_fake_dependency_is_one_access_without_jumps() {
    for index in ["r0 ^ r0", "r0 - r0", "r0 * 0", "0 & r0"] {
        let p = opencl(&indexed(&format!("  int r1 = y[{index}];"))).unwrap();
        let code = &p.threads[1].code;
        assert!(
            !code.iter().any(|i| matches!(i, Instruction::Jump { .. })),
            "{index}: {code:#?}"
        );
        let last = code
            .iter()
            .rev()
            .find_map(|i| match i {
                Instruction::Access(a) => Some(a),
                _ => None,
            })
            .unwrap();
        assert_eq!(loc_of(&p, last), "y[0]", "{index}");
        assert!(last.address.is_some(), "{index}");
    }
}

/// Jumps of the program around a dynamic access still reach the same instructions once
/// the chain is inserted: the `if` skips to the load after it.
#[test]
fn program_jumps_are_moved_past_the_chain() {
    let p = opencl(&indexed(
        "  int r1 = 0;\n  if (r0 == 1) { r1 = y[r0]; }\n  int r2 = atomic_load(x);",
    ))
    .unwrap();
    let code = &p.threads[1].code;
    let (target, _) = code
        .iter()
        .find_map(|i| match i {
            Instruction::Jump {
                cond: Some(_),
                target,
                address: false,
                ..
            } => Some((*target, ())),
            _ => None,
        })
        .expect("the if's jump");
    let Instruction::Access(a) = &code[target] else {
        panic!("{target}: {code:#?}");
    };
    assert_eq!(loc_of(&p, a), "x", "the if skips to `atomic_load(x)`");
    assert_eq!(a.dst, Some(2));
}

/// An index that may leave the array is refused at the access, naming the value.
#[test]
fn an_index_outside_the_array_is_refused() {
    let src = indexed("  int r1 = *(y + r0 + 1);");
    assert_eq!(
        opencl(&src).unwrap_err(),
        "8:12: the address `(y + r0 + 1)` may name no location: its index may be 2, expected 0 to 1"
    );
}

/// A value read that may depend on itself can be any thin-air guess of the value solver
/// (the test's constants, 0 and one more): the index is bounded by them, here 5 and 6
/// are y's values.
#[test]
fn a_read_on_a_cycle_may_hold_any_constant() {
    let src = "OPENCL t\n{ [x] = 0; [z] = 0; int y[2] = {5, 6}; }\n\
        P0 (global atomic_int* x, global atomic_int* z, global int* y) {\n\
        int r0 = atomic_load(x);\n  atomic_store(z, r0);\n  int r1 = y[r0];\n}\n\
        P1 (global atomic_int* x, global atomic_int* z, global int* y) {\n\
        int r2 = atomic_load(z);\n  atomic_store(x, r2);\n}\nexists (0:r0 = 1)\n";
    let e = opencl(src).unwrap_err();
    assert!(
        e.contains("may name no location: its index may be 5"),
        "{e}"
    );
}

/// A counter incremented by a fetch-and-add has no bound the analysis can give.
#[test]
fn a_counter_is_unbounded() {
    let src = indexed("  int r1 = y[r0];").replace("atomic_store(x, 1)", "atomic_fetch_add(x, 1)");
    let e = opencl(&src).unwrap_err();
    assert!(e.contains("depends on a value vkherd cannot bound"), "{e}");
}

/// Vulkan: a location is one cell, so `x+r2` needs r2 = 0 in every execution.
#[test]
fn vulkan_index_must_be_zero() {
    let test = |index: &str| {
        vulkan(&format!(
            "VULKAN t\n{{ x = 0; y = 0; }}\n P0@sg 0, wg 0, qf 0 ;\n st.atom.dv.sc0 y, 1 ;\n ld.atom.dv.sc0 r0, y ;\n \
             xor r2, r0, r0 ;\n ld.atom.dv.sc0 r1, {index} ;\nexists (P0:r1 == 0)\n"
        ))
    };
    for ok in ["x+r2", "x[r2]", "x + r2", "x[0]"] {
        let p = test(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
        let Some(Instruction::Access(a)) = p.threads[0].code.last() else {
            panic!("{ok}");
        };
        assert_eq!(loc_of(&p, a), "x", "{ok}");
        assert!(a.address.is_some(), "{ok}");
    }
    assert_eq!(
        test("x[r0]").unwrap_err(),
        "7:2: the address `x[r0]` may name no location: its index may be 1, expected 0, the only valid index"
    );
    assert_eq!(
        test("x+1").unwrap_err(),
        "7:2: the address `x+1` may name no location: its index may be 1, expected 0, the only valid index"
    );
}

/// PTX: `P0:r1 = &x`, `P0:r2 = y` and `y = &x` hold addresses; `[r1]` accesses the
/// location whose address the register holds, and an address stored and loaded back
/// (r4 reads y, which holds only &x) names its location.
#[test]
fn ptx_addresses_in_registers_and_locations() {
    let src = "PTX t\n{ x = 0; y = &x; P0:r1 = &x; P0:r2 = y; }\n P0@cta 0,gpu 0 ;\n \
        ld.weak r3, [r1] ;\n st.weak [r2], r1 ;\n ld.weak r4, y ;\n ld.weak r5, [r4] ;\n\
        exists (P0:r3 == 0)\n";
    let p = ptx(src).unwrap();
    let locs: Vec<String> = p.threads[0]
        .code
        .iter()
        .filter_map(|i| match i {
            Instruction::Access(a) => Some(loc_of(&p, a)),
            _ => None,
        })
        .collect();
    assert_eq!(locs, ["x", "y", "y", "x"]);
    let x = p.locations.iter().position(|l| l.name == "x").unwrap();
    let y = p.locations.iter().position(|l| l.name == "y").unwrap();
    assert_ne!(p.locations[y].init, 0, "y holds x's address");
    assert_ne!(p.locations[y].init, p.locations[x].init);
    assert!(p.constants.contains(&p.locations[y].init));
}

/// PTX: a register that holds an integer, not an address, names no location.
#[test]
fn ptx_an_integer_is_no_address() {
    let src = "PTX t\n{ x = 0; P0:r1 = 1; }\n P0@cta 0,gpu 0 ;\n ld.weak r3, [r1] ;\nexists (P0:r3 == 0)\n";
    let e = ptx(src).unwrap_err();
    assert!(
        e.starts_with(
            "4:2: the address `[r1]` may name no location: its index may be 1, expected 4096"
        ),
        "{e}"
    );
}
