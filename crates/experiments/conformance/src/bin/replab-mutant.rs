//! `replab-mutant [--bug NAME] [--reverse] [--max-depth N]`: the test engine on stdin/stdout.

use replab_conformance::mutant::{Bug, Settings};

/// The test engine's settings from its arguments: `--bug NAME`, `--reverse`, `--max-depth N`.
fn parse(args: &[String]) -> Result<Settings, String> {
    let mut s = Settings::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--bug" => {
                let name = it.next().ok_or("--bug needs a name")?;
                s.bug = Some(Bug::parse(name).ok_or(format!("unknown bug {name}"))?);
            }
            "--reverse" => s.reverse = true,
            "--max-depth" => {
                let n = it.next().ok_or("--max-depth needs a number")?;
                s.max_depth = n.parse().map_err(|_| format!("bad --max-depth {n}"))?;
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(s)
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse(&args) {
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
