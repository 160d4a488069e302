//! Reading a program file, with clear errors for everything that is not UTF-8 source text
//! (every command and the debugger read through here), and the file's [`Stamp`], which the
//! debugger compares to notice that the file changed on disk.

use std::io::{ErrorKind, Read};
use std::path::Path;
use std::time::SystemTime;

use crate::base::SourceMap;

/// Why a program file cannot be read: a message and notes for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub message: String,
    pub notes: Vec<String>,
}

impl ReadError {
    fn new(message: String) -> ReadError {
        ReadError {
            message,
            notes: Vec::new(),
        }
    }
}

/// Larger program files are refused unread. The front-end and the engine take memory
/// linear in the program, but a few hundred bytes per byte of source (a 3-million-element
/// tuple literal needed 5.4 GB); 1 MiB of minipy keeps that well under a gigabyte.
pub const MAX_PROGRAM_BYTES: u64 = 1 << 20;

/// Read `path` as minipy source: it must exist, be a file of at most
/// [`MAX_PROGRAM_BYTES`], be UTF-8 (the position of the first bad byte is reported) and
/// not be empty. A leading byte-order mark is dropped.
pub fn read_program(path: &Path) -> Result<SourceMap, ReadError> {
    // Shown in every message and header: control characters escaped.
    let name = display_name(path);
    if path.is_dir() {
        return Err(ReadError::new(format!(
            "`{name}` is a directory, not a minipy file"
        )));
    }
    let cannot = |e: std::io::Error| {
        let why = match e.kind() {
            ErrorKind::NotFound => "no such file".to_string(),
            ErrorKind::PermissionDenied => "permission denied".to_string(),
            _ => e.to_string(),
        };
        ReadError::new(format!("cannot read `{name}`: {why}"))
    };
    // At most one byte past the cap is read (a device or a pipe may never end).
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_PROGRAM_BYTES + 1).read_to_end(&mut bytes))
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_PROGRAM_BYTES {
        return Err(ReadError {
            message: format!(
                "`{name}` is too large: symdbg reads programs of at most {} MiB",
                MAX_PROGRAM_BYTES >> 20
            ),
            notes: vec!["split the program, or explore a smaller part of it".to_string()],
        });
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let bytes = e.as_bytes();
            let at = e.utf8_error().valid_up_to();
            let (line, col) = line_col(&bytes[..at]);
            return Err(ReadError {
                message: format!(
                    "`{name}` is not valid UTF-8: byte 0x{:02x} at line {line}, column {col}",
                    bytes[at]
                ),
                notes: vec!["minipy programs must be UTF-8 text".to_string()],
            });
        }
    };
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    };
    if text.trim().is_empty() {
        return Err(ReadError::new(format!(
            "`{name}` is empty: there is no program to run"
        )));
    }
    // A lone `\r` ends a line, as CPython reads a file (the front-end does the same).
    let text = crate::lang::universal_newlines(&text).into_owned();
    Ok(SourceMap::new(name, text))
}

/// The name a path is shown by: control characters escaped.
pub fn display_name(path: &Path) -> String {
    crate::base::escape::escape(&path.display().to_string()).into_owned()
}

/// What changes when a file is written: its modification time and size. Cheap to take (one
/// `stat`), so the debugger takes one a few times a second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    pub modified: Option<SystemTime>,
    pub len: u64,
}

impl Stamp {
    /// The file's stamp now (`None`: it cannot be read, e.g. it was deleted).
    pub fn of(path: &Path) -> Option<Stamp> {
        let meta = std::fs::metadata(path).ok()?;
        Some(Stamp {
            modified: meta.modified().ok(),
            len: meta.len(),
        })
    }
}

/// 1-based line and column (in characters) just after `prefix`, which is valid UTF-8.
fn line_col(prefix: &[u8]) -> (usize, usize) {
    let line_start = prefix
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    let line = prefix.iter().filter(|b| **b == b'\n').count() + 1;
    let col = std::str::from_utf8(&prefix[line_start..]).map_or(0, |s| s.chars().count()) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters() {
        assert_eq!(line_col(b""), (1, 1));
        assert_eq!(line_col(b"ab"), (1, 3));
        assert_eq!(line_col(b"x = 1\ny = "), (2, 5));
        assert_eq!(line_col("é".as_bytes()), (1, 2));
    }

    #[test]
    fn a_stamp_changes_with_the_file_and_vanishes_with_it() {
        let dir = std::env::temp_dir().join(format!("symdbg-stamp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("p.py");
        std::fs::write(&p, "x = 1\n").unwrap();
        let a = Stamp::of(&p).unwrap();
        std::fs::write(&p, "x = 12\n").unwrap();
        assert_ne!(Stamp::of(&p), Some(a), "the size changed");
        std::fs::remove_file(&p).unwrap();
        assert_eq!(Stamp::of(&p), None);
        let _ = std::fs::remove_dir(&dir);
    }
}
