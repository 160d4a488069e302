fn main() {
    std::process::exit(symdbg::cli::main());
}
