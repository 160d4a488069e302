//! `check` compares what a leaf prints with what the concrete run prints (issue 25).

use super::{concrete_behaviour, leaf_behaviour};
use crate::base::SourceMap;
use crate::session::program::ConcreteConfig;
use crate::session::{Config, Limits, Policy, Session, Value};

#[test]
fn a_leafs_stdout_is_part_of_its_behaviour() {
    let src = "x: int\nprint(x, x > 0)\nif x > 2:\n    print((x,), -x)\n";
    let mut s = Session::open(SourceMap::new("p.py", src), None, Config::default()).unwrap();
    let root = s.tree().root();
    s.run(root, Policy::Subtree, Limits::default(), &|_| {});
    let leaves: Vec<_> = s
        .tree()
        .nodes()
        .filter(|n| n.is_leaf())
        .map(|n| n.id)
        .collect();
    assert_eq!(leaves.len(), 2);
    for leaf in leaves {
        let m = s.try_model(leaf).unwrap();
        let x = m.inputs["x"].clone();
        let model = s.input_model(&m.inputs);
        let symbolic = leaf_behaviour(&s, leaf, &model, false).unwrap();
        let mut run = s
            .run_concrete(&m.inputs, &ConcreteConfig::default())
            .unwrap();
        let Value::Int(k) = &x else { panic!("{x}") };
        let mut expected = format!("{k} {}\n", if *k > 0.into() { "True" } else { "False" });
        if *k > 2.into() {
            expected.push_str(&format!("({k},) {}\n", -k));
        }
        assert_eq!(run.stdout, expected);
        assert_eq!(symbolic.stdout.as_deref(), Some(expected.as_str()));
        assert_eq!(m.stdout.as_deref(), Some(expected.as_str()));
        assert_eq!(concrete_behaviour(&run, false), symbolic);
        // The same run with other output is another behaviour (a disagreement).
        run.stdout.push('\n');
        assert_ne!(concrete_behaviour(&run, false), symbolic);
    }
}
