//! `replab`: the command-line harness comparing chess repetition-detection techniques.

fn main() -> std::process::ExitCode {
    replab_lab::cli::main()
}
