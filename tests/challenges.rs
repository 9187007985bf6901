//! Every challenge can be won within its budget (a winning attempt each), except the ones
//! impossible by design, which a search of 10 000 attempts within their budget never wins.

use locksim::challenge::{self, Challenge, play};
#[path = "support/winning.rs"]
mod winning;
use winning::{at, pause, winning};

fn possible() -> impl Iterator<Item = &'static Challenge> {
    challenge::all().iter().filter(|c| c.impossible.is_none())
}

#[test]
fn every_possible_challenge_has_a_winning_attempt() {
    for c in possible() {
        let faults = winning(&c.id).unwrap_or_else(|| panic!("{}: no winning attempt", c.id));
        let judged = play(c, &faults);
        assert!(
            judged.overruns.is_empty(),
            "{}: over budget: {:?}",
            c.id,
            judged.overruns
        );
        assert!(
            judged.won,
            "{}: not won; violations: {:?}",
            c.id,
            judged
                .run
                .verdict
                .violations
                .iter()
                .map(|v| v.kind)
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn no_attempt_wins_without_faults() {
    for c in challenge::all() {
        assert!(!play(c, &[]).won, "{} won with no faults", c.id);
    }
}

#[test]
fn an_attempt_over_budget_does_not_win_even_when_the_goal_is_met() {
    let c = challenge::find("pause-past-lease").expect("listed");
    // Two pauses where the budget allows one: the run still breaks, but the attempt does not
    // count. The budget is one pause in all, so "2 pauses" would say "2 faults" again.
    let faults = vec![at(1_000, pause("A", 12_000)), at(15_000, pause("B", 100))];
    let judged = play(c, &faults);
    assert!(c.met(&judged.run));
    assert!(!judged.won);
    assert_eq!(
        judged.overruns,
        vec![
            "2 faults placed, the budget allows 1".to_string(),
            "pauses and stalls last 12 100 ms in all, the budget allows 12 000 ms".to_string(),
        ]
    );
}

#[test]
fn impossible_challenges_survive_ten_thousand_attempts_within_their_budget() {
    let impossible: Vec<&Challenge> = challenge::all()
        .iter()
        .filter(|c| c.impossible.is_some())
        .collect();
    assert!(impossible.len() >= 2);
    for c in impossible {
        assert_eq!(
            challenge::search(c, 10_000, 0),
            None,
            "{} was won within its budget",
            c.id
        );
    }
}

#[test]
fn the_search_within_a_budget_finds_a_possible_win() {
    // The search that vouches for the impossible ones does find wins where there are some.
    let c = challenge::find("pause-past-lease").expect("listed");
    let (tries, faults) = challenge::search(c, 10_000, 0).expect("a win");
    assert!(tries <= 10_000);
    assert!(play(c, &faults).won);
    assert!(c.budget.overruns(&faults, c.design.until_ms).is_empty());
}

#[test]
fn the_status_says_what_an_attempt_came_to() {
    let c = challenge::find("pause-past-lease").expect("listed");
    let none = play(c, &[]);
    assert_eq!(
        none.status(c),
        "Not yet. The checker reports nothing wrong with this run; the goal is stale_write."
    );
    let won = play(c, &[at(1_000, pause("A", 12_000))]);
    assert!(
        won.status(c)
            .starts_with("Won. The checker reports stale_write at ")
    );
    let over = play(
        c,
        &[at(1_000, pause("A", 12_000)), at(15_000, pause("B", 100))],
    );
    assert!(
        over.status(c)
            .starts_with("The goal is met, but not within the budget: 2 faults placed"),
        "{}",
        over.status(c)
    );
    // A pause too short to outlast the lease: the lock holds.
    let short = play(c, &[at(1_000, pause("A", 100))]);
    assert!(
        short.status(c).starts_with("Not yet."),
        "{}",
        short.status(c)
    );
}
