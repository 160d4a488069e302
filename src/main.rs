// mimalloc instead of glibc's malloc: allocation was a third of a large exploration's time
// (issue 30; measured in docs/PERFORMANCE.md, "Allocator, hasher, exit"). Safe to declare:
// `MiMalloc` implements `GlobalAlloc` in the crate.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(symdbg::cli::main());
}
