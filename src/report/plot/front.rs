//! `recommend`'s candidates: monthly cost against throttled share.

use super::{err, legend, ChartError, CONSUMED, EVENT, FONT, LIMIT, PROVISIONED, THROTTLED};
use crate::report::chart_data::FrontPoint;
use crate::study::recommend::Mode;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Draws `recommend`'s candidates: monthly cost against throttled share (log scale; a share
/// of 0 is drawn at a hundredth of the limit), by mode, the front joined, the limit and the
/// pick marked. Candidates given up are hollow: their share is a least value.
///
/// # Errors
/// [`ChartError`] from the backend.
pub fn front<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, pts: &[FrontPoint], limit: f64) -> Result<(), ChartError> {
    let e = err("recommend");
    root.fill(&WHITE).map_err(&e)?;
    // A hundredth of the limit, in percent.
    let floor = limit.max(1e-8);
    let x = |p: &FrontPoint| (p.throttled_share * 100.0).max(floor);
    let x_max = pts.iter().map(x).fold(limit * 100.0 * 10.0, f64::max) * 1.5;
    let y_max = pts.iter().map(|p| p.monthly_usd).fold(1.0, f64::max) * 1.1;
    let mut chart = ChartBuilder::on(root)
        .caption("recommend: monthly cost against throttling, every candidate (costs are estimates)", (FONT, 18))
        .margin(10)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .build_cartesian_2d((floor * 0.7..x_max).log_scale(), 0f64..y_max)
        .map_err(&e)?;
    chart
        .configure_mesh()
        .x_desc(format!("throttled share of attempts, % (log; none drawn at {floor:.4} %)"))
        .y_desc("USD per month")
        .x_label_formatter(&|v| format!("{v}"))
        .label_style((FONT, 12))
        .draw()
        .map_err(&e)?;
    chart
        .draw_series(std::iter::once(PathElement::new(vec![(limit * 100.0, 0.0), (limit * 100.0, y_max)], LIMIT.stroke_width(2))))
        .map_err(&e)?
        .label(format!("limit {:.3} %", limit * 100.0))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], LIMIT.stroke_width(2)));
    let mut front: Vec<&FrontPoint> = pts.iter().filter(|p| p.on_front).collect();
    front.sort_by(|a, b| a.monthly_usd.total_cmp(&b.monthly_usd));
    chart
        .draw_series(LineSeries::new(front.iter().map(|p| (x(p), p.monthly_usd)), BLACK.mix(0.5).stroke_width(1)))
        .map_err(&e)?
        .label("front: none cheaper throttles less")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], BLACK.mix(0.5)));
    let modes = [(Mode::OnDemand, CONSUMED), (Mode::Provisioned, PROVISIONED), (Mode::Autoscaling, EVENT), (Mode::Reserved, LIMIT)];
    for (mode, color) in modes {
        let of: Vec<&FrontPoint> = pts.iter().filter(|p| p.mode == mode).collect();
        if of.is_empty() {
            continue;
        }
        chart
            .draw_series(of.iter().map(|p| {
                let style = if p.complete { color.filled() } else { color.stroke_width(1) };
                Circle::new((x(p), p.monthly_usd), 5, style)
            }))
            .map_err(&e)?
            .label(mode.name().replace('_', "-"))
            .legend(move |(x, y)| Circle::new((x + 8, y), 5, color.filled()));
    }
    if pts.iter().any(|p| !p.complete) {
        chart
            .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
            .map_err(&e)?
            .label("hollow: given up, throttles at least this")
            .legend(|(x, y)| Circle::new((x + 8, y), 5, BLACK.stroke_width(1)));
    }
    for p in pts.iter().filter(|p| p.picked) {
        let at = (x(p), p.monthly_usd);
        chart.draw_series(std::iter::once(Cross::new(at, 9, THROTTLED.stroke_width(3)))).map_err(&e)?;
        chart
            .draw_series(std::iter::once(Text::new(format!("recommended: ${:.2} a month", p.monthly_usd), (at.0 * 1.25, at.1), (FONT, 13))))
            .map_err(&e)?;
    }
    legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(&e)?;
    root.present().map_err(&e)?;
    Ok(())
}
