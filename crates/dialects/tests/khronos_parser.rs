//! Tests of the Khronos `.test` parser: the reference suite, hand-written sources, and
//! malformed inputs with exact positions.

use std::collections::HashMap;
use std::path::PathBuf;
use vkherd_dialects::vulkan::ast::{MemAttrs, Scope};
use vkherd_dialects::vulkan::khronos::ast::{
    KhronosCheck, KhronosOp, KhronosPred, KhronosTest, KhronosThread,
};
use vkherd_dialects::vulkan::khronos::parse_khronos;
use vkherd_litmus::Diagnostic;

// ---------------------------------------------------------------------------------------
// helpers

fn parse(src: &str) -> KhronosTest {
    match parse_khronos(src) {
        Ok(t) => t,
        Err(e) => panic!("unexpected error:\n{}", e.render("inline.test", src)),
    }
}

fn err(src: &str) -> Diagnostic {
    match parse_khronos(src) {
        Ok(t) => panic!("expected an error, got {t:#?}"),
        Err(e) => e,
    }
}

/// Asserts the error's line:column, that its span covers `text`, and a message fragment.
#[track_caller]
fn assert_err(src: &str, line: u32, column: u32, text: &str, fragment: &str) {
    let e = err(src);
    let shown = e.render("inline.test", src);
    assert_eq!(
        (e.span.line, e.span.column),
        (line, column),
        "wrong position:\n{shown}"
    );
    assert_eq!(
        &src[e.span.offset..e.span.offset + e.span.len],
        text,
        "wrong span text:\n{shown}"
    );
    assert_eq!(
        vkherd_litmus::span_at(src, e.span.offset, e.span.len),
        e.span,
        "line/column disagree with the offset:\n{shown}"
    );
    assert!(
        e.message.contains(fragment),
        "message lacks {fragment:?}:\n{shown}"
    );
}

fn groups(t: &KhronosTest) -> Vec<(u64, u64, u64)> {
    t.threads.iter().map(|t| (t.qf, t.wg, t.sg)).collect()
}

fn numbers(t: &KhronosTest) -> Vec<u64> {
    t.threads.iter().map(|t| t.number).collect()
}

fn suite_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/khronos-tests")
}

/// The suite's files, or None (after printing the skip message) when it is absent.
fn suite() -> Option<Vec<(String, String)>> {
    let dir = suite_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipping: ../shared/khronos-tests not found");
        return None;
    };
    let mut files: Vec<(String, String)> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "test"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&p).unwrap();
            (name, text)
        })
        .collect();
    files.sort();
    Some(files)
}

// ---------------------------------------------------------------------------------------
// the reference suite

#[test]
fn every_suite_file_parses() {
    let Some(files) = suite() else { return };
    assert!(files.len() >= 80, "only {} .test files found", files.len());
    let mut failures = Vec::new();
    for (name, src) in &files {
        match parse_khronos(src) {
            Err(e) => failures.push(e.render(&format!("{name}.test"), src)),
            Ok(t) => {
                // Independent counts from the raw text.
                let lines: Vec<&str> = src
                    .lines()
                    .map(|l| l.trim())
                    .filter(|l| !l.is_empty() && !l.starts_with("//"))
                    .collect();
                let checks = lines
                    .iter()
                    .filter(|l| l.starts_with("SATISFIABLE") || l.starts_with("NOSOLUTION"))
                    .count();
                let instrs = lines
                    .iter()
                    .filter(|l| l.starts_with(|c: char| c.is_ascii_lowercase()))
                    .count();
                let threads = lines.iter().filter(|l| l.starts_with("NEWTHREAD")).count();
                assert!(checks > 0, "{name}: no checks");
                assert_eq!(t.checks.len(), checks, "{name}: checks");
                assert_eq!(t.threads.len(), threads, "{name}: threads");
                let parsed: usize = t.threads.iter().map(|t| t.instrs.len()).sum();
                assert_eq!(parsed, instrs, "{name}: instructions");
                assert_nested_and_dense(name, &t);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Group indices nest (same sg => same wg => same qf) and are dense in file order.
fn assert_nested_and_dense(name: &str, t: &KhronosTest) {
    let mut sg_wg = HashMap::new();
    let mut wg_qf = HashMap::new();
    for th in &t.threads {
        assert_eq!(
            *sg_wg.entry(th.sg).or_insert(th.wg),
            th.wg,
            "{name}: sg nests"
        );
        assert_eq!(
            *wg_qf.entry(th.wg).or_insert(th.qf),
            th.qf,
            "{name}: wg nests"
        );
    }
    let picks: [fn(&KhronosThread) -> u64; 3] = [|t| t.qf, |t| t.wg, |t| t.sg];
    for pick in picks {
        let mut max_seen: Option<u64> = None;
        for th in &t.threads {
            let v = pick(th);
            let next = max_seen.map_or(0, |m| m + 1);
            assert!(
                Some(v) == max_seen || v == next,
                "{name}: group indices are not dense in file order"
            );
            max_seen = Some(v);
        }
    }
}

fn suite_file(files: &[(String, String)], name: &str) -> KhronosTest {
    let (_, src) = files
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("{name}.test missing from the suite"));
    parse(src)
}

#[test]
fn suite_spot_checks() {
    let Some(files) = suite() else { return };

    // Two queue families, each with one workgroup and one subgroup.
    let t = suite_file(&files, "qfmpfail");
    assert_eq!(groups(&t), vec![(0, 0, 0), (1, 1, 1)]);
    // One queue family, two workgroups.
    let t = suite_file(&files, "qfmp");
    assert_eq!(groups(&t), vec![(0, 0, 0), (0, 1, 1)]);
    // Two threads in one subgroup.
    let t = suite_file(&files, "noncohmpbarsg");
    assert_eq!(groups(&t), vec![(0, 0, 0), (0, 0, 0)]);
    assert_eq!(numbers(&t), vec![1, 2]);
    // The usual shape: NEWWG NEWSG NEWTHREAD / NEWSG NEWTHREAD / NEWWG NEWSG NEWTHREAD.
    let t = suite_file(&files, "mp3transitive");
    assert_eq!(groups(&t), vec![(0, 0, 0), (0, 0, 1), (0, 1, 2)]);

    // Numbered threads and SSW.
    let t = suite_file(&files, "ssw5");
    assert_eq!(numbers(&t), vec![0, 1, 2]);
    let ssw: Vec<_> = t.ssw.iter().map(|s| s.value).collect();
    assert_eq!(ssw, vec![(0, 1), (1, 2)]);
    assert_eq!(t.threads[1].instrs[0].op, KhronosOp::AvDevice);
    assert_eq!(t.threads[1].instrs[1].op, KhronosOp::VisDevice);

    // `st.ld.atom` is an RMW; (#rs>1) in parentheses.
    let t = suite_file(&files, "releaseseq1");
    let rmw = &t.threads[1].instrs[0];
    assert_eq!(rmw.op, KhronosOp::Rmw);
    assert_eq!(rmw.values, vec![2, 3]);
    assert!(rmw.attrs.atomic);
    assert_eq!(
        t.checks[1].preds,
        vec![
            KhronosPred::Consistent,
            KhronosPred::ReleaseSeq {
                greater: true,
                n: 1
            }
        ]
    );
    assert_eq!(t.checks[1].text, "consistent[X] && (#rs>1)");

    // NOCHAINS.
    let t = suite_file(&files, "mp3transitive");
    let nochains: Vec<bool> = t.checks.iter().map(|c| c.nochains).collect();
    assert_eq!(nochains, vec![false, false, true, true]);
    assert_eq!(t.checks[2].text, "consistent[X] && #dr=0");
    assert!(!t.checks[2].satisfiable);

    // A bare `#dr>0`.
    let t = suite_file(&files, "samethread2");
    assert_eq!(
        t.checks[1].preds,
        vec![KhronosPred::DataRaces {
            greater: true,
            n: 0
        }]
    );

    // cbar instances.
    let t = suite_file(&files, "cbarinst");
    let inst: Vec<Option<u64>> = t.threads[0].instrs.iter().map(|i| i.instance).collect();
    assert_eq!(inst, vec![Some(1), Some(2), Some(3)]);

    // SLOC.
    let t = suite_file(&files, "atomwrongsc");
    assert_eq!(t.slocs[0].value, ("x".to_string(), "z".to_string()));
}

// ---------------------------------------------------------------------------------------
// hand-written sources

#[test]
fn group_indices_follow_the_nesting_lines() {
    let t = parse(
        "NEWQF\nNEWWG\nNEWSG\nNEWTHREAD\nld.sc0 x\n\
         NEWSG\nNEWTHREAD\nld.sc0 x\n\
         NEWWG\nNEWSG\nNEWTHREAD\nld.sc0 x\n\
         NEWQF\nNEWWG\nNEWSG\nNEWTHREAD\nld.sc0 x\n\
         NEWTHREAD\nld.sc0 x\n",
    );
    assert_eq!(
        groups(&t),
        vec![(0, 0, 0), (0, 0, 1), (0, 1, 2), (1, 2, 3), (1, 2, 3)]
    );
}

#[test]
fn unused_levels_are_single_groups() {
    // No NEWQF, NEWWG or NEWSG at all: one of each.
    let t = parse("NEWTHREAD\nld.sc0 x\nNEWTHREAD\nst.sc0 x = 1\n");
    assert_eq!(groups(&t), vec![(0, 0, 0), (0, 0, 0)]);
    // NEWSG only: subgroups inside the single workgroup.
    let t = parse("NEWSG\nNEWTHREAD\nld.sc0 x\nNEWSG\nNEWTHREAD\nst.sc0 x = 1\n");
    assert_eq!(groups(&t), vec![(0, 0, 0), (0, 0, 1)]);
    // Empty groups do not take indices.
    let t = parse("NEWWG\nNEWWG\nNEWSG\nNEWSG\nNEWTHREAD\nld.sc0 x\n");
    assert_eq!(groups(&t), vec![(0, 0, 0)]);
    // A group line after NEWTHREAD but before the thread's first instruction moves it.
    let t = parse("NEWWG\nNEWSG\nNEWTHREAD\nld.sc0 x\nNEWTHREAD\nNEWSG\nld.sc0 x\n");
    assert_eq!(groups(&t), vec![(0, 0, 0), (0, 0, 1)]);
}

#[test]
fn bare_threads_count_from_one() {
    let t = parse("NEWTHREAD\nld.sc0 x\nNEWTHREAD\nld.sc0 x\nNEWTHREAD\nld.sc0 x\n");
    assert_eq!(numbers(&t), vec![1, 2, 3]);
}

#[test]
fn numbered_threads_reset_the_counter() {
    let t = parse(
        "NEWTHREAD 0\nld.sc0 x\nNEWTHREAD\nld.sc0 x\nNEWTHREAD 5\nld.sc0 x\n\
         NEWTHREAD\nld.sc0 x\nNEWTHREAD 2\nld.sc0 x\nNEWTHREAD\n",
    );
    assert_eq!(numbers(&t), vec![0, 1, 5, 6, 2, 3]);
    assert!(t.threads[5].instrs.is_empty());
    assert_eq!(t.threads[2].span.line, 5);
}

#[test]
fn values_and_attributes() {
    let t = parse(
        "NEWTHREAD\n\
         ld.sc0 a\n\
         ld.atom.acq.scopewg.sc1.semsc0.semsc1.semvis b = 1\n\
         ld.vis.scopedev.sc0 c = -3\n\
         st.av.scopedev.sc0 a = 7\n\
         st.atom.rel.scopedev.semav.sc0.semsc0 b = 2\n\
         rmw.acq.rel.scopedev.sc0.semsc0 y = 1 2\n\
         st.ld.atom.scopewg.sc0 y = 2 3\n\
         st.nonpriv.sc0 longer_name9 = 0\n\
         membar.rel.scopeqf.semsc1\n\
         avdevice\n\
         visdevice\n",
    );
    let i = &t.threads[0].instrs;
    let kinds: Vec<KhronosOp> = i.iter().map(|i| i.op).collect();
    use KhronosOp::*;
    assert_eq!(
        kinds,
        vec![Load, Load, Load, Store, Store, Rmw, Rmw, Store, Membar, AvDevice, VisDevice]
    );
    let vars: Vec<Option<&str>> = i.iter().map(|i| i.var.as_deref()).collect();
    assert_eq!(
        vars,
        vec![
            Some("a"),
            Some("b"),
            Some("c"),
            Some("a"),
            Some("b"),
            Some("y"),
            Some("y"),
            Some("longer_name9"),
            None,
            None,
            None
        ]
    );
    let values: Vec<Vec<i64>> = i.iter().map(|i| i.values.clone()).collect();
    assert_eq!(
        values,
        vec![
            vec![],
            vec![1],
            vec![-3],
            vec![7],
            vec![2],
            vec![1, 2],
            vec![2, 3],
            vec![0],
            vec![],
            vec![],
            vec![]
        ]
    );
    // Attributes as written: no implicit facts added.
    assert_eq!(
        i[0].attrs,
        MemAttrs {
            storage_class: Some(0),
            ..Default::default()
        }
    );
    assert_eq!(
        i[1].attrs,
        MemAttrs {
            atomic: true,
            acq: true,
            scope: Some(Scope::Workgroup),
            storage_class: Some(1),
            semsc: 0b11,
            semvis: true,
            ..Default::default()
        }
    );
    assert_eq!(
        i[4].attrs,
        MemAttrs {
            atomic: true,
            rel: true,
            scope: Some(Scope::Device),
            storage_class: Some(0),
            semsc: 1,
            semav: true,
            ..Default::default()
        }
    );
    // rmw = ld.st.atom.
    assert!(i[5].attrs.atomic && i[5].attrs.acq && i[5].attrs.rel);
    assert!(!i[3].attrs.nonpriv, "av does not imply nonpriv in the AST");
    assert!(i[7].attrs.nonpriv);
    assert_eq!(
        i[8].attrs,
        MemAttrs {
            rel: true,
            scope: Some(Scope::QueueFamily),
            semsc: 0b10,
            ..Default::default()
        }
    );
    assert_eq!(i[9].attrs, MemAttrs::default());
    // Spans: the instruction's whole line.
    assert_eq!((i[1].span.line, i[1].span.column), (3, 1));
}

#[test]
fn cbar_instances() {
    let t = parse(
        "NEWWG\nNEWSG\nNEWTHREAD\ncbar.scopewg 0\ncbar.acq.rel.scopedev.semsc0 17\n\
         NEWWG\nNEWSG\nNEWTHREAD\ncbar.scopewg 0\ncbar.acq.rel.scopedev.semsc0 17\n",
    );
    for th in &t.threads {
        let inst: Vec<Option<u64>> = th.instrs.iter().map(|i| i.instance).collect();
        assert_eq!(inst, vec![Some(0), Some(17)]);
        assert!(th.instrs.iter().all(|i| i.op == KhronosOp::Cbar));
        assert_eq!(th.instrs[0].var, None);
    }
    assert_eq!(
        t.threads[0].instrs[1].attrs,
        MemAttrs {
            acq: true,
            rel: true,
            scope: Some(Scope::Device),
            semsc: 1,
            ..Default::default()
        }
    );
}

#[test]
fn sloc_and_ssw() {
    let t = parse(
        "NEWTHREAD 0\nst.sc0 x = 1\nNEWTHREAD 1\nld.sc1 y\nNEWTHREAD 7\n\
         SLOC x y\nSLOC  y\tz \nSSW 0 1\nSSW 1 7\n",
    );
    let slocs: Vec<(String, String)> = t.slocs.iter().map(|s| s.value.clone()).collect();
    assert_eq!(
        slocs,
        vec![("x".into(), "y".into()), ("y".into(), "z".into())]
    );
    let ssw: Vec<(u64, u64)> = t.ssw.iter().map(|s| s.value).collect();
    assert_eq!(ssw, vec![(0, 1), (1, 7)]);
    assert_eq!((t.ssw[1].span.line, t.ssw[1].span.column), (9, 1));
    assert_eq!((t.slocs[1].span.line, t.slocs[1].span.len), (7, 9));
}

fn checks(src_checks: &str) -> Vec<KhronosCheck> {
    parse(&format!("NEWTHREAD\nld.sc0 x\n{src_checks}")).checks
}

#[test]
fn checks_and_predicates() {
    use KhronosPred::*;
    let c = checks(
        "SATISFIABLE consistent[X]\n\
         NOSOLUTION consistent[X] && #dr=0\n\
         SATISFIABLE NOCHAINS consistent[X] && #dr>0\n\
         NOSOLUTION NOCHAINS #rs=2\n\
         SATISFIABLE consistent[X] && (#rs>1)\n\
         SATISFIABLE   ( consistent [ X ] )&&( # dr = 3 )  && #rs>0   \n\
         NOSOLUTION #dr>0\n",
    );
    let got: Vec<(bool, bool, Vec<KhronosPred>, &str)> = c
        .iter()
        .map(|c| (c.satisfiable, c.nochains, c.preds.clone(), c.text.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            (true, false, vec![Consistent], "consistent[X]"),
            (
                false,
                false,
                vec![
                    Consistent,
                    DataRaces {
                        greater: false,
                        n: 0
                    }
                ],
                "consistent[X] && #dr=0"
            ),
            (
                true,
                true,
                vec![
                    Consistent,
                    DataRaces {
                        greater: true,
                        n: 0
                    }
                ],
                "consistent[X] && #dr>0"
            ),
            (
                false,
                true,
                vec![ReleaseSeq {
                    greater: false,
                    n: 2
                }],
                "#rs=2"
            ),
            (
                true,
                false,
                vec![
                    Consistent,
                    ReleaseSeq {
                        greater: true,
                        n: 1
                    }
                ],
                "consistent[X] && (#rs>1)"
            ),
            (
                true,
                false,
                vec![
                    Consistent,
                    DataRaces {
                        greater: false,
                        n: 3
                    },
                    ReleaseSeq {
                        greater: true,
                        n: 0
                    }
                ],
                "( consistent [ X ] )&&( # dr = 3 )  && #rs>0"
            ),
            (
                false,
                false,
                vec![DataRaces {
                    greater: true,
                    n: 0
                }],
                "#dr>0"
            ),
        ]
    );
    assert_eq!((c[1].span.line, c[1].span.column), (4, 1));
}

#[test]
fn crlf_comments_and_no_final_newline() {
    let src = "// header\r\n\r\n  NEWWG \r\nNEWSG\r\nNEWTHREAD\r\n\tst.sc0 x = 1 // trailing\r\n\
               NEWSG\r\nNEWTHREAD\r\nld.sc0 x = 1\r\nSATISFIABLE consistent[X] && #dr>0 // why\r\n\
               NOSOLUTION consistent[X]";
    let t = parse(src);
    assert_eq!(groups(&t), vec![(0, 0, 0), (0, 0, 1)]);
    assert_eq!(t.threads[0].instrs[0].values, vec![1]);
    assert_eq!(t.checks.len(), 2);
    assert_eq!(t.checks[0].text, "consistent[X] && #dr>0");
    assert_eq!(t.checks[1].preds, vec![KhronosPred::Consistent]);
    // Spans skip the leading tab and stop before the comment / `\r`.
    let s = t.threads[0].instrs[0].span;
    assert_eq!(&src[s.offset..s.offset + s.len], "st.sc0 x = 1");
    assert_eq!((s.line, s.column), (6, 2));
}

// ---------------------------------------------------------------------------------------
// malformed inputs

const T: &str = "NEWWG\nNEWSG\nNEWTHREAD\n"; // lines 1-3

#[test]
fn unknown_token() {
    assert_err(
        &format!("{T}ld.atom.scopedv.sc0 x\n"),
        4,
        9,
        "scopedv",
        "unknown token `scopedv` in `ld.atom.scopedv.sc0`: expected one of st, ld, rmw",
    );
}

#[test]
fn unknown_keyword() {
    assert_err(
        &format!("{T}ld.sc0 x\nNEWTHRAED\n"),
        5,
        1,
        "NEWTHRAED",
        "unknown keyword `NEWTHRAED`: expected NEWQF",
    );
}

#[test]
fn store_without_value() {
    assert_err(
        &format!("{T}st.sc0 x\n"),
        4,
        9,
        "",
        "a store takes one value",
    );
    assert_err(
        &format!("{T}st.sc0 x =\r\n"),
        4,
        11,
        "",
        "expected an integer after `=`",
    );
}

#[test]
fn rmw_with_one_value() {
    assert_err(
        &format!("{T}rmw.scopedev.sc0 y = 1\n"),
        4,
        23,
        "",
        "missing value (found 1): an RMW takes two values",
    );
}

#[test]
fn load_with_two_values() {
    assert_err(
        &format!("{T}ld.sc0 y = 1 2\n"),
        4,
        14,
        "2",
        "unexpected extra value `2`: a load takes at most one value",
    );
}

#[test]
fn missing_variable() {
    assert_err(
        &format!("{T}ld.sc0 = 1\n"),
        4,
        8,
        "=",
        "unexpected `=`: expected a variable name after `ld.sc0`",
    );
}

#[test]
fn value_out_of_range() {
    assert_err(
        &format!("{T}st.sc0 x = 9223372036854775808\n"),
        4,
        12,
        "9223372036854775808",
        "out of range",
    );
}

#[test]
fn instruction_before_first_thread() {
    assert_err(
        "NEWWG\nNEWSG\nst.sc0 x = 1\n",
        3,
        1,
        "st.sc0",
        "before the first `NEWTHREAD`",
    );
}

#[test]
fn duplicate_thread_numbers() {
    assert_err(
        "NEWTHREAD 1\nld.sc0 x\nNEWTHREAD 1\n",
        3,
        11,
        "1",
        "thread number `1` is used twice (the `NEWTHREAD` on line 1",
    );
    // Bare NEWTHREAD after `NEWTHREAD 0` gets 1, which is taken.
    assert_err(
        "NEWTHREAD 1\nNEWTHREAD 0\nNEWTHREAD\n",
        3,
        1,
        "NEWTHREAD",
        "numbers its thread 1",
    );
    assert_err(
        "NEWTHREAD 18446744073709551615\nNEWTHREAD\n",
        2,
        1,
        "NEWTHREAD",
        "overflows",
    );
    assert_err("NEWTHREAD -1\n", 1, 11, "-1", "negative thread number");
}

#[test]
fn workgroup_without_new_subgroup() {
    // Thread 2 would share subgroup 0 with thread 1 across two workgroups.
    assert_err(
        "NEWWG\nNEWSG\nNEWTHREAD\nld.sc0 x\nNEWWG\nNEWTHREAD\nld.sc0 x\n",
        5,
        1,
        "NEWWG",
        "thread 2 (line 6) would share a subgroup with thread 1 (line 3) across two \
         workgroups; groups must nest: expected `NEWSG` after `NEWWG`",
    );
    // A file that never writes NEWSG has a single subgroup, which cannot span two
    // workgroups that hold threads.
    assert_err(
        "NEWWG\nNEWTHREAD\nld.sc0 x\nNEWWG\nNEWTHREAD\nld.sc0 x\n",
        4,
        1,
        "NEWWG",
        "expected `NEWSG` after `NEWWG`",
    );
}

#[test]
fn queue_family_without_new_workgroup() {
    assert_err(
        "NEWQF\nNEWWG\nNEWSG\nNEWTHREAD\nld.sc0 x\nNEWQF\nNEWSG\nNEWTHREAD\nld.sc0 x\n",
        6,
        1,
        "NEWQF",
        "would share a workgroup with thread 1 (line 4) across two queue families; groups \
         must nest: expected `NEWWG` (and `NEWSG`) after `NEWQF`",
    );
}

#[test]
fn group_line_inside_a_thread() {
    assert_err(
        &format!("{T}ld.sc0 x\nNEWSG\nld.sc0 y\n"),
        5,
        1,
        "NEWSG",
        "`NEWSG` on line 5 splits thread 1: its instructions on lines 4 and 6 would sit in \
         two subgroups; expected `NEWTHREAD` after `NEWSG`",
    );
}

#[test]
fn cbar_instance_used_once() {
    assert_err(
        &format!("{T}cbar.scopewg 0\ncbar.scopewg 1\nNEWSG\nNEWTHREAD\ncbar.scopewg 0\n"),
        5,
        14,
        "1",
        "control-barrier instance `1` is used only once",
    );
}

#[test]
fn cbar_instance_missing_or_negative() {
    assert_err(
        &format!("{T}cbar.scopewg\n"),
        4,
        13,
        "",
        "missing instance number: expected `cbar.scopewg N`",
    );
    assert_err(
        &format!("{T}cbar.scopewg -1\n"),
        4,
        14,
        "-1",
        "negative instance number `-1`",
    );
}

#[test]
fn store_of_zero_with_initial_value_load() {
    assert_err(
        &format!("{T}ld.sc0 x = 0\nNEWSG\nNEWTHREAD\nst.sc0 x = 0\n"),
        7,
        12,
        "0",
        "a store of `0` to `x`, which the `= 0` read on line 4 also names",
    );
    // A different name, or a non-zero store, is fine.
    parse(&format!(
        "{T}ld.sc0 x = 0\nNEWSG\nNEWTHREAD\nst.sc0 y = 0\nst.sc0 x = 1\n"
    ));
}

#[test]
fn attribute_rules_are_checked() {
    // acq without semsc: the error points at the opcode.
    assert_err(
        &format!("{T}ld.atom.acq.scopewg.sc0 y = 1\n"),
        4,
        1,
        "ld.atom.acq.scopewg.sc0",
        "`ld.atom.acq.scopewg.sc0`: acquire/release without storage-class semantics: \
         expected at least one `semscN`",
    );
    // An atomic without a scope, in `.test` words.
    assert_err(
        &format!("{T}st.atom.sc0 y = 1\n"),
        4,
        1,
        "st.atom.sc0",
        "expected one of scopesg, scopewg, scopeqf, scopedev",
    );
    // A load without a storage class.
    assert_err(
        &format!("{T}ld.scopedev x\n"),
        4,
        1,
        "ld.scopedev",
        "storage class",
    );
    // Two scopes.
    assert_err(
        &format!("{T}membar.rel.scopewg.scopedev.semsc0\n"),
        4,
        20,
        "scopedev",
        "second scope `scopedev`",
    );
    // Two kinds.
    assert_err(
        &format!("{T}membar.cbar.rel.scopewg.semsc0 1\n"),
        4,
        1,
        "membar.cbar.rel.scopewg.semsc0",
        "mixes instruction kinds `membar`, `cbar`",
    );
}

#[test]
fn predicate_errors() {
    let body = "NEWTHREAD\nld.sc0 x\n";
    assert_err(
        &format!("{body}SATISFIABLE consistent[X] && #dx=0\n"),
        3,
        31,
        "dx",
        "unexpected `dx` in the predicate: expected `dr` or `rs` after `#`",
    );
    assert_err(
        &format!("{body}NOSOLUTION\n"),
        3,
        11,
        "",
        "missing predicate after `NOSOLUTION`",
    );
    assert_err(
        &format!("{body}NOSOLUTION consistent[X] NOCHAINS\n"),
        3,
        26,
        "NOCHAINS",
        "`NOCHAINS` goes right after",
    );
    assert_err(
        &format!("{body}SATISFIABLE (#dr>0\n"),
        3,
        19,
        "",
        "expected `&&` or `)`",
    );
}

#[test]
fn ssw_and_sloc_errors() {
    assert_err(
        "NEWTHREAD 0\nNEWTHREAD 1\nSSW 0 2\n",
        3,
        7,
        "2",
        "`SSW` names thread `2`, but no thread has that number: expected one of the thread \
         numbers [0, 1]",
    );
    assert_err(
        "NEWTHREAD\nSLOC x\n",
        2,
        7,
        "",
        "two variable names: `SLOC a b`",
    );
    assert_err("NEWTHREAD\nSSW 1 x\n", 2, 7, "x", "expected thread number");
    assert_err(
        "NEWTHREAD\nNEWSG extra\n",
        2,
        7,
        "extra",
        "unexpected `extra`: expected end of line after `NEWSG`",
    );
}
