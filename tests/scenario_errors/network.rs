//! The `[network]` table: delays, loss and the request timeout.

use crate::File::Edit;
use crate::{Bad, rejects_all};

const CASES: &[Bad] = &[
    (
        Edit("delay_ms = [1, 5]", "delay_ms = [9, 5]"),
        "network.delay_ms",
        "delay_ms",
        "got [9, 5]",
    ),
    (
        Edit("delay_ms = [1, 5]", "delay_ms = [1, 60001]"),
        "network.delay_ms",
        "delay_ms",
        "at most 60000 ms",
    ),
    (
        Edit("loss = 0.0", "loss = 1.5"),
        "network.loss",
        "loss",
        "probability from 0 to 1; got 1.5",
    ),
    // Far out of range: not as 309 digits the file never held.
    (
        Edit("loss = 0.0", "loss = 1e308"),
        "network.loss",
        "loss",
        "probability from 0 to 1; got a number beyond ±1 000 000",
    ),
    (
        Edit("loss = 0.0", "loss = 18446744073709551615"),
        "network.loss",
        "loss",
        "got a number beyond ±1 000 000",
    ),
    (
        Edit("loss = 0.0", "loss = nan"),
        "network.loss",
        "loss",
        "got NaN",
    ),
    (
        Edit("timeout_ms = 200", "timeout_ms = 0"),
        "network.timeout_ms",
        "timeout_ms",
        "must be at least 1",
    ),
];

#[test]
fn network_values_are_in_range() {
    rejects_all(CASES);
}
