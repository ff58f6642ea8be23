//! The OpenCL parser never panics on damaged input, and its errors name a real place:
//! every prefix of a test that uses every form, and many single-byte edits of it.

use vkherd_dialects::opencl::parse_opencl;
use vkherd_litmus::{span_at, Diagnostic};

const ALL_FORMS: &str = r#"OPENCL all-forms
"every form" // c comment
(* herd comment *) /* block */
{ [x] = 0; y = 1; 0:r1 = 2; }
P0@sg 0, wg 0, dev 0 (volatile global atomic_int* x, local int* y) {
  int r0 = atomic_load(x), r2;
  r2 = atomic_load_explicit(x, memory_order_acquire, memory_scope_work_group);
  atomic_store_explicit(x, r0 + 1, memory_order_release);
  int r3 = atomic_fetch_max_explicit(x, -2, memory_order_acq_rel, memory_scope_device);
  int r4 = atomic_compare_exchange_weak_explicit(x, &r1, 3, memory_order_seq_cst, memory_order_relaxed, memory_scope_all_svm_devices);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_seq_cst, memory_scope_sub_group);
  B1: barrier(CLK_LOCAL_MEM_FENCE);
  work_group_barrier(0, memory_scope_work_item);
  if (r0 == 1 && !(r2 > 0x10) || r3) { *y = (r0 * 2) / 3 ^ 1; } else *y = 0;
  while (*y != 0) { *y = *y - 1; }
  int flag = 0;
  for (int i = 0; i < 1; i++) flag += 1;
  atomic_flag_clear_explicit(x, memory_order_release);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  atomic_init(x, flag);
}
P1@sg 1, wg 0, dev 0 (global atomic_int* x) { atomic_exchange(x, 5); }
locations [x; 0:r0;]
filter 0:r0 = 0
~exists (0:r0 = 1 /\ ~(x = 2) \/ 1:r0 != 3 \/ 0:flag = 1)
"#;

fn check(source: &str, d: &Diagnostic) {
    let s = d.span;
    assert!(s.line >= 1 && s.column >= 1, "{d:?}");
    assert!(s.offset + s.len <= source.len(), "{d:?}");
    assert!(source.is_char_boundary(s.offset) && source.is_char_boundary(s.offset + s.len));
    assert_eq!(span_at(source, s.offset, s.len), s, "{d:?}");
    assert!(!d.message.is_empty());
    assert!(d.render("t", source).starts_with("error: "));
}

#[test]
fn the_all_forms_test_parses() {
    if let Err(e) = parse_opencl(ALL_FORMS) {
        panic!("{}", e.render("t", ALL_FORMS));
    }
}

#[test]
fn every_prefix_parses_or_fails_cleanly() {
    for end in (0..ALL_FORMS.len()).filter(|&i| ALL_FORMS.is_char_boundary(i)) {
        let src = &ALL_FORMS[..end];
        if let Err(d) = parse_opencl(src) {
            check(src, &d);
        }
    }
}

#[test]
fn single_byte_edits_parse_or_fail_cleanly() {
    const BYTES: &[u8] = b"(){};,*&|!=<>-+/\\[]:@ \nrx0P~\"";
    let src = ALL_FORMS.as_bytes();
    // A fixed linear congruential generator: the same edits on every run.
    let mut seed: u64 = 12345;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    for _ in 0..3000 {
        let mut bytes = src.to_vec();
        let at = next() % bytes.len();
        match next() % 3 {
            0 => bytes[at] = BYTES[next() % BYTES.len()],
            1 => {
                bytes.remove(at);
            }
            _ => bytes.insert(at, BYTES[next() % BYTES.len()]),
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Err(d) = parse_opencl(&text) {
            check(&text, &d);
        }
    }
}
