//! Coverage marks, after TigerBeetle's `testing/marks.zig`: a lesson's failure must come from
//! the engine path that models its cause (a lease that ran out on the store, a blind delete
//! of another holder's key, a failover to a replica), not only show the right verdict. The
//! engine calls [`mark!`] on those paths; in the crate's own tests each call is counted, per
//! thread, and the table below holds every lesson's run to the paths it must (and must not)
//! take. Outside tests a mark compiles to nothing, so runs and the web module are unchanged.

/// Notes that the engine took the path named `$name`. Counted only in the crate's tests.
macro_rules! mark {
    ($name:literal) => {{
        #[cfg(test)]
        $crate::engine::marks::hit($name);
    }};
}
pub(crate) use mark;

#[cfg(test)]
thread_local! {
    static HIT: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Counts `name` as hit on this thread.
#[cfg(test)]
pub(crate) fn hit(name: &'static str) {
    HIT.with(|hit| hit.borrow_mut().push(name));
}

/// The marks hit on this thread since the last call, and forgets them.
#[cfg(test)]
fn take() -> Vec<&'static str> {
    HIT.with(|hit| std::mem::take(&mut *hit.borrow_mut()))
}

#[cfg(test)]
mod tests {
    use super::take;
    use crate::scenario::library::shipped;

    /// Each lesson's run (a file of `assets/`), the paths that make its point, and the paths
    /// it must not take.
    const LESSONS: &[(&str, &[&str], &[&str])] = &[
        ("scenarios/step1-flag-race", &["flag_set_while_set"], &[]),
        (
            "scenarios/step2-setnx-one-winner",
            &[],
            &["flag_set_while_set"],
        ),
        (
            "scenarios/step3-ttl-lease-expires",
            &["lease_expired_on_store"],
            &[],
        ),
        (
            "scenarios/step4-blind-release",
            &["release_deleted_another_holders_key"],
            &[],
        ),
        (
            "scenarios/step4-compare-and-delete",
            &["lease_expired_on_store"],
            &["release_deleted_another_holders_key"],
        ),
        (
            "scenarios/step5-fencing-token",
            &["stale_fence_refused"],
            &[],
        ),
        (
            "scenarios/step5-pause-unfenced",
            &["lease_expired_on_store"],
            &["stale_fence_refused"],
        ),
        ("scenarios/step6-async-failover", &["replica_promoted"], &[]),
        (
            "scenarios/step6-minority-cannot-grant",
            &["leader_stepped_down_without_majority"],
            &[],
        ),
        (
            "cases/isolated-leader-steps-down",
            &["refused_for_no_majority"],
            &[],
        ),
        (
            "scenarios/step7-watchdog-renews",
            &["watchdog_renewal_sent"],
            &[],
        ),
        (
            "scenarios/step7-long-task-no-renewal",
            &["lease_expired_on_store"],
            &["watchdog_renewal_sent"],
        ),
        (
            "cases/zookeeper-ghost-node-after-retried-create",
            &["session_renewed_another_attempts_grant"],
            &[],
        ),
        (
            "cases/zookeeper-retried-create-hands-back",
            &[],
            &["session_renewed_another_attempts_grant"],
        ),
    ];

    #[test]
    fn every_lesson_fails_or_holds_through_the_path_that_models_its_cause() {
        for &(file, must, must_not) in LESSONS {
            let scenario = shipped(&format!("{file}.toml"));
            take();
            crate::run(&scenario, scenario.seed);
            let hit = take();
            for mark in must {
                assert!(
                    hit.contains(mark),
                    "{file}: never took {mark}; took {hit:?}"
                );
            }
            for mark in must_not {
                assert!(!hit.contains(mark), "{file}: took {mark}");
            }
        }
    }
}
