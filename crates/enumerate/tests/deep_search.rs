//! Deep searches need no native stack in proportion to their depth (issue 21, item 1): a
//! spin loop unrolled N times makes a search N reads deep (stage 3) and, over an RMW,
//! N^2 asmo choices deep (stage 1). Each search here runs in a rayon pool whose threads
//! have an eighth of a MiB of stack, where the former recursive search overflowed (and
//! aborted the process) at these depths; the counts are checked against their closed
//! forms.

use vkherd_dialects::vulkan::lower_litmus;
use vkherd_enumerate::RunConfig;
use vkherd_enumerate::{collect_outcomes, AnyEngine, CatEngine, EnumOptions, HandEngine};
use vkherd_model::{ModelOptions, Program};

/// litmus-tests/control-flow/MP-spin-relacq.litmus: the reader spins on an acquire load
/// of the flag (plain loads, no RMW: stage 3 only).
const MP_SPIN: &str = "VULKAN MP-spin-relacq
{ x = 0; y = 0; }
 P0@sg 0, wg 0, qf 0            | P1@sg 1, wg 0, qf 0              ;
 st.av.dv.sc0 x, 1              | LC00:                            ;
 st.atom.rel.wg.sc0.semsc0 y, 1 | ld.atom.acq.wg.sc0.semsc0 r0, y  ;
                                | beq r0, 0, LC00                  ;
                                | ld.vis.dv.sc0 r1, x              ;
forall (P1:r0 == 1 /\\ P1:r1 == 1)
";

/// Stack of each worker thread: far below the former search's need at these depths.
const SMALL_STACK: usize = 128 * 1024;

fn program(src: &str) -> Program {
    lower_litmus(&vkherd_dialects::vulkan::parse_litmus(src).expect("parses")).expect("lowers")
}

/// (positive, negative) of `src` at `unroll`, under both engines, on one worker thread
/// with a small stack.
fn counts(src: &str, unroll: u32) -> Vec<(u64, u64)> {
    let program = program(src);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .stack_size(SMALL_STACK)
        .build()
        .expect("a thread pool");
    let cat = AnyEngine::Cat(CatEngine::vulkan(&ModelOptions::default()));
    let hand = AnyEngine::Hand(HandEngine::default());
    [cat, hand]
        .into_iter()
        .map(|engine| {
            let opts = EnumOptions {
                run: RunConfig {
                    unroll,
                    ..RunConfig::default()
                },
                engine,
                ..EnumOptions::default()
            };
            let (o, stats) = pool
                .install(|| collect_outcomes(&program, &opts))
                .expect("runs");
            assert!(stats.stopped.is_none());
            (o.positive, o.negative)
        })
        .collect()
}

#[test]
fn a_spin_lock_unrolled_twenty_times_needs_no_deep_stack() {
    // One invocation takes the lock at once; the other fails 0 to 20 times first, each
    // failed RMW reading 1: 2 * 21 executions, all with x == 2.
    for c in counts(crate::SPINLOCK_2, 20) {
        assert_eq!(c, (42, 0));
    }
}

#[test]
fn a_spin_on_a_flag_unrolled_200_times_needs_no_deep_stack() {
    // The reader's flag loads read 0 (the initial value) 0 to 200 times, then 1: one
    // execution per number of iterations, each reading x == 1.
    for c in counts(MP_SPIN, 200) {
        assert_eq!(c, (201, 0));
    }
}
