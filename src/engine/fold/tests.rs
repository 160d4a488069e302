//! Templates and the reasons for loops outside the v1 class.

use crate::engine::{Config, Engine};

fn templates(src: &str) -> Vec<Result<String, String>> {
    let (program, types, ir) = crate::transform::load(src).unwrap_or_else(|d| panic!("{d:?}"));
    let e = Engine::new(&program, types, ir, None, Config::default()).unwrap();
    e.templates()
        .into_iter()
        .map(|(_, t)| match t {
            Ok(t) => Ok(t
                .closed
                .iter()
                .map(|(n, _, c)| format!("{n}:{}", matches!(c, super::Closed::Induction(_))))
                .collect::<Vec<_>>()
                .join(",")),
            Err(e) => Err(e.why),
        })
        .collect()
}

fn refused(src: &str, why: &str) {
    let t = templates(src);
    assert!(
        matches!(&t[0], Err(w) if w.contains(why)),
        "{src}\nexpected a refusal containing {why:?}, got {t:?}"
    );
}

#[test]
fn counters_resets_and_symbolic_steps_have_templates() {
    let t = templates(
        "n: int\ns: int\nt: tuple\ni = 0\nj = 5\ny = 0\nlast = 0\nwhile i < n:\n    i += 1\n    \
         j -= 3\n    y += 2 * s + 1\n    last = i + j\n",
    );
    assert_eq!(t, vec![Ok("i:true,j:true,y:true,last:false".to_string())]);
    // The path that changes fewest variables is chosen (countIf: the non-matching one).
    let t = templates(
        "a: tuple\nx: int\ni = 0\nk = 0\nwhile i < len(a):\n    if a[i] == x:\n        \
         k = k + 1\n    i = i + 1\n",
    );
    assert_eq!(t, vec![Ok("i:true".to_string())]);
    // A symbolic step read by the loop condition (QE decides orderings at both ends).
    let t = templates("n: int\ns: int\ni = 0\nwhile i < n:\n    i += s\n");
    assert_eq!(t, vec![Ok("i:true".to_string())]);
    // Through a call of a function without loops (issue 27): `g(i) + 1` is `i + 1`.
    let t = templates(
        "def g(x: int) -> int:\n    return x\nn: int\ni = 0\nwhile i < n:\n    i = g(i) + 1\n",
    );
    assert_eq!(t, vec![Ok("i:true".to_string())]);
}

#[test]
fn loops_outside_the_class_say_why() {
    let head = "n: int\nt: tuple\ni = 0\na = 1\nb = 2\nr = ()\nf = True\nlast = 0\ns = 0\n";
    let cases = [
        (
            "while i < n:\n    c = a\n    a = b\n    b = c\n    i += 1\n",
            "a cycle",
        ),
        (
            "while i < n:\n    r = r + (i,)\n    i += 1\n",
            "the tuple `r`",
        ),
        ("while i < n:\n    a = 2 * a\n    i += 1\n", "geometric"),
        ("while i < n:\n    a = a * a\n    i += 1\n", "not linear"),
        (
            "while i < n:\n    f = not f\n    i += 1\n",
            "own previous value",
        ),
        ("while i < n:\n    s = s + t[i]\n    i += 1\n", "a sum"),
        (
            "while last != 5:\n    last = t[i]\n    i += 1\n",
            "which the path resets",
        ),
        ("while i < n:\n    i += 1\n    break\n", "comes back"),
        // (An inner loop with a closed-form run is summed, issue 27: `fold::nested`.)
        (
            "while i < n:\n    while t[a] < 3:\n        a += 1\n    i += 1\n",
            "the inner loop requires more than its condition",
        ),
        (
            "while i < n:\n    a = 0\n    while a < n:\n        a += 1\n        b = a\n    i += 1\n",
            "the inner loop sets `b` from other values",
        ),
    ];
    for (body, why) in cases {
        refused(&format!("{head}{body}"), why);
    }
    // A call is analysed through (issue 27) unless the callee loops or recurses.
    // (`g`'s own loop is listed first.)
    let t = templates(
        "def g(x: int) -> int:\n    while x > 0:\n        x -= 1\n    return x\nn: int\ni = 0\n\
         while i < n:\n    i = g(i) + 1\n",
    );
    assert!(
        matches!(&t[1], Err(w) if w.contains("the body calls `g`, which contains a loop")),
        "{t:?}"
    );
    refused(
        "def g(x: int) -> int:\n    if x > 9:\n        return g(x - 1)\n    return x\nn: int\n\
         i = 0\nwhile i < n:\n    i = g(i) + 1\n",
        "the body calls `g`, which is recursive",
    );
    let mut many = String::from("n: int\ni = 0\nwhile i < n:\n");
    for k in 0..7 {
        many.push_str(&format!("    if i == {k}:\n        pass\n"));
    }
    many.push_str("    i += 1\n");
    refused(&many, "more than 64 paths");
    refused(
        "n: int\ni = 0\nwhile i < n:\n    invariant i >= 0\n    i += 1\n",
        "invariant lines",
    );
}
