//! An edited scenario is a new scenario: once its setup differs from the one it was made
//! from, it stops carrying that one's title, description and `[expect]`.
//!
//! Every way the app changes a scenario (the form, Break it, a fault placed on the timeline,
//! a failure the search found, another seed) goes through [`mark`], so what is saved, shared
//! or exported says "Edited from “…”", lists what changed, and states the edited run's own
//! verdict: a saved edit always passes `locksim verify`.

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::{Expect, Scenario, to_toml};

/// How an edited scenario's title begins; the original's title follows in quotes.
const EDITED_FROM: &str = "Edited from “";

/// How an edited scenario's description begins.
const CHANGED_FROM: &str = "Changed from “";

/// At most this many changes are listed in an edited scenario's description; the rest are
/// counted.
const LISTED: usize = 5;

/// `edited` marked as made from `base` (the scenario as written: a course design, a library
/// entry, a link).
///
/// When `edited`'s setup (everything but its title, description, source and `[expect]`)
/// differs from `base`'s, its title becomes "Edited from “base”", its description lists what
/// changed ([`differences`]) and its `[expect]` becomes `verdict`: the table its own run meets
/// ([`crate::checker::Verdict::expectation`]), or no expectation at all when it has not been
/// run. An edit that puts the setup back gets `base`'s title, description and `[expect]`
/// back.
///
/// What the learner wrote is kept: a title or description locksim did not write, and an
/// `[expect]` that differs from `previous`'s (the scenario this edit was made from just now:
/// the run on screen, or `base`).
pub fn mark(
    base: &Scenario,
    previous: &Scenario,
    mut edited: Scenario,
    verdict: Option<Expect>,
) -> Scenario {
    let changes = differences(base, &edited);
    let (name, description, expect) = if changes.is_empty() {
        (
            base.name.clone(),
            base.description.clone(),
            base.expect.clone(),
        )
    } else {
        (
            edited_name(base),
            edited_description(base, &changes),
            verdict,
        )
    };
    if edited.name == base.name || edited.name == edited_name(base) {
        edited.name = name;
    }
    if edited.description == base.description || edited.description.starts_with(CHANGED_FROM) {
        edited.description = description;
    }
    if edited.expect == previous.expect {
        edited.expect = expect;
    }
    edited
}

/// Whether `scenario`'s title says it was edited from another.
pub fn is_edited(scenario: &Scenario) -> bool {
    scenario.name.starts_with(EDITED_FROM)
}

/// "Edited from “base”"; an edit of an edit keeps the first one's title.
fn edited_name(base: &Scenario) -> String {
    if is_edited(base) {
        base.name.clone()
    } else {
        format!("{EDITED_FROM}{}”", base.name)
    }
}

/// What changed from `base`, in a sentence; an edit of an edit adds to the first's.
fn edited_description(base: &Scenario, changes: &[String]) -> String {
    let mut listed = changes[..changes.len().min(LISTED)].join("; ");
    if changes.len() > LISTED {
        let more = changes.len() - LISTED;
        listed.push_str(&format!("; and {more} more"));
    }
    if is_edited(base) {
        format!("{} Then: {listed}.", base.description)
    } else {
        format!("{CHANGED_FROM}{}”: {listed}.", base.name)
    }
}

/// Each difference in setup between `base` and `edited`, as `lock.ttl_ms: 10000 → 3000`,
/// `fault[2] added: {…}` or `resource.fencing: true → (unset)`, by field name. The title,
/// description, source and `[expect]` are not setup and are left out. Empty when the two
/// would run alike.
pub fn differences(base: &Scenario, edited: &Scenario) -> Vec<String> {
    let (before, after) = (setup_toml(base), setup_toml(edited));
    let mut found = Vec::new();
    // Both are `to_toml` output, which always parses.
    if let (Ok(before), Ok(after)) = (DeTable::parse(&before), DeTable::parse(&after)) {
        tables(&mut found, "", before.get_ref(), after.get_ref());
    }
    found
}

/// `scenario` as TOML without the fields that say what it is rather than how it runs.
fn setup_toml(scenario: &Scenario) -> String {
    to_toml(&Scenario {
        name: String::new(),
        description: String::new(),
        source: String::new(),
        expect: None,
        ..scenario.clone()
    })
}

fn tables(found: &mut Vec<String>, at: &str, before: &DeTable<'_>, after: &DeTable<'_>) {
    let field = |key: &str| {
        if at.is_empty() {
            key.to_string()
        } else {
            format!("{at}.{key}")
        }
    };
    for (key, old) in before {
        let path = field(key.get_ref());
        match entry(after, key.get_ref()) {
            Some(new) => values(found, &path, old.get_ref(), new.get_ref()),
            None => found.push(format!("{path}: {} → (unset)", inline(old.get_ref()))),
        }
    }
    for (key, new) in after {
        if entry(before, key.get_ref()).is_none() {
            let path = field(key.get_ref());
            found.push(format!("{path}: (unset) → {}", inline(new.get_ref())));
        }
    }
}

/// `table`'s value at `key`.
fn entry<'t, 'i>(table: &'t DeTable<'i>, key: &str) -> Option<&'t Spanned<DeValue<'i>>> {
    table
        .iter()
        .find(|(k, _)| k.get_ref() == key)
        .map(|(_, v)| v)
}

fn values(found: &mut Vec<String>, at: &str, before: &DeValue<'_>, after: &DeValue<'_>) {
    match (before, after) {
        (DeValue::Table(old), DeValue::Table(new)) => tables(found, at, old, new),
        // Arrays of tables (workers, faults) compare item by item; other arrays as values.
        (DeValue::Array(old), DeValue::Array(new))
            if old.iter().chain(new.iter()).all(|v| v.get_ref().is_table()) =>
        {
            for i in 0..old.len().max(new.len()) {
                let path = format!("{at}[{i}]");
                match (old.get(i), new.get(i)) {
                    (Some(o), Some(n)) => values(found, &path, o.get_ref(), n.get_ref()),
                    (Some(o), None) => {
                        found.push(format!("{path} removed: {}", inline(o.get_ref())))
                    }
                    (None, Some(n)) => found.push(format!("{path} added: {}", inline(n.get_ref()))),
                    (None, None) => {}
                }
            }
        }
        _ => {
            let (old, new) = (inline(before), inline(after));
            if old != new {
                found.push(format!("{at}: {old} → {new}"));
            }
        }
    }
}

/// A value as TOML writes it inline: `3000`, `"pause"`, `{ kind = "pause", node = "A" }`.
fn inline(value: &DeValue<'_>) -> String {
    match value {
        DeValue::String(s) => format!("{:?}", s.as_ref()),
        DeValue::Integer(i) => i.as_str().to_string(),
        DeValue::Float(f) => f.as_str().to_string(),
        DeValue::Boolean(b) => b.to_string(),
        DeValue::Datetime(d) => d.to_string(),
        DeValue::Array(items) => {
            let items: Vec<String> = items.iter().map(|v| inline(v.get_ref())).collect();
            format!("[{}]", items.join(", "))
        }
        DeValue::Table(table) => {
            let items: Vec<String> = table
                .iter()
                .map(|(k, v)| format!("{} = {}", k.get_ref(), inline(v.get_ref())))
                .collect();
            format!("{{ {} }}", items.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::library::COURSE;
    use crate::scenario::{FaultKind, parse};

    fn fenced() -> Scenario {
        let text = COURSE
            .iter()
            .find(|(file, _)| *file == "step5-fencing-token.toml")
            .map(|(_, text)| *text)
            .unwrap();
        parse(text).unwrap()
    }

    fn unfenced(base: &Scenario) -> Scenario {
        let mut edited = base.clone();
        edited.resource.fencing = false;
        edited
    }

    #[test]
    fn an_edited_setup_gets_a_new_title_description_and_expectation() {
        let base = fenced();
        let verdict = Expect {
            safe: Some(false),
            ..Expect::default()
        };
        let marked = mark(&base, &base, unfenced(&base), Some(verdict.clone()));
        let verdict = Some(verdict);
        assert_eq!(marked.name, format!("Edited from “{}”", base.name));
        assert_eq!(
            marked.description,
            format!(
                "Changed from “{}”: resource.fencing: true → false.",
                base.name
            )
        );
        assert_eq!(marked.expect, verdict);
        assert_eq!(marked.source, base.source);
        assert!(!marked.resource.fencing);
    }

    #[test]
    fn an_edit_not_yet_run_states_no_expectation() {
        let base = fenced();
        assert!(base.expect.is_some());
        let marked = mark(&base, &base, unfenced(&base), None);
        assert_eq!(marked.expect, None);
    }

    #[test]
    fn what_the_learner_wrote_themselves_is_kept() {
        let base = fenced();
        let mut edited = unfenced(&base);
        edited.name = "My unfenced lock".into();
        edited.expect = Some(Expect {
            live: Some(false),
            ..Expect::default()
        });
        let marked = mark(&base, &base, edited.clone(), Some(Expect::default()));
        assert_eq!(marked.name, "My unfenced lock");
        assert_eq!(marked.expect, edited.expect);
        assert!(marked.description.starts_with("Changed from"));
    }

    #[test]
    fn putting_the_setup_back_gives_the_original_back() {
        let base = fenced();
        let once = mark(&base, &base, unfenced(&base), Some(Expect::default()));
        let mut back = once.clone();
        back.resource.fencing = true;
        assert_eq!(mark(&base, &once, back, Some(Expect::default())), base);
    }

    #[test]
    fn a_second_edit_lists_every_change_from_the_original() {
        let base = fenced();
        let once = mark(&base, &base, unfenced(&base), None);
        let mut twice = once.clone();
        twice.lock.ttl_ms += 1;
        twice.faults.push(crate::scenario::Fault {
            at_ms: 7,
            kind: FaultKind::Crash { node: "B".into() },
        });
        let marked = mark(&base, &once, twice, None);
        assert_eq!(marked.name, once.name);
        let changes = differences(&base, &marked);
        assert_eq!(changes.len(), 3, "{changes:?}");
        assert!(changes[1].starts_with("lock.ttl_ms: "), "{changes:?}");
        assert_eq!(changes[2], "resource.fencing: true → false");
        let added = base.faults.len();
        assert_eq!(
            changes[0],
            format!("fault[{added}] added: {{ at_ms = 7, kind = \"crash\", node = \"B\" }}")
        );
        for change in &changes {
            assert!(marked.description.contains(change.as_str()), "{change}");
        }
    }

    #[test]
    fn an_edit_of_a_shared_edit_keeps_its_story() {
        let base = fenced();
        let shared = mark(&base, &base, unfenced(&base), None);
        let mut edited = shared.clone();
        edited.seed += 1;
        let marked = mark(&shared, &shared, edited, None);
        assert_eq!(marked.name, shared.name);
        assert!(marked.description.starts_with(&shared.description));
        assert!(
            marked.description.ends_with(" Then: seed: 1 → 2."),
            "{}",
            marked.description
        );
    }

    #[test]
    fn a_long_list_is_cut_and_counted() {
        let base = fenced();
        let mut edited = base.clone();
        edited.seed += 1;
        edited.until_ms += 1;
        edited.lock.ttl_ms += 1;
        edited.resource.fencing = false;
        edited.faults.clear();
        edited.network.loss = 0.5;
        edited.check.starve_after_ms += 1;
        let changes = differences(&base, &edited);
        assert!(changes.len() > LISTED, "{changes:?}");
        let marked = mark(&base, &base, edited, None);
        let more = changes.len() - LISTED;
        assert!(marked.description.ends_with(&format!("; and {more} more.")));
    }
}
