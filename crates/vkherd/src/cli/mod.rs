//! What every command of the binary shares: walking and reading test files
//! ([`for_each_test`], [`test_files`], [`dir_walk`]), keeping one test's failure to that
//! test ([`isolate`], [`test_error`]), the exit status ([`exit`]), the progress bar, and
//! the pieces two commands use ([`family_tables`], [`report_extras`]). Commands (`cmd/`)
//! depend on it; it depends on neither `cmd/` nor `args/`'s commands.

pub mod dir_walk;
pub mod exit;
pub mod family_tables;
pub mod for_each_test;
pub mod isolate;
pub mod progress;
pub mod report_extras;
pub mod test_error;
pub mod test_files;
