//! Inputs found by fuzzing `PgnReader` (`fuzz/fuzz_targets/pgn.rs`, run with `just fuzz`), kept
//! as regression tests. Each input once made the reader loop forever, so every read here runs
//! on a worker of rayon's pool under a deadline: a regression fails the test instead of
//! hanging CI.

use std::{sync::mpsc, time::Duration};

use replab_pgn::PgnReader;

/// What the reader made of one game: its SAN tokens, or the error message.
type Outcome = Result<Vec<String>, String>;

/// Reads every game of `text`, failing the test if the reader does not finish within 10 s.
fn read_all(text: &'static [u8]) -> Vec<Outcome> {
    let (tx, rx) = mpsc::channel();
    rayon::spawn(move || {
        let mut reader = PgnReader::new(text);
        let mut out = Vec::new();
        loop {
            match reader.next_game() {
                Ok(Some(g)) => out.push(Ok(g.moves.into_iter().map(|m| m.text).collect())),
                Ok(None) => break,
                Err(e) => out.push(Err(e.to_string())),
            }
        }
        let _ = tx.send(out);
    });
    rx.recv_timeout(Duration::from_secs(10))
        .unwrap_or_else(|_| {
            panic!(
                "PgnReader did not finish on {:?}",
                String::from_utf8_lossy(text)
            )
        })
}

fn sans(v: &[&str]) -> Outcome {
    Ok(v.iter().map(|s| s.to_string()).collect())
}

/// The fuzzer's first find (a timeout): a `}` outside any comment. The token scan stopped at
/// it, returned an empty token and never advanced. Now it is an error with its line.
#[test]
fn stray_closing_brace_is_an_error_not_a_hang() {
    assert_eq!(
        read_all(b"1. e4 { never}()} \n"),
        [Err("line 1 (game 0): unmatched '}'".to_string())]
    );
    assert_eq!(
        read_all(b"}"),
        [Err("line 1 (game 0): unmatched '}'".to_string())]
    );
    // Inside a variation too.
    assert_eq!(
        read_all(b"1. e4 (1. d4 }) e5 *\n"),
        [Err("line 1 (game 0): unmatched '}'".to_string())]
    );
}

/// The reader resumes at the next game after the stray `}`, as after any syntax error.
#[test]
fn stray_closing_brace_then_next_game() {
    let text = b"[Event \"a\"]\n1. e4 } e5 1-0\n\n[Event \"b\"]\n1. d4 d5 *\n";
    assert_eq!(
        read_all(text),
        [
            Err("line 2 (game 0): unmatched '}'".to_string()),
            sans(&["d4", "d5"]),
        ]
    );
}

/// Whitespace other than space, tab and CR (form feed, vertical tab, no-break space, line
/// separator…) ended tokens but was not skipped: the same endless loop. It now separates
/// tokens like a space.
#[test]
fn any_unicode_whitespace_separates_tokens() {
    for text in [
        &b"1. e4\x0ce5 2. Nf3\x0bNc6 *\n"[..],
        "1. e4\u{a0}e5 2. Nf3\u{2028}Nc6 *\n".as_bytes(),
        "1.\u{3000}e4 e5\u{85}2. Nf3 Nc6 *\n".as_bytes(),
    ] {
        assert_eq!(read_all(text), [sans(&["e4", "e5", "Nf3", "Nc6"])]);
    }
}
