//! The texts `run --json` writes for a node's terms (issue 13): each distinct term's
//! minipy and SMT-LIB texts are escaped once (as JSON strings, quotes included) and shared
//! by every node that shows them; each distinct set of constants has its `declarations`
//! text once. The cache is the caller's ([`JsonTexts`]), filled per node by
//! [`Session::node_json_texts`] into a reused [`NodeTexts`].

use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

use super::Session;
use crate::engine::NodeId;
use crate::term::{smt2_declarations, uses_py_slice, Sym, Term, TermMap, PY_SLICE_DEFINITION};

/// One term's texts, JSON-escaped with their quotes, and its constants (as ids of
/// [`JsonTexts`]' constants).
pub struct Text {
    pub minipy: Box<str>,
    pub smt2: Box<str>,
    syms: Box<[u32]>,
    /// The SMT-LIB text uses `py.slice` (a slice with another step than 1).
    py_slice: bool,
}

/// The texts kept are bounded: past [`TEXTS_BYTES`] the term cache starts afresh (the
/// nodes of a long path each hold a different large term).
const TEXTS_BYTES: usize = 64 << 20;

/// The per-run cache of term texts.
#[derive(Default)]
pub struct JsonTexts {
    terms: TermMap<Rc<Text>>,
    bytes: usize,
    /// Every constant seen, numbered in order of appearance.
    syms: Vec<Sym>,
    sym_ids: HashMap<Sym, u32>,
    /// `declarations` per set of constants (sorted ids) and use of `py.slice`, escaped.
    decls: HashMap<(Box<[u32]>, bool), Rc<str>>,
    decl_bytes: usize,
    /// (scratch)
    ids: Vec<u32>,
}

/// A node's term texts (refilled for each node, its buffers reused).
#[derive(Default)]
pub struct NodeTexts {
    pub path_condition: Vec<Rc<Text>>,
    /// The visible store, names in order.
    pub store: Vec<(Rc<str>, Rc<Text>)>,
    pub return_value: Option<Rc<Text>>,
    /// The condition the edge from the parent added.
    pub branch: Option<Rc<Text>>,
    /// The SMT-LIB declarations of the constants of the path condition, store and return
    /// value (preceded by the definition of `py.slice` when one of them uses it), escaped.
    pub declarations: Rc<str>,
}

impl JsonTexts {
    fn get(&mut self, t: &Term) -> Rc<Text> {
        if let Some(x) = self.terms.get(t) {
            return x.clone();
        }
        if self.bytes > TEXTS_BYTES {
            self.terms.clear();
            self.bytes = 0;
        }
        let mut syms = BTreeSet::new();
        t.vars(&mut syms);
        let ids = syms
            .into_iter()
            .map(|s| {
                let next = self.syms.len() as u32;
                *self.sym_ids.entry(s.clone()).or_insert_with(|| {
                    self.syms.push(s);
                    next
                })
            })
            .collect();
        let x = Rc::new(Text {
            minipy: escaped(&t.to_string()),
            smt2: escaped(&t.to_smt2()),
            syms: ids,
            py_slice: uses_py_slice(t),
        });
        self.bytes += x.minipy.len() + x.smt2.len() + 64;
        self.terms.insert(t.clone(), x.clone());
        x
    }

    /// The `declarations` text of the constants `self.ids` (sorted, no duplicates), after
    /// the definition of `py.slice` if `py_slice`.
    fn declarations(&mut self, py_slice: bool) -> Rc<str> {
        let key = (Box::<[u32]>::from(&self.ids[..]), py_slice);
        if let Some(d) = self.decls.get(&key) {
            return d.clone();
        }
        if self.decl_bytes > TEXTS_BYTES {
            self.decls.clear();
            self.decl_bytes = 0;
        }
        let set: BTreeSet<Sym> = self
            .ids
            .iter()
            .map(|&i| self.syms[i as usize].clone())
            .collect();
        let mut text = smt2_declarations(&set);
        if py_slice {
            text = format!("{PY_SLICE_DEFINITION}\n{text}");
        }
        let d: Rc<str> = Rc::from(escaped(&text));
        self.decl_bytes += d.len() + 4 * self.ids.len() + 64;
        self.decls.insert(key, d.clone());
        d
    }
}

/// `s` as a JSON string, quotes included (serde_json's escaping).
pub fn escaped(s: &str) -> Box<str> {
    let mut v = Vec::with_capacity(s.len() + 2);
    serde_json::to_writer(&mut v, s).expect("writing to a Vec");
    String::from_utf8(v).expect("JSON is UTF-8").into()
}

impl Session {
    /// Fill `out` with node `id`'s term texts, from and into `cache`.
    pub fn node_json_texts(&self, id: NodeId, cache: &mut JsonTexts, out: &mut NodeTexts) {
        let n = self.tree().node(id);
        out.path_condition.clear();
        out.store.clear();
        for t in self.engine.path_condition(id) {
            out.path_condition.push(cache.get(&t));
        }
        for (k, t) in self.engine.store_entries(id) {
            out.store.push((k.clone(), cache.get(t)));
        }
        out.return_value = n.return_value().map(|t| cache.get(t));
        cache.ids.clear();
        let mut py_slice = false;
        let terms = out.path_condition.iter();
        for t in terms
            .chain(out.store.iter().map(|(_, t)| t))
            .chain(&out.return_value)
        {
            cache.ids.extend_from_slice(&t.syms);
            py_slice |= t.py_slice;
        }
        cache.ids.sort_unstable();
        cache.ids.dedup();
        out.declarations = cache.declarations(py_slice);
        out.branch = n.branch.as_ref().map(|t| cache.get(t));
    }

    /// At a fold's exit: its label (see [`Session::fold_label`]); `None` elsewhere.
    pub fn fold_exit_label(&self, id: NodeId) -> Option<String> {
        self.engine.fold_exit(id)?;
        self.fold_label(id)
    }
}

#[cfg(test)]
mod tests {
    use super::escaped;

    #[test]
    fn escaped_strings_are_serde_json_strings() {
        for s in ["", "x0 <= 0", "a\"b\\c", "tab\there\nnew", "\u{1}κ1", "…"] {
            assert_eq!(&*escaped(s), serde_json::to_string(s).unwrap());
        }
    }
}
