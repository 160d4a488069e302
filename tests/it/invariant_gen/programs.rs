//! The generator of programs with annotated loops (see the parent module).

/// xorshift64*: a fixed seed gives the same programs everywhere.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() >> 33) as usize % n
    }
    /// True with probability `p` percent.
    fn pct(&mut self, p: usize) -> bool {
        self.below(100) < p
    }
    fn of<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

/// What a statement may use where it is generated.
#[derive(Clone)]
struct Ctx {
    indent: usize,
    /// Int variables that are (possibly) bound here, counters included.
    ints: Vec<String>,
    /// Loop counters: never assigned but by their loop (so every loop terminates).
    counters: Vec<String>,
    /// Tuple variables (the input `t` and those grown in loops).
    tuples: Vec<String>,
    /// Enclosing loops (break/continue allowed).
    loops: usize,
    /// Inside the function `g` (return allowed, no call of `g`).
    in_func: bool,
    /// How many more loops may nest.
    depth: u32,
}

pub(super) struct Gen {
    r: Rng,
    lines: Vec<String>,
    fresh: u32,
    has_func: bool,
    /// `g` reads the module global `q` (which module code assigns, maybe first in a loop).
    reads_q: bool,
    assigns_q: bool,
    /// Half of the programs are quiet: few raising expressions and assertions, mostly
    /// right invariants, so that many are verified (the verdict rule has something to bite).
    quiet: bool,
}

const INT_OPS: [&str; 6] = ["<", "<=", "==", "!=", ">", ">="];

impl Gen {
    fn emit(&mut self, ctx: &Ctx, line: &str) {
        self.lines
            .push(format!("{}{line}", "    ".repeat(ctx.indent)));
    }

    fn name(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    pub(super) fn program(seed: u64) -> String {
        let mut g = Gen {
            r: Rng::new(seed),
            lines: vec!["n: int".into(), "m: int".into(), "t: tuple".into()],
            fresh: 0,
            has_func: false,
            reads_q: false,
            assigns_q: false,
            quiet: seed.is_multiple_of(2),
        };
        let top = Ctx {
            indent: 0,
            ints: vec!["n".into(), "m".into()],
            counters: Vec::new(),
            tuples: vec!["t".into()],
            loops: 0,
            in_func: false,
            depth: 2,
        };
        if g.r.pct(45) {
            g.function();
        }
        let mut ctx = top;
        for _ in 0..1 + g.r.below(2) {
            g.top_stmt(&mut ctx);
        }
        if g.reads_q && !g.assigns_q {
            g.lines.push("q = 0".into());
        }
        g.lines.join("\n") + "\n"
    }

    /// `def g(a: int, u: tuple) -> int:` with an annotated loop.
    fn function(&mut self) {
        self.lines.push("def g(a: int, u: tuple) -> int:".into());
        let mut ctx = Ctx {
            indent: 1,
            ints: vec!["a".into()],
            counters: Vec::new(),
            tuples: vec!["u".into()],
            loops: 0,
            in_func: true,
            depth: 2,
        };
        if self.r.pct(30) {
            ctx.ints.push("q".into());
            self.reads_q = true;
        }
        self.annotated_loop(&mut ctx);
        let e = self.int_expr(&ctx, true);
        self.emit(&ctx, &format!("return {e}"));
        self.lines.push(String::new());
        self.has_func = true;
    }

    fn top_stmt(&mut self, ctx: &mut Ctx) {
        match self.r.below(10) {
            0..=5 => self.annotated_loop(ctx),
            6 | 7 => {
                // A try around an annotated loop (the handler may swallow what it raises).
                self.emit(ctx, "try:");
                let mut inner = ctx.clone();
                inner.indent += 1;
                self.annotated_loop(&mut inner);
                let class = self.handler_class();
                self.emit(ctx, &format!("{class}:"));
                let v = self.name("h");
                self.emit(&inner, &format!("{v} = 0"));
            }
            8 => {
                // An unannotated loop around an annotated one.
                self.plain_loop(ctx, true);
            }
            _ => {
                let v = self.name("v");
                let e = self.int_expr(ctx, true);
                self.emit(ctx, &format!("{v} = {e}"));
                ctx.ints.push(v);
            }
        }
    }

    fn handler_class(&mut self) -> &'static str {
        self.r.of(&[
            "except ZeroDivisionError",
            "except IndexError",
            "except ArithmeticError",
            "except LookupError",
            "except Exception",
            "except",
            "except AssertionError",
            "except NameError",
        ])
    }

    /// A small int operand: a variable, a literal or `len` of a tuple.
    fn atom(&mut self, ctx: &Ctx) -> String {
        match self.r.below(6) {
            0..=2 => ctx.ints[self.r.below(ctx.ints.len())].clone(),
            3 => format!("{}", self.r.below(5) as i64 - 1),
            4 => format!("len({})", ctx.tuples[self.r.below(ctx.tuples.len())]),
            _ => ctx.ints[self.r.below(ctx.ints.len())].clone(),
        }
    }

    /// An int expression; `raising`: may raise (division, indexing).
    fn int_expr(&mut self, ctx: &Ctx, raising: bool) -> String {
        let raising = raising && !(self.quiet && self.r.pct(85));
        let k = if raising {
            self.r.below(10)
        } else {
            self.r.below(5)
        };
        match k {
            0 | 1 => self.atom(ctx),
            2 => {
                let (a, b) = (self.atom(ctx), self.atom(ctx));
                format!("{a} + {b}")
            }
            3 => {
                let (a, b) = (self.atom(ctx), self.atom(ctx));
                format!("{a} - {b}")
            }
            4 => {
                let a = self.atom(ctx);
                format!("{a} * 2")
            }
            5 | 6 => {
                let a = self.atom(ctx);
                let k = self.r.below(4);
                format!("10 // ({a} - {k})")
            }
            9 if self.has_func && !ctx.in_func => {
                // A call of `g` (its loop, its exceptions, its invariant failures).
                let a = self.atom(ctx);
                let u = ctx.tuples[self.r.below(ctx.tuples.len())].clone();
                format!("g({a}, {u})")
            }
            _ => {
                let u = ctx.tuples[self.r.below(ctx.tuples.len())].clone();
                let a = self.atom(ctx);
                let off = self.r.of(&["", " - 1", " + 1"]);
                format!("{u}[{a}{off}]")
            }
        }
    }

    fn cond(&mut self, ctx: &Ctx, raising: bool) -> String {
        let a = self.int_expr(ctx, raising);
        let b = self.atom(ctx);
        let op = self.r.of(&INT_OPS);
        format!("{a} {op} {b}")
    }

    /// An invariant over the loop's variables: a right one for the counter, or a random
    /// comparison (too weak or wrong).
    fn invariant(&mut self, ctx: &Ctx, counter: &str, bound: &str, down: bool) -> String {
        let k = if self.quiet && self.r.pct(70) {
            self.r.below(3)
        } else {
            self.r.below(11)
        };
        match k {
            10 => {
                let u = ctx.tuples[self.r.below(ctx.tuples.len())].clone();
                let a = self.atom(ctx);
                match self.r.below(3) {
                    0 => format!("{u}[{counter}] >= -5 or {counter} >= len({u})"),
                    1 => format!("10 // ({counter} + 1) >= 0"),
                    _ => format!("{u}[{a}] != 9"),
                }
            }
            0 | 1 if !down => format!("0 <= {counter}"),
            0 | 1 => format!("{counter} >= 0 or {counter} == {bound}"),
            2 if !down => format!("{counter} <= {bound} or {counter} == 0"),
            2 => format!("{counter} <= {bound}"),
            3 => {
                let u = ctx.tuples[self.r.below(ctx.tuples.len())].clone();
                let op = self.r.of(&["<=", "==", ">="]);
                format!("len({u}) {op} {counter}")
            }
            _ => {
                let a = self.atom(ctx);
                let b = self.atom(ctx);
                let op = self.r.of(&INT_OPS);
                if self.r.pct(30) {
                    let c = self.atom(ctx);
                    let op2 = self.r.of(&INT_OPS);
                    let join = self.r.of(&["and", "or"]);
                    format!("{a} {op} {b} {join} {c} {op2} {counter}")
                } else {
                    format!("{a} {op} {b}")
                }
            }
        }
    }

    /// A `while` with `invariant` lines, its initialisations before it, maybe an `else:`,
    /// and statements after it that read what it assigned.
    fn annotated_loop(&mut self, ctx: &mut Ctx) {
        self.loop_(ctx, true);
    }

    fn plain_loop(&mut self, ctx: &mut Ctx, inner_annotated: bool) {
        // A constant bound: fully unrolled within `--unroll`.
        let c = self.name("c");
        let k = 1 + self.r.below(2);
        // `p` counts the iterations that reach the end of the body: an inner loop's
        // `else: break/continue` skips it, and the division after the loop sees that.
        let p = self.name("p");
        self.emit(ctx, &format!("{p} = 0"));
        self.emit(ctx, &format!("{c} = 0"));
        self.emit(ctx, &format!("while {c} < {k}:"));
        let mut body = ctx.clone();
        body.indent += 1;
        body.loops += 1;
        body.depth = body.depth.saturating_sub(1);
        body.ints.push(c.clone());
        body.counters.push(c.clone());
        self.emit(&body, &format!("{c} = {c} + 1"));
        if inner_annotated {
            self.annotated_loop(&mut body);
        }
        for _ in 0..self.r.below(2) {
            self.body_stmt(&mut body);
        }
        if !inner_annotated && body.depth > 0 && self.r.pct(50) {
            self.annotated_loop(&mut body);
        }
        self.emit(&body, &format!("{p} = {p} + 1"));
        if self.r.pct(25) {
            self.emit(ctx, "else:");
            let mut e = ctx.clone();
            e.indent += 1;
            self.else_stmt(&mut e);
        }
        ctx.ints.push(c);
        if self.r.pct(60) {
            let r = self.name("r");
            let k = self.r.below(3);
            self.emit(ctx, &format!("{r} = 10 // ({p} - {k})"));
        }
        ctx.ints.push(p);
    }

    fn loop_(&mut self, ctx: &mut Ctx, annotated: bool) {
        let i = self.name("i");
        let down = self.r.pct(25);
        let tuple = ctx.tuples[self.r.below(ctx.tuples.len())].clone();
        let bound = if ctx.in_func {
            self.r
                .of(&["a", "len(u)", "2", "min(a, 3)"])
                .replace("u)", &format!("{tuple})"))
        } else {
            self.r
                .of(&["n", "m", "len(t)", "2", "min(n, 3)", "n + 1"])
                .to_string()
        };
        // Accumulators the loop assigns (assigned before it or first in it).
        let s = self.name("s");
        let pre_s = self.r.pct(75);
        if pre_s {
            let init = self.r.of(&["0", "1", "n", "-1"]);
            let init = if ctx.in_func && init == "n" {
                "a"
            } else {
                init
            };
            if self.r.pct(20) {
                // Bound before the loop on some paths only.
                let c = self.cond(ctx, false);
                self.emit(ctx, &format!("if {c}:"));
                let mut inner = ctx.clone();
                inner.indent += 1;
                self.emit(&inner, &format!("{s} = {init}"));
            } else {
                self.emit(ctx, &format!("{s} = {init}"));
            }
        }
        let grow = self.r.pct(40).then(|| self.name("w"));
        if let Some(w) = &grow {
            if self.r.pct(80) {
                self.emit(ctx, &format!("{w} = ()"));
            }
        }
        if down {
            self.emit(ctx, &format!("{i} = {bound}"));
            self.emit(ctx, &format!("while {i} > 0:"));
        } else {
            self.emit(ctx, &format!("{i} = 0"));
            // Sometimes a guard that may raise (IndexError) or calls `g` (a temporary).
            let extra = match self.r.below(8) {
                0 => format!(" and {tuple}[{i}] != 7"),
                // The accumulator may be unbound at the first test (NameError).
                2 => format!(" and {s} != 3"),
                1 if self.has_func && !ctx.in_func => {
                    let a = self.atom(ctx);
                    format!(" and {i} < g({a}, {tuple})")
                }
                _ => String::new(),
            };
            self.emit(ctx, &format!("while {i} < {bound}{extra}:"));
        }
        let mut body = ctx.clone();
        body.indent += 1;
        body.loops += 1;
        body.depth = body.depth.saturating_sub(1);
        body.ints.push(i.clone());
        body.counters.push(i.clone());
        if pre_s {
            body.ints.push(s.clone());
        }
        if let Some(w) = &grow {
            body.tuples.push(w.clone());
        }
        if annotated {
            // The invariant may mention an accumulator the loop assigns first.
            let mut at_head = body.clone();
            if !at_head.ints.contains(&s) && self.r.pct(30) {
                at_head.ints.push(s.clone());
            }
            for _ in 0..1 + self.r.below(2) {
                let inv = self.invariant(&at_head, &i, &bound, down);
                self.emit(&body, &format!("invariant {inv}"));
            }
        }
        if down {
            self.emit(&body, &format!("{i} = {i} - 1"));
        } else {
            self.emit(&body, &format!("{i} = {i} + 1"));
        }
        // The body: the accumulator, the tuple, then a few statements.
        let mut stmts = 1 + self.r.below(3);
        if !pre_s || self.r.pct(70) {
            let raising = self.r.pct(40);
            let e = self.int_expr(&body, raising);
            let e = if pre_s { format!("{s} + {e}") } else { e };
            self.emit(&body, &format!("{s} = {e}"));
            if !body.ints.contains(&s) {
                body.ints.push(s.clone());
            }
            stmts -= 1;
        }
        if let Some(w) = &grow {
            let x = self.atom(&body);
            self.emit(&body, &format!("{w} = {w} + ({x},)"));
        }
        for _ in 0..stmts.max(1) {
            self.body_stmt(&mut body);
        }
        if self.r.pct(40) {
            // The end of the body: skipped by a `break`/`continue` of an inner loop's else.
            self.emit(&body, &format!("{s} = {s} + 1"));
        }
        let else_pct = if ctx.loops > 0 { 55 } else { 30 };
        if self.r.pct(else_pct) {
            self.emit(ctx, "else:");
            let mut e = ctx.clone();
            e.indent += 1;
            e.ints = body.ints.clone();
            e.tuples = body.tuples.clone();
            self.else_stmt(&mut e);
        }
        // After the loop: what it assigned is readable (maybe unbound: NameError).
        ctx.ints.push(i.clone());
        ctx.counters.push(i);
        if !ctx.ints.contains(&s) {
            ctx.ints.push(s.clone());
        }
        if let Some(w) = grow {
            ctx.tuples.push(w);
        }
        for _ in 0..self.r.below(3) {
            self.after_stmt(ctx, &s);
        }
    }

    fn else_stmt(&mut self, ctx: &mut Ctx) {
        let k = if ctx.loops > 0 && self.r.pct(50) {
            self.r.below(2)
        } else {
            self.r.below(5)
        };
        match k {
            0 if ctx.loops > 0 => self.emit(ctx, "break"),
            1 if ctx.loops > 0 => self.emit(ctx, "continue"),
            2 if ctx.in_func => {
                let e = self.int_expr(ctx, true);
                self.emit(ctx, &format!("return {e}"));
            }
            3 if ctx.depth > 0 => {
                ctx.depth -= 1;
                self.annotated_loop(ctx);
            }
            _ => self.assign(ctx, true),
        }
    }

    fn after_stmt(&mut self, ctx: &mut Ctx, s: &str) {
        let k = if self.quiet && self.r.pct(80) {
            2
        } else {
            self.r.below(4)
        };
        match k {
            0 => {
                let v = self.name("r");
                let k = self.r.below(4);
                self.emit(ctx, &format!("{v} = 10 // ({s} - {k})"));
                ctx.ints.push(v);
            }
            1 => {
                let c = self.cond(ctx, false);
                self.emit(ctx, &format!("assert {c}"));
            }
            _ => self.assign(ctx, true),
        }
    }

    fn assign(&mut self, ctx: &mut Ctx, raising: bool) {
        let e = self.int_expr(ctx, raising);
        let targets: Vec<String> = ctx
            .ints
            .iter()
            .filter(|v| !ctx.counters.contains(v) && !["n", "m", "a", "q"].contains(&v.as_str()))
            .cloned()
            .collect();
        if !ctx.in_func && !ctx.ints.contains(&"q".to_string()) && self.r.pct(15) {
            self.emit(ctx, &format!("q = {e}"));
            ctx.ints.push("q".into());
            self.assigns_q = true;
        } else if !targets.is_empty() && self.r.pct(50) {
            let v = targets[self.r.below(targets.len())].clone();
            self.emit(ctx, &format!("{v} = {e}"));
        } else {
            let v = self.name("v");
            self.emit(ctx, &format!("{v} = {e}"));
            ctx.ints.push(v);
        }
    }

    fn jump(&mut self, ctx: &Ctx) -> String {
        match self.r.below(5) {
            0 | 1 if ctx.loops > 0 => "break".into(),
            2 | 3 if ctx.loops > 0 => "continue".into(),
            _ if ctx.in_func => {
                let e = self.atom(ctx);
                format!("return {e}")
            }
            _ if ctx.loops > 0 => "break".into(),
            _ => "pass".into(),
        }
    }

    fn body_stmt(&mut self, ctx: &mut Ctx) {
        match self.r.below(12) {
            0..=2 => self.assign(ctx, true),
            3 | 4 => {
                let raising = self.r.pct(20);
                let c = self.cond(ctx, raising);
                let j = self.jump(ctx);
                self.emit(ctx, &format!("if {c}:"));
                let mut inner = ctx.clone();
                inner.indent += 1;
                self.emit(&inner, &j);
                if self.r.pct(30) {
                    self.emit(ctx, "else:");
                    self.assign(&mut inner, true);
                }
            }
            5 | 6 => {
                self.emit(ctx, "try:");
                let mut inner = ctx.clone();
                inner.indent += 1;
                if inner.depth > 0 && self.r.pct(25) {
                    // A loop inside the try: what it raises, the handler may catch.
                    inner.depth -= 1;
                    self.annotated_loop(&mut inner);
                } else {
                    self.assign(&mut inner, true);
                }
                if self.r.pct(50) {
                    let c = self.cond(&inner, false);
                    let j = self.jump(&inner);
                    self.emit(&inner, &format!("if {c}:"));
                    let mut deeper = inner.clone();
                    deeper.indent += 1;
                    self.emit(&deeper, &j);
                }
                let class = self.handler_class();
                self.emit(ctx, &format!("{class}:"));
                let mut handler = ctx.clone();
                handler.indent += 1;
                if self.r.pct(40) {
                    let j = self.jump(&handler);
                    self.emit(&handler, &j);
                } else {
                    self.assign(&mut handler, false);
                }
            }
            7 | 8 if ctx.depth > 0 => {
                if self.r.pct(65) {
                    self.loop_(ctx, true);
                } else {
                    self.plain_loop(ctx, false);
                }
            }
            9 | 10 if self.has_func && !ctx.in_func => {
                let a = self.atom(ctx);
                let u = ctx.tuples[self.r.below(ctx.tuples.len())].clone();
                let v = self.name("v");
                self.emit(ctx, &format!("{v} = g({a}, {u})"));
                ctx.ints.push(v);
            }
            _ if self.quiet && self.r.pct(80) => self.assign(ctx, true),
            _ => {
                let c = self.cond(ctx, false);
                self.emit(ctx, &format!("assert {c}"));
            }
        }
    }
}
