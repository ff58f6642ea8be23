//! Size limits on inputs, so that a hostile or broken file gets a clean error instead of
//! exhausting memory (docs/errors.md "Limits"). Every limit is far above what a litmus
//! test needs: the largest tests in circulation have a handful of threads, a few dozen
//! instructions and a few registers and locations.
//!
//! The parsers check the syntactic limits (registers, threads, instructions); lowering
//! checks the ones on names (locations and references) and on quorum barriers.

/// Registers are `r0` ..= `r{MAX_REGISTER}`: values are kept in per-thread vectors indexed
/// by register number.
pub const MAX_REGISTER: u32 = 1023;

/// Most threads (invocations) in one test.
pub const MAX_THREADS: usize = 64;

/// Most instructions (labels excluded) in one thread.
pub const MAX_INSTRUCTIONS_PER_THREAD: usize = 1024;

/// Most instructions (labels excluded) in one test, all threads together.
pub const MAX_INSTRUCTIONS: usize = 4096;

/// Most distinct location and reference names (aliases included) in one test.
pub const MAX_LOCATIONS: usize = 1024;

/// Barriers with a quorum: every instance chooses a quorum set among its members, and
/// the enumeration materialises every combination of choices (up to 2^bits, where bits
/// is the sum over quorum barriers of the invocations that have the barrier times the
/// most cbars of it in one invocation). At most 2^16 combinations, i.e. 16 invocations at
/// one barrier, or four barriers of four invocations.
pub const MAX_QUORUM_CHOICE_BITS: usize = 16;

/// Most `SATISFIABLE` / `NOSOLUTION` checks in one `.test` file (each is a full run).
pub const MAX_CHECKS: usize = 1024;
