//! How fast the engine and the checker are (criterion). Run: `cargo bench --no-default-features`.
//!
//! - `engine/*`: one long run of a busy scenario (4 workers contending for 600 s of simulated
//!   time, short critical sections, fast retries, a few pauses), with the trace recorded
//!   (`engine::run`) and without (`engine::run_unrecorded`). Throughput is in handled queue
//!   events (`Trace::steps`) per second. Target: ≥ 10 M events/s unrecorded.
//! - `check/10k-seeds`: what `locksim check --seeds 10000` does for one lesson scenario
//!   (`assets/scenarios/step5-pause-unfenced.toml`): run and check every seed and count each
//!   kind of violation. Throughput is in seeds per second. Target: 10 000 seeds in < 1 s.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use locksim::checker::ViolationKind;
use locksim::engine;
use locksim::scenario::{self, Scenario};

/// Four workers that want the lock over and over for 10 simulated minutes.
const BUSY: &str = r#"
version = 1
name = "Four busy workers for ten minutes"
seed = 42
until_ms = 600000

[network]
delay_ms = [1, 4]

[lock]
design = "token"
ttl_ms = 1000
retry_ms = 10

[[worker]]
name = "A"
work_ms = 20
writes = 2
repeat = 0

[[worker]]
name = "B"
start_ms = 3
work_ms = 15
repeat = 0

[[worker]]
name = "C"
start_ms = 7
work_ms = 25
writes = 3
repeat = 0
retry_ms = 25

[[worker]]
name = "D"
start_ms = 11
work_ms = 10
repeat = 0
retry_ms = 5

[[fault]]
at_ms = 100000
kind = "pause"
node = "A"
for_ms = 2500

[[fault]]
at_ms = 250000
kind = "pause"
node = "C"
for_ms = 4000

[[fault]]
at_ms = 400000
kind = "pause"
node = "store1"
for_ms = 800
"#;

fn parse(src: &str) -> Scenario {
    scenario::parse(src).unwrap_or_else(|e| panic!("benchmark scenario invalid: {e}"))
}

fn engine_throughput(c: &mut Criterion) {
    let sc = parse(BUSY);
    let steps = engine::run_unrecorded(&sc, sc.seed);
    let mut group = c.benchmark_group("engine");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(steps));
    group.bench_function("recorded", |b| {
        b.iter(|| engine::run(black_box(&sc), black_box(sc.seed)))
    });
    group.bench_function("unrecorded", |b| {
        b.iter(|| engine::run_unrecorded(black_box(&sc), black_box(sc.seed)))
    });
    group.finish();
}

const SEEDS: u64 = 10_000;

fn seeds_per_second(c: &mut Criterion) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/scenarios/step5-pause-unfenced.toml"
    );
    let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let sc = parse(&src);
    let mut group = c.benchmark_group("check");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(SEEDS));
    group.bench_function("10k-seeds", |b| {
        b.iter(|| {
            let mut counts = [0u32; ViolationKind::ALL.len()];
            for seed in 1..=SEEDS {
                let verdict = locksim::run(&sc, seed).verdict;
                for (count, kind) in counts.iter_mut().zip(ViolationKind::ALL) {
                    *count += u32::from(verdict.has(kind));
                }
            }
            black_box(counts)
        })
    });
    group.finish();
}

criterion_group!(benches, engine_throughput, seeds_per_second);
criterion_main!(benches);
