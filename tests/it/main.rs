//! The one integration-test binary (one binary keeps link time down).
//! Each module is one theme:

mod exec; // `symdbg exec`: JSON shape, outcomes, exit codes, errors for bad inputs/files
