//! Reading a program file: [`crate::files::program`] (shared with the debugger), its
//! errors as the command line's failures.

use std::path::Path;

use super::Failure;
use crate::base::SourceMap;

/// Read `path` as minipy source (see [`crate::files::program::read_program`]).
pub(super) fn read_source(path: &Path) -> Result<SourceMap, Failure> {
    crate::files::program::read_program(path).map_err(|e| Failure::plain(e.message, &e.notes))
}
