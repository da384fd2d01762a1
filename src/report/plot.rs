//! Charts, each as SVG and PNG: capacity over time, the hot-partition heatmap, latency, cost by
//! mode, and sweeps. One function per chart, drawing on any plotters backend; the data comes
//! from the rows written to the CSV and JSON files, so `ddbsim plot` redraws a run from its
//! files and tests can check that what is plotted is what the CSV says.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;
use std::sync::Once;

/// Chart width, pixels.
pub const WIDTH: u32 = 1200;
/// Height of one panel, pixels.
pub const PANEL_HEIGHT: u32 = 300;
/// Font of every label.
const FONT: &str = "sans-serif";
/// The bundled font (DejaVu Sans, Bitstream Vera licence) for bitmap output.
const FONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

const REQUESTED: RGBColor = RGBColor(150, 150, 150);
const CONSUMED: RGBColor = RGBColor(31, 119, 180);
const PROVISIONED: RGBColor = RGBColor(44, 160, 44);
const LIMIT: RGBColor = RGBColor(255, 127, 14);
const THROTTLED: RGBColor = RGBColor(214, 39, 40);
const EVENT: RGBColor = RGBColor(148, 103, 189);
const P50: RGBColor = RGBColor(31, 119, 180);
const P99: RGBColor = RGBColor(255, 127, 14);
const PMAX: RGBColor = RGBColor(214, 39, 40);
const COMPONENTS: [(&str, RGBColor); 5] = [
    ("reads", RGBColor(31, 119, 180)),
    ("writes", RGBColor(255, 127, 14)),
    ("storage", RGBColor(44, 160, 44)),
    ("reserved", RGBColor(148, 103, 189)),
    ("indexes", RGBColor(140, 86, 75)),
];

/// Draws the series labels of `chart` at `pos`, in the style of every chart.
fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    pos: SeriesLabelPosition,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    chart.configure_series_labels().position(pos).background_style(WHITE.mix(0.85)).border_style(BLACK).label_font((FONT, 12)).draw()
}

/// A chart could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("chart {chart}: {message}")]
pub struct ChartError {
    /// Which chart.
    pub chart: &'static str,
    /// What went wrong.
    pub message: String,
}

fn err<E: std::fmt::Debug>(chart: &'static str) -> impl Fn(E) -> ChartError {
    move |e| ChartError { chart, message: format!("{e:?}") }
}

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bundled font is valid; if registration failed, bitmaps would have no text but
        // SVGs would be unaffected.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES);
    });
}

/// Capacity-event markers: (minute, resource, label).
pub type Marker = (f64, String, String);

/// What the capacity chart draws for one resource and dimension, in units per second.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CapacityPanel {
    /// Resource name.
    pub resource: String,
    /// "Read" or "Write".
    pub dim: &'static str,
    /// Minutes each point stands for (1 up to 1,000 minutes of run).
    pub bucket_minutes: f64,
    /// First minute of each bucket.
    pub minutes: Vec<f64>,
    /// Requested units per second (every attempt).
    pub requested: Vec<f64>,
    /// Consumed units per second.
    pub consumed: Vec<f64>,
    /// Provisioned units at the buckets the resource was provisioned: (minute, units).
    pub provisioned: Vec<(f64, f64)>,
    /// Table-level limit, units per second: (minute, units).
    pub limit: Vec<(f64, f64)>,
    /// Throttle events per bucket.
    pub throttle_events: Vec<f64>,
}

fn max_of(xs: &[&[f64]]) -> f64 {
    xs.iter().flat_map(|s| s.iter()).fold(0.0f64, |a, &b| a.max(b))
}

/// Draws the capacity chart: per table or GSI and dimension, requested, consumed, provisioned
/// and the capacity limit (units/s), throttle events on a second axis, capacity events marked.
///
/// # Errors
/// [`ChartError`] from the backend.
pub fn capacity<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, panels: &[CapacityPanel], markers: &[Marker]) -> Result<(), ChartError> {
    let e = err("capacity");
    root.fill(&WHITE).map_err(&e)?;
    if panels.is_empty() {
        root.draw(&Text::new("no traffic", (20, 20), (FONT, 20))).map_err(&e)?;
        return Ok(());
    }
    let areas = root.split_evenly((panels.len(), 1));
    for (p, area) in panels.iter().zip(&areas) {
        let x_max = p.minutes.last().copied().unwrap_or(0.0) + p.bucket_minutes;
        let prov: Vec<f64> = p.provisioned.iter().map(|x| x.1).collect();
        let lim: Vec<f64> = p.limit.iter().map(|x| x.1).collect();
        let y_max = max_of(&[&p.requested, &p.consumed, &prov, &lim]).max(1.0) * 1.1;
        let t_max = max_of(&[&p.throttle_events]).max(1.0) * 1.1;
        let unit = if p.dim == "Read" { "RCU/s" } else { "WCU/s" };
        let mut chart = ChartBuilder::on(area)
            .caption(format!("{} — {} capacity", p.resource, p.dim.to_lowercase()), (FONT, 18))
            .margin(8)
            .x_label_area_size(32)
            .y_label_area_size(70)
            .right_y_label_area_size(70)
            .build_cartesian_2d(0f64..x_max, 0f64..y_max)
            .map_err(&e)?
            .set_secondary_coord(0f64..x_max, 0f64..t_max);
        chart.configure_mesh().x_desc("minute").y_desc(unit).label_style((FONT, 12)).draw().map_err(&e)?;
        let per =
            if p.bucket_minutes > 1.0 { format!("throttle events / {} min", p.bucket_minutes) } else { "throttle events / min".into() };
        chart.configure_secondary_axes().y_desc(per).label_style((FONT, 12)).draw().map_err(&e)?;
        let xy = |ys: &[f64]| p.minutes.iter().copied().zip(ys.iter().copied()).collect::<Vec<_>>();
        chart
            .draw_secondary_series(
                p.minutes
                    .iter()
                    .zip(&p.throttle_events)
                    .filter(|(_, &t)| t > 0.0)
                    .map(|(&m, &t)| Rectangle::new([(m, 0.0), (m + p.bucket_minutes, t)], THROTTLED.mix(0.35).filled())),
            )
            .map_err(&e)?
            .label("throttle events")
            .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], THROTTLED.mix(0.35).filled()));
        chart
            .draw_series(LineSeries::new(xy(&p.requested), REQUESTED.stroke_width(2)))
            .map_err(&e)?
            .label("requested")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], REQUESTED));
        chart
            .draw_series(LineSeries::new(xy(&p.consumed), CONSUMED.stroke_width(2)))
            .map_err(&e)?
            .label("consumed")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], CONSUMED));
        if !p.provisioned.is_empty() {
            chart
                .draw_series(LineSeries::new(p.provisioned.iter().copied(), PROVISIONED.stroke_width(2)))
                .map_err(&e)?
                .label("provisioned")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], PROVISIONED));
        }
        // The on-demand capacity where the resource was on-demand (all of it, if it never was
        // provisioned).
        let on_demand: Vec<(f64, f64)> = p.limit.iter().copied().filter(|(m, _)| !p.provisioned.iter().any(|q| q.0 == *m)).collect();
        if !on_demand.is_empty() {
            chart
                .draw_series(LineSeries::new(on_demand, LIMIT.stroke_width(2)))
                .map_err(&e)?
                .label("on-demand capacity")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], LIMIT));
        }
        for (m, res, label) in markers.iter().filter(|m| m.1 == p.resource) {
            let _ = res;
            chart.draw_series(std::iter::once(PathElement::new(vec![(*m, 0.0), (*m, y_max)], EVENT.stroke_width(1)))).map_err(&e)?;
            chart
                .draw_series(std::iter::once(Text::new(label.clone(), (*m, y_max * 0.95), (FONT, 11).into_font().color(&EVENT))))
                .map_err(&e)?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft).map_err(&e)?;
    }
    root.present().map_err(&e)?;
    Ok(())
}

/// The heatmap of one resource: utilization of the partition cap (the larger of read and
/// write) per partition and minute, the largest of each bucket.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Heatmap {
    /// Resource name.
    pub resource: String,
    /// (first minute, first partition, utilization 0-1+) of each bucket.
    pub cells: Vec<(u64, u32, f64)>,
    /// Minutes.
    pub minutes: u64,
    /// Most partitions at any minute.
    pub partitions: u32,
    /// Minutes a cell spans.
    pub time_bucket: u64,
    /// Partitions a cell spans.
    pub partition_bucket: u32,
}

/// White (idle) through yellow to red (at the cap) and dark red (throttling demand above it).
fn heat_color(u: f64) -> RGBColor {
    let u = u.clamp(0.0, 1.0);
    if u < 0.5 {
        let t = u / 0.5;
        RGBColor(255, 255, (255.0 * (1.0 - t)) as u8)
    } else {
        let t = (u - 0.5) / 0.5;
        RGBColor(255 - (100.0 * t) as u8, (255.0 * (1.0 - t)) as u8, 0)
    }
}

/// Draws the hot-partition heatmaps, with the hottest keys listed beside them.
///
/// # Errors
/// [`ChartError`] from the backend.
pub fn hot_partitions<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, maps: &[Heatmap], hot_keys: &[String]) -> Result<(), ChartError> {
    let e = err("hot-partitions");
    root.fill(&WHITE).map_err(&e)?;
    let (left, right) = root.split_horizontally(WIDTH as i32 - 300);
    right.draw(&Text::new("hottest keys (requests/s)", (10, 30), (FONT, 15))).map_err(&e)?;
    for (i, k) in hot_keys.iter().enumerate() {
        right.draw(&Text::new(k.clone(), (10, 60 + 22 * i as i32), (FONT, 12))).map_err(&e)?;
    }
    right.draw(&Text::new("colour: share of the partition cap", (10, 60 + 22 * hot_keys.len() as i32 + 20), (FONT, 12))).map_err(&e)?;
    for (k, u) in [0.0, 0.25, 0.5, 0.75, 1.0].iter().enumerate() {
        let y = 60 + 22 * hot_keys.len() as i32 + 40 + 20 * k as i32;
        right.draw(&Rectangle::new([(10, y), (30, y + 14)], heat_color(*u).filled())).map_err(&e)?;
        right.draw(&Text::new(format!("{:.0} %", u * 100.0), (36, y), (FONT, 12))).map_err(&e)?;
    }
    if maps.is_empty() {
        left.draw(&Text::new("no partition data (run without --no-partitions)", (20, 20), (FONT, 16))).map_err(&e)?;
        return Ok(());
    }
    let areas = left.split_evenly((maps.len(), 1));
    for (h, area) in maps.iter().zip(&areas) {
        let mut chart = ChartBuilder::on(area)
            .caption(format!("{} — utilization of each partition's cap", h.resource), (FONT, 18))
            .margin(8)
            .x_label_area_size(32)
            .y_label_area_size(60)
            .build_cartesian_2d(0u64..h.minutes.max(1), 0u32..h.partitions.max(1))
            .map_err(&e)?;
        chart.configure_mesh().x_desc("minute").y_desc("partition").disable_mesh().label_style((FONT, 12)).draw().map_err(&e)?;
        let (tb, pb) = (h.time_bucket, h.partition_bucket);
        chart
            .draw_series(h.cells.iter().map(|&(m, p, u)| Rectangle::new([(m, p), (m + tb, p + pb)], heat_color(u).filled())))
            .map_err(&e)?;
    }
    root.present().map_err(&e)?;
    Ok(())
}

/// Draws client latency percentiles over time (retries make the tails).
///
/// # Errors
/// [`ChartError`] from the backend.
pub fn latency<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, pts: &[(f64, f64, f64, f64)]) -> Result<(), ChartError> {
    let e = err("latency");
    root.fill(&WHITE).map_err(&e)?;
    let x_max = pts.last().map_or(1.0, |p| p.0 + 1.0);
    let y_max = pts.iter().map(|p| p.3).fold(1.0, f64::max) * 1.1;
    let mut chart = ChartBuilder::on(root)
        .caption("client-observed latency of successful requests (service time + backoff)", (FONT, 18))
        .margin(8)
        .x_label_area_size(32)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..x_max, 0f64..y_max)
        .map_err(&e)?;
    chart.configure_mesh().x_desc("minute").y_desc("ms").label_style((FONT, 12)).draw().map_err(&e)?;
    for (name, color, f) in [("p50", P50, 1usize), ("p99", P99, 2), ("max", PMAX, 3)] {
        let series: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, [p.1, p.2, p.3][f - 1])).collect();
        chart
            .draw_series(LineSeries::new(series, color.stroke_width(2)))
            .map_err(&e)?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color));
    }
    legend(&mut chart, SeriesLabelPosition::UpperLeft).map_err(&e)?;
    root.present().map_err(&e)?;
    Ok(())
}

/// One bar of the cost chart: mode, monthly USD by component, throttled share.
#[derive(Clone, Debug, PartialEq)]
pub struct CostBar {
    /// Mode.
    pub mode: String,
    /// (component, monthly USD), stacked in order.
    pub parts: Vec<(String, f64)>,
    /// Throttled share of attempts.
    pub throttled_share: f64,
    /// Picked.
    pub picked: bool,
}

/// Draws stacked monthly cost by mode and component, throttled share annotated.
///
/// # Errors
/// [`ChartError`] from the backend.
pub fn cost<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, bars: &[CostBar]) -> Result<(), ChartError> {
    let e = err("cost");
    root.fill(&WHITE).map_err(&e)?;
    let y_max = bars.iter().map(|b| b.parts.iter().map(|p| p.1).sum::<f64>()).fold(1.0, f64::max) * 1.2;
    let n = bars.len().max(1) as f64;
    let mut chart = ChartBuilder::on(root)
        .caption("monthly cost by capacity mode (extrapolated from the simulated window)", (FONT, 18))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(-0.5f64..n - 0.5, 0f64..y_max)
        .map_err(&e)?;
    let names: Vec<String> = bars.iter().map(|b| if b.picked { format!("{} *", b.mode) } else { b.mode.clone() }).collect();
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
        .y_desc("USD per month")
        .label_style((FONT, 11))
        .draw()
        .map_err(&e)?;
    for (name, color) in COMPONENTS {
        let rects: Vec<Rectangle<(f64, f64)>> = bars
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let below: f64 = b.parts.iter().take_while(|p| p.0 != name).map(|p| p.1).sum();
                let x = i as f64;
                b.parts.iter().find(|p| p.0 == name).map(|p| Rectangle::new([(x - 0.35, below), (x + 0.35, below + p.1)], color.filled()))
            })
            .collect();
        if !rects.is_empty() {
            chart
                .draw_series(rects)
                .map_err(&e)?
                .label(name)
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], color.filled()));
        }
    }
    for (i, b) in bars.iter().enumerate() {
        let top: f64 = b.parts.iter().map(|p| p.1).sum();
        chart
            .draw_series(std::iter::once(Text::new(
                format!("${top:.0} · {:.2}% throttled", b.throttled_share * 100.0),
                (i as f64 - 0.35, top + y_max * 0.02),
                (FONT, 11),
            )))
            .map_err(&e)?;
    }
    legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(&e)?;
    root.present().map_err(&e)?;
    Ok(())
}

/// One candidate of `recommend` on the front chart.
#[derive(Clone, Debug)]
pub struct FrontPoint {
    /// Mode: `on_demand`, `provisioned`, `autoscaling`, `reserved`.
    pub mode: &'static str,
    /// Throttled share of attempts (a least value when not complete).
    pub throttled_share: f64,
    /// Monthly cost, USD.
    pub monthly_usd: f64,
    /// Simulated to its end.
    pub complete: bool,
    /// On the cost-vs-throttling front.
    pub on_front: bool,
    /// The recommendation.
    pub picked: bool,
}

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
    let modes = [("on_demand", CONSUMED), ("provisioned", PROVISIONED), ("autoscaling", EVENT), ("reserved", LIMIT)];
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
            .label(mode.replace('_', "-"))
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

/// One line of the sweep chart: label, points (x, mean, ci low, ci high).
pub type SweepLine = (String, Vec<(f64, f64, f64, f64)>);

/// Draws a metric against a swept parameter, with 95 % confidence bands.
///
/// # Errors
/// [`ChartError`] from the backend.
pub fn sweep<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    x_label: &str,
    y_label: &str,
    lines: &[SweepLine],
) -> Result<(), ChartError> {
    let e = err("sweep");
    root.fill(&WHITE).map_err(&e)?;
    let xs = lines.iter().flat_map(|l| l.1.iter().map(|p| p.0));
    let x_min = xs.clone().fold(f64::INFINITY, f64::min);
    let x_max = xs.fold(f64::NEG_INFINITY, f64::max);
    let (x_min, x_max) = if x_min.is_finite() && x_max > x_min { (x_min, x_max) } else { (0.0, 1.0) };
    let y_max = lines.iter().flat_map(|l| l.1.iter().map(|p| p.3)).fold(0.0, f64::max).max(1e-9) * 1.1;
    let mut chart = ChartBuilder::on(root)
        .caption(format!("{y_label} against {x_label} (mean and 95 % confidence band)"), (FONT, 18))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(x_min..x_max, 0f64..y_max)
        .map_err(&e)?;
    chart.configure_mesh().x_desc(x_label).y_desc(y_label).label_style((FONT, 12)).draw().map_err(&e)?;
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
    legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(&e)?;
    root.present().map_err(&e)?;
    Ok(())
}

/// A chart body on the SVG backend.
pub type SvgDraw<'a> = dyn Fn(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), ChartError> + 'a;
/// The same body on the bitmap backend.
pub type PngDraw<'a> = dyn Fn(&DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), ChartError> + 'a;

/// Draws `f` as an SVG document and a PNG image of `(WIDTH, height)`.
///
/// # Errors
/// [`ChartError`] from either backend or the PNG encoder.
pub fn render(height: u32, chart: &'static str, f: &SvgDraw<'_>, g: &PngDraw<'_>) -> Result<(String, Vec<u8>), ChartError> {
    register_font();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        f(&root)?;
    }
    let mut buf = vec![0u8; (WIDTH * height * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (WIDTH, height)).into_drawing_area();
        g(&root)?;
    }
    let mut png_bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut png_bytes, WIDTH, height);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().map_err(|e| ChartError { chart, message: e.to_string() })?;
        w.write_image_data(&buf).map_err(|e| ChartError { chart, message: e.to_string() })?;
    }
    Ok((svg, png_bytes))
}
