//! Reading a program file, with clear errors for everything that is not UTF-8 source text.

use std::io::ErrorKind;
use std::path::Path;

use super::Failure;
use crate::base::SourceMap;

/// Read `path` as minipy source: it must exist, be a file, be UTF-8 (the position of the
/// first bad byte is reported) and not be empty. A leading byte-order mark is dropped.
pub(super) fn read_source(path: &Path) -> Result<SourceMap, Failure> {
    // Shown in every message and header: control characters escaped.
    let name = crate::base::escape::escape(&path.display().to_string()).into_owned();
    if path.is_dir() {
        return Err(Failure::plain(
            format!("`{name}` is a directory, not a minipy file"),
            &[],
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| {
        let why = match e.kind() {
            ErrorKind::NotFound => "no such file".to_string(),
            ErrorKind::PermissionDenied => "permission denied".to_string(),
            _ => e.to_string(),
        };
        Failure::plain(format!("cannot read `{name}`: {why}"), &[])
    })?;
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let bytes = e.as_bytes();
            let at = e.utf8_error().valid_up_to();
            let (line, col) = line_col(&bytes[..at]);
            return Err(Failure::plain(
                format!(
                    "`{name}` is not valid UTF-8: byte 0x{:02x} at line {line}, column {col}",
                    bytes[at]
                ),
                &["minipy programs must be UTF-8 text".to_string()],
            ));
        }
    };
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    };
    if text.trim().is_empty() {
        return Err(Failure::plain(
            format!("`{name}` is empty: there is no program to run"),
            &[],
        ));
    }
    // A lone `\r` ends a line, as CPython reads a file (the front-end does the same).
    let text = crate::lang::universal_newlines(&text).into_owned();
    Ok(SourceMap::new(name, text))
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
    use super::line_col;

    #[test]
    fn positions_count_characters() {
        assert_eq!(line_col(b""), (1, 1));
        assert_eq!(line_col(b"ab"), (1, 3));
        assert_eq!(line_col(b"x = 1\ny = "), (2, 5));
        assert_eq!(line_col("é".as_bytes()), (1, 2));
    }
}
