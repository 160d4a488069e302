//! python3's side: the input grid, the program stripped of its invariants and with them
//! checked at run time, and one python3 process per batch.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::{Command, Stdio};

/// Every input of the grid: `n`, `m` small ints, `t` a small tuple.
pub(super) fn grid() -> Vec<(i64, i64, Vec<i64>)> {
    let tuples: [&[i64]; 4] = [&[], &[0], &[2, -1], &[1, 0, 3]];
    let mut out = Vec::new();
    for n in -1..=3 {
        for m in [-1, 0, 2] {
            for t in tuples {
                out.push((n, m, t.to_vec()));
            }
        }
    }
    out
}

/// The program with every `invariant` line replaced by `pass` (line numbers kept).
pub(super) fn stripped(src: &str) -> String {
    src.lines()
        .map(|l| match l.trim_start().strip_prefix("invariant ") {
            Some(_) => format!("{}pass\n", &l[..l.len() - l.trim_start().len()]),
            None => format!("{l}\n"),
        })
        .collect()
}

/// The program with its invariants checked at run time before every test of their loop's
/// condition: `__inv(line, lambda: e)` raises `InvFail`, which only the harness catches
/// (bare `except:` becomes `except Exception:`, the same for these programs).
pub(super) fn checked(src: &str) -> String {
    let lines: Vec<&str> = src.lines().collect();
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    for (k, l) in lines.iter().enumerate() {
        let trimmed = l.trim_start();
        if trimmed == "except:" {
            out[k] = format!("{}except Exception:", &l[..l.len() - trimmed.len()]);
        }
        let Some(cond) = trimmed
            .strip_prefix("while ")
            .and_then(|c| c.strip_suffix(':'))
        else {
            continue;
        };
        let mut checks = String::new();
        let mut j = k + 1;
        while let Some(inv) = lines
            .get(j)
            .and_then(|x| x.trim_start().strip_prefix("invariant "))
        {
            write!(checks, "__inv({}, lambda: ({inv})) and ", j + 1).unwrap();
            out[j] = format!(
                "{}pass",
                &lines[j][..lines[j].len() - lines[j].trim_start().len()]
            );
            j += 1;
        }
        if !checks.is_empty() {
            out[k] = format!("{}while {checks}({cond}):", &l[..l.len() - trimmed.len()]);
        }
    }
    out.join("\n") + "\n"
}

/// What python3 did on one input: `None` or (class, line); `inv`: the first failing
/// invariant line of the checked run.
#[derive(Clone, Debug, Default)]
pub(super) struct PyRun {
    pub(super) stripped: Option<(String, usize)>,
    pub(super) checked: Option<(String, usize)>,
    pub(super) inv: Option<usize>,
}

pub(super) const HARNESS: &str = r#"
import json, sys
class InvFail(BaseException):
    def __init__(self, line):
        self.line = line
def __inv(line, f):
    try:
        ok = f()
    except Exception:
        ok = False
    if not ok:
        raise InvFail(line)
    return True
def where(e):
    tb = e.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "prog.py":
            line = tb.tb_lineno
        tb = tb.tb_next
    return line
def run(src, inp):
    # Compiled afresh each time: CPython 3.11 reports a wrong line for an exception in
    # code it has quickened (STORE_FAST__LOAD_FAST takes the store's line).
    code = compile(src, "prog.py", "exec")
    g = {"__name__": "prog", "__inv": __inv}
    g.update(inp)
    try:
        exec(code, g)
        return None
    except InvFail as e:
        return ["InvFail", e.line]
    except Exception as e:
        return [type(e).__name__, where(e)]
out = []
for stripped, checked, inputs in json.load(sys.stdin):
    res = []
    for inp in inputs:
        inp = {k: tuple(v) if isinstance(v, list) else v for k, v in inp.items()}
        res.append([run(stripped, inp), run(checked, inp)])
    out.append(res)
print(json.dumps(out))
"#;

pub(super) type Input = BTreeMap<String, serde_json::Value>;

pub(super) fn grid_inputs() -> Vec<Input> {
    grid()
        .into_iter()
        .map(|(n, m, t)| {
            BTreeMap::from([
                ("n".to_string(), n.into()),
                ("m".to_string(), m.into()),
                ("t".to_string(), t.into()),
            ])
        })
        .collect()
}

/// Run python3 once on a batch: per program, per input, both runs.
pub(super) fn python(batch: &[(String, Vec<Input>)]) -> Vec<Vec<PyRun>> {
    let payload: Vec<(String, String, &Vec<Input>)> = batch
        .iter()
        .map(|(src, ins)| (stripped(src), checked(src), ins))
        .collect();
    let mut child = Command::new("python3")
        .args(["-c", HARNESS])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    let input = serde_json::to_string(&payload).unwrap();
    if let Ok(path) = std::env::var("INVGEN_DUMP") {
        std::fs::write(path, &input).unwrap();
    }
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "python3 failed");
    if let Ok(path) = std::env::var("INVGEN_DUMP") {
        std::fs::write(path + ".out", &out.stdout).unwrap();
    }
    type Res = Option<(String, Option<usize>)>;
    let v: Vec<Vec<(Res, Res)>> = serde_json::from_slice(&out.stdout).unwrap();
    v.into_iter()
        .map(|runs| {
            runs.into_iter()
                .map(|(a, b)| {
                    let exc = |r: Res| r.map(|(c, l)| (c, l.unwrap_or(0)));
                    let (checked, inv) = match exc(b) {
                        Some((c, l)) if c == "InvFail" => (None, Some(l)),
                        other => (other, None),
                    };
                    PyRun {
                        stripped: exc(a),
                        checked,
                        inv,
                    }
                })
                .collect()
        })
        .collect()
}
