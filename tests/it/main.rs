//! The one integration-test binary (one binary keeps link time down).
//! Each module is one theme:
