//! The load-duration chart: provisioned and consumed levels sorted, with the level worth
//! reserving.

use super::{err, legend, ChartError, CONSUMED, EVENT, FONT, PROVISIONED};
use crate::format::compact;
use crate::model::Dim;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The capacity to reserve from a load-duration curve: the provisioned level held at least
/// `share` of the time, rounded down to the 100-unit blocks reserved capacity is sold in.
#[must_use]
pub fn reserve_level(provisioned_desc: &[f64], share: f64) -> u64 {
    if provisioned_desc.is_empty() {
        return 0;
    }
    let n = provisioned_desc.len();
    let i = ((share * n as f64).ceil() as usize).clamp(1, n) - 1;
    (provisioned_desc[i].max(0.0) as u64 / 100) * 100
}

/// At most 1,000 points of a sorted curve, as (share of time %, value), the first and last kept.
fn curve_points(desc: &[f64]) -> Vec<(f64, f64)> {
    let n = desc.len();
    let step = n.div_ceil(1_000).max(1);
    let mut pts: Vec<(f64, f64)> = (0..n).step_by(step).map(|i| (i as f64 / n as f64 * 100.0, desc[i])).collect();
    if let Some(&last) = desc.last() {
        pts.push((100.0, last));
    }
    pts
}

/// A table whose busiest minute consumes less than this share of its provisioned capacity is
/// called over-provisioned on the chart.
const OVER_PROVISIONED: f64 = 0.2;

/// Draws load-duration curves: per resource and dimension, provisioned and consumed units per
/// second sorted from the highest minute, against the share of time at or above each level;
/// the reserved-capacity break-even share (`break_even` = [read, write], for `years`) as a
/// dashed line and the level worth reserving marked.
///
/// # Errors
/// [`ChartError`] from the backend.
pub fn load_duration<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    curves: &[crate::report::chart_data::DurationCurve],
    break_even: [f64; 2],
    years: u32,
    no_reservation: Option<&str>,
) -> Result<(), ChartError> {
    let e = err("load-duration");
    root.fill(&WHITE).map_err(&e)?;
    if curves.is_empty() {
        root.draw(&Text::new("no traffic", (20, 20), (FONT, 20))).map_err(&e)?;
        return Ok(());
    }
    let areas = root.split_evenly((curves.len(), 1));
    for (c, area) in curves.iter().zip(&areas) {
        let unit = if c.dim == Dim::Read { "RCU" } else { "WCU" };
        let share = break_even[c.dim as usize];
        let y_max = c.provisioned.first().copied().unwrap_or(0.0).max(c.consumed.first().copied().unwrap_or(0.0)).max(1.0) * 1.1;
        let mut chart = ChartBuilder::on(area)
            .caption(
                format!("{} — {} load-duration curve: how much of the time capacity is at or above each level", c.resource, c.dim.name()),
                (FONT, 16),
            )
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..100f64, 0f64..y_max)
            .map_err(&e)?;
        chart
            .configure_mesh()
            .x_desc("share of the simulated time, %")
            .y_desc(format!("{unit}/s"))
            .y_label_formatter(&|v| compact(*v))
            .label_style((FONT, 12))
            .draw()
            .map_err(&e)?;
        if !c.provisioned.is_empty() {
            chart
                .draw_series(LineSeries::new(curve_points(&c.provisioned), PROVISIONED.stroke_width(3)))
                .map_err(&e)?
                .label("provisioned")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], PROVISIONED.stroke_width(3)));
        }
        chart
            .draw_series(LineSeries::new(curve_points(&c.consumed), CONSUMED.stroke_width(2)))
            .map_err(&e)?
            .label("consumed")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], CONSUMED.stroke_width(2)));
        let x = share * 100.0;
        chart
            .draw_series(DashedLineSeries::new([(x, 0.0), (x, y_max)], 8, 5, EVENT.stroke_width(1)))
            .map_err(&e)?
            .label(format!("{years}-year reserved capacity pays for units held more than {:.0} % of the time", x))
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], EVENT));
        if c.provisioned.is_empty() {
            chart
                .draw_series(std::iter::once(Text::new(
                    "on-demand: reserved capacity applies to provisioned capacity",
                    (x + 1.0, y_max * 0.9),
                    (FONT, 12),
                )))
                .map_err(&e)?;
        } else if let Some(why) = no_reservation {
            // The reason's first clause: the rest (what to do) is in README and recommend's output.
            let short = why.split(';').next().unwrap_or(why).to_string();
            chart.draw_series(std::iter::once(Text::new(short, (1.0, y_max * 0.62), (FONT, 12)))).map_err(&e)?;
        } else {
            let level = reserve_level(&c.provisioned, share) as f64;
            chart
                .draw_series(std::iter::once(PathElement::new(vec![(0.0, level), (x, level)], BLACK.stroke_width(2))))
                .map_err(&e)?
                .label(format!("reserve {} {unit}: the provisioned level held at least that long", crate::format::grouped(level as u64)))
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], BLACK.stroke_width(2)));
        }
        // A table provisioned far above what it consumes: reserving is not the question.
        let (top_p, top_c) = (c.provisioned.first().copied().unwrap_or(0.0), c.consumed.first().copied().unwrap_or(0.0));
        if top_p > 0.0 && top_c < OVER_PROVISIONED * top_p {
            chart
                .draw_series(std::iter::once(Text::new(
                    format!(
                        "over-provisioned: the busiest minute consumed {:.1} % of the capacity; lower it before reserving any",
                        100.0 * top_c / top_p
                    ),
                    (1.0, y_max * 0.52),
                    (FONT, 12),
                )))
                .map_err(&e)?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(&e)?;
    }
    root.present().map_err(&e)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level_to_reserve_is_the_one_held_at_least_the_break_even_share() {
        // Ten minutes: 1,450 units for 3, 950 for 3, 420 for 4. Held at least 46 % of the
        // time (ceil(4.6) = 5 minutes) is 950: reserve 900 (100-unit blocks).
        let desc = [1_450.0, 1_450.0, 1_450.0, 950.0, 950.0, 950.0, 420.0, 420.0, 420.0, 420.0];
        assert_eq!(reserve_level(&desc, 0.46), 900);
        // At least 70 % (7 minutes): 420, reserve 400; at least 30 % (3 minutes): 1,400.
        assert_eq!(reserve_level(&desc, 0.70), 400);
        assert_eq!(reserve_level(&desc, 0.30), 1_400);
        assert_eq!(reserve_level(&[], 0.5), 0);
    }
}
