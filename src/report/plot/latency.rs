//! Client latency of successful requests over time.

use super::{err, legend, ChartError, Ticked, TimeAxis, FONT, P50, P99, PMAX};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Draws client latency percentiles over time (retries make the tails).
///
/// # Errors
/// [`ChartError`] from the backend.
pub fn latency<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, pts: &[(f64, f64, f64, f64)], time: TimeAxis) -> Result<(), ChartError> {
    let e = err("latency");
    root.fill(&WHITE).map_err(&e)?;
    let x_max = pts.last().map_or(1.0, |p| p.0 + 1.0);
    // A log axis, so that p50 and p99 stay readable under the max: from a power of ten below
    // the smallest positive value to one above the largest. Minutes that served nothing have no
    // point.
    let positive = pts.iter().flat_map(|p| [p.1, p.2, p.3]).filter(|v| *v > 0.0);
    let lo = positive.clone().fold(f64::INFINITY, f64::min);
    let hi = positive.fold(0.0, f64::max);
    let (lo, hi) = if hi > 0.0 { (10f64.powf(lo.log10().floor()), 10f64.powf(hi.log10().ceil()).max(lo * 10.0)) } else { (1.0, 10.0) };
    let mut chart = ChartBuilder::on(root)
        .caption("client-observed latency of successful requests (service time + backoff)", (FONT, 18))
        .margin(8)
        .x_label_area_size(36)
        .y_label_area_size(70)
        .build_cartesian_2d(Ticked::new(0f64..x_max, time.ticks(x_max, true)), (lo..hi).log_scale())
        .map_err(&e)?;
    chart
        .configure_mesh()
        .x_desc(time.caption())
        .y_desc("ms (log scale)")
        .x_label_formatter(&|m| time.clock(*m))
        .y_label_formatter(&|v| if *v >= 1.0 { format!("{v:.0}") } else { format!("{v}") })
        .label_style((FONT, 12))
        .draw()
        .map_err(&e)?;
    for (name, color, f, width) in [("max", PMAX, 3usize, 1u32), ("p99", P99, 2, 2), ("p50", P50, 1, 2)] {
        let series: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, [p.1, p.2, p.3][f - 1])).filter(|p| p.1 > 0.0).collect();
        chart
            .draw_series(LineSeries::new(series, color.stroke_width(width)))
            .map_err(&e)?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2)));
    }
    legend(&mut chart, SeriesLabelPosition::UpperLeft).map_err(&e)?;
    root.present().map_err(&e)?;
    Ok(())
}
