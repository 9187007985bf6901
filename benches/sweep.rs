//! How fast `locksim check` sweeps seeds (criterion), on one thread and on every core. Run:
//! `cargo bench --no-default-features --bench sweep`.
//!
//! - `sweep/1-thread`, `sweep/all-cores`: [`locksim::sweep::on_threads`] over 200 seeds of
//!   `benches/data/four-workers-token.toml` (four workers taking a 100 ms TTL lock over and over
//!   for a simulated minute), each run checked as the engine records it (`locksim::judged`)
//!   and counted in seed order, as `locksim check --seeds 200 --threads N` does. Throughput is in recorded events (the
//!   tally's `events`, as `check --json` prints it) per second.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use locksim::scenario::{self, Scenario};
use locksim::sweep::on_threads;

const SEEDS: u64 = 200;

fn scenario() -> Scenario {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/data/four-workers-token.toml"
    );
    let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    scenario::parse(&src).unwrap_or_else(|e| panic!("benchmark scenario invalid: {e}"))
}

fn sweep_throughput(c: &mut Criterion) {
    let sc = scenario();
    let stop = AtomicBool::new(false);
    let pool = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap_or_else(|e| panic!("cannot start the threads: {e}"))
    };
    let one = pool(1);
    let all = pool(0);
    let seeds = sc.seed..=sc.seed + SEEDS - 1;
    let events = on_threads(&sc, seeds.clone(), &one, &stop, |_| {}).events();
    let mut group = c.benchmark_group("sweep");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(events));
    for (name, pool) in [
        ("1-thread".to_string(), &one),
        (format!("all-cores ({})", all.current_num_threads()), &all),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| on_threads(black_box(&sc), seeds.clone(), pool, &stop, |_| {}))
        });
    }
    group.finish();
}

criterion_group!(benches, sweep_throughput);
criterion_main!(benches);
