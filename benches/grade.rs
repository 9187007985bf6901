//! How fast `locksim grade` grades a class (criterion). Run:
//! `cargo bench --no-default-features --bench grade`.
//!
//! - `grade/30-hand-ins`: the sample assignment (`docs/assignment.toml`) read, then 30
//!   hand-ins read and graded, each challenge and break attempt re-run on its seed: what
//!   `locksim grade` does apart from writing files. The goal is under 5 s.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use locksim::assignment::{Assignment, Form, HandIn, grade};

const SEALED: &str = include_str!("../docs/assignment.toml");
const CLASS: usize = 30;

/// Student `i`'s hand-in: every other one wins what can be won.
fn hand_in(i: usize) -> String {
    let (last, pause_ms) = if i.is_multiple_of(2) {
        (4, 35_000)
    } else {
        (3, 2_000)
    };
    format!(
        r#"version = 1
student = "Student {i}"

[[answer]]
task = "lease"
first = 1
final = {last}

[[answer]]
task = "fencing"
final = 3

[[answer]]
task = "predict-fenced"
choice = {choice}

[[answer]]
task = "longer-lease"
fault = [{{ at_ms = 1000, kind = "pause", node = "A", for_ms = {pause_ms} }}]

[[answer]]
task = "fenced-holds"
fault = [{{ at_ms = 1000, kind = "pause", node = "A", for_ms = 12000 }}]

[[answer]]
task = "break-owner-token"
fault = [{{ at_ms = 1000, kind = "pause", node = "A", for_ms = {pause_ms} }}]
"#,
        choice = 1 + i % 3,
    )
}

fn grade_class(c: &mut Criterion) {
    let class: Vec<String> = (0..CLASS).map(hand_in).collect();
    let run = || -> f64 {
        let assignment = Assignment::parse(SEALED, Form::Sealed).expect("the sample reads");
        class
            .iter()
            .map(|text| {
                let hand_in = HandIn::parse(text, &assignment).expect("a valid hand-in");
                grade(&assignment, &hand_in).score()
            })
            .sum()
    };
    assert!(run() > 0.0, "some hand-ins score");
    let mut group = c.benchmark_group("grade");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(CLASS as u64));
    group.bench_function("30-hand-ins", |b| b.iter(|| black_box(run())));
    group.finish();
}

criterion_group!(benches, grade_class);
criterion_main!(benches);
