//! A metric against a swept parameter, with confidence bands.

use super::{err, legend, ChartError, Ticked, CONSUMED, EVENT, FONT, LIMIT, PROVISIONED, THROTTLED};
use crate::format::compact;
use crate::report::chart_data::{SweepAxis, SweepLine};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Draws a metric against a swept parameter, with 95 % confidence bands, the limit as a
/// dashed line and the recommended point ringed (when given).
///
/// # Errors
/// [`ChartError`] from the backend.
pub fn sweep<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    axis: &SweepAxis,
    y_label: &str,
    lines: &[SweepLine],
    limit: Option<(f64, &str)>,
    marked: Option<(f64, &str)>,
) -> Result<(), ChartError> {
    let e = err("sweep");
    root.fill(&WHITE).map_err(&e)?;
    let xs = axis.ticks.iter().map(|t| t.0);
    let x_min = xs.clone().fold(f64::INFINITY, f64::min);
    let x_max = xs.fold(f64::NEG_INFINITY, f64::max);
    let (x_min, x_max) = if x_min.is_finite() && x_max > x_min { (x_min, x_max) } else { (x_min.min(0.0) - 0.5, x_max.max(0.0) + 0.5) };
    let pad = (x_max - x_min) * 0.04;
    let y_top = lines.iter().flat_map(|l| l.1.iter().map(|p| p.3.max(p.1))).fold(0.0, f64::max);
    let y_max = y_top.max(limit.map_or(0.0, |l| l.0)).max(1e-9) * 1.15;
    let every = axis.ticks.len().div_ceil(16).max(1);
    let shown: Vec<f64> = axis.ticks.iter().step_by(every).map(|t| t.0).collect();
    let scale = if axis.log { " (log scale)" } else { "" };
    let mut chart = ChartBuilder::on(root)
        .caption(format!("{y_label} against {} (mean and 95 % confidence band)", axis.name), (FONT, 17))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(Ticked::new(x_min - pad..x_max + pad, shown), 0f64..y_max)
        .map_err(&e)?;
    chart
        .configure_mesh()
        .x_desc(format!("{}{scale}", axis.name))
        .y_desc(y_label)
        .x_label_formatter(&|x| axis.ticks.iter().find(|t| (t.0 - x).abs() < 1e-9).map_or_else(String::new, |t| t.1.clone()))
        .y_label_formatter(&|v| compact(*v))
        .label_style((FONT, 12))
        .draw()
        .map_err(&e)?;
    let palette = [CONSUMED, LIMIT, PROVISIONED, THROTTLED, EVENT];
    for (k, (label, pts)) in lines.iter().enumerate() {
        let color = palette[k % palette.len()];
        let mut band: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, p.3.max(0.0))).collect();
        band.extend(pts.iter().rev().map(|p| (p.0, p.2.max(0.0))));
        chart.draw_series(std::iter::once(Polygon::new(band, color.mix(0.2).filled()))).map_err(&e)?;
        chart
            .draw_series(LineSeries::new(pts.iter().map(|p| (p.0, p.1)), color.stroke_width(2)))
            .map_err(&e)?
            .label(label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color));
        chart.draw_series(pts.iter().map(|p| Circle::new((p.0, p.1), 3, color.filled()))).map_err(&e)?;
    }
    if let Some((y, name)) = limit {
        chart
            .draw_series(DashedLineSeries::new([(x_min - pad, y), (x_max + pad, y)], 8, 5, THROTTLED.stroke_width(1)))
            .map_err(&e)?
            .label(name.to_string())
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], THROTTLED));
    }
    if let Some((x, name)) = marked {
        let y = lines.iter().flat_map(|l| l.1.iter()).find(|p| (p.0 - x).abs() < 1e-9).map_or(0.0, |p| p.1);
        chart
            .draw_series(std::iter::once(Circle::new((x, y), 9, BLACK.stroke_width(2))))
            .map_err(&e)?
            .label(name.to_string())
            .legend(|(x, y)| Circle::new((x + 8, y), 5, BLACK.stroke_width(2)));
    }
    legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(&e)?;
    root.present().map_err(&e)?;
    Ok(())
}
