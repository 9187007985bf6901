//! How fast `locksim search` tries fault schedules (criterion). Run:
//! `cargo bench --no-default-features --bench search`.
//!
//! - `search/10000-schedules`: [`locksim::search::search`] on the step 8 compare-and-swap
//!   scenario with its own faults removed, up to 3 faults per schedule. The resource's
//!   compare-and-swap keeps every run safe, so all 10 000 schedules are drawn, run and
//!   checked: the whole budget of a search that finds nothing. Throughput is in schedules.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use locksim::scenario::{self, Scenario};
use locksim::search::{Options, search};

const TRIES: u64 = 10_000;

fn scenario() -> Scenario {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/scenarios/step5-fencing-token.toml"
    );
    let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut sc =
        scenario::parse(&src).unwrap_or_else(|e| panic!("benchmark scenario invalid: {e}"));
    sc.faults.clear();
    sc
}

fn search_throughput(c: &mut Criterion) {
    let sc = scenario();
    let options = Options {
        tries: TRIES,
        ..Options::default()
    };
    assert!(
        search(&sc, &options).found.is_none(),
        "the benchmark must run the whole budget"
    );
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(TRIES));
    group.bench_function("10000-schedules", |b| {
        b.iter(|| search(black_box(&sc), &options))
    });
    group.finish();
}

criterion_group!(benches, search_throughput);
criterion_main!(benches);
