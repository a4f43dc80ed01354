//! `bench`'s numbered steps, each announced with its wall and CPU time.

use crate::Progress;

/// `bench`'s numbered steps: `[3/12] smp`.
pub struct Steps {
    labels: Vec<String>,
    done: usize,
    /// The running step's label, start and the process's CPU seconds then.
    running: Option<(String, std::time::Instant, Option<f64>)>,
}

impl Steps {
    /// The steps of a run, in order.
    pub fn new(labels: Vec<String>) -> Self {
        Self {
            labels,
            done: 0,
            running: None,
        }
    }

    /// Every step's label.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// Closes the running step (its wall time as a note), announces the next one and returns
    /// its label.
    pub fn next(&mut self, progress: &mut dyn Progress) -> String {
        self.finish(progress);
        let label = self.labels.get(self.done).cloned().unwrap_or_default();
        self.done += 1;
        progress.note(&format!("[{}/{}] {label}", self.done, self.labels.len()));
        self.running = Some((
            label.clone(),
            std::time::Instant::now(),
            process_cpu_seconds(),
        ));
        label
    }

    /// Closes the running step, if any: `      step: N s wall, M s CPU` as a note (the CPU
    /// time of the process and its finished children, where the system reports it).
    pub fn finish(&mut self, progress: &mut dyn Progress) {
        if let Some((label, started, cpu)) = self.running.take() {
            let seconds = started.elapsed().as_secs_f64();
            let cpu = match (cpu, process_cpu_seconds()) {
                (Some(before), Some(now)) => format!(", {:.1} s CPU", now - before),
                _ => String::new(),
            };
            progress.note(&format!("      {label}: {seconds:.1} s wall{cpu}"));
        }
    }
}

/// The CPU time (user + system) this process and its finished children (the valgrind runs)
/// have used so far, in seconds, from Linux's `/proc/self/stat` (fields 14 to 17, in the
/// kernel's fixed 100 ticks per second of `USER_HZ`); `None` elsewhere.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    let rest = &stat[stat.rfind(')')? + 1..];
    let ticks: Vec<f64> = rest
        .split_whitespace()
        .skip(11)
        .take(4)
        .map(|t| t.parse().ok())
        .collect::<Option<_>>()?;
    (ticks.len() == 4).then(|| ticks.iter().sum::<f64>() / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_note_each_step_with_its_times() {
        struct Notes(Vec<String>);
        impl Progress for Notes {
            fn stage(&mut self, _: &str, _: u64) {}
            fn advance(&mut self, _: u64) {}
            fn note(&mut self, line: &str) {
                self.0.push(line.to_string());
            }
            fn finish(&mut self) {}
        }
        let mut notes = Notes(Vec::new());
        let mut steps = Steps::new(vec!["a".into(), "b".into()]);
        assert_eq!(steps.next(&mut notes), "a");
        assert_eq!(steps.next(&mut notes), "b");
        steps.finish(&mut notes);
        steps.finish(&mut notes);
        assert_eq!(notes.0.len(), 4, "{:?}", notes.0);
        assert_eq!(notes.0[0], "[1/2] a");
        assert!(notes.0[1].starts_with("      a: ") && notes.0[1].contains(" s wall"));
        assert_eq!(notes.0[2], "[2/2] b");
        if cfg!(target_os = "linux") {
            assert!(notes.0[3].contains(" s CPU"), "{:?}", notes.0);
            assert!(process_cpu_seconds().is_some_and(|s| s >= 0.0));
        }
    }
}
