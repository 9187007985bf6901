//! Every scenario that ships with locksim, built into the binary: the course's scenarios
//! and the real incidents. The browser build has no files to read, and the app's library,
//! the course and the wasm32 determinism test all need the same list.

/// `(file name, contents)` for each named file of `assets/<dir>/`.
macro_rules! embed {
    ($dir:literal: $($file:literal),* $(,)?) => {
        &[$(($file, include_str!(concat!("../../assets/", $dir, "/", $file)))),*]
    };
}

/// The course's scenarios, `assets/scenarios/`. A test checks this list against the directory.
pub const COURSE: &[(&str, &str)] = embed!("scenarios":
    "recap-the-lock-you-built.toml",
    "step1-flag-both-flaws.toml",
    "step1-flag-holder-crash.toml",
    "step1-flag-race.toml",
    "step1-lease-fixes-both.toml",
    "step2-check-then-set.toml",
    "step2-setnx-one-winner.toml",
    "step2-timestamp-race.toml",
    "step3-ping-then-delete.toml",
    "step3-setnx-holder-crash.toml",
    "step3-setnx-then-expire.toml",
    "step3-ttl-lease-expires.toml",
    "step4-blind-release.toml",
    "step4-compare-and-delete.toml",
    "step5-check-lease-then-pause.toml",
    "step5-fence-counter-failover.toml",
    "step5-fence-counter-restart.toml",
    "step5-fenced-writes-only.toml",
    "step5-fencing-token.toml",
    "step5-longer-ttl.toml",
    "step5-pause-unfenced.toml",
    "step5-paused-holder-fenced.toml",
    "step5-paused-holder-longer-lease.toml",
    "step5-paused-holder-owner-token.toml",
    "step5-stop-on-lock-loss.toml",
    "step6-aof-everysec-restart.toml",
    "step6-async-failover.toml",
    "step6-async-replica-node-dies.toml",
    "step6-consensus-failover.toml",
    "step6-consensus-node-dies.toml",
    "step6-minority-cannot-grant.toml",
    "step6-one-node-dies.toml",
    "step6-redlock-clock-jump.toml",
    "step6-redlock-node-dies.toml",
    "step6-single-store-down.toml",
    "step7-fair-queue.toml",
    "step7-fair-turns.toml",
    "step7-four-workers-token-fair.toml",
    "step7-four-workers-token-shared.toml",
    "step7-hot-path-consensus.toml",
    "step7-hot-path-single.toml",
    "step7-jitter-starves.toml",
    "step7-long-task-no-renewal.toml",
    "step7-nested-not-reentrant.toml",
    "step7-nested-reentrant.toml",
    "step7-progress-renewal.toml",
    "step7-record-locks.toml",
    "step7-retry-starves.toml",
    "step7-table-lock-short-ttl.toml",
    "step7-table-lock.toml",
    "step7-uncounted-reentry.toml",
    "step7-watchdog-renews.toml",
    "step7-watchdog-stalled-holder.toml",
    "step8-cas-instead.toml",
    "step8-cas-no-lock.toml",
    "step8-client-clock-skew.toml",
    "step8-idempotent-write.toml",
    "step8-leader-by-lock.toml",
    "step8-monotonic-clock.toml",
    "step8-store-expiry.toml",
    "step8-wall-clock-jump.toml",
);

/// The real incidents, `assets/cases/`. A test checks this list against the directory.
pub const INCIDENTS: &[(&str, &str)] = embed!("cases":
    "aof-everysec-restart.toml",
    "async-failover-double-grant.toml",
    "churn-without-prevote.toml",
    "consensus-survives-leader-crash.toml",
    "consul-session-ttl-doubled.toml",
    "etcd-keepalive-counted-from-reply.toml",
    "etcd-key-deleted-lease-lives.toml",
    "eviction-deletes-held-lock.toml",
    "fair-queue-dead-waiter-leaves.toml",
    "fair-queue-lost-wakeup.toml",
    "fair-queue-waiter-follows-new-leader.toml",
    "force-release-live-holder.toml",
    "get-lock-uncounted-reentry.toml",
    "isolated-leader-steps-down.toml",
    "late-reply-lease-from-send.toml",
    "lock-loss-stop-partition.toml",
    "lock-loss-stop-pause.toml",
    "min-replicas-to-write.toml",
    "observed-expiry-clock-offset.toml",
    "observed-expiry-paused-holder.toml",
    "partition-holds-write-until-heal-fenced.toml",
    "partition-holds-write-until-heal.toml",
    "partitioned-holder-fenced.toml",
    "partitioned-holder-unfenced.toml",
    "pause-past-lease-fenced.toml",
    "pause-past-lease-unfenced.toml",
    "paused-waiter-not-starved.toml",
    "progress-renewal-lets-go.toml",
    "redis-wall-clock-step.toml",
    "redlock-clock-jump.toml",
    "redlock-drift-within-allowance.toml",
    "redlock-extend-refused-stops.toml",
    "redlock-monotonic-clock.toml",
    "redlock-quorum-of-own-view.toml",
    "redlock-split-vote-jitter.toml",
    "redlock-split-vote-lockstep.toml",
    "redlock-store-clock-drift.toml",
    "release-in-flight-at-horizon.toml",
    "release-with-token.toml",
    "release-without-token.toml",
    "replica-restart-resyncs.toml",
    "sentinel-no-failover-in-minority.toml",
    "set-nx-px-one-step.toml",
    "setnx-then-expire.toml",
    "store-forgets-lock-not-stuck.toml",
    "timed-out-acquire-orphan-lock.toml",
    "watchdog-keeps-stalled-holder.toml",
);

/// The text of `file` (`NAME.toml`) in `list` ([`COURSE`] or [`INCIDENTS`]). A `const fn`,
/// so a name looked up in a constant, as the course's steps do, that is not in the list stops
/// the build instead of a run.
///
/// # Panics
/// When `file` is not in `list`: at compile time in a constant, at run time otherwise.
pub const fn text(list: &[(&str, &'static str)], file: &str) -> &'static str {
    let mut i = 0;
    while i < list.len() {
        if same(list[i].0.as_bytes(), file.as_bytes()) {
            return list[i].1;
        }
        i += 1;
    }
    panic!("not a shipped scenario")
}

/// Byte equality that a `const fn` can call (`==` on slices is not `const`).
const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The shipped scenario `assets/<file>`, `file` being `scenarios/NAME.toml` or
/// `cases/NAME.toml`, parsed; for unit tests.
#[cfg(test)]
pub(crate) fn shipped(file: &str) -> super::Scenario {
    let (dir, name) = file.split_once('/').expect("scenarios/NAME or cases/NAME");
    let list = if dir == "cases" { INCIDENTS } else { COURSE };
    let (_, text) = list
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no shipped scenario {file}"));
    super::parse(text).expect("valid scenario")
}
