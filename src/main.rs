//! The `levelgen` command-line tool. See `levelgen --help`.

fn main() -> std::process::ExitCode {
    levelgen::cli::main()
}
