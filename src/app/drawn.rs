//! Where this frame's timelines put their lanes and their labels (a bar's, a mark's, a placed
//! fault's chip), points: the web page writes them into the document for the browser test,
//! which holds every label inside a lane and clear of every other, at real screens.

use eframe::egui::{Context, Id, Rect};

/// The lanes and labels of every timeline drawn this frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawn {
    /// Each lane's rectangle across the plot, points.
    pub lanes: Vec<Rect>,
    /// Each label's rectangle, points.
    pub labels: Vec<Rect>,
}

fn id() -> Id {
    Id::unique("locksim.drawn")
}

/// Adds `lanes` and `labels` to what this frame drew.
pub fn note(
    ctx: &Context,
    lanes: impl IntoIterator<Item = Rect>,
    labels: impl IntoIterator<Item = Rect>,
) {
    ctx.data_mut(|d| {
        let drawn = d.get_temp_mut_or_default::<Drawn>(id());
        drawn.lanes.extend(lanes);
        drawn.labels.extend(labels);
    });
}

/// What this frame drew, taken: the next frame starts with nothing.
pub fn take(ctx: &Context) -> Drawn {
    ctx.data_mut(|d| d.remove_temp::<Drawn>(id()).unwrap_or_default())
}
