//! The hot-partition heatmap: each partition's use of its cap over time.

use super::{err, ChartError, Ticked, TimeAxis, FONT, WIDTH};
use crate::report::chart_data::Heatmap;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The colour of `u` in 0-1 of the scale: near-black (idle) through purple and red to pale
/// yellow (the run's busiest), after matplotlib's `inferno` as Key Visualizer draws heat on dark.
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

/// The heatmap's cells as runs: per partition row, consecutive time buckets of the same colour
/// level merged into one rectangle `(first minute, end minute, partition, level)`, so a long
/// run's mostly even rows are a few shapes, not a thousand (the 24 h headline's SVG was 30 MB).
#[must_use]
pub fn heat_runs(cells: &[(u64, u32, f64)], time_bucket: u64, top: f64) -> Vec<(u64, u64, u32, u8)> {
    let mut sorted: Vec<(u32, u64, u8)> =
        cells.iter().map(|&(m, p, u)| (p, m, ((u / top.max(1e-12)).clamp(0.0, 1.0) * f64::from(HEAT_LEVELS)).round() as u8)).collect();
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

/// Draws the hot-partition heatmaps (per resource, reads and writes apart), each on a colour
/// scale from idle to the run's busiest cell, with its legend, and the hottest keys (GSI index
/// keys included) beside them.
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
        let mut chart = ChartBuilder::on(&plot)
            .caption(format!("{} — {dim}: share of each partition's {cap}", h.resource), (FONT, 16))
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(60)
            .build_cartesian_2d(Ticked::new(0f64..x_max, time.ticks(x_max, true)), 0f64..f64::from(h.partitions.max(1)))
            .map_err(&e)?;
        chart
            .configure_mesh()
            .x_desc(time.caption())
            .y_desc(if h.partition_bucket > 1 { format!("partition ({} per row)", h.partition_bucket) } else { "partition".to_string() })
            .x_label_formatter(&|m| time.clock(*m))
            .y_labels((h.partitions as usize).clamp(1, 10) + 1)
            .y_label_formatter(&|p| if p.fract() == 0.0 { format!("{p:.0}") } else { String::new() })
            .disable_mesh()
            .label_style((FONT, 12))
            .draw()
            .map_err(&e)?;
        // Where no partition existed yet: light grey, apart from idle (near-black) cells.
        chart.plotting_area().fill(&RGBColor(235, 235, 235)).map_err(&e)?;
        let pb = f64::from(h.partition_bucket);
        let top = h.max.max(1e-9);
        chart
            .draw_series(heat_runs(&h.cells, h.time_bucket, top).into_iter().map(|(m0, m1, p, level)| {
                let (m0, m1, p) = (m0 as f64, m1 as f64, f64::from(p));
                Rectangle::new([(m0, p), (m1, p + pb)], heat_color(f64::from(level) / f64::from(HEAT_LEVELS)).filled())
            }))
            .map_err(&e)?;
        // The colour scale: a bar from 0 to the run's busiest cell, labelled in % of the cap.
        let sh = scale.dim_in_pixel().1;
        let (y0, y1) = (40i32, sh as i32 - 50);
        let steps = 40;
        for k in 0..steps {
            let u = 1.0 - f64::from(k) / f64::from(steps);
            let ya = y0 + (y1 - y0) * k / steps;
            let yb = y0 + (y1 - y0) * (k + 1) / steps;
            scale.draw(&Rectangle::new([(8, ya), (24, yb)], heat_color(u).filled())).map_err(&e)?;
        }
        for (f, y) in [(1.0, y0), (0.5, (y0 + y1) / 2), (0.0, y1)] {
            scale.draw(&Text::new(format!("{:.0} %", h.max * f * 100.0), (28, y - 6), (FONT, 11))).map_err(&e)?;
        }
        scale.draw(&Text::new("of cap", (8, y0 - 22), (FONT, 11))).map_err(&e)?;
    }
    root.present().map_err(&e)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heatmap_rows_merge_runs_of_one_colour() {
        // Partition 0: idle, idle, busiest; partition 1: half, half (2-minute buckets); a gap
        // (no bucket at minute 2 of partition 1) starts a new run.
        let cells = [(0, 0, 0.0), (0, 1, 0.4), (2, 0, 0.0), (4, 0, 0.8), (4, 1, 0.4)];
        let runs = heat_runs(&cells, 2, 0.8);
        assert_eq!(runs, vec![(0, 4, 0, 0), (4, 6, 0, HEAT_LEVELS), (0, 2, 1, HEAT_LEVELS / 2), (4, 6, 1, HEAT_LEVELS / 2)]);
    }
}
