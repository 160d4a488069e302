//! The generator's layout: whitespace, continuation lines, comments, `;`, parentheses.

use super::{is_name, Gen, E};

impl Gen {
    /// Whitespace between two tokens; `need`: both sides are name characters. Inside
    /// brackets (`depth > 0`) a token may go to a continuation line, after a comment.
    pub(super) fn ws(&mut self, depth: usize, need: bool) -> String {
        let r = self.rng.below(100);
        let mut s = match r {
            0..=49 => String::new(),
            50..=79 => " ".into(),
            80..=84 => "\t".into(),
            85..=87 => "\x0c".into(),
            88..=90 => "  ".into(),
            91..=96 if depth > 0 => {
                let comment = if self.rng.chance(30) { "  # c" } else { "" };
                {
                    let nl = self.newline;
                    format!("{comment}{nl}{}", self.junk_indent())
                }
            }
            97..=99 if self.rng.chance(40) => {
                let nl = self.newline;
                format!(" \\{nl}{}", self.junk_indent())
            }
            _ => " ".into(),
        };
        if need && s.is_empty() {
            s.push(' ');
        }
        s
    }

    /// Indentation of a continuation line: anything (it does not count).
    pub(super) fn junk_indent(&mut self) -> String {
        let n = self.rng.below(9);
        (0..n)
            .map(|_| match self.rng.below(6) {
                0 => '\t',
                1 if n > 1 => '\x0c',
                _ => ' ',
            })
            .collect()
    }

    /// Write a simple statement: on a line of its own, or after the previous simple
    /// statement with `;`.
    pub(super) fn simple(&mut self, toks: Vec<String>) {
        if self.simple_open == Some(self.level) && self.rng.chance(15) {
            let nl = self.out.len() - self.newline.len();
            self.out.truncate(nl);
            let sep = self.ws(0, false);
            self.out.push(';');
            self.out.push_str(&sep);
            self.tokens(toks);
            self.out.push_str(self.newline);
            return;
        }
        self.line(toks);
        let trailing = self.out.ends_with(&format!("# trailing{}", self.newline));
        self.simple_open = (!trailing).then_some(self.level);
    }

    /// Write one logical line at the current level.
    pub(super) fn line(&mut self, toks: Vec<String>) {
        self.simple_open = None;
        // Blank lines and comment lines between statements, at any indentation.
        if self.rng.chance(8) {
            let junk = match self.rng.below(5) {
                0 => String::new(),
                1 => "   ".into(),
                2 => "\t# note".into(),
                3 => "\x0c".into(),
                _ => "# comment (with brackets ([".into(),
            };
            self.out.push_str(&junk);
            self.out.push_str(self.newline);
        }
        if self.rng.chance(4) {
            // A form feed in the indentation resets CPython's column count.
            self.out.push_str(if self.rng.chance(50) {
                "\x0c"
            } else {
                "  \x0c"
            });
        }
        let indent = self.unit.repeat(self.level);
        self.out.push_str(&indent);
        self.tokens(toks);
        if self.rng.chance(5) {
            self.out.push_str("  # trailing");
        }
        self.out.push_str(self.newline);
    }

    /// Write tokens with whitespace (and continuation lines inside brackets) between them.
    pub(super) fn tokens(&mut self, toks: Vec<String>) {
        let mut depth = 0usize;
        let mut prev: Option<char> = None;
        for tok in toks {
            let first = tok.chars().next().unwrap_or(' ');
            if let Some(p) = prev {
                let need = is_name(p) && is_name(first);
                let ws = self.ws(depth, need);
                self.out.push_str(&ws);
            }
            match tok.as_str() {
                "(" | "[" => depth += 1,
                ")" | "]" => depth = depth.saturating_sub(1),
                _ => {}
            }
            prev = tok.chars().last();
            self.out.push_str(&tok);
        }
    }

    // ------------------------------------------------------------------ expressions

    pub(super) fn toks(&mut self, e: &E, min_prec: u8, out: &mut Vec<String>) {
        let extra = match e {
            E::Lit(_) | E::Name(_) => self.rng.chance(8),
            _ => self.rng.chance(18),
        };
        let paren = e.prec() < min_prec || extra;
        if paren {
            out.push("(".into());
            if self.rng.chance(10) {
                out.push("(".into());
                self.toks_bare(e, out);
                out.push(")".into());
            } else {
                self.toks_bare(e, out);
            }
            out.push(")".into());
        } else {
            self.toks_bare(e, out);
        }
    }

    pub(super) fn toks_bare(&mut self, e: &E, out: &mut Vec<String>) {
        let p = e.prec();
        match e {
            E::Lit(s) | E::Name(s) => out.push(s.clone()),
            E::Bin(op, a, b) | E::BoolOp(op, a, b) => {
                self.toks(a, p, out);
                out.push(op.to_string());
                self.toks(b, p + 1, out);
            }
            E::Unary(op, a) => {
                out.push(op.to_string());
                self.toks(a, p, out);
            }
            E::Cmp(first, rest) => {
                self.toks(first, 5, out);
                for (op, x) in rest {
                    out.push(op.to_string());
                    self.toks(x, 5, out);
                }
            }
            E::Index(base, i) => {
                self.toks(base, 8, out);
                out.push("[".into());
                self.toks(i, 0, out);
                out.push("]".into());
            }
            E::Slice(base, parts) => {
                self.toks(base, 8, out);
                out.push("[".into());
                for (k, part) in parts.iter().enumerate() {
                    if k == 1 || k == 2 && part.is_some() {
                        out.push(":".into());
                    }
                    if let Some(part) = part {
                        self.toks(part, 0, out);
                    }
                }
                out.push("]".into());
            }
            E::IfExp(cond, then, orelse) => {
                self.toks(then, 1, out);
                out.push("if".into());
                self.toks(cond, 1, out);
                out.push("else".into());
                self.toks(orelse, 0, out);
            }
            E::Call(f, args) => {
                out.push(f.clone());
                out.push("(".into());
                for (k, a) in args.iter().enumerate() {
                    if k > 0 {
                        out.push(",".into());
                    }
                    self.toks(a, 0, out);
                }
                if !args.is_empty() && self.rng.chance(10) {
                    out.push(",".into());
                }
                out.push(")".into());
            }
            E::Tuple(items) => {
                out.push("(".into());
                for (k, a) in items.iter().enumerate() {
                    if k > 0 {
                        out.push(",".into());
                    }
                    self.toks(a, 0, out);
                }
                if items.len() == 1 || (!items.is_empty() && self.rng.chance(20)) {
                    out.push(",".into());
                }
                out.push(")".into());
            }
            E::Quant(kind, var, lo, hi, body) => {
                out.push(kind.to_string());
                out.push("(".into());
                self.toks(body, 0, out);
                out.extend(["for".into(), var.clone(), "in".into(), "range".into()]);
                out.push("(".into());
                if let Some(lo) = lo {
                    self.toks(lo, 0, out);
                    out.push(",".into());
                }
                self.toks(hi, 0, out);
                out.push(")".into());
                out.push(")".into());
            }
        }
    }

    pub(super) fn expr_toks(&mut self, e: &E) -> Vec<String> {
        let mut out = Vec::new();
        self.toks(e, 0, &mut out);
        out
    }
}
