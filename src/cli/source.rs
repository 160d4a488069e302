//! Reading a program file: `tui::program_file` (shared with the debugger's reload), its
//! errors as the command line's failures.

use std::path::Path;

use super::Failure;
use crate::base::SourceMap;

/// Read `path` as minipy source (see [`crate::tui::program_file::read_program`]).
pub(super) fn read_source(path: &Path) -> Result<SourceMap, Failure> {
    crate::tui::program_file::read_program(path).map_err(|e| Failure::plain(e.message, &e.notes))
}
