//! The generator's definitions: functions (recursive ones, late ones) and predicates.

use super::{Func, Gen, Ty, E};

impl Gen {
    /// Random parameters (1-3, the second a tuple) and return type.
    pub(super) fn signature(&mut self) -> (Vec<(String, Ty)>, Ty) {
        let ret = self.rng.pick(&[Ty::Int, Ty::Int, Ty::Bool, Ty::Tuple]);
        let names = ["a", "u", "n", "w"];
        let count = 1 + self.rng.below(3);
        let params: Vec<(String, Ty)> = (0..count)
            .map(|i| {
                let ty = if i == 1 { Ty::Tuple } else { self.ty() };
                (names[i].to_string(), ty)
            })
            .collect();
        (params, ret)
    }

    /// `def`: a function `name` (or `gK`, or the pending late function) with its body.
    /// Returns the parameters.
    pub(super) fn function(&mut self, name: Option<&str>) -> Vec<(String, Ty)> {
        if let (None, Some(k)) = (name, self.late.take()) {
            let f = self.funcs[k].clone();
            let names = ["a", "u", "n", "w"];
            let params = f
                .params
                .iter()
                .enumerate()
                .map(|(i, t)| (names[i].to_string(), *t))
                .collect();
            // Already callable (also from its own body: it may recurse without end).
            return self.function_body(f.name, params, f.ret, false, false);
        }
        self.fresh += 1;
        let name = name.map_or_else(|| format!("g{}", self.fresh), str::to_string);
        let (params, ret) = self.signature();
        let recursive =
            name != "f" && ret == Ty::Int && params[0].1 == Ty::Int && self.rng.chance(35);
        self.function_body(name, params, ret, recursive, true)
    }

    fn function_body(
        &mut self,
        name: String,
        params: Vec<(String, Ty)>,
        ret: Ty,
        recursive: bool,
        register: bool,
    ) -> Vec<(String, Ty)> {
        let mut header = vec!["def".to_string(), name.clone(), "(".into()];
        for (i, (p, ty)) in params.iter().enumerate() {
            if i > 0 {
                header.push(",".into());
            }
            header.extend([p.clone(), ":".into(), ty.name().into()]);
        }
        header.extend([")".into(), "->".into(), ret.name().into(), ":".into()]);
        // The body sees the module's variables (globals) and the parameters.
        let outer = self.scope.clone();
        let outer_from = std::mem::replace(&mut self.assignable_from, outer.len());
        self.scope.extend(params.iter().cloned());
        let func = Func {
            name: name.clone(),
            params: params.iter().map(|p| p.1).collect(),
            ret,
            predicate: false,
        };
        if recursive && register {
            // The function itself is callable in its body.
            self.funcs.push(func.clone());
        }
        self.line(header);
        self.level += 1;
        self.ret = Some(ret);
        let saved_loops = std::mem::take(&mut self.loop_depth);
        if recursive {
            let step = self.rng.pick(&["a - 1", "a + 1", "a", "a - 2"]);
            let base = self.rng.pick(&["a <= 0", "a < 1", "a == 0", "a > 5"]);
            self.line(base_case(base));
            self.level += 1;
            let r = self.rng.below(3).to_string();
            self.simple(vec!["return".into(), r]);
            self.level -= 1;
            let mut args: Vec<String> = vec![step.into()];
            for (p, _) in &params[1..] {
                args.push(p.clone());
            }
            let mut toks = vec!["return".to_string()];
            if self.rng.chance(50) {
                toks.extend(["1".into(), "+".into()]);
            }
            toks.push(name.clone());
            toks.push("(".into());
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    toks.push(",".into());
                }
                toks.extend(a.split(' ').map(str::to_string));
            }
            toks.push(")".into());
            self.simple(toks);
        } else {
            for _ in 0..self.rng.below(3) {
                self.stmt(1);
            }
            let r = self.expr(ret, 2);
            let mut toks = vec!["return".to_string()];
            toks.extend(self.expr_toks(&r));
            self.simple(toks);
        }
        self.loop_depth = saved_loops;
        self.ret = None;
        self.level -= 1;
        self.scope = outer;
        self.assignable_from = outer_from;
        if !recursive && register {
            self.funcs.push(func);
        }
        params
    }

    /// `@predicate def pK(u: tuple, n: int) -> bool: return e`: quantifiers over `u` with
    /// indices that may run off the end, divisions by `n`.
    pub(super) fn predicate(&mut self) {
        self.fresh += 1;
        let name = format!("p{}", self.fresh);
        self.line(vec!["@".into(), "predicate".into()]);
        self.line(
            [
                "def", &name, "(", "u", ":", "tuple", ",", "n", ":", "int", ")", "->", "bool", ":",
            ]
            .map(str::to_string)
            .to_vec(),
        );
        let outer = std::mem::take(&mut self.scope);
        self.scope = vec![("u".into(), Ty::Tuple), ("n".into(), Ty::Int)];
        self.in_predicate = true;
        let k = format!("k{}", self.quant);
        let kind = self.rng.pick(&["all", "any"]);
        let index = match self.rng.below(4) {
            0 => E::Name(k.clone()),
            1 => E::Bin(
                "+",
                Box::new(E::Name(k.clone())),
                Box::new(E::Lit("1".into())),
            ),
            2 => E::Unary("-", Box::new(E::Name(k.clone()))),
            _ => E::Bin(
                "-",
                Box::new(E::Name(k.clone())),
                Box::new(E::Name("n".into())),
            ),
        };
        let elem = E::Index(Box::new(E::Name("u".into())), Box::new(index));
        let lhs = match self.rng.below(3) {
            0 => E::Bin("//", Box::new(elem), Box::new(E::Name("n".into()))),
            1 => E::Bin("%", Box::new(E::Name("n".into())), Box::new(elem)),
            _ => elem,
        };
        let op = self.rng.pick(&[">", ">=", "==", "!="]);
        let body = E::Cmp(Box::new(lhs), vec![(op, E::Lit("0".into()))]);
        let hi = match self.rng.below(3) {
            0 => E::Call("len".into(), vec![E::Name("u".into())]),
            1 => E::Bin(
                "+",
                Box::new(E::Call("len".into(), vec![E::Name("u".into())])),
                Box::new(E::Lit("1".into())),
            ),
            _ => E::Name("n".into()),
        };
        let lo = self.rng.chance(30).then(|| Box::new(E::Lit("0".into())));
        let mut e = E::Quant(kind, k, lo, Box::new(hi), Box::new(body));
        if self.rng.chance(40) {
            let extra = self.boolean(1);
            e = E::BoolOp(self.rng.pick(&["and", "or"]), Box::new(extra), Box::new(e));
        }
        self.in_predicate = false;
        self.scope = outer;
        self.level += 1;
        let mut toks = vec!["return".to_string()];
        toks.extend(self.expr_toks(&e));
        self.line(toks);
        self.level -= 1;
        self.funcs.push(Func {
            name,
            params: vec![Ty::Tuple, Ty::Int],
            ret: Ty::Bool,
            predicate: true,
        });
    }
}

fn base_case(cond: &str) -> Vec<String> {
    let mut toks = vec!["if".to_string()];
    toks.extend(cond.split(' ').map(str::to_string));
    toks.push(":".into());
    toks
}
