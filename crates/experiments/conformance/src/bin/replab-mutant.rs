//! `replab-mutant [--bug NAME] [--reverse] [--max-depth N]`: the test engine on stdin/stdout.

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match replab_conformance::mutant::Settings::from_args(&args) {
        Ok(settings) => {
            let stdin = std::io::stdin();
            replab_conformance::mutant::run(stdin.lock(), std::io::stdout(), settings);
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("replab-mutant: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
