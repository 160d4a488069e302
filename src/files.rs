//! Files: reading a program ([`program`]) and writing every file symdbg writes
//! ([`output`]), below both front-ends (`cli` and `tui`) so each reads and writes by the
//! same rules. With the front-ends, the only stage that touches the file system.

pub mod output;
pub mod program;
