//! The SVG text of three shipped scenarios' pictures, pinned, so a change to how a run is
//! drawn shows up here line by line: between them they draw leases and their ends, fencing
//! tokens and a refused write, violations on the axis, a process pause, a partition, the
//! narrow lane-name column, a picture cut at a time, and the legend.

use locksim::render::svg::{self, Picture};
use locksim::scenario;
use locksim::view::timeline::Lanes;

/// The SVG `locksim render` writes for `file` (relative to the crate root) as `picture`.
fn picture_of(file: &str, picture: Picture) -> String {
    let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).expect("a shipped scenario");
    let sc = scenario::parse(&src).expect("it parses");
    let locksim::Run { trace, verdict, .. } = locksim::run(&sc, sc.seed);
    let lanes = Lanes::build(&trace, &verdict);
    svg::draw(&trace, &verdict, &lanes, &picture)
}

#[test]
fn a_paused_holder_without_fencing() {
    let svg = picture_of(
        "assets/scenarios/step5-pause-unfenced.toml",
        Picture::default(),
    );
    insta::assert_snapshot!(svg);
}

#[test]
fn a_fencing_token_cut_at_eight_seconds() {
    let svg = picture_of(
        "assets/scenarios/step5-fencing-token.toml",
        Picture {
            until_ms: Some(8_000),
            ..Picture::default()
        },
    );
    insta::assert_snapshot!(svg);
}

#[test]
fn a_partition_in_a_narrow_picture() {
    let svg = picture_of(
        "assets/scenarios/step6-minority-cannot-grant.toml",
        Picture {
            width: 520,
            ..Picture::default()
        },
    );
    insta::assert_snapshot!(svg);
}
