//! The syntax tree of one small PTX test, whole (spans included): the shape the lowering
//! receives. Reviewed like code.

use vkherd_dialects::ptx::parse_ptx;

const SOURCE: &str = r#"PTX MP-gpu-proxy
"Message passing through a surface alias"
{
x = 0; flag = 0;
s @ surface aliases x;
P1:r0 = 0;
}
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0          ;
 sust.weak s, 1         | LC00:                   ;
 fence.proxy.surface    | ld.acquire.gpu r0, flag ;
 st.release.gpu flag, 1 | beq r0, 0, LC00         ;
                        | bar.cta.sync 1, r0      ;
                        | ld.weak r1, x           ;
exists (P1:r0 == 1 /\ P1:r1 != 1)
"#;

#[test]
fn a_small_test_whole() {
    let t = parse_ptx(SOURCE).unwrap_or_else(|e| panic!("{}", e.render("t", SOURCE)));
    insta::assert_debug_snapshot!(t);
}
