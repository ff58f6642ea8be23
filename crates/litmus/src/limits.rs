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

/// Most invocations of one workgroup that may contain a cbar of one barrier with a
/// quorum: the enumeration tries every quorum set (up to 2^16 of them per instance).
pub const MAX_QUORUM_MEMBERS: usize = 16;

/// Most `SATISFIABLE` / `NOSOLUTION` checks in one `.test` file (each is a full run).
pub const MAX_CHECKS: usize = 1024;
