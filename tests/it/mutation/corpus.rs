//! The real corpus of the mutation score (issue 31): hand-written programs
//! (`tests/data/mutation/*.py`: arithmetic with `//` and `%`, searches, clamps, max/min,
//! counting loops, tuple indexing, early returns, `while`/`for`) and template-generated ones
//! ([`template_program`]), their one-token mutants ([`mutants`]: operators, constants ± 1,
//! comparison flips, swapped operands) and inputs that tell them apart
//! ([`inputs_for`]: random values mixed with the program's boundary values).

use std::collections::BTreeSet;

use symdbg::base::rng::SplitMix64;
use symdbg::lang::Type;

use super::Subject;

/// The hand-written corpus: every `tests/data/mutation/*.py`, sorted; a `# entry: NAME`
/// first line names the function to analyse (else a module run).
pub(crate) fn hand_written() -> Vec<Subject> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mutation");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let entry = text
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("# entry: "))
                .map(|e| e.trim().to_string());
            Subject {
                name: p.file_stem().unwrap().to_string_lossy().into_owned(),
                text,
                entry,
            }
        })
        .collect()
}

/// A program from templates (`seed`): `f(a, b, t)` runs two to four blocks chosen among
/// guards, clamps, arithmetic with `//` and `%` by constants, counting and searching
/// loops, tuple indexing, max/min and a bounded `while`, then returns `r`. Every program
/// terminates; each block has constants and comparisons a one-token bug changes.
pub(crate) fn template_program(seed: u64) -> Subject {
    let mut rng = SplitMix64::new(seed.wrapping_mul(0x9e37_79b9) ^ 0x7e57);
    let mut pick = |n: u64| rng.below(n) as usize;
    let cmp = ["<", "<=", ">", ">=", "==", "!="];
    let mut body = String::from("    r = 0\n");
    let blocks = 2 + pick(3);
    for _ in 0..blocks {
        let c1 = pick(9) as i64 - 2;
        let c2 = 2 + pick(5) as i64;
        let op = cmp[pick(cmp.len() as u64)];
        let var = ["a", "b"][pick(2)];
        let block = match pick(10) {
            0 => format!(
                "    if {var} {op} {c1}:\n        r = r + {var} {} {c2}\n",
                ["+", "-", "*", "//", "%"][pick(5)]
            ),
            1 => format!(
                "    if a {op} b:\n        return r + a {} b\n",
                ["+", "-", "*"][pick(3)]
            ),
            2 => format!("    for v in t:\n        if v {op} {var}:\n            r += {c2}\n"),
            3 => format!(
                "    i = 0\n    while i < len(t):\n        if t[i] {op} {c1}:\n            return r + i\n        i += 1\n"
            ),
            4 => format!(
                "    if r > {c2}:\n        r = {c2}\n    elif r < -{c2}:\n        r = -{c2}\n"
            ),
            5 => format!(
                "    r = r {} ({var} {} {c2})\n",
                ["+", "-"][pick(2)],
                ["//", "%"][pick(2)]
            ),
            6 => format!(
                "    r = {}(r, {var} - {c2})\n",
                ["max", "min"][pick(2)]
            ),
            7 => {
                let k = pick(2);
                format!("    if len(t) > {k}:\n        r = r + t[{k}] * {c2}\n")
            }
            8 => format!(
                "    k = 0\n    while k < {var} and k < 3:\n        r = r + {}\n        k += 1\n",
                ["a", "b", "2"][pick(3)]
            ),
            _ => format!("    if {var} {op} r:\n        r = {var} - r\n    else:\n        r = r + {c2}\n"),
        };
        body.push_str(&block);
    }
    body.push_str("    return r\n");
    Subject {
        name: format!("template{seed}"),
        text: format!("def f(a: int, b: int, t: tuple) -> int:\n{body}"),
        entry: Some("f".into()),
    }
}

/// Every one-token mutant of `text` that python3 can parse as a changed program, with the
/// mutated line: an arithmetic operator (`+` ↔ `-`, `*` → `+`, `//` ↔ `%`), a comparison
/// moved across its boundary (`<` ↔ `<=`, `>` ↔ `>=`, `==` ↔ `!=`) or flipped (`<` ↔ `>`,
/// `<=` ↔ `>=`), an integer literal ± 1, `max` ↔ `min`, `and` ↔ `or`, and the operands of a
/// simple binary operation swapped (`a - b` → `b - a`, `i < n` → `n < i`).
pub(crate) fn mutants(text: &str) -> Vec<(String, String)> {
    let token = regex::Regex::new(
        r"->|//|<=|>=|==|!=|\+=|-=|\*=|[+\-*%<>]|\b\d+\b|\bmax\b|\bmin\b|\band\b|\bor\b",
    )
    .unwrap();
    let swap =
        regex::Regex::new(r"\b([A-Za-z_]\w*|\d+) (-|//|%|<|<=|>|>=) ([A-Za-z_]\w*|\d+)\b").unwrap();
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    let mut offset = 0;
    let mut push = |start: usize, end: usize, to: &str, line: &str, line_start: usize| {
        let mutant = format!("{}{to}{}", &text[..start], &text[end..]);
        if mutant != text && seen.insert(mutant.clone()) {
            let l = format!(
                "{}{to}{}",
                &line[..start - line_start],
                &line[end - line_start..]
            );
            out.push((mutant, l.trim_end().to_string()));
        }
    };
    for line in text.split_inclusive('\n') {
        let code = line.split('#').next().unwrap_or("");
        for m in token.find_iter(code) {
            let to: Vec<String> = match m.as_str() {
                "->" => vec![],
                "+" => vec!["-".into()],
                "-" => vec!["+".into()],
                "*" => vec!["+".into()],
                "//" => vec!["%".into()],
                "%" => vec!["//".into()],
                "+=" => vec!["-=".into()],
                "-=" => vec!["+=".into()],
                "*=" => vec!["+=".into()],
                "<" => vec!["<=".into(), ">".into()],
                "<=" => vec!["<".into(), ">=".into()],
                ">" => vec![">=".into(), "<".into()],
                ">=" => vec![">".into(), "<=".into()],
                "==" => vec!["!=".into()],
                "!=" => vec!["==".into()],
                "max" => vec!["min".into()],
                "min" => vec!["max".into()],
                "and" => vec!["or".into()],
                "or" => vec!["and".into()],
                n => match n.parse::<u64>() {
                    Ok(0) => vec!["1".into()],
                    Ok(v) => vec![(v + 1).to_string(), (v - 1).to_string()],
                    Err(_) => vec![],
                },
            };
            for to in to {
                push(offset + m.start(), offset + m.end(), &to, line, offset);
            }
        }
        // Swapped operands, only where the operation stands alone between delimiters
        // (`x * 3 - y` is not `3 - y` swapped).
        for c in swap.captures_iter(code) {
            let whole = c.get(0).unwrap();
            let before = code[..whole.start()].trim_end();
            let after = code[whole.end()..].trim_start();
            let opens = before.is_empty()
                || before.ends_with(['(', '=', ',', ':', '['])
                || ["return", "if", "elif", "while", "and", "or", "not", "in"]
                    .iter()
                    .any(|k| before.ends_with(k));
            let closes = after.is_empty()
                || after.starts_with([')', ':', ',', ']'])
                || after.starts_with("and ")
                || after.starts_with("or ");
            if !opens || !closes || before.ends_with(['-', '+', '*', '%', '/']) {
                continue;
            }
            let to = format!("{} {} {}", &c[3], &c[2], &c[1]);
            push(
                offset + whole.start(),
                offset + whole.end(),
                &to,
                line,
                offset,
            );
        }
        offset += line.len();
    }
    out
}

/// Inputs that tell mutants apart: `n` draws where each integer (and tuple element) is,
/// half the time, a boundary value of the program (0, ±1, ±2, each literal `c` as `c`,
/// `c ± 1`, `-c`, `-c ± 1`), else a small random value (now and then a larger one);
/// tuples have 0 to 4 elements.
pub(crate) fn inputs_for(
    text: &str,
    inputs: &[(String, Type)],
    seed: u64,
    n: usize,
) -> Vec<serde_json::Value> {
    let mut boundary: BTreeSet<i64> = [-2, -1, 0, 1, 2].into_iter().collect();
    let literal = regex::Regex::new(r"\b\d+\b").unwrap();
    for line in text.lines() {
        let code = line.split('#').next().unwrap_or("");
        for m in literal.find_iter(code) {
            if let Ok(c) = m.as_str().parse::<i64>() {
                for d in [-1, 0, 1] {
                    boundary.insert(c + d);
                    boundary.insert(-c + d);
                }
            }
        }
    }
    let boundary: Vec<i64> = boundary.into_iter().collect();
    let mut rng = SplitMix64::new(seed ^ 0xb0b);
    let value = move || {
        let r = rng.next_u64();
        if r.is_multiple_of(2) {
            boundary[((r >> 8) % boundary.len() as u64) as usize]
        } else if (r >> 4).is_multiple_of(5) {
            (r >> 8) as i64 % 100 - 50
        } else {
            (r >> 8) as i64 % 13 - 6
        }
    };
    super::input_objects(inputs, n, value)
}

#[test]
fn mutants_flip_shift_and_swap() {
    let m = mutants("def f(a: int, b: int) -> int:\n    if a < b:\n        return a - 2\n");
    let lines: BTreeSet<&str> = m.iter().map(|(_, l)| l.as_str()).collect();
    for want in [
        "if a <= b:",
        "if a > b:",
        "if b < a:",
        "return a + 2",
        "return a - 3",
        "return a - 1",
        "return 2 - a",
    ] {
        assert!(
            lines.iter().any(|l| l.trim() == want),
            "{want} missing: {lines:?}"
        );
    }
    // `x * 3 - y` is not `3 - y` swapped.
    let m = mutants("z = x * 3 - y\n");
    assert!(m.iter().all(|(_, l)| l != "z = x * y - 3"), "{m:?}");
}

#[test]
fn template_programs_load_and_differ() {
    let texts: BTreeSet<String> = (0..20).map(|s| template_program(s).text).collect();
    assert!(texts.len() >= 18, "{texts:?}");
    for t in &texts {
        symdbg::lang::load(t).unwrap_or_else(|e| panic!("{e:?}\n{t}"));
    }
}

#[test]
fn inputs_reach_the_boundaries() {
    let ins = inputs_for(
        "x: int\nif x >= 90:\n    y = 1\n",
        &[("x".into(), Type::Int)],
        0,
        200,
    );
    let xs: BTreeSet<i64> = ins.iter().map(|i| i["x"].as_i64().unwrap()).collect();
    for v in [89, 90, 91, -90, 0] {
        assert!(xs.contains(&v), "{v} not drawn: {xs:?}");
    }
}
