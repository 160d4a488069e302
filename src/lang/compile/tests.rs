//! The rule on small programs (`tests/it/hostile_files.rs` checks it against python3).

use crate::lang::parse;

/// `n` nested `while x:` lines around `pass`.
fn whiles(n: usize, indent: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!("{}while x:\n", "    ".repeat(indent + i)));
    }
    s.push_str(&format!("{}pass\n", "    ".repeat(indent + n)));
    s
}

fn message(src: &str) -> Option<String> {
    parse(src).err().map(|d| d[0].message.clone())
}

#[test]
fn twenty_nested_loops_compile_and_twenty_one_do_not() {
    assert_eq!(message(&format!("x = 1\n{}", whiles(20, 0))), None);
    let src = format!("x = 1\n{}", whiles(21, 0));
    let d = parse(&src).unwrap_err();
    assert_eq!(d[0].message, "too many statically nested blocks");
    // At the 21st `while`.
    let at = src.match_indices("while").nth(20).unwrap().0;
    assert_eq!(d[0].span.map(|s| s.start), Some(at));
}

#[test]
fn ifs_do_not_count_and_a_function_body_starts_again() {
    let ifs: String = (0..50)
        .map(|i| format!("{}if x:\n", "    ".repeat(i)))
        .collect::<String>()
        + &format!("{}pass\n", "    ".repeat(50));
    assert_eq!(message(&format!("x = 1\n{ifs}")), None);
    let f = format!("x = 1\ndef f() -> int:\n{}    return 1\n", whiles(20, 1));
    assert_eq!(message(&f), None);
}

#[test]
fn an_except_body_counts_two_blocks() {
    // Ten handlers nested in handlers: 20 blocks; an eleventh `try` inside is one too many.
    let nest = |n: usize| {
        let mut s = String::from("x = 1\n");
        for i in 0..n {
            let ind = "    ".repeat(i);
            s.push_str(&format!(
                "{ind}try:\n{ind}    pass\n{ind}except ValueError:\n"
            ));
        }
        s.push_str(&format!("{}pass\n", "    ".repeat(n)));
        s
    };
    assert_eq!(message(&nest(10)), None);
    assert_eq!(
        message(&nest(11)).as_deref(),
        Some("too many statically nested blocks")
    );
}

#[test]
fn debug_cannot_be_assigned_anywhere() {
    for src in [
        "__debug__ = 1\n",
        "__debug__: int\n",
        "x = 1\n__debug__ += 1\n",
        "def f(__debug__: int) -> int:\n    return 1\n",
        "def __debug__() -> int:\n    return 1\n",
        "x = all(i > 0 for __debug__ in range(3))\n",
    ] {
        assert_eq!(
            message(src).as_deref(),
            Some("cannot assign to __debug__"),
            "{src}"
        );
    }
}
