//! `locksim render --deck`: a slide per step of the run's story, in order, each caption the
//! story's own sentence, in one HTML file that needs nothing from the network.

use std::process::Command;

use locksim::render::deck;
use locksim::scenario;

const STEP5: &str = include_str!("../assets/scenarios/step5-pause-unfenced.toml");

/// The text of an HTML element's content as the deck escapes it, back to plain text.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[test]
fn the_deck_has_every_step_in_order_as_its_caption() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("deck.html");
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/scenarios/step5-pause-unfenced.toml"
    );
    let run = Command::new(env!("CARGO_BIN_EXE_locksim"))
        .args(["render", file, "--deck"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let html = std::fs::read_to_string(&out).unwrap();

    let sc = scenario::parse(STEP5).unwrap();
    let story = locksim::search::narrate(&sc, &locksim::run(&sc, sc.seed));
    let slides = deck::slides(&sc, &locksim::run(&sc, sc.seed));
    assert_eq!(slides.len(), story.len() + 2, "title, each step, verdict");
    let captions: Vec<String> = html
        .split("<p class=\"caption\">")
        .skip(1)
        .map(|rest| unescape(&rest[..rest.find("</p>").unwrap()]))
        .collect();
    assert_eq!(captions.first(), Some(&sc.name));
    assert_eq!(&captions[1..captions.len() - 1], story.as_slice());
    assert!(captions.last().unwrap().starts_with("Verdict: UNSAFE"));
    assert!(story.iter().any(|s| s.contains("stale_write")));

    // Each slide's picture is cut at its step: the pause's slide shows less than the whole run.
    assert_eq!(html.matches("<svg").count(), slides.len());
    assert!(slides[2].until_ms == Some(1_000) && slides.last().unwrap().until_ms.is_none());
    // Only the last slide gives the verdict away: each step's slide asks what happens next.
    let sections: Vec<&str> = html.split("<section").skip(1).collect();
    let badges = sections.iter().filter(|s| s.contains(">UNSAFE<")).count();
    assert_eq!(badges, 1, "the verdict badge on the last slide only");
    assert!(sections.last().unwrap().contains(">UNSAFE<"));
    // Offline: no file, style or script is fetched.
    for fetch in ["<link", "<script src", "<img", "@import", "url(http"] {
        assert!(!html.contains(fetch), "{fetch} in the deck");
    }
    for key in ["PageDown", "PageUp", "ArrowRight", "ArrowLeft"] {
        assert!(html.contains(&format!("'{key}'")), "the {key} key");
    }
    assert_eq!(
        html.matches("<aside class=\"notes\">").count(),
        slides.len()
    );
}
