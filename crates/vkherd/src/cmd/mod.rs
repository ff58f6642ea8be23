//! One module per command: each reads its flags (`crate::args`) and runs, with the
//! support modules of the binary (`for_each_test`, `test_files`, `exit`, ...).

pub mod bench;
pub mod compare;
pub mod diff;
pub mod distinguish;
pub mod diy;
pub mod explain;
pub mod khronos;
pub mod litmus;
pub mod merge;
pub mod observe;
pub mod report;
pub mod serve;
pub mod table;
