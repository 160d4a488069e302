//! The texts of a [`Coverage`]: `run --coverage`'s per-line summary and lcov.

use std::fmt::Write as _;

use super::{Coverage, LineCoverage};

impl Coverage {
    /// The per-line summary of `run --coverage`: one `LINE  STATUS  source` row per
    /// counted line, then the branches and the totals. `text` is the program's source.
    pub fn summary(&self, file: &str, text: &str) -> String {
        let src: Vec<&str> = text.lines().collect();
        let mut out = format!("coverage of {file}\n");
        for (line, c) in &self.lines {
            let code = src.get(line - 1).map_or("", |l| l.trim());
            let code = crate::base::escape::escape_text(code);
            let _ = writeln!(out, "{line:>5}  {:<14}  {code}", c.name());
        }
        if !self.branches.is_empty() {
            out.push_str("branches\n");
            for b in &self.branches {
                let [a, z] = b.direction_names();
                let _ = writeln!(
                    out,
                    "{:>5}  {:<5}  {a}: {}, {z}: {}",
                    b.line,
                    b.kind,
                    b.directions[0].name(),
                    b.directions[1].name()
                );
            }
        }
        let counts = self.counts();
        let n = |c| counts.get(&c).copied().unwrap_or(0);
        let _ = writeln!(
            out,
            "{} lines: {} reached, {} exception-only, {} unreachable, {} unexplored",
            self.lines.len(),
            n(LineCoverage::Reached),
            n(LineCoverage::ExceptionOnly),
            n(LineCoverage::Unreachable),
            n(LineCoverage::Unexplored),
        );
        if !self.complete() {
            out.push_str(
                "(unexplored: not reached so far; a bound, unknown or open path, or one under a loop invariant, might reach it)\n",
            );
        }
        out
    }
}

/// The first line of every lcov file symdbg writes (`TN:` names the "test"), by which
/// [`lcov_written_by_symdbg`] recognises it.
pub const LCOV_HEADER: &str = "TN:symdbg_symbolic";

/// Did symdbg write this lcov file (its first bytes)?
pub fn lcov_written_by_symdbg(head: &[u8]) -> bool {
    head.starts_with(LCOV_HEADER.as_bytes())
}

impl Coverage {
    /// Standard lcov (`geninfo`'s tracefile format) for the program at `path`: `DA:line,1`
    /// for reached and exception-only lines, `DA:line,0` for unreachable ones (no line is
    /// written for an unexplored line: nothing is known of it), `BRDA:line,block,branch,taken`
    /// with `taken` 1 (some input goes that way), 0 (none does) or `-` (not known yet).
    pub fn lcov(&self, path: &str) -> String {
        let mut out = format!("{LCOV_HEADER}\nSF:{path}\n");
        let (mut found, mut hit) = (0, 0);
        for (line, c) in &self.lines {
            let n = match c {
                LineCoverage::Reached | LineCoverage::ExceptionOnly => 1,
                LineCoverage::Unreachable => 0,
                LineCoverage::Unexplored => continue,
            };
            found += 1;
            hit += n;
            let _ = writeln!(out, "DA:{line},{n}");
        }
        let (mut bfound, mut bhit) = (0, 0);
        let mut block = 0;
        let mut last = None;
        for b in &self.branches {
            block = if last == Some(b.line) { block + 1 } else { 0 };
            last = Some(b.line);
            for (k, d) in b.directions.iter().enumerate() {
                bfound += 1;
                let taken = match d {
                    LineCoverage::Reached | LineCoverage::ExceptionOnly => {
                        bhit += 1;
                        "1"
                    }
                    LineCoverage::Unreachable => "0",
                    LineCoverage::Unexplored => "-",
                };
                let _ = writeln!(out, "BRDA:{},{block},{k},{taken}", b.line);
            }
        }
        let _ = writeln!(
            out,
            "BRF:{bfound}\nBRH:{bhit}\nLF:{found}\nLH:{hit}\nend_of_record"
        );
        out
    }
}
