//! The hot-partition heatmap: each partition's use of its cap over time.

use super::{err, ChartError, Ticked, TimeAxis, FONT, WIDTH};
use crate::report::chart_data::Heatmap;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The colour of `u` in 0-1 of the scale: near-black (idle) through purple and red to pale
/// yellow (the partition's cap), after matplotlib's `inferno` as Key Visualizer draws heat on
/// dark.
#[must_use]
pub fn heat_color(u: f64) -> RGBColor {
    const STOPS: [(f64, [f64; 3]); 6] = [
        (0.0, [0.0, 0.0, 4.0]),
        (0.2, [50.0, 10.0, 94.0]),
        (0.4, [120.0, 28.0, 109.0]),
        (0.6, [188.0, 55.0, 84.0]),
        (0.8, [249.0, 142.0, 9.0]),
        (1.0, [252.0, 255.0, 164.0]),
    ];
    let u = if u.is_finite() { u.clamp(0.0, 1.0) } else { 0.0 };
    let i = STOPS.iter().position(|s| s.0 >= u).unwrap_or(STOPS.len() - 1).max(1);
    let (a, b) = (STOPS[i - 1], STOPS[i]);
    let t = (u - a.0) / (b.0 - a.0);
    let c = |k: usize| (a.1[k] + (b.1[k] - a.1[k]) * t).round() as u8;
    RGBColor(c(0), c(1), c(2))
}

/// Colour levels of the heatmap: cells are drawn at one of this many shades plus idle.
pub const HEAT_LEVELS: u8 = 64;

/// The colour level of a cell at `u` of its partition's cap: the scale runs from idle to the
/// cap (level [`HEAT_LEVELS`]), the same for every run and resource, and a cell above the cap
/// (burst credit, adaptive capacity) is [`OVER_CAP`].
#[must_use]
pub(super) fn heat_level(u: f64) -> u8 {
    if u > 1.0 + 1e-9 {
        OVER_CAP
    } else {
        (u.clamp(0.0, 1.0) * f64::from(HEAT_LEVELS)).round() as u8
    }
}

/// The level of a cell above its partition's cap: drawn cyan, apart from the scale.
pub(super) const OVER_CAP: u8 = HEAT_LEVELS + 1;

/// The colour of a level.
fn level_color(level: u8) -> RGBColor {
    if level == OVER_CAP {
        RGBColor(0, 190, 255)
    } else {
        heat_color(f64::from(level) / f64::from(HEAT_LEVELS))
    }
}

/// The heatmap's cells as runs: per partition row, consecutive time buckets of the same colour
/// level merged into one rectangle `(first minute, end minute, partition, level)`, so a long
/// run's mostly even rows are a few shapes, not a thousand (the 24 h headline's SVG was 30 MB).
#[must_use]
pub fn heat_runs(cells: &[(u64, u32, f64)], time_bucket: u64) -> Vec<(u64, u64, u32, u8)> {
    let mut sorted: Vec<(u32, u64, u8)> = cells.iter().map(|&(m, p, u)| (p, m, heat_level(u))).collect();
    sorted.sort_unstable_by_key(|c| (c.0, c.1));
    let mut out: Vec<(u64, u64, u32, u8)> = Vec::new();
    for (p, m, level) in sorted {
        match out.last_mut() {
            Some(r) if r.2 == p && r.1 == m && r.3 == level => r.1 = m + time_bucket,
            _ => out.push((m, m + time_bucket, p, level)),
        }
    }
    out
}

/// Draws the hot-partition heatmaps (per resource, reads and writes apart), each on one colour
/// scale from idle to the partition's cap (100 % is the same colour in every chart; a cell
/// above the cap is cyan), with its legend, and the hottest keys (GSI index keys included)
/// beside them. With few partitions each row is labelled at its centre.
///
/// # Errors
/// [`ChartError`] from the backend.
pub fn hot_partitions<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    maps: &[Heatmap],
    hot_keys: &[String],
    time: TimeAxis,
) -> Result<(), ChartError> {
    let e = err("hot-partitions");
    root.fill(&WHITE).map_err(&e)?;
    let (left, right) = root.split_horizontally(WIDTH as i32 - 300);
    right.draw(&Text::new("hottest keys (requests/s)", (10, 30), (FONT, 15))).map_err(&e)?;
    for (i, k) in hot_keys.iter().enumerate() {
        right.draw(&Text::new(k.clone(), (10, 56 + 20 * i as i32), (FONT, 12))).map_err(&e)?;
    }
    if hot_keys.is_empty() {
        right.draw(&Text::new("(uniform keys: none stands out)", (10, 56), (FONT, 12))).map_err(&e)?;
    }
    if maps.is_empty() {
        left.draw(&Text::new("no partition data (run without --no-partitions)", (20, 20), (FONT, 16))).map_err(&e)?;
        return Ok(());
    }
    let areas = left.split_evenly((maps.len(), 1));
    for (h, area) in maps.iter().zip(&areas) {
        let (dim, cap) = if h.dim == crate::model::Dim::Read { ("reads", "3,000 RCU/s") } else { ("writes", "1,000 WCU/s") };
        let (plot, scale) = area.split_horizontally(area.dim_in_pixel().0 as i32 - 80);
        let x_max = h.minutes.max(1) as f64;
        let rows = f64::from(h.partitions.max(1));
        let mut chart = ChartBuilder::on(&plot)
            .caption(format!("{} — {dim}: share of each partition's {cap}", h.resource), (FONT, 16))
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(60)
            .build_cartesian_2d(Ticked::new(0f64..x_max, time.ticks(x_max, true)), Ticked::new(0f64..rows, row_ticks(h)))
            .map_err(&e)?;
        let centred = h.partition_bucket == 1 && h.partitions <= CENTRED_ROWS;
        chart
            .configure_mesh()
            .x_desc(time.caption())
            .y_desc(if h.partition_bucket > 1 { format!("partition ({} per row)", h.partition_bucket) } else { "partition".to_string() })
            .x_label_formatter(&|m| time.clock(*m))
            .y_label_formatter(&|p| if centred { format!("{:.0}", p.floor()) } else { format!("{p:.0}") })
            .disable_mesh()
            .label_style((FONT, 12))
            .draw()
            .map_err(&e)?;
        // Where no partition existed yet: light grey, apart from idle (near-black) cells.
        chart.plotting_area().fill(&RGBColor(235, 235, 235)).map_err(&e)?;
        let pb = f64::from(h.partition_bucket);
        chart
            .draw_series(heat_runs(&h.cells, h.time_bucket).into_iter().map(|(m0, m1, p, level)| {
                let (m0, m1, p) = (m0 as f64, m1 as f64, f64::from(p));
                Rectangle::new([(m0, p), (m1, p + pb)], level_color(level).filled())
            }))
            .map_err(&e)?;
        // The colour scale: a bar from idle to the cap, labelled in % of the cap, and the
        // colour of a cell above it.
        let sh = scale.dim_in_pixel().1;
        let (y0, y1) = (58i32, sh as i32 - 50);
        scale.draw(&Rectangle::new([(8, y0 - 16), (24, y0 - 4)], level_color(OVER_CAP).filled())).map_err(&e)?;
        scale.draw(&Rectangle::new([(8, y0 - 16), (24, y0 - 4)], BLACK.stroke_width(1))).map_err(&e)?;
        scale.draw(&Text::new("> cap", (28, y0 - 16), (FONT, 10))).map_err(&e)?;
        scale.draw(&Text::new(format!("max {:.0} %", h.max * 100.0), (8, y1 + 12), (FONT, 10))).map_err(&e)?;
        let steps = 40;
        for k in 0..steps {
            let u = 1.0 - f64::from(k) / f64::from(steps);
            let ya = y0 + (y1 - y0) * k / steps;
            let yb = y0 + (y1 - y0) * (k + 1) / steps;
            scale.draw(&Rectangle::new([(8, ya), (24, yb)], heat_color(u).filled())).map_err(&e)?;
        }
        for (f, y) in [(1.0, y0), (0.5, (y0 + y1) / 2), (0.0, y1)] {
            scale.draw(&Text::new(format!("{:.0} %", f * 100.0), (28, y - 6), (FONT, 11))).map_err(&e)?;
        }
        scale.draw(&Text::new("of cap", (8, y0 - 34), (FONT, 11))).map_err(&e)?;
    }
    root.present().map_err(&e)?;
    Ok(())
}

/// Partitions up to which each row is labelled at its centre.
const CENTRED_ROWS: u32 = 12;

/// Where the partition axis is labelled: each row's centre when there are few, else about ten
/// evenly spaced partition numbers.
fn row_ticks(h: &Heatmap) -> Vec<f64> {
    if h.partition_bucket == 1 && h.partitions <= CENTRED_ROWS {
        return (0..h.partitions.max(1)).map(|p| f64::from(p) + 0.5).collect();
    }
    let n = h.partitions.max(1);
    let step = (n / 10).max(1);
    (0..=n).step_by(step as usize).map(f64::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heatmap_rows_merge_runs_of_one_colour() {
        // Partition 0: idle, idle, at its cap; partition 1: half, half (2-minute buckets); a
        // gap (no bucket at minute 2 of partition 1) starts a new run.
        let cells = [(0, 0, 0.0), (0, 1, 0.5), (2, 0, 0.0), (4, 0, 1.0), (4, 1, 0.5)];
        let runs = heat_runs(&cells, 2);
        assert_eq!(runs, vec![(0, 4, 0, 0), (4, 6, 0, HEAT_LEVELS), (0, 2, 1, HEAT_LEVELS / 2), (4, 6, 1, HEAT_LEVELS / 2)]);
    }

    /// The scale is the partition's cap, whatever the run's busiest cell (#46): 37 % is the
    /// same pale-to-dark shade in a run that peaks at 37 % and in one that peaks at 102 %, 100 %
    /// is always the top of the scale, and above the cap is its own colour.
    #[test]
    fn colours_are_shares_of_the_cap_not_of_the_busiest_cell() {
        let quiet = heat_runs(&[(0, 0, 0.37)], 1);
        let busy = heat_runs(&[(0, 0, 0.37), (0, 1, 1.02)], 1);
        assert_eq!(quiet[0].3, busy[0].3);
        assert_eq!(heat_level(0.37), 24, "0.37 x 64 levels");
        assert_eq!(heat_level(1.0), HEAT_LEVELS);
        assert_eq!(busy[1].3, OVER_CAP);
        assert_ne!(level_color(OVER_CAP), level_color(HEAT_LEVELS));
    }

    /// Four partitions: one label per row, at the row's centre; 40 partitions: every fourth
    /// boundary.
    #[test]
    fn few_rows_are_labelled_at_their_centres() {
        let h = |partitions| Heatmap {
            resource: "t".into(),
            dim: crate::model::Dim::Write,
            cells: Vec::new(),
            max: 1.0,
            minutes: 10,
            partitions,
            time_bucket: 1,
            partition_bucket: 1,
        };
        assert_eq!(row_ticks(&h(4)), vec![0.5, 1.5, 2.5, 3.5]);
        assert_eq!(row_ticks(&h(40)), (0..=10).map(|k| f64::from(k * 4)).collect::<Vec<_>>());
    }
}
