//! What the user set up that outlives one session: carried over a reload (`L`), written by
//! `S` into a session file and read back by `--session` ([`super::session_file`]).
//!
//! [`Carry`] is one struct, so a new kind of setting is one more field here, one line in
//! `App::carry`/`App::apply_carry` (`app/reload.rs`) and one in the session file. The tree
//! itself (what was explored, the selection) travels separately, as the session's
//! frontier (`session::saved`), because only the worker can name its nodes.
//!
//! Breakpoints follow their lines when the program changed ([`remap`]): a line keeps its
//! breakpoint if its text is unchanged, else the breakpoint moves to the nearest line with
//! the old text (lines inserted or deleted above), else it stays on an edited line that
//! still exists and is not blank, else it is dropped, and the message says so.

use std::collections::BTreeSet;

use crate::base::SourceMap;
use crate::session::ExcStop;

/// The settings a reload keeps and a session file holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Carry {
    pub breakpoints: Vec<Breakpoint>,
    pub exceptions: ExcStop,
    /// Expressions shown at every node (`W`; kept and saved, shown where the UI has them).
    pub watches: Vec<String>,
    /// Preconditions (`--assume`, `a`; kept and saved, applied where the UI has them).
    pub assumptions: Vec<String>,
}

/// A line breakpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakpoint {
    /// 1-based.
    pub line: usize,
    pub enabled: bool,
    /// A minipy condition (stop only where it can hold), if any.
    pub condition: Option<String>,
}

/// Where breakpoints set on an older text of the program go in `new`. Each comes with its
/// line's old text (`None`: unknown, the line number alone counts). Returns the kept
/// breakpoints (each line at most once, in line order) and a note for the status line
/// when any moved or was dropped.
pub fn remap(
    old: Vec<(Breakpoint, Option<String>)>,
    new: &SourceMap,
) -> (Vec<Breakpoint>, Option<String>) {
    let lines: Vec<&str> = new.text.lines().map(str::trim).collect();
    let mut taken = BTreeSet::new();
    let mut kept = Vec::new();
    let mut moved = Vec::new();
    let mut dropped = Vec::new();
    for (mut b, text) in old {
        let text = text.as_deref().map(str::trim).filter(|t| !t.is_empty());
        let same = |l: usize| l >= 1 && lines.get(l - 1).copied() == text;
        let free = |l: &usize| !taken.contains(l);
        let to = if text.is_some() && same(b.line) && free(&b.line) {
            Some(b.line)
        } else if let Some(l) =
            text.and_then(|_| nearest(b.line, lines.len(), |l| same(l) && free(&l)))
        {
            Some(l)
        } else if b.line >= 1
            && lines.get(b.line - 1).is_some_and(|t| !t.is_empty())
            && free(&b.line)
        {
            Some(b.line)
        } else {
            None
        };
        match to {
            Some(l) => {
                if l != b.line {
                    moved.push(format!("{}→{l}", b.line));
                }
                b.line = l;
                taken.insert(l);
                kept.push(b);
            }
            None => dropped.push(b.line.to_string()),
        }
    }
    kept.sort_by_key(|b| b.line);
    let mut parts = Vec::new();
    if !moved.is_empty() {
        parts.push(format!("moved {}", moved.join(", ")));
    }
    if !dropped.is_empty() {
        parts.push(format!(
            "dropped line{} {} (no longer in the program)",
            if dropped.len() == 1 { "" } else { "s" },
            dropped.join(", ")
        ));
    }
    let note = (!parts.is_empty()).then(|| format!("breakpoints {}", parts.join("; ")));
    (kept, note)
}

/// The line nearest to `line` (in `1..=count`, the closer one above on a tie) for which
/// `ok` holds.
fn nearest(line: usize, count: usize, ok: impl Fn(usize) -> bool) -> Option<usize> {
    let line = line.min(count + 1);
    for d in 0..=count {
        if line > d && line - d >= 1 && line - d <= count && ok(line - d) {
            return Some(line - d);
        }
        if d > 0 && line + d <= count && ok(line + d) {
            return Some(line + d);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bp(line: usize) -> Breakpoint {
        Breakpoint {
            line,
            enabled: true,
            condition: None,
        }
    }

    fn remap_lines(old: &str, lines: &[usize], new: &str) -> (Vec<usize>, Option<String>) {
        let old_lines: Vec<&str> = old.lines().collect();
        let input = lines
            .iter()
            .map(|&l| (bp(l), old_lines.get(l - 1).map(|s| s.to_string())))
            .collect();
        let (kept, note) = remap(input, &SourceMap::new("t.py", new));
        (kept.iter().map(|b| b.line).collect(), note)
    }

    #[test]
    fn unchanged_lines_keep_their_breakpoints() {
        let src = "x: int\ny = x\nz = y\n";
        assert_eq!(remap_lines(src, &[2, 3], src), (vec![2, 3], None));
    }

    #[test]
    fn breakpoints_follow_lines_inserted_or_deleted_above() {
        let old = "x: int\ny = x\nz = y\n";
        let new = "x: int\n# a comment\n\ny = x\nz = y\n";
        let (lines, note) = remap_lines(old, &[2, 3], new);
        assert_eq!(lines, vec![4, 5]);
        assert_eq!(note.as_deref(), Some("breakpoints moved 2→4, 3→5"));
        assert_eq!(remap_lines(new, &[4, 5], old).0, vec![2, 3]);
    }

    #[test]
    fn an_edited_line_keeps_its_breakpoint_and_a_vanished_one_is_dropped() {
        let old = "x: int\ny = x\nz = y\nw = z\n";
        let new = "x: int\ny = x + 1\n";
        let (lines, note) = remap_lines(old, &[2, 4], new);
        assert_eq!(lines, vec![2]);
        let note = note.unwrap();
        assert!(note.contains("dropped line 4"), "{note}");
        // A line that became blank loses its breakpoint too.
        let (lines, _) = remap_lines(old, &[2], "x: int\n\ny = 3\n");
        assert_eq!(lines, Vec::<usize>::new());
    }

    #[test]
    fn two_breakpoints_never_land_on_one_line() {
        // Both old lines read `pass`; the new program has one `pass`.
        let old = "x: int\nif x:\n    pass\nelse:\n    pass\n";
        let new = "x: int\nif x:\n    pass\n";
        let (lines, note) = remap_lines(old, &[3, 5], new);
        assert_eq!(lines, vec![3]);
        assert!(note.unwrap().contains("dropped line 5"));
    }

    #[test]
    fn hostile_line_numbers_are_dropped_without_panic() {
        let input = vec![
            (bp(0), None),
            (bp(usize::MAX), Some("x = 1".to_string())),
            (bp(usize::MAX), None),
        ];
        let (kept, note) = remap(input, &SourceMap::new("t.py", "x = 1\n"));
        assert_eq!(kept.iter().map(|b| b.line).collect::<Vec<_>>(), vec![1]);
        assert!(note.unwrap().contains("dropped"));
    }
}
