//! Cost by capacity mode, stacked by bill group.

use super::{err, legend, ChartError, FONT};
use crate::cost::CostGroup;
use crate::format::compact;
use crate::report::chart_data::CostBar;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Grey for modes that throttle above the limit: cheap, but they do not hold.
const OVER_LIMIT: RGBColor = RGBColor(200, 200, 200);

/// Draws stacked cost (in `unit`: a month's estimate or the window's own) by mode and component, throttled share annotated; modes whose
/// throttled share is above `max_throttle` are grey (and say so), the pick is outlined and
/// named with its reason.
///
/// # Errors
/// [`ChartError`] from the backend.
pub fn cost<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, bars: &[CostBar], max_throttle: f64, unit: &str) -> Result<(), ChartError> {
    let e = err("cost");
    root.fill(&WHITE).map_err(&e)?;
    let y_max = bars.iter().map(|b| b.parts.iter().map(|p| p.1).sum::<f64>()).fold(1.0, f64::max) * 1.25;
    let n = bars.len().max(1) as f64;
    let over = |b: &CostBar| b.throttled_share > max_throttle;
    let pick = bars.iter().find(|b| b.picked);
    let caption = match pick {
        Some(p) => format!(
            "pick: {} — the cheapest mode that throttles at most {} of attempts; {unit}",
            p.mode,
            crate::format::percent(max_throttle)
        ),
        None => format!("no mode throttles at most {} of attempts; {unit}", crate::format::percent(max_throttle)),
    };
    let mut chart = ChartBuilder::on(root)
        .caption(caption, (FONT, 17))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(-0.5f64..n - 0.5, 0f64..y_max)
        .map_err(&e)?;
    let names: Vec<String> = bars.iter().map(|b| b.mode.clone()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(bars.len() * 2 + 1)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .y_desc(unit)
        .y_label_formatter(&|v| format!("${}", compact(*v)))
        .label_style((FONT, 12))
        .draw()
        .map_err(&e)?;
    for group in CostGroup::ALL {
        let (r, g, b) = group.rgb();
        let color = RGBColor(r, g, b);
        let rects: Vec<Rectangle<(f64, f64)>> = bars
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let below: f64 = b.parts.iter().take_while(|p| p.0 != group).map(|p| p.1).sum();
                let x = i as f64;
                let fill = if over(b) { OVER_LIMIT.mix(0.5 + 0.1 * group as usize as f64) } else { color.mix(1.0) };
                b.parts.iter().find(|p| p.0 == group).map(|p| Rectangle::new([(x - 0.35, below), (x + 0.35, below + p.1)], fill.filled()))
            })
            .collect();
        if !rects.is_empty() {
            chart
                .draw_series(rects)
                .map_err(&e)?
                .label(group.label())
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], color.filled()));
        }
    }
    if bars.iter().any(over) {
        chart
            .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
            .map_err(&e)?
            .label(format!("throttles over {}: does not hold", crate::format::percent(max_throttle)))
            .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], OVER_LIMIT.filled()));
    }
    for (i, b) in bars.iter().enumerate() {
        let top: f64 = b.parts.iter().map(|p| p.1).sum();
        let x = i as f64;
        if b.picked {
            chart.draw_series(std::iter::once(Rectangle::new([(x - 0.37, 0.0), (x + 0.37, top)], BLACK.stroke_width(3)))).map_err(&e)?;
            chart
                .draw_series(std::iter::once(Text::new("PICK", (x - 0.37, top + y_max * 0.09), (FONT, 15).into_font().color(&BLACK))))
                .map_err(&e)?;
        }
        let label = format!("{} · {} throttled", crate::format::usd(top), crate::format::percent(b.throttled_share));
        let style = if over(b) { (FONT, 12).into_font().color(&RGBColor(120, 120, 120)) } else { (FONT, 12).into_font().color(&BLACK) };
        chart.draw_series(std::iter::once(Text::new(label, (x - 0.37, top + y_max * 0.03), style))).map_err(&e)?;
    }
    legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(&e)?;
    root.present().map_err(&e)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every part of a bar is drawn and named in the legend: a group the palette does not know
    /// must not vanish from the chart (its dollars would be missing from the stack). Before
    /// bill lines were grouped by [`CostGroup`], a part named outside the chart's palette was
    /// silently left out (this test, with a "vector writes" part, failed then).
    #[test]
    fn every_part_of_a_bar_is_drawn() {
        let bars = vec![CostBar {
            mode: "on_demand".into(),
            parts: CostGroup::ALL.iter().map(|&g| (g, 1.0)).collect(),
            throttled_share: 0.0,
            picked: true,
        }];
        let (svg, _) = crate::draw_chart!(400, "cost", |root| cost(root, &bars, 0.001, "USD")).unwrap();
        for label in CostGroup::ALL.map(CostGroup::label) {
            assert!(svg.contains(&format!("\n{label}\n</text>")), "{label} is not in the legend");
        }
    }
}
