//! Malformed PTX tests and the exact error each gives (`line:column: message`): the
//! message names the offending text and what was expected. Reviewed like code: a change
//! of wording shows here.

use vkherd_dialects::ptx::parse_ptx;

/// A test with `text` as thread P0's only cell (line 4, from column 2).
fn cell(text: &str) -> String {
    format!("PTX t\n{{ x = 0; }}\nP0@cta 0,gpu 0 | P1@cta 1,gpu 0;\n {text} | ;\nexists (x = 0)")
}

fn cases() -> Vec<(String, &'static str)> {
    vec![
        (cell("st.release.cluster x, 1"), "4:12: unknown scope `.cluster`: expected .cta, .gpu or .sys"),
        (cell("ld.seq_cst.gpu r0, x"), "4:4: unknown order `.seq_cst` in `ld`: expected .weak, .relaxed or .acquire"),
        (cell("st.acquire.gpu x, 1"), "4:4: `.acquire` is not an order of `st`: expected .weak, .relaxed or .release"),
        (cell("ld.release.gpu r0, x"), "4:4: `.release` is not an order of `ld`: expected .weak, .relaxed or .acquire"),
        (cell("ld.weak.gpu r0, x"), "4:9: `ld.weak` takes no scope: remove `.gpu`, or use `.relaxed.gpu`"),
        (cell("ld.acquire r0, x"), "4:2: missing scope after `ld.acquire`: expected .cta, .gpu or .sys"),
        (cell("st.relaxed x, 1"), "4:2: missing scope after `st.relaxed`: expected .cta, .gpu or .sys"),
        (cell("ld.acquire.gpu.foo r0, x"), "4:16: unexpected `.foo` after `ld.acquire.gpu`: expected the operands"),
        (cell("mov r0, 1"), "4:2: unknown instruction `mov`: expected an instruction (`ld`, `st`, `atom`, `red`, `fence`, `bar`, `tld`, `suld`, `cold`, `sust`, `suatom`, `sured`, `add`, `sub`, `mul`, `div`, `beq`, `bne`, `blt`, `bgt`, `ble`, `bge`, `goto`) or a label `LCnn:`, or after the table `locations`, `filter`, `exists`, `~exists`, `forall` or `final`"),
        (
            cell("ld r0, r1024"),
            "4:9: register `r1024` out of range: expected `r0`..`r1023`",
        ),
        (cell("ld r0, x"), "4:9: `ld r0, x` without an order sets a register to a register or an integer: to load from `x`, write `ld.weak`, `ld.relaxed.SCOPE` or `ld.acquire.SCOPE`"),
        (cell("ld.weak x, r0"), "4:10: `x` where the destination register is expected: `ld.weak` takes a register `rK` first"),
        (cell("st.weak r0, 1"), "4:10: register `r0` where the location is expected: `st.weak` takes the location first: `st.weak x, V`"),
        (cell("atom.weak.gpu.add r0, x, 1"), "4:6: `.weak` is not an order of `atom`: expected .relaxed, .acquire, .release or .acq_rel"),
        (cell("atom.sc.gpu.add r0, x, 1"), "4:6: `.sc` is not an order of `atom`: expected .relaxed, .acquire, .release or .acq_rel"),
        (cell("atom.relaxed.add r0, x, 1"), "4:14: missing scope before `.add` in `atom.relaxed.add`: expected .cta, .gpu or .sys"),
        (cell("atom.gpu.add r0, x, 1"), "4:6: missing order before the scope `.gpu` in `atom.gpu.add`: expected .relaxed, .acquire, .release or .acq_rel"),
        (cell("atom.relaxed.gpu r0, x, 1"), "4:2: missing operation after `atom.relaxed.gpu`: expected .add, .sub, .mul, .div, .and, .or, .xor, .exch or .cas"),
        (cell("atom.relaxed.gpu.min r0, x, 1"), "4:18: unknown atomic operation `.min`: expected .add, .sub, .mul, .div, .and, .or, .xor, .exch or .cas"),
        (cell("atom.relaxed.gpu.cas r0, x, 1"), "4:32: unexpected `|` in `atom.relaxed.gpu.cas`: expected `,` (the form is `atom.relaxed.gpu.cas rK, x, E, V`)"),
        (cell("red.relaxed.gpu.cas x, 1"), "4:17: `red` has no `.cas`: expected .add, .sub, .mul, .div, .and, .or or .xor (`atom` has .exch and .cas)"),
        (cell("red.relaxed.gpu.add r0, x, 1"), "4:22: register `r0` where the location is expected: `red.relaxed.gpu.add` has no destination register: `red.relaxed.gpu.add x, V`"),
        (cell("fence.sc"), "4:2: missing scope after `fence.sc`: expected .cta, .gpu or .sys"),
        (cell("fence"), "4:2: missing kind after `fence`: expected .sc, .acq_rel or .proxy"),
        (cell("fence.acquire.gpu"), "4:7: `.acquire` is not an order of `fence`: expected .sc, .acq_rel or .proxy"),
        (cell("fence.proxy"), "4:2: missing proxy after `fence.proxy`: expected .generic, .constant, .texture, .surface or .alias"),
        (cell("fence.proxy.global"), "4:13: unknown proxy `.global`: expected .generic, .constant, .texture, .surface or .alias"),
        (cell("fence.proxy.alias.gpu"), "4:19: unexpected `.gpu` after `fence.proxy.alias`: expected the end of the instruction (a fence has no operands)"),
        (cell("fence.sc.gpu r0"), "4:15: unexpected `r0` after `fence.sc.gpu`: expected `|` (next cell) or `;` (end of the row)"),
        (cell("bar.sync 0"), "4:5: missing scope before `.sync`: expected `bar.cta.sync`"),
        (cell("bar.gpu.sync 0"), "4:5: `bar.gpu`: a barrier is CTA-wide: expected `.cta`"),
        (cell("bar.cta.red 0"), "4:9: unknown barrier mode `.red`: expected .sync or .arrive"),
        (cell("bar.cta"), "4:2: missing mode after `bar.cta`: expected .sync or .arrive"),
        (cell("bar.cta.sync"), "4:15: unexpected `|` in `bar.cta.sync`: expected the barrier instance (an integer)"),
        (cell("bar.cta.sync r1"), "4:15: unexpected `r1` in `bar.cta.sync`: expected the barrier instance (an integer)"),
        (cell("bar.cta.sync 0,"), "4:18: unexpected `|` in `bar.cta.sync`: expected a register `rK` or an integer"),
        (cell("bar"), "4:2: missing scope after `bar`: expected `.cta` (`bar.cta.sync N`)"),
        (cell("beq r0, 1, L1"), "4:13: unexpected `L1` in `beq`: expected a label `LCnn`"),
        (cell("beq r0, 1"), "4:12: unexpected `|` in `beq`: expected `,` (the form is `beq A, B, LCnn`)"),
        (cell("goto x"), "4:7: unexpected `x` in `goto`: expected a label `LCnn`"),
        (cell("LC00"), "4:2: label `LC00` without `:`: expected `LC00:` to place it, or `goto LC00` to jump to it"),
        (cell("L1:"), "4:2: label `L1`: expected `LC` followed by digits, like `LC00`"),
        (cell("LC00: ld.weak r0, x"), "4:8: unexpected `ld` after the label `LC00:`: expected `|` or `;`: a label takes a cell of its own (put the instruction on the next row)"),
        (cell("add.s32 r0, r1, 1"), "4:5: unexpected `.s32` after `add`: expected the operands `rK, A, B`"),
        (cell("add r0, x, 1"), "4:10: unexpected `x` in `add`: expected a register `rK` or an integer"),
        (cell("ld.weak r0, add"), "4:14: `add` is a keyword of PTX tests and cannot name a location"),
        (cell("ld.weak r0, r1"), "4:14: register `r1` where a location is expected"),
        (cell("ld.weak r0, P1"), "4:14: `P1` names a thread: expected a location"),
        (cell("st.weak x, 99999999999999999999"), "4:13: integer `99999999999999999999` out of range: expected a value from -9223372036854775808 to 9223372036854775807"),
        (cell("ld.weak r1024, x"), "4:10: register `r1024` out of range: expected `r0`..`r1023`"),
        (cell("ld."), "4:6: unexpected `|` after `ld.`: expected a word"),
        (cell("ld.weak r0 x"), "4:13: unexpected `x` in `ld.weak`: expected `,` (the form is `ld.weak rK, x`)"),
        (cell("@"), "4:2: unexpected `@`: expected an instruction (`ld`, `st`, `atom`, `red`, `fence`, `bar`, `tld`, `suld`, `cold`, `sust`, `suatom`, `sured`, `add`, `sub`, `mul`, `div`, `beq`, `bne`, `blt`, `bgt`, `ble`, `bge`, `goto`) or a label `LCnn:`, or after the table `locations`, `filter`, `exists`, `~exists`, `forall` or `final`"),
        (cell("ld.weak r0, x ld.weak r1, x"), "4:16: unexpected `ld` after `ld.weak r0, x`: expected `|` (next cell) or `;` (end of the row)"),
        (cell("exist (x = 0)"), "4:2: unknown instruction `exist`: expected an instruction (`ld`, `st`, `atom`, `red`, `fence`, `bar`, `tld`, `suld`, `cold`, `sust`, `suatom`, `sured`, `add`, `sub`, `mul`, `div`, `beq`, `bne`, `blt`, `bgt`, `ble`, `bge`, `goto`) or a label `LCnn:`, or after the table `locations`, `filter`, `exists`, `~exists`, `forall` or `final`"),
        ("VULKAN t\n{}".into(), "1:1: unknown language `VULKAN`: expected `PTX` or `ptx` and the test name"),
        ("PTX\n{}".into(), "1:4: missing test name: expected `PTX NAME` on the first line"),
        ("PTX t \"unclosed {\n".into(), "1:7: unterminated `\"` in the description: expected a closing `\"` before the init block"),
        ("PTX t\nno brace".into(), "2:9: unexpected end of input after the description: expected the init block `{ ... }`"),
        ("PTX t\n{ x = }".into(), "2:7: unexpected `}` as the value of `x`: expected an integer, `&x` or a location `x`"),
        ("PTX t\n{ r0 = 1; }".into(), "2:3: register `r0` without a thread in the init block: expected `Pn:r0 = V`"),
        ("PTX t\n{ y aliases x; }".into(), "2:5: unexpected `aliases` after `y` in the init block: expected `= V`, `= &y` or `@ PROXY aliases x` (a PTX alias names its proxy: `y @ generic aliases x`)"),
        ("PTX t\n{ y @ global aliases x; }".into(), "2:7: unknown proxy `global`: expected `generic`, `constant`, `texture` or `surface`"),
        ("PTX t\n{ y @ surface x; }".into(), "2:15: unexpected `x` after `y @ surface`: expected `aliases` and a location"),
        ("PTX t\n{ cta = 1; }".into(), "2:3: `cta` is a keyword of PTX tests and cannot name a location"),
        ("PTX t\n{ x = 1 y = 2 }".into(), "2:9: unexpected `y` in the init block: expected `;` or `}`"),
        ("PTX t\n{}\nP1@cta 0,gpu 0;".into(), "3:1: thread header `P1` out of order: expected `P0` (threads are P0, P1, ... in order)"),
        ("PTX t\n{}\nP0@sg 0, wg 0, qf 0;".into(), "3:4: unexpected `sg` in the header of `P0`: expected `cta` (PTX threads are placed with `cta N,gpu M`)"),
        ("PTX t\n{}\nP0@gpu 0,cta 0;".into(), "3:4: unexpected `gpu` in the header of `P0`: expected `cta` (PTX threads are placed with `cta N,gpu M`)"),
        ("PTX t\n{}\nP0@cta 0 gpu 0;".into(), "3:10: unexpected `gpu` in the header of `P0`: expected `,` and `gpu M`"),
        ("PTX t\n{}\nP0@cta -1,gpu 0;".into(), "3:8: negative number `-1`: expected a non-negative integer"),
        ("PTX t\n{}\nP0@cta 0,gpu 0\n st.weak x, 1;".into(), "4:2: unexpected `st` after the thread header: expected `|` and the next thread, or `;`"),
        ("PTX t\n{}\nP0@cta 0,gpu 0;\n st.weak x, 1 | st.weak x, 2;".into(), "4:15: too many cells in this row: the header has 1 thread, expected `;` to end the row"),
        ("PTX t\n{}\nP0@cta 0,gpu 0;\nexists (cc = 1)".into(), "4:9: `cc` is a keyword of PTX tests and cannot name a location"),
        ("PTX t\n{}\nP0@cta 0,gpu 0;\nexists (r0 = 1)".into(), "4:9: register `r0` without a thread: expected `Pn:r0` or `n:r0`"),
        ("PTX t\n{}\nP0@cta 0,gpu 0;\nexists (x = 1) garbage".into(), "4:16: unexpected `garbage`: expected `/\\`, `\\/` or the end of the file"),
        ("PTX t\n{}\nP0@cta 0,gpu 0;\nfinal (x = 1)".into(), "4:14: unexpected end of input after the `final` condition: expected `with` and the expected outcomes, like `with default: exists;`"),
        ("PTX t\n{}\nP0@cta 0,gpu 0;\nfinal (x = 1) with".into(), "4:19: unexpected end of input after `with`: expected a model: `tso`, `cc`, `optic` or `default`"),
        ("PTX t\n{}\nP0@cta 0,gpu 0;\nfinal (x = 1) with tso exists;".into(), "4:24: unexpected `exists` after `tso`: expected `:`"),
        ("PTX t\n{}\nP0@cta 0,gpu 0;\nfinal (x = 1) with tso: forall;".into(), "4:31: unexpected `;` after `tso`: expected `: exists;` or `: ~exists;`"),
        ("PTX t\n{}\nP0@cta 0,gpu 0;\nfinal (x = 1) with tso: exists".into(), "4:31: unexpected end of input after `tso`: expected `;` after the expected outcome"),
        ("PTX t\n{}\nP0@cta 0,gpu 0;\nexists (x = 1".into(), "4:8: unclosed `(`: expected a `)` to close it before the end of the condition"),
        ("PTX t\n{}\nP0@cta 0,gpu 0;\n<< 1".into(), "4:1: unterminated `<<`: expected a matching `>>` (`<< ... >>` is skipped, as in Dat3M)"),
        ("PTX t\n{}\n(* P0@cta 0,gpu 0;".into(), "3:1: unterminated comment `(*`: expected a matching `*)`"),
        ("PTX t\n{}\nP0@cta 0,gpu 0;\nlocations [add]".into(), "4:12: `add` is a keyword of PTX tests and cannot name a location"),
        ("PTX t\n{}\nP0@cta 0,gpu 0;\nexists (x = 1) filter (x = 1)".into(), "4:16: unexpected `filter`: expected `/\\`, `\\/` or the end of the file"),
        ("PTX t\n{}\nP0@cta 0,gpu 0;\n~forall (x = 1)".into(), "4:2: unexpected `forall` after `~`: expected `exists`"),
    ]
}

#[test]
fn every_malformed_input_gives_its_message() {
    let mut wrong = Vec::new();
    for (source, expected) in cases() {
        match parse_ptx(&source) {
            Ok(_) => wrong.push(format!("{source:?}: parsed, expected `{expected}`")),
            Err(e) if e.to_string() != expected => wrong.push(format!(
                "{source:?}:\n  got      {e}\n  expected {expected}"
            )),
            Err(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// How a few errors render, carets included.
#[test]
fn rendered_errors() {
    let sources = [
        cell("st.release.cluster x, 1"),
        cell("ld.acquire r0, x"),
        cell("atom.relaxed.gpu.cas r0, x, 1"),
        "PTX t\n{ y @ global aliases x; }".to_string(),
        "PTX t\n{}\nP0@cta 0,gpu 0;\nexists (cc = 1)".to_string(),
    ];
    let rendered: Vec<String> = sources
        .iter()
        .map(|s| parse_ptx(s).unwrap_err().render("t.litmus", s))
        .collect();
    insta::assert_snapshot!(rendered.join("\n"));
}
