//! `run --coverage` (the per-line summary instead of the tree) and `run --lcov FILE`
//! (issue 29): the session's [`crate::session::Coverage`] printed or written by
//! `files/output.rs`'s rule (only a file symdbg wrote, or an empty one, is replaced).

use std::path::Path;

use super::super::{Failure, RunArgs};
use super::Explored;
use crate::files::output::{self, Target};

/// The lcov file of `--lcov`, as a target of `files/output.rs`.
fn target(args: &RunArgs) -> Option<Target<'_>> {
    Some(Target {
        path: args.lcov.as_deref()?,
        kind: output::LCOV,
        program: Some(&args.file),
        force: false,
    })
}

/// Refuse a `--lcov` file that may not be written before the exploration starts.
pub(super) fn check(args: &RunArgs) -> Result<(), Failure> {
    match target(args) {
        Some(t) => output::check(&t).map_err(|e| refused(&e)),
        None => Ok(()),
    }
}

/// Write the lcov file, if asked for.
pub(super) fn write_lcov(x: &mut Explored, args: &RunArgs) -> Result<(), Failure> {
    let Some(t) = target(args) else {
        return Ok(());
    };
    let text = x.session.coverage().lcov(&source_path(&args.file));
    output::write(&t, text.as_bytes()).map_err(|e| refused(&e))
}

/// `--coverage`: the per-line summary.
pub(super) fn summary(x: &mut Explored, args: &RunArgs) -> String {
    let file = crate::files::program::display_name(&args.file);
    let coverage = x.session.coverage();
    coverage.summary(&file, &x.session.source().text)
}

/// The program's path as lcov's `SF:` names it (as given on the command line).
fn source_path(file: &Path) -> String {
    file.display().to_string()
}

fn refused(e: &output::WriteError) -> Failure {
    let help = match e {
        output::WriteError::Io { .. } => vec![],
        _ => vec![
            "help: give `--lcov` another file (symdbg replaces only lcov files it wrote)"
                .to_string(),
        ],
    };
    Failure::plain(e.to_string(), &help)
}
