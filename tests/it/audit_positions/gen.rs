//! A generator of random minipy programs as *text*, for the position audit.
//!
//! Unlike `gen.rs` (an AST pretty-printed one canonical way), this one writes source the way
//! people do: redundant and nested parentheses, chained comparisons, free spacing with tabs
//! and form feeds, expressions broken over continuation lines inside brackets (with comments
//! and odd indentation), backslash continuations, blank and comment lines, tab indentation.
//! The programs raise on purpose: `//` and `%` by expressions that may be 0, `t[i]` with
//! computed indices, names read before they are bound (NameError, UnboundLocalError),
//! recursion without a base case (RecursionError), asserts over `and`/`or`/`not`, and
//! `@predicate`s called from code with quantifiers that index past the end or divide by 0.
//!
//! Every program terminates: loops are `while cK < N` (N ≤ 3) with the counter bumped first
//! and never assigned elsewhere; recursion is either bounded by a small input or unbounded
//! (CPython's recursion limit ends it).
//!
//! Three flavours: a module with declared inputs (`x: int`, `t: tuple`, ...), a module whose
//! function `f` is the `--entry` (the top level has loops, ifs, try, asserts and calls and
//! runs first, as `import m; m.f(args)` does), and a module with `@predicate`s called from
//! ordinary code.

/// splitmix64: small, seedable, good enough for test generation.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

mod defs;
mod layout;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Int,
    Bool,
    Tuple,
}

impl Ty {
    pub fn name(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::Bool => "bool",
            Ty::Tuple => "tuple",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    /// Module with declared inputs.
    Module,
    /// Module whose function `f` is the `--entry`.
    Entry,
    /// Module with `@predicate`s called from code.
    Predicate,
}

/// A generated program: its text, the entry function, and its inputs (declared module
/// inputs, or the entry's parameters).
#[derive(Clone, Debug)]
pub struct Generated {
    pub src: String,
    pub entry: Option<String>,
    pub inputs: Vec<(String, Ty)>,
}

/// An expression before it is written out.
#[derive(Clone, Debug)]
enum E {
    /// Integer literal or `True`/`False`.
    Lit(String),
    Name(String),
    /// `+ - * // %`.
    Bin(&'static str, Box<E>, Box<E>),
    /// `-`, `+` (precedence of unary minus) or `not`.
    Unary(&'static str, Box<E>),
    /// `and`, `or`.
    BoolOp(&'static str, Box<E>, Box<E>),
    Cmp(Box<E>, Vec<(&'static str, E)>),
    Index(Box<E>, Box<E>),
    Call(String, Vec<E>),
    Tuple(Vec<E>),
    /// `all(body for k in range(lo, hi))`.
    Quant(&'static str, String, Option<Box<E>>, Box<E>, Box<E>),
    /// `t[lo:hi:step]` (`ValueError` at the subscript for a zero step).
    Slice(Box<E>, [Option<Box<E>>; 3]),
    /// `then if cond else orelse`: (cond, then, orelse).
    IfExp(Box<E>, Box<E>, Box<E>),
}

impl E {
    /// Python's precedence: the higher, the tighter.
    fn prec(&self) -> u8 {
        match self {
            E::BoolOp("or", ..) => 1,
            E::BoolOp(..) => 2,
            E::Unary("not", _) => 3,
            E::Cmp(..) => 4,
            E::Bin("+" | "-", ..) => 5,
            E::Bin(..) => 6,
            E::Unary(..) => 7,
            E::Index(..) | E::Slice(..) | E::Call(..) | E::Quant(..) => 8,
            E::IfExp(..) => 0,
            E::Lit(_) | E::Name(_) | E::Tuple(_) => 9,
        }
    }
}

/// A user function the generated code may call.
#[derive(Clone, Debug)]
struct Func {
    name: String,
    params: Vec<Ty>,
    ret: Ty,
    predicate: bool,
}

pub struct Gen {
    rng: Rng,
    /// Variables readable here, with their types (some may be unbound on some paths).
    scope: Vec<(String, Ty)>,
    /// Every variable name ever made, with its type (a name keeps one type everywhere).
    fresh: usize,
    loop_depth: usize,
    /// Inside a function: its return type.
    ret: Option<Ty>,
    funcs: Vec<Func>,
    /// Quantifier nesting (its variables are `k0`, `k1`, ...).
    quant: usize,
    /// Inside a predicate body: only predicates may be called.
    in_predicate: bool,
    /// Scope entries before this index are module variables seen from a function: minipy
    /// functions may read them but never assign them.
    assignable_from: usize,
    /// The program's indentation unit.
    unit: String,
    /// The program's line break: `\n`, `\r\n` or a lone `\r` (old Mac files).
    newline: &'static str,
    /// The last line written is a simple statement at this level (another may follow
    /// after `;`).
    simple_open: Option<usize>,
    /// A function declared before its `def` (calls of it before the `def` run raise
    /// NameError): its index in `funcs`.
    late: Option<usize>,
    out: String,
    level: usize,
}

impl Gen {
    pub fn new(seed: u64) -> Gen {
        let mut rng = Rng::new(seed);
        let newline = match rng.below(20) {
            0 => "\r\n",
            1 => "\r",
            _ => "\n",
        };
        let unit = match rng.below(6) {
            0 => "\t".to_string(),
            1 => "  ".to_string(),
            2 => " ".to_string(),
            3 => "\t ".to_string(),
            _ => "    ".to_string(),
        };
        Gen {
            rng,
            scope: Vec::new(),
            fresh: 0,
            loop_depth: 0,
            ret: None,
            funcs: Vec::new(),
            quant: 0,
            in_predicate: false,
            assignable_from: 0,
            unit,
            newline,
            simple_open: None,
            late: None,
            out: String::new(),
            level: 0,
        }
    }

    /// Generate one program of `flavour`.
    pub fn program(mut self, flavour: Flavour) -> Generated {
        match flavour {
            Flavour::Module | Flavour::Predicate => {
                let mut inputs = Vec::new();
                for (name, ty) in [
                    ("x", Ty::Int),
                    ("y", Ty::Int),
                    ("t", Ty::Tuple),
                    ("b", Ty::Bool),
                ] {
                    if name == "x" || self.rng.chance(60) {
                        self.line(vec![name.into(), ":".into(), ty.name().into()]);
                        self.scope.push((name.to_string(), ty));
                        inputs.push((name.to_string(), ty));
                    }
                }
                if flavour == Flavour::Predicate {
                    for _ in 0..1 + self.rng.below(2) {
                        self.predicate();
                    }
                }
                for _ in 0..self.rng.below(3) {
                    self.function(None);
                }
                // A function called before its `def` ran raises NameError.
                if self.rng.chance(30) {
                    self.fresh += 1;
                    let name = format!("h{}", self.fresh);
                    let (params, ret) = self.signature();
                    self.late = Some(self.funcs.len());
                    self.funcs.push(Func {
                        name,
                        params: params.iter().map(|p| p.1).collect(),
                        ret,
                        predicate: false,
                    });
                    for _ in 0..1 + self.rng.below(2) {
                        self.stmt(2);
                    }
                    self.function(None);
                }
                for _ in 0..1 + self.rng.below(5) {
                    self.stmt(3);
                }
                Generated {
                    src: self.out,
                    entry: None,
                    inputs,
                }
            }
            Flavour::Entry => {
                // Declared inputs bind nothing on import: reading one raises NameError.
                if self.rng.chance(15) {
                    self.line(vec!["x".into(), ":".into(), "int".into()]);
                    self.scope.push(("x".to_string(), Ty::Int));
                }
                for _ in 0..1 + self.rng.below(3) {
                    let ty = self.ty();
                    let value = self.expr(ty, 1);
                    let name = self.fresh_name(ty);
                    self.assign(&name, value);
                }
                if self.rng.chance(30) {
                    self.predicate();
                }
                for _ in 0..self.rng.below(2) {
                    self.function(None);
                }
                for _ in 0..self.rng.below(4) {
                    self.stmt(2);
                }
                let params = self.function(Some("f"));
                // Statements after `f` run on import too (they may call `f` itself).
                for _ in 0..self.rng.below(3) {
                    self.stmt(2);
                }
                Generated {
                    src: self.out,
                    entry: Some("f".to_string()),
                    inputs: params,
                }
            }
        }
    }

    fn var(&mut self, ty: Ty) -> Option<String> {
        self.var_from(ty, 0)
    }

    /// A variable that may be assigned here (not a module variable inside a function, not
    /// a loop counter or quantifier variable).
    fn target(&mut self, ty: Ty) -> Option<String> {
        self.var_from(ty, self.assignable_from)
            .filter(|v| !v.starts_with('c') && !v.starts_with('k'))
    }

    fn var_from(&mut self, ty: Ty, from: usize) -> Option<String> {
        let vars: Vec<&String> = self.scope[from.min(self.scope.len())..]
            .iter()
            .filter(|(_, t)| *t == ty)
            .map(|(n, _)| n)
            .collect();
        if vars.is_empty() {
            return None;
        }
        let i = self.rng.below(vars.len());
        Some(vars[i].clone())
    }

    fn expr(&mut self, ty: Ty, depth: u32) -> E {
        match ty {
            Ty::Int => self.int(depth),
            Ty::Bool => self.boolean(depth),
            Ty::Tuple => self.tuple(depth),
        }
    }

    fn int_leaf(&mut self) -> E {
        match self.rng.below(10) {
            0..=2 => E::Lit(self.rng.below(4).to_string()),
            3..=8 => self
                .var(Ty::Int)
                .map_or_else(|| E::Lit("2".into()), E::Name),
            _ => E::Lit(self.rng.pick(&["7", "10", "100", "0x1F", "1_000"]).into()),
        }
    }

    fn int(&mut self, depth: u32) -> E {
        if depth == 0 {
            return self.int_leaf();
        }
        let d = depth - 1;
        match self.rng.below(13) {
            12 => self.if_exp(Ty::Int, d),
            0..=1 => self.int_leaf(),
            2..=4 => {
                let op = self.rng.pick(&["+", "-", "*", "//", "%", "//", "%"]);
                E::Bin(op, Box::new(self.int(d)), Box::new(self.int(d)))
            }
            5 => {
                let op = self.rng.pick(&["-", "+"]);
                E::Unary(op, Box::new(self.int(d)))
            }
            6 | 7 => {
                let base = self.tuple(d);
                let index = match self.rng.below(3) {
                    0 => E::Lit(self.rng.below(4).to_string()),
                    1 => E::Unary("-", Box::new(E::Lit((1 + self.rng.below(3)).to_string()))),
                    _ => self.int(d),
                };
                E::Index(Box::new(base), Box::new(index))
            }
            8 => E::Call("len".into(), vec![self.tuple(d)]),
            9 => {
                let f = self.rng.pick(&["abs", "min", "max"]);
                let mut args = vec![self.int(d)];
                if f != "abs" {
                    args.push(self.int(d));
                }
                E::Call(f.into(), args)
            }
            _ => self.call(Ty::Int, d).unwrap_or_else(|| self.int_leaf()),
        }
    }

    fn bool_leaf(&mut self) -> E {
        match self.rng.below(3) {
            0 => E::Lit(self.rng.pick(&["True", "False"]).into()),
            _ => self
                .var(Ty::Bool)
                .map_or_else(|| E::Lit("True".into()), E::Name),
        }
    }

    fn boolean(&mut self, depth: u32) -> E {
        if depth == 0 {
            return self.bool_leaf();
        }
        let d = depth - 1;
        const CMP: [&str; 6] = ["==", "!=", "<", "<=", ">", ">="];
        match self.rng.below(13) {
            11 => {
                let op = self.rng.pick(&["in", "not in"]);
                E::Cmp(Box::new(self.int(d)), vec![(op, self.tuple(d))])
            }
            12 => self.if_exp(Ty::Bool, d),
            0 => self.bool_leaf(),
            1..=3 => {
                let first = self.int(d);
                let rest = (0..1 + self.rng.below(3))
                    .map(|_| (self.rng.pick(&CMP), self.int(d)))
                    .collect();
                E::Cmp(Box::new(first), rest)
            }
            4 => {
                let op = self.rng.pick(&["==", "!="]);
                E::Cmp(Box::new(self.tuple(d)), vec![(op, self.tuple(d))])
            }
            5 => E::Unary("not", Box::new(self.boolean(d))),
            6 | 7 => {
                let op = self.rng.pick(&["and", "or"]);
                E::BoolOp(op, Box::new(self.boolean(d)), Box::new(self.boolean(d)))
            }
            8 => self.quantifier(d),
            _ => self.call(Ty::Bool, d).unwrap_or_else(|| self.bool_leaf()),
        }
    }

    fn quantifier(&mut self, d: u32) -> E {
        let kind = self.rng.pick(&["all", "any"]);
        let var = format!("k{}", self.quant);
        let lo = self.rng.chance(50).then(|| Box::new(self.int(d.min(1))));
        let hi = match self.var(Ty::Tuple) {
            // Often `len(t)` or one past it: indices run off the end.
            Some(t) if self.rng.chance(50) => {
                let len = E::Call("len".into(), vec![E::Name(t)]);
                match self.rng.below(3) {
                    0 => len,
                    _ => E::Bin("+", Box::new(len), Box::new(E::Lit("1".into()))),
                }
            }
            _ => self.int(d.min(1)),
        };
        self.scope.push((var.clone(), Ty::Int));
        self.quant += 1;
        let body = self.boolean(d);
        self.quant -= 1;
        self.scope.pop();
        E::Quant(kind, var, lo, Box::new(hi), Box::new(body))
    }

    /// `then if cond else orelse` of type `ty`.
    fn if_exp(&mut self, ty: Ty, d: u32) -> E {
        let cond = self.boolean(d);
        let then = self.expr(ty, d);
        let orelse = self.expr(ty, d);
        E::IfExp(Box::new(cond), Box::new(then), Box::new(orelse))
    }

    /// A slice bound: missing, a small constant of either sign, or any int.
    fn slice_part(&mut self, d: u32) -> Option<Box<E>> {
        Some(Box::new(match self.rng.below(4) {
            0 => return None,
            1 => E::Lit(self.rng.below(4).to_string()),
            2 => E::Unary("-", Box::new(E::Lit((1 + self.rng.below(3)).to_string()))),
            _ => self.int(d),
        }))
    }

    fn tuple(&mut self, depth: u32) -> E {
        let n = if depth == 0 { 2 } else { 7 };
        match self.rng.below(n) {
            5 => {
                let base = self.tuple(depth - 1);
                let step = match self.rng.below(3) {
                    0 => None,
                    1 => Some(Box::new(E::Lit(self.rng.pick(&["0", "1", "2"]).into()))),
                    _ => self.slice_part(depth - 1),
                };
                let parts = [self.slice_part(depth - 1), self.slice_part(depth - 1), step];
                E::Slice(Box::new(base), parts)
            }
            6 => self.if_exp(Ty::Tuple, depth - 1),
            0 => self
                .var(Ty::Tuple)
                .map_or_else(|| E::Tuple(vec![]), E::Name),
            1 => {
                let k = self.rng.below(4);
                E::Tuple((0..k).map(|_| self.int(depth.saturating_sub(1))).collect())
            }
            2 => self
                .call(Ty::Tuple, depth - 1)
                .unwrap_or_else(|| E::Tuple(vec![])),
            _ => E::Bin(
                "+",
                Box::new(self.tuple(depth - 1)),
                Box::new(self.tuple(depth - 1)),
            ),
        }
    }

    /// A call of a user function returning `ty`, if there is one that may be called here.
    fn call(&mut self, ty: Ty, d: u32) -> Option<E> {
        let in_predicate = self.in_predicate;
        let in_quant = self.quant > 0;
        let fs: Vec<Func> = self
            .funcs
            .iter()
            .filter(|f| f.ret == ty && (f.predicate || (!in_predicate && !in_quant)))
            .cloned()
            .collect();
        if fs.is_empty() {
            return None;
        }
        let f = fs[self.rng.below(fs.len())].clone();
        let args = f.params.iter().map(|t| self.expr(*t, d.min(1))).collect();
        Some(E::Call(f.name, args))
    }

    // ------------------------------------------------------------------ statements

    fn ty(&mut self) -> Ty {
        self.rng.pick(&[Ty::Int, Ty::Int, Ty::Bool, Ty::Tuple])
    }

    fn fresh_name(&mut self, ty: Ty) -> String {
        self.fresh += 1;
        // Some names are not ASCII: columns count characters, CPython's bytes.
        let stem = self.rng.pick(&["v", "v", "v", "v", "vé", "λ", "日", "ß"]);
        let name = format!("{stem}{}", self.fresh);
        self.scope.push((name.clone(), ty));
        name
    }

    fn assign(&mut self, target: &str, value: E) {
        let mut toks = vec![target.to_string(), "=".into()];
        toks.extend(self.expr_toks(&value));
        self.simple(toks);
    }

    /// Statements of a block that may not run: what it binds leaves the scope afterwards
    /// unless a coin says keep it (reads of possibly unbound names stay possible).
    fn block(&mut self, max: usize, depth: u32) {
        let saved = self.scope.len();
        self.level += 1;
        let n = 1 + self.rng.below(max);
        for _ in 0..n {
            self.stmt(depth);
        }
        self.level -= 1;
        if !self.rng.chance(15) {
            self.scope.truncate(saved);
        }
    }

    fn header(&mut self, kw: &str, cond: Option<&E>) {
        let mut toks = vec![kw.to_string()];
        if let Some(c) = cond {
            toks.extend(self.expr_toks(c));
        }
        toks.push(":".into());
        self.line(toks);
    }

    fn stmt(&mut self, depth: u32) {
        let n = if depth == 0 { 5 } else { 12 };
        match self.rng.below(n) {
            0 | 1 => {
                let ty = self.ty();
                let value = self.expr(ty, 2);
                let existing = if self.rng.chance(40) {
                    self.target(ty)
                } else {
                    None
                };
                let target = existing.unwrap_or_else(|| self.fresh_name(ty));
                self.assign(&target, value);
            }
            2 => match self.target(Ty::Int) {
                Some(v) => {
                    let op = self.rng.pick(&["+=", "-=", "*=", "//=", "%=", "//=", "%="]);
                    let value = self.int(1);
                    let mut toks = vec![v, op.to_string()];
                    toks.extend(self.expr_toks(&value));
                    self.simple(toks);
                }
                None => self.simple(vec!["pass".into()]),
            },
            3 | 4 => {
                let c = self.boolean(2);
                let mut toks = vec!["assert".to_string()];
                toks.extend(self.expr_toks(&c));
                self.simple(toks);
            }
            5 if self.rng.chance(30) => {
                // `if c: v = e` on one line.
                let c = self.boolean(2);
                let value = self.int(2);
                let mut toks = vec!["if".to_string()];
                toks.extend(self.expr_toks(&c));
                toks.push(":".into());
                let saved = self.scope.len();
                let target = self.fresh_name(Ty::Int);
                toks.extend([target, "=".into()]);
                toks.extend(self.expr_toks(&value));
                self.line(toks);
                if !self.rng.chance(30) {
                    self.scope.truncate(saved);
                }
            }
            5 | 6 => {
                let c = self.boolean(2);
                self.header("if", Some(&c));
                self.block(2, depth - 1);
                for _ in 0..self.rng.below(2) {
                    let c = self.boolean(2);
                    self.header("elif", Some(&c));
                    self.block(2, depth - 1);
                }
                if self.rng.chance(40) {
                    self.header("else", None);
                    self.block(2, depth - 1);
                }
            }
            7 => {
                self.fresh += 1;
                let c = format!("c{}", self.fresh);
                let bound = self.rng.below(4);
                self.simple(vec![c.clone(), "=".into(), "0".into()]);
                let mut cond = E::Cmp(
                    Box::new(E::Name(c.clone())),
                    vec![("<", E::Lit(bound.to_string()))],
                );
                if self.rng.chance(30) {
                    // Evaluated at every iteration: it may raise at any of them.
                    let extra = self.boolean(1);
                    cond = E::BoolOp("and", Box::new(cond), Box::new(extra));
                }
                self.header("while", Some(&cond));
                self.scope.push((c.clone(), Ty::Int));
                self.level += 1;
                self.simple(vec![c, "+=".into(), "1".into()]);
                self.level -= 1;
                self.loop_depth += 1;
                self.block(2, depth - 1);
                self.loop_depth -= 1;
                if self.rng.chance(25) {
                    self.header("else", None);
                    self.block(1, depth - 1);
                }
            }
            8 => {
                self.header("try", None);
                self.block(2, depth - 1);
                let classes = [
                    "ZeroDivisionError",
                    "ArithmeticError",
                    "IndexError",
                    "LookupError",
                    "NameError",
                    "UnboundLocalError",
                    "RecursionError",
                    "AssertionError",
                    "Exception",
                ];
                for _ in 0..1 + self.rng.below(2) {
                    let class = self.rng.pick(&classes);
                    self.line(vec!["except".into(), class.into(), ":".into()]);
                    self.block(1, depth - 1);
                }
                if self.rng.chance(20) {
                    self.line(vec!["except".into(), ":".into()]);
                    self.level += 1;
                    self.simple(vec!["pass".into()]);
                    self.level -= 1;
                }
            }
            9 => {
                // A call as a statement.
                let fs: Vec<Func> = self
                    .funcs
                    .iter()
                    .filter(|f| !f.predicate)
                    .cloned()
                    .collect();
                if fs.is_empty() {
                    self.simple(vec!["pass".into()]);
                    return;
                }
                let f = fs[self.rng.below(fs.len())].clone();
                let args = f.params.iter().map(|t| self.expr(*t, 1)).collect();
                let call = E::Call(f.name, args);
                let toks = self.expr_toks(&call);
                self.simple(toks);
            }
            _ => {
                if self.loop_depth > 0 {
                    let c = self.boolean(1);
                    self.header("if", Some(&c));
                    self.level += 1;
                    let jump = self.rng.pick(&["break", "continue"]);
                    self.simple(vec![jump.into()]);
                    self.level -= 1;
                } else if let Some(ret) = self.ret {
                    let c = self.boolean(1);
                    self.header("if", Some(&c));
                    self.level += 1;
                    let r = self.expr(ret, 1);
                    let mut toks = vec!["return".to_string()];
                    toks.extend(self.expr_toks(&r));
                    self.simple(toks);
                    self.level -= 1;
                } else {
                    // A name read before it is bound (NameError) or a plain statement.
                    let ty = self.ty();
                    let value = self.expr(ty, 1);
                    let target = self.fresh_name(ty);
                    let later = self.rng.chance(50).then(|| target.clone());
                    if let Some(name) = later {
                        // Read it first, bind it afterwards.
                        let copy = self.fresh_name(ty);
                        self.simple(vec![copy, "=".into(), name]);
                    }
                    self.assign(&target, value);
                }
            }
        }
    }
}

fn is_name(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}
