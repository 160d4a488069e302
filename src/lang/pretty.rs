//! Pretty printer: AST → minipy source (stub; being written).
