//! `backtest.svg/png`: each recorded series of a backtest with its simulation over it, a
//! panel a series.

use super::{err, legend, ChartError, Ticked, TimeAxis, CONSUMED, FONT, REQUESTED};
use crate::study::backtest::SeriesFit;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Draws the series of a backtest starting at `start_unix_s`, one panel each, recorded in grey
/// and simulated in blue.
///
/// # Errors
/// [`ChartError`] from the backend.
pub fn backtest<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, series: &[SeriesFit], start_unix_s: i64) -> Result<(), ChartError> {
    let e = err("backtest");
    root.fill(&WHITE).map_err(&e)?;
    let panels = root.split_evenly((series.len().max(1), 1));
    for (f, area) in series.iter().zip(&panels) {
        let x_max = f.per_minute.last().map_or(1.0, |p| f64::from(p.0) + 1.0);
        let y_max = f.per_minute.iter().fold(0.0f64, |a, p| a.max(p.1).max(p.2)).max(1.0) * 1.05;
        let time = TimeAxis { start_unix_s, minutes: x_max };
        let caption =
            format!("{} {} ({} a minute)", f.resource, f.metric, if f.metric.starts_with("Provisioned") { "level" } else { "sum" });
        let mut chart = ChartBuilder::on(area)
            .caption(caption, (FONT, 16))
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(80)
            .build_cartesian_2d(Ticked::new(0f64..x_max, time.ticks(x_max, true)), 0f64..y_max)
            .map_err(&e)?;
        chart
            .configure_mesh()
            .x_label_formatter(&|m| time.clock(*m))
            .y_label_formatter(&|v| crate::format::compact(*v))
            .label_style((FONT, 12))
            .draw()
            .map_err(&e)?;
        for (name, color, pick) in [("recorded", REQUESTED, 1usize), ("simulated", CONSUMED, 2)] {
            let pts: Vec<(f64, f64)> = f.per_minute.iter().map(|p| (f64::from(p.0), if pick == 1 { p.1 } else { p.2 })).collect();
            chart
                .draw_series(LineSeries::new(pts, color.stroke_width(2)))
                .map_err(&e)?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2)));
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft).map_err(&e)?;
    }
    root.present().map_err(&e)?;
    Ok(())
}
