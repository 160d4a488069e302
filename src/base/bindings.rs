//! `name = value`: how every printer shows a binding of a model, a store or a run's inputs
//! (`x = 3, t = (1, 2)`), in one place.

use std::fmt::Display;

/// One binding: `x = 3`.
pub fn binding(name: impl Display, value: impl Display) -> String {
    format!("{name} = {value}")
}

/// Each binding of `items`, in order: `["x = 3", "y = True"]`.
pub fn binding_list<K: Display, V: Display>(
    items: impl IntoIterator<Item = (K, V)>,
) -> Vec<String> {
    items.into_iter().map(|(k, v)| binding(k, v)).collect()
}

/// The bindings of `items` joined with `, `: `x = 3, y = True` ("" for none).
pub fn bindings<K: Display, V: Display>(items: impl IntoIterator<Item = (K, V)>) -> String {
    binding_list(items).join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_are_name_equals_value_joined_by_commas() {
        assert_eq!(binding("x", 3), "x = 3");
        assert_eq!(bindings([("x", "3"), ("t", "(1, 2)")]), "x = 3, t = (1, 2)");
        assert_eq!(bindings(Vec::<(&str, i32)>::new()), "");
    }
}
