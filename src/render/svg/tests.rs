use super::*;
use crate::scenario;

/// The run of a scenario file, drawn.
fn picture(source: &str, picture: Picture) -> String {
    let scenario = scenario::parse(source).expect("a valid scenario");
    let crate::Run { trace, verdict, .. } = crate::run(&scenario, scenario.seed);
    let lanes = Lanes::build(&trace, &verdict);
    draw(&trace, &verdict, &lanes, &picture)
}

const STEP5: &str = crate::scenario::library::text(
    crate::scenario::library::COURSE,
    "step5-pause-unfenced.toml",
);

/// The text of every `<text>` element, in document order.
fn texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is XML");
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or_default().trim().to_string())
        .collect()
}

#[test]
fn the_picture_names_every_lane_and_the_verdict_in_words() {
    let svg = picture(STEP5, Picture::default());
    let texts = texts(&svg);
    for name in ["A", "B", "store1", "resource"] {
        assert!(texts.iter().any(|t| t == name), "{name} in {texts:?}");
    }
    assert!(texts.iter().any(|t| t == "UNSAFE"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "LIVE"), "{texts:?}");
    assert!(texts.iter().any(|t| t.contains("stale_write")), "{texts:?}");
}

#[test]
fn a_belief_the_store_no_longer_backs_is_hatched() {
    let svg = picture(STEP5, Picture::default());
    assert!(svg.contains(&format!("fill=\"url(#{})\"", hatch_id(Hatch::LeaseLost))));
    assert!(svg.contains(&format!("id=\"{}\"", hatch_id(Hatch::LeaseLost))));
}

#[test]
fn the_width_is_the_one_asked_for() {
    for width in [1, 300, 1600, 4000] {
        let svg = picture(
            STEP5,
            Picture {
                width,
                until_ms: None,
                verdict: true,
            },
        );
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let root = doc.root_element();
        assert_eq!(root.attribute("width"), Some(width.to_string().as_str()));
    }
}

#[test]
fn a_cut_picture_shows_nothing_past_its_end() {
    // Step 5's writes come after the pause (at 11 110 ms and later): cut before them, there
    // is no write to mark, and the legend has no entry for one.
    let svg = picture(
        STEP5,
        Picture {
            width: 1600,
            until_ms: Some(5_000),
            verdict: true,
        },
    );
    let texts = texts(&svg);
    assert!(
        !texts.iter().any(|t| t.contains("stale_write")),
        "{texts:?}"
    );
    assert!(
        !texts.iter().any(|t| t.contains("write accepted")),
        "{texts:?}"
    );
    assert!(
        texts.iter().any(|t| t.contains("shown up to 5 000 ms")),
        "{texts:?}"
    );
    // The badges are the whole run's verdict, and the picture says so.
    assert!(
        texts
            .iter()
            .any(|t| t.contains("nothing had gone wrong by then")),
        "{texts:?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t.contains("verdict is the whole run's")),
        "{texts:?}"
    );
    assert!(texts.iter().any(|t| t == "UNSAFE"), "{texts:?}");
    // The axis ends where the picture is cut.
    assert!(texts.iter().any(|t| t == "5 000 ms"), "{texts:?}");
    assert!(!texts.iter().any(|t| t == "5 500 ms"), "{texts:?}");
}

#[test]
fn a_whole_picture_does_not_call_itself_cut() {
    for until_ms in [None, Some(20_000)] {
        let texts = texts(&picture(
            STEP5,
            Picture {
                width: 1600,
                until_ms,
                verdict: true,
            },
        ));
        assert!(
            !texts.iter().any(|t| t.contains("shown up to")),
            "{texts:?}"
        );
    }
}

#[test]
fn text_from_the_scenario_is_escaped() {
    let source = STEP5.replacen("name = \"", "name = \"<b> & \\\"quotes\\\" ", 1);
    let svg = picture(&source, Picture::default());
    let title = texts(&svg).into_iter().next().unwrap();
    assert!(title.starts_with("<b> & \"quotes\" "), "{title}");
}

#[test]
fn a_long_busy_run_is_summed_up_to_what_the_picture_can_show() {
    let svg = picture(
        include_str!("../../../benches/busy.toml"),
        Picture::default(),
    );
    // A few elements per pixel column and lane at most, however many events there are.
    let elements = svg.matches('<').count();
    assert!(elements < 40_000, "{elements} elements");
}

#[test]
fn a_narrow_picture_wraps_its_legend_inside_its_width() {
    let source = crate::scenario::library::text(
        crate::scenario::library::COURSE,
        "step6-consensus-failover.toml",
    );
    let scenario = scenario::parse(source).unwrap();
    let crate::Run { trace, verdict, .. } = crate::run(&scenario, scenario.seed);
    let lanes = Lanes::build(&trace, &verdict);
    let width = 300;
    let picture = Picture {
        width,
        until_ms: None,
        verdict: true,
    };
    let svg = draw(&trace, &verdict, &lanes, &picture);
    let entries: Vec<&str> = lanes.legend.iter().map(|(s, _)| s.text()).collect();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let legend: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter(|n| {
            let words = n.text().unwrap_or_default().trim();
            !words.is_empty() && entries.iter().any(|e| e.contains(words))
        })
        .collect();
    // At 300 px the longest entries take two lines each.
    assert!(legend.len() > entries.len(), "{} lines", legend.len());
    for text in legend {
        let x: f32 = text.attribute("x").unwrap().parse().unwrap();
        let words = text.text().unwrap_or_default();
        let right = x + measure::width(words, 13.0);
        assert!(right <= width as f32, "{words:?} runs to {right} px");
    }
}

#[test]
fn a_picture_without_its_verdict_says_only_how_far_it_shows() {
    let cut = |verdict| {
        picture(
            STEP5,
            Picture {
                width: 1600,
                until_ms: Some(5_000),
                verdict,
            },
        )
    };
    let with = cut(true);
    let without = cut(false);
    assert!(with.contains("UNSAFE") && with.contains("The verdict is the whole run"));
    assert!(!without.contains("UNSAFE") && !without.contains("verdict"));
    assert!(without.contains("Run shown up to 5 000 ms of 20 000 ms."));
    roxmltree::Document::parse(&without).unwrap();
}
