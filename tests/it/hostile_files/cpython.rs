//! Issue 22 item 10: what CPython's compiler refuses, against python3; generated tests for
//! inputs named like Python's own names, under pytest.

use std::process::{Command, Stdio};

use super::{run, scratch};

/// A program whose blocks nest as `pattern` says, innermost last: `w` a `while` body, `l`
/// a `while`'s `else`, `i` an `if` body, `t` a `try` body, `e` an `except` body.
fn nested(pattern: &str) -> String {
    fn go(pattern: &[u8], depth: usize, out: &mut String) {
        let ind = "    ".repeat(depth);
        let Some((&first, rest)) = pattern.split_first() else {
            out.push_str(&format!("{ind}pass\n"));
            return;
        };
        match first {
            b'w' => out.push_str(&format!("{ind}while x:\n")),
            b'l' => out.push_str(&format!("{ind}while x:\n{ind}    break\n{ind}else:\n")),
            b'i' => out.push_str(&format!("{ind}if x:\n")),
            b't' => out.push_str(&format!("{ind}try:\n")),
            b'e' => out.push_str(&format!(
                "{ind}try:\n{ind}    pass\n{ind}except ValueError:\n"
            )),
            _ => unreachable!(),
        }
        go(rest, depth + 1, out);
        if first == b't' {
            out.push_str(&format!("{ind}except ValueError:\n{ind}    pass\n"));
        }
    }
    let mut out = String::from("x = 1\n");
    go(pattern.as_bytes(), 0, &mut out);
    out
}

/// python3's verdict on each source: `null` when it compiles, else `[msg, line, col]`.
fn python_compile(sources: &[String]) -> Vec<Option<(String, usize, usize)>> {
    let script = r#"
import json, sys
out = []
for src in json.load(sys.stdin):
    try:
        compile(src, "p.py", "exec")
        out.append(None)
    except SyntaxError as e:
        out.append([e.msg, e.lineno, e.offset])
print(json.dumps(out))
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    let input = serde_json::to_vec(sources).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || std::io::Write::write_all(&mut stdin, &input));
    let output = child.wait_with_output().expect("python3 runs");
    writer.join().unwrap().unwrap();
    assert!(output.status.success());
    serde_json::from_slice(&output.stdout).expect("python3's answer")
}

/// Issue 22 item 10: "too many statically nested blocks" and "cannot assign to __debug__"
/// exactly where python3 says them (message, line, column), and nowhere else, over loops,
/// `try` bodies, `except` bodies, `if`s and `while`-`else`s nested in many orders.
#[test]
fn nesting_and_debug_match_python3() {
    let mut sources: Vec<String> = Vec::new();
    for n in 17..=23 {
        for unit in ["w", "t", "e", "i", "l", "we", "ew", "te", "et", "wi", "ie"] {
            if unit.len() * n <= 46 {
                sources.push(nested(&unit.repeat(n)));
            }
        }
    }
    // Random orders (a fixed linear congruential sequence), around the limit.
    let mut seed: u64 = 0x5eed;
    for _ in 0..300 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let len = 8 + (seed >> 33) as usize % 20;
        let pattern: String = (0..len)
            .map(|k| b"wltei"[(seed >> (k % 30 * 2)) as usize % 5] as char)
            .collect();
        sources.push(nested(&pattern));
    }
    // A function body starts again from no block.
    let mut f = String::from("x = 1\ndef f() -> int:\n");
    for d in 0..20 {
        f.push_str(&format!("{}while x:\n", "    ".repeat(d + 1)));
    }
    f.push_str(&format!("{}pass\n    return 1\n", "    ".repeat(21)));
    sources.push(nested(&"w".repeat(19)) + &f.replace("x = 1\n", ""));
    for debug in [
        "__debug__ = 1\n",
        "__debug__: int\n",
        "x: int\n__debug__: int = 3\n",
        "x = 1\n__debug__ += 1\n",
        "def f(a: int, __debug__: int) -> int:\n    return a\n",
        "def __debug__(a: int) -> int:\n    return a\n",
        "x = all(i >= 0 for __debug__ in range(3))\n",
        "x = 1\nwhile x:\n    __debug__ = 2\n",
        "x = __debug__\n",
    ] {
        sources.push(debug.to_string());
    }
    // Both in one program: the first in CPython's compile order is reported.
    sources.push(nested(&"w".repeat(21)) + "__debug__ = 1\n");
    sources.push(format!("__debug__ = 1\n{}", &nested(&"w".repeat(21))[6..]));

    let python = python_compile(&sources);
    let (mut refused, mut accepted) = (0, 0);
    for (src, py) in sources.iter().zip(&python) {
        let ours = match symdbg::lang::parse(src) {
            Ok(_) => None,
            Err(d) => {
                let map = symdbg::base::SourceMap::new("p.py", src.as_str());
                let (line, col) = map.line_col(d[0].span.expect("located").start);
                Some((d[0].message.clone(), line, col))
            }
        };
        match py {
            Some((msg, ..)) if msg.contains("nested blocks") || msg.contains("__debug__") => {
                assert_eq!(ours.as_ref(), py.as_ref(), "{src}");
                refused += 1;
            }
            // (`x = __debug__`: python3 compiles it; minipy's type checker has its say later)
            None => {
                assert_eq!(ours, None, "python3 compiles it:\n{src}");
                accepted += 1;
            }
            Some(other) => panic!("python3 says {other:?} about\n{src}"),
        }
    }
    assert!(
        refused > 50 && accepted > 50,
        "{refused} refused, {accepted} accepted"
    );
}

/// Issue 22 item 10: generated tests for a module whose inputs are named `predicate` and
/// `__name__`, and for a function whose parameters are named `predicate`, `__name__` and
/// `__builtins__`, pass under pytest; a module variable `__builtins__` or
/// `__annotations__` (which CPython gives a meaning of its own) is refused with a message.
#[test]
fn tests_for_inputs_named_like_python_names_pass_under_pytest() {
    let dir = scratch("names");
    let module = "predicate: int\n__name__: int\ny = predicate + __name__\nassert y != 7\n";
    let entry = "def f(predicate: int, __name__: int, __builtins__: int) -> int:\n    y = predicate + __name__ + abs(__builtins__)\n    assert y != 7\n    return y\n";
    std::fs::write(dir.join("m.py"), module).unwrap();
    std::fs::write(dir.join("e.py"), entry).unwrap();
    let (code, _, stderr) = run(&dir, &["testgen", "m.py", "-o", "test_m.py"]);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = run(
        &dir,
        &["testgen", "e.py", "--entry", "f", "-o", "test_e.py"],
    );
    assert_eq!(code, 0, "{stderr}");
    let (passed, failed, log) =
        crate::testgen::pytest(&[dir.join("test_m.py"), dir.join("test_e.py")]);
    // A test per leaf and the boundary tests (issue 31).
    assert_eq!((passed, failed), (6, 0), "{log}");

    for (src, name) in [
        ("__builtins__: int\ny = __builtins__\n", "__builtins__"),
        (
            "x: int\nif x > 0:\n    __annotations__ = 1\n",
            "__annotations__",
        ),
    ] {
        std::fs::write(dir.join("b.py"), src).unwrap();
        let (code, _, stderr) = run(&dir, &["run", "b.py"]);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains(&format!("`{name}` cannot be a module variable")),
            "{stderr}"
        );
    }
}
