//! The capacity chart: units per second and throttle events per table, GSI and dimension,
//! with capacity events marked.

use super::{err, legend, max_of, ChartError, Ticked, TimeAxis, CONSUMED, EVENT, FONT, LIMIT, PROVISIONED, REQUESTED, THROTTLED};
use crate::format::compact;
use crate::model::Dim;
use crate::report::chart_data::{CapacityPanel, Marker};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Pixels a capacity-event marker and its count need: markers are binned this wide so that
/// labels never overprint.
const MARKER_BIN_PX: f64 = 36.0;

/// Capacity events binned so that each bin's marker and count fit: (minute of the bin's first
/// event, events in the bin, the label of its first event), in time order.
#[must_use]
pub fn marker_bins(markers: &[&Marker], x_max: f64, plot_px: f64) -> Vec<(f64, usize, String)> {
    let bins = (plot_px / MARKER_BIN_PX).floor().max(1.0);
    let width = x_max.max(1e-9) / bins;
    let mut out: std::collections::BTreeMap<i64, (f64, usize, String)> = std::collections::BTreeMap::new();
    for m in markers {
        let b = (m.minute / width).floor().min(bins - 1.0) as i64;
        let slot = out.entry(b).or_insert((m.minute, 0, m.label.clone()));
        if m.minute < slot.0 {
            slot.0 = m.minute;
            slot.2 = m.label.clone();
        }
        slot.1 += 1;
    }
    out.into_values().collect()
}

/// Draws the capacity chart: per table or GSI and dimension, a panel of units per second
/// (requested, provisioned or the on-demand capacity, and consumed drawn over them) on UTC
/// clock time, and below it a panel of throttle events per bucket with a row of capacity-event
/// markers (binned, with counts) on elapsed time.
///
/// # Errors
/// [`ChartError`] from the backend.
pub fn capacity<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    panels: &[CapacityPanel],
    markers: &[Marker],
    time: TimeAxis,
) -> Result<(), ChartError> {
    let e = err("capacity");
    root.fill(&WHITE).map_err(&e)?;
    if panels.is_empty() {
        root.draw(&Text::new("no traffic", (20, 20), (FONT, 20))).map_err(&e)?;
        return Ok(());
    }
    let areas = root.split_evenly((panels.len(), 1));
    for (p, area) in panels.iter().zip(&areas) {
        let x_max = p.minutes.last().copied().unwrap_or(0.0) + p.bucket_minutes;
        let (top, bottom) = area.split_vertically(area.dim_in_pixel().1 * 68 / 100);
        let mine: Vec<&Marker> = markers.iter().filter(|m| m.on(p)).collect();
        upper_panel(&top, p, mine.len(), time, x_max)?;
        lower_panel(&bottom, p, &mine, time, x_max)?;
    }
    root.present().map_err(&e)?;
    Ok(())
}

/// The upper panel of one resource and dimension: units per second on UTC clock time, with a
/// legend that counts the throttle events and the `marks` capacity events drawn below.
fn upper_panel<DB: DrawingBackend>(
    top: &DrawingArea<DB, Shift>,
    p: &CapacityPanel,
    marks: usize,
    time: TimeAxis,
    x_max: f64,
) -> Result<(), ChartError> {
    let e = err("capacity");
    let prov: Vec<f64> = p.provisioned.iter().map(|x| x.1).collect();
    let lim: Vec<f64> = p.limit.iter().map(|x| x.1).collect();
    let y_max = max_of(&[&p.requested, &p.consumed, &prov, &lim]).max(1.0) * 1.1;
    let unit = if p.dim == Dim::Read { "RCU/s" } else { "WCU/s" };
    let title = if p.no_history {
        format!("{} — {} capacity: no history", p.resource, p.dim.name())
    } else {
        format!("{} — {} capacity", p.resource, p.dim.name())
    };
    let mut chart = ChartBuilder::on(top)
        .caption(title, (FONT, 18))
        .margin(8)
        .margin_bottom(0)
        .x_label_area_size(36)
        .y_label_area_size(70)
        .margin_right(40)
        .build_cartesian_2d(Ticked::new(0f64..x_max, time.ticks(x_max, true)), 0f64..y_max)
        .map_err(&e)?;
    chart
        .configure_mesh()
        .x_desc(time.caption())
        .y_desc(unit)
        .y_label_formatter(&|v| compact(*v))
        .x_label_formatter(&|m| time.clock(*m))
        .light_line_style(WHITE.mix(0.0))
        .label_style((FONT, 12))
        .draw()
        .map_err(&e)?;
    // Each point at the middle of its bucket.
    let half = p.bucket_minutes / 2.0;
    let xy = |ys: &[f64]| p.minutes.iter().map(|m| m + half).zip(ys.iter().copied()).collect::<Vec<_>>();
    let mid = |pts: &[(f64, f64)]| pts.iter().map(|(m, v)| (m + half, *v)).collect::<Vec<_>>();
    chart
        .draw_series(LineSeries::new(xy(&p.requested), REQUESTED.stroke_width(1)))
        .map_err(&e)?
        .label("requested (every attempt)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], REQUESTED));
    if !p.provisioned.is_empty() {
        chart
            .draw_series(LineSeries::new(mid(&p.provisioned), PROVISIONED.mix(0.6).stroke_width(4)))
            .map_err(&e)?
            .label("provisioned")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], PROVISIONED.mix(0.6).stroke_width(4)));
    }
    // The on-demand capacity where the resource was on-demand (all of it, if it never was
    // provisioned).
    let on_demand = p.on_demand();
    if !on_demand.is_empty() {
        chart
            .draw_series(LineSeries::new(mid(&on_demand), LIMIT.mix(0.7).stroke_width(3)))
            .map_err(&e)?
            .label("on-demand capacity")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], LIMIT.mix(0.7).stroke_width(3)));
    }
    // Consumed last, thin, so it shows over the capacity it uses.
    chart
        .draw_series(LineSeries::new(xy(&p.consumed), CONSUMED.stroke_width(1)))
        .map_err(&e)?
        .label("consumed")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], CONSUMED.stroke_width(2)));
    let thrown: f64 = p.throttle_events.iter().sum();
    chart
        .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
        .map_err(&e)?
        .label(format!("throttle events, below ({thrown:.0})"))
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], THROTTLED.filled()));
    if marks > 0 {
        chart
            .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
            .map_err(&e)?
            .label(format!("capacity events, below ({}; count per mark)", marks))
            .legend(|(x, y)| Polygon::new(vec![(x + 3, y - 4), (x + 13, y - 4), (x + 8, y + 4)], EVENT.filled()));
    }
    legend(&mut chart, SeriesLabelPosition::UpperLeft).map_err(&e)?;
    if p.no_history {
        let (w, h) = top.dim_in_pixel();
        let note = format!(
            "no history: the CloudWatch history imported has no {} series of {}, so the scenario sends it none (an assumption)",
            p.dim.name(),
            p.resource
        );
        top.draw(&Text::new(note, (w as i32 / 2 - 330, h as i32 / 2), (FONT, 14))).map_err(&e)?;
    }
    Ok(())
}

/// The lower panel: throttle events per bucket and the capacity-event markers (binned, with
/// counts) on elapsed time.
fn lower_panel<DB: DrawingBackend>(
    bottom: &DrawingArea<DB, Shift>,
    p: &CapacityPanel,
    mine: &[&Marker],
    time: TimeAxis,
    x_max: f64,
) -> Result<(), ChartError> {
    let e = err("capacity");
    let t_max = max_of(&[&p.throttle_events]).max(1.0) * 1.25;
    let per = if p.bucket_minutes > 1.0 { format!("throttle events / {} min", p.bucket_minutes) } else { "throttle events / min".into() };
    let mut lower = ChartBuilder::on(bottom)
        .margin(8)
        .margin_top(4)
        .x_label_area_size(32)
        .y_label_area_size(70)
        .margin_right(40)
        .build_cartesian_2d(Ticked::new(0f64..x_max, time.ticks(x_max, false)), 0f64..t_max)
        .map_err(&e)?;
    lower
        .configure_mesh()
        .x_desc("elapsed")
        .y_desc(per)
        .y_labels(4)
        .y_label_formatter(&|v| compact(*v))
        .x_label_formatter(&|m| time.elapsed(*m))
        .disable_x_mesh()
        .light_line_style(WHITE.mix(0.0))
        .label_style((FONT, 11))
        .draw()
        .map_err(&e)?;
    lower
        .draw_series(
            p.minutes
                .iter()
                .zip(&p.throttle_events)
                .filter(|(_, &t)| t > 0.0)
                .map(|(&m, &t)| Rectangle::new([(m, 0.0), (m + p.bucket_minutes, t)], THROTTLED.filled())),
        )
        .map_err(&e)?;
    let plot_px = f64::from(bottom.dim_in_pixel().0.saturating_sub(86));
    let bins = marker_bins(mine, x_max, plot_px);
    let row = t_max * 0.9;
    lower
        .draw_series(
            bins.iter().map(|(m, _, _)| EmptyElement::at((*m, row)) + Polygon::new(vec![(-5, -6), (5, -6), (0, 2)], EVENT.filled())),
        )
        .map_err(&e)?;
    lower
        .draw_series(
            bins.iter()
                .filter(|b| b.1 > 1)
                .map(|(m, n, _)| EmptyElement::at((*m, row)) + Text::new(n.to_string(), (7, -12), (FONT, 10).into_font().color(&EVENT))),
        )
        .map_err(&e)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_event_markers_are_binned_so_counts_never_overprint() {
        let at = |minute: f64, label: &str| Marker { minute, resource: "T".into(), dim: None, label: label.into() };
        let ms = [at(3.0, "b"), at(1.0, "a"), at(25.0, "c"), at(99.5, "d")];
        let refs: Vec<&Marker> = ms.iter().collect();
        // 360 pixels hold ten 36-pixel bins of 10 minutes each over 100 minutes.
        let bins = marker_bins(&refs, 100.0, 360.0);
        assert_eq!(bins, vec![(1.0, 2, "a".to_string()), (25.0, 1, "c".to_string()), (99.5, 1, "d".to_string())]);
    }
}
