//! Every file symdbg writes, by one rule (the command line's `testgen -o`, the debugger's
//! `T` tests and `S` session files).
//!
//! symdbg replaces only a file it wrote itself (recognised by the header each kind of file
//! starts with, [`Kind::ours`]) or an empty one; never the program (the same inode, however
//! it is named: `./p.py`, an absolute path, a hard link), never a symbolic link (symdbg
//! creates none, so it writes through none), never something that is not a regular file,
//! and not a read-only file. Anything else is a [`WriteError::Refused`] that names the file;
//! `force` (the command line's `--force`) lifts the header and read-only rules only.
//!
//! The text goes to a temporary file in the same directory, which is flushed to the disk
//! and renamed over the target: the target is the complete new text or untouched (a full
//! disk or a crash leaves no half-written file; the temporary file is removed). A replaced
//! file keeps its permissions; a new one gets the usual `0666` less the umask.
//! The module lives in `files`, below both front-ends (`cli` and `tui`), which use it.

use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// How many bytes of an existing file [`Kind::ours`] sees.
const HEAD: u64 = 4096;

/// A kind of file symdbg writes.
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    /// What the file is, for messages ("test file").
    pub what: &'static str,
    /// Did symdbg write a file that starts with these bytes (at most [`HEAD`] of them)?
    pub ours: fn(&[u8]) -> bool,
}

/// A pytest module of `symdbg testgen` or `T` (a session file of `S`:
/// `tui::session_file::KIND`).
pub const PYTEST: Kind = Kind {
    what: "test file",
    ours: crate::testgen::pytest::written_by_symdbg,
};

/// The JSON lines of `symdbg testgen --format jsonl`.
pub const JSONL: Kind = Kind {
    what: "testgen JSON lines file",
    ours: crate::testgen::jsonl::written_by_symdbg,
};

/// The lcov coverage of `symdbg run --lcov FILE`.
pub const LCOV: Kind = Kind {
    what: "lcov coverage file",
    ours: crate::session::coverage::lcov_written_by_symdbg,
};

/// Where a file goes and what may stand in its way.
#[derive(Clone, Copy, Debug)]
pub struct Target<'a> {
    pub path: &'a Path,
    pub kind: Kind,
    /// The program: never replaced, under any name.
    pub program: Option<&'a Path>,
    /// Replace a file symdbg did not write, or a read-only one (`--force`).
    pub force: bool,
}

/// Why a file was not written.
#[derive(Debug)]
pub enum WriteError {
    /// The rule refused: `reason` says why; `forceable` when `force` would write it.
    Refused {
        path: PathBuf,
        reason: String,
        forceable: bool,
    },
    /// The system refused (a full disk, no permission on the directory, ...).
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
}

impl WriteError {
    /// Would `force` have written the file?
    pub fn forceable(&self) -> bool {
        matches!(
            self,
            WriteError::Refused {
                forceable: true,
                ..
            }
        )
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use super::program::display_name as shown;
        match self {
            WriteError::Refused { path, reason, .. } => {
                write!(f, "not writing `{}`: {reason}", shown(path))
            }
            WriteError::Io { path, error } => write!(f, "cannot write `{}`: {error}", shown(path)),
        }
    }
}

/// Write `text` to `target.path` by the rule of this module.
pub fn write(target: &Target<'_>, text: &[u8]) -> Result<(), WriteError> {
    let path = target.path;
    let io = |error| WriteError::Io {
        path: path.to_path_buf(),
        error,
    };
    let keep = allowed(target)?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // The usual mode of a new file (the umask applies), as `File::create` gives.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    // Dropped on any error below: the temporary file is removed.
    let mut tmp = builder.tempfile_in(dir).map_err(io)?;
    if let Some(perms) = keep {
        tmp.as_file().set_permissions(perms).map_err(io)?;
    }
    // (the file itself: `NamedTempFile`'s errors would name the temporary path)
    tmp.as_file_mut().write_all(text).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// Would [`write`] refuse `target`? (To refuse before long work rather than after it.)
pub fn check(target: &Target<'_>) -> Result<(), WriteError> {
    allowed(target).map(|_| ())
}

/// May `target.path` be written? `Some(permissions)` of a file it replaces.
fn allowed(target: &Target<'_>) -> Result<Option<std::fs::Permissions>, WriteError> {
    let path = target.path;
    let refuse = |reason: String, forceable: bool| WriteError::Refused {
        path: path.to_path_buf(),
        reason,
        forceable,
    };
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => {
            return Err(WriteError::Io {
                path: path.to_path_buf(),
                error,
            })
        }
    };
    if meta.file_type().is_symlink() {
        let to = std::fs::read_link(path)
            .map(|t| format!(" to `{}`", super::program::display_name(&t)))
            .unwrap_or_default();
        return Err(refuse(
            format!("it is a symbolic link{to}, and symdbg does not write through links"),
            false,
        ));
    }
    if !meta.is_file() {
        return Err(refuse("it exists and is not a regular file".into(), false));
    }
    if let Some(program) = target.program {
        if same_file(path, program) {
            return Err(refuse("it is the program itself".into(), false));
        }
    }
    let ours = || head(path).is_some_and(|h| (target.kind.ours)(&h));
    if meta.len() > 0 && !target.force && !ours() {
        return Err(refuse(
            format!(
                "it exists and is not a {} symdbg wrote (it lacks symdbg's header)",
                target.kind.what
            ),
            true,
        ));
    }
    if meta.permissions().readonly() && !target.force {
        return Err(refuse("it is read-only".into(), true));
    }
    Ok(Some(meta.permissions()))
}

/// The first [`HEAD`] bytes of a file.
fn head(path: &Path) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(HEAD)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(bytes)
}

/// Do two paths name the same file (device and inode)?
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests;
