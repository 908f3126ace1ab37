//! The hostile run's pieces: shell quoting, outcomes, the tally and the mutator.

use std::process::ExitStatus;
use std::time::Duration;

/// Quotes `text` for `sh`.
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Exited with this code.
    Exit(i32),
    /// Panicked (exit 101 or a panic message).
    Panic,
    /// Killed by a signal (abort, segfault, an allocation past the memory limit).
    Abort,
    /// Still running at the timeout.
    Hang,
    /// Reported success but lost its output.
    Lost,
}

impl Outcome {
    pub fn of(status: Option<ExitStatus>, stderr: &str) -> Self {
        let Some(status) = status else {
            return Self::Hang;
        };
        if stderr.contains("panicked") || status.code() == Some(101) {
            return Self::Panic;
        }
        match status.code() {
            // sh reports a child killed by signal N as 128 + N.
            Some(code) if code > 128 => Self::Abort,
            Some(code) => Self::Exit(code),
            None => Self::Abort,
        }
    }
}

/// The counts of a hostile run, with the first few failures kept to show.
#[derive(Default)]
pub struct Tally {
    runs: usize,
    by_code: std::collections::BTreeMap<i32, usize>,
    panics: usize,
    hangs: usize,
    aborts: usize,
    lost: usize,
    odd_codes: usize,
    examples: Vec<String>,
}

impl Tally {
    pub fn record(
        &mut self,
        kind: &str,
        argv: &[String],
        outcome: Outcome,
        kept: bool,
        input: &[u8],
    ) {
        self.runs += 1;
        let bad = match outcome {
            Outcome::Exit(code) => {
                *self.by_code.entry(code).or_default() += 1;
                if !(0..=2).contains(&code) {
                    self.odd_codes += 1;
                    true
                } else {
                    false
                }
            }
            Outcome::Panic => {
                self.panics += 1;
                true
            }
            Outcome::Abort => {
                self.aborts += 1;
                true
            }
            Outcome::Hang => {
                self.hangs += 1;
                true
            }
            Outcome::Lost => {
                self.lost += 1;
                true
            }
        };
        let lost_input = !kept;
        if lost_input {
            self.lost += 1;
        }
        if (bad || lost_input) && self.examples.len() < 20 {
            let shown: String = String::from_utf8_lossy(input).chars().take(120).collect();
            self.examples.push(format!(
                "{kind}: {outcome:?}{} levelgen {} (input starts {shown:?})",
                if lost_input { " + file lost" } else { "" },
                argv.join(" ")
            ));
        }
    }

    pub fn clean(&self) -> bool {
        self.panics + self.hangs + self.aborts + self.lost + self.odd_codes == 0
    }

    pub fn report(&self, took: Duration) -> String {
        let mut out = format!(
            "hostile run: {} runs in {:.0} s: {} panics, {} hangs, {} aborts, {} lost or clobbered files, {} other exit codes; exit codes {:?}",
            self.runs,
            took.as_secs_f64(),
            self.panics,
            self.hangs,
            self.aborts,
            self.lost,
            self.odd_codes,
            self.by_code
        );
        for e in &self.examples {
            out.push_str("\n  ");
            out.push_str(e);
        }
        out
    }
}

/// Seeded mutations of an input file: byte flips, cuts, repeats, and splices of values
/// that break parsers (huge numbers, wrong JSON types, long strings).
pub struct Mutator {
    state: u64,
}

const SPLICES: &[&str] = &[
    "1000000000000",
    "-1",
    "0",
    "4294967296",
    "1e308",
    "-1e308",
    "NaN",
    "\"\"",
    "[]",
    "{}",
    "null",
    "true",
    "\"x\"",
    "1.5",
    "999999999999999999999",
    "[[[[[[[[[[[[[[[[",
    "\u{0}",
    "\"turtle_drunk\"",
    "\"dist(wall)\"",
    "\"self(out)\"",
];

impl Mutator {
    pub fn new(seed: u64) -> Self {
        Self {
            state: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
        }
    }

    pub fn next(&mut self) -> u64 {
        // xorshift64*
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn mutate(&mut self, input: &[u8]) -> Vec<u8> {
        let mut out = input.to_vec();
        for _ in 0..1 + self.below(4) {
            let at = self.below(out.len() + 1);
            match self.below(6) {
                0 if !out.is_empty() => {
                    let i = at.min(out.len() - 1);
                    out[i] ^= 1 << self.below(8);
                }
                1 => {
                    let end = (at + self.below(40)).min(out.len());
                    out.drain(at..end);
                }
                2 => {
                    let end = (at + self.below(40)).min(out.len());
                    let piece = out[at..end].to_vec();
                    let times = 1 + self.below(200);
                    for _ in 0..times {
                        out.splice(at..at, piece.iter().copied());
                    }
                }
                3 => {
                    // Replace the number at or after `at` with a splice value.
                    let start = (at..out.len()).find(|&i| out[i].is_ascii_digit());
                    if let Some(start) = start {
                        let end = (start..out.len())
                            .find(|&i| !out[i].is_ascii_digit() && out[i] != b'.')
                            .unwrap_or(out.len());
                        let value = SPLICES[self.below(SPLICES.len())].as_bytes();
                        out.splice(start..end, value.iter().copied());
                    }
                }
                4 => {
                    let long = "w".repeat(1 + self.below(200_000));
                    out.splice(at..at, long.bytes());
                }
                _ => {
                    let value = SPLICES[self.below(SPLICES.len())].as_bytes();
                    out.splice(at..at, value.iter().copied());
                }
            }
        }
        out
    }
}
