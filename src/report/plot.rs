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
const COMPONENTS: [(&str, RGBColor); 11] = [
    ("reads", RGBColor(31, 119, 180)),
    ("writes", RGBColor(255, 127, 14)),
    ("storage", RGBColor(44, 160, 44)),
    ("reserved", RGBColor(148, 103, 189)),
    ("indexes", RGBColor(140, 86, 75)),
    ("replicas", RGBColor(255, 187, 120)),
    ("streams", RGBColor(23, 190, 207)),
    ("dax", RGBColor(227, 119, 194)),
    ("backups", RGBColor(127, 127, 127)),
    ("monitoring", RGBColor(199, 199, 199)),
    ("savings plan", RGBColor(188, 189, 34)),
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

/// A capacity event or `[[at]]` action to mark on the capacity chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    /// Minute since the start.
    pub minute: f64,
    /// Table or index name.
    pub resource: String,
    /// The dimension it concerns; `None` marks both panels of the resource.
    pub dim: Option<&'static str>,
    /// What happened.
    pub label: String,
}

impl CapacityPanel {
    /// The on-demand capacity (minute, units/s) where the resource was not provisioned.
    #[must_use]
    pub fn on_demand(&self) -> Vec<(f64, f64)> {
        self.limit.iter().copied().filter(|(m, _)| !self.provisioned.iter().any(|q| q.0 == *m)).collect()
    }
}

impl Marker {
    /// The marker belongs on `p`: same resource, and its dimension or none.
    #[must_use]
    pub fn on(&self, p: &CapacityPanel) -> bool {
        self.resource == p.resource && self.dim.is_none_or(|d| d.eq_ignore_ascii_case(p.dim))
    }
}

/// A linear f64 axis whose labels and mesh lines sit at given ticks (plotters' own
/// `WithKeyPoints` loses the label formatter).
#[derive(Clone, Debug)]
pub struct Ticked {
    range: std::ops::Range<f64>,
    ticks: Vec<f64>,
}

impl Ticked {
    /// `range` with labels at `ticks`.
    #[must_use]
    pub fn new(range: std::ops::Range<f64>, ticks: Vec<f64>) -> Self {
        Self { range, ticks }
    }
}

impl plotters::coord::ranged1d::Ranged for Ticked {
    type FormatOption = plotters::coord::ranged1d::DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let span = (self.range.end - self.range.start).max(1e-12);
        limit.0 + ((v - self.range.start) / span * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<H: plotters::coord::ranged1d::KeyPointHint>(&self, hint: H) -> Vec<f64> {
        // Bold points (labels and mesh) are the ticks; plotters asks for light points with a
        // larger count, and gets none.
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.range.clone()
    }
}

/// How x values (minutes since the start) read: UTC clock time from the scenario's `start`,
/// and elapsed time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeAxis {
    /// UTC instant of the start, seconds since the Unix epoch.
    pub start_unix_s: i64,
    /// Minutes simulated.
    pub minutes: f64,
}

impl TimeAxis {
    /// `09:00` (or `03-02 09:00` when the run spans more than a day) for minute `m`.
    #[must_use]
    pub fn clock(&self, m: f64) -> String {
        let t = self.start_unix_s + (m * 60.0).round() as i64;
        match time::OffsetDateTime::from_unix_timestamp(t) {
            Ok(d) if self.minutes > 1_440.0 => format!("{:02}-{:02} {:02}:{:02}", u8::from(d.month()), d.day(), d.hour(), d.minute()),
            Ok(d) => format!("{:02}:{:02}", d.hour(), d.minute()),
            Err(_) => format!("{m:.0}"),
        }
    }

    /// `+1 h 30 min` for minute `m`.
    #[must_use]
    pub fn elapsed(&self, m: f64) -> String {
        super::verdict::elapsed((m * 60.0).round().max(0.0) as u64)
    }

    /// Tick positions, minutes, on a round step (1 minute up to days) that gives at most nine
    /// ticks over `0..x_max`: on round clock times (`clock`) or round elapsed times.
    #[must_use]
    pub fn ticks(&self, x_max: f64, clock: bool) -> Vec<f64> {
        const STEPS: [i64; 17] = [1, 2, 5, 10, 15, 30, 60, 120, 180, 240, 360, 720, 1_440, 2_880, 10_080, 20_160, 43_200];
        let span = x_max.max(1.0);
        let step =
            STEPS.into_iter().find(|s| span / *s as f64 <= 9.0).unwrap_or_else(|| ((span / 9.0 / 43_200.0).ceil() as i64).max(1) * 43_200);
        let offset = if clock { self.start_unix_s.div_euclid(60) } else { 0 };
        let first = (-offset).rem_euclid(step);
        (0..).map(|k| (first + k * step) as f64).take_while(|m| *m <= x_max).collect()
    }

    /// The x axis caption: the start's date and time.
    #[must_use]
    pub fn caption(&self) -> String {
        format!("UTC time (the run starts {})", super::verdict::clock(self.start_unix_s, 0))
    }
}

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

/// An axis label: `2.5k`, `100k`, `1.5M`, `12`, `0.5`.
#[must_use]
pub fn compact(v: f64) -> String {
    let a = v.abs();
    let trim = |x: f64, unit: &str| {
        let t = format!("{x:.1}");
        format!("{}{unit}", t.strip_suffix(".0").unwrap_or(&t))
    };
    if a >= 1e9 {
        trim(v / 1e9, "G")
    } else if a >= 1e6 {
        trim(v / 1e6, "M")
    } else if a >= 1e3 {
        trim(v / 1e3, "k")
    } else if a >= 10.0 || a == 0.0 {
        format!("{v:.0}")
    } else {
        trim(v, "")
    }
}

fn max_of(xs: &[&[f64]]) -> f64 {
    xs.iter().flat_map(|s| s.iter()).fold(0.0f64, |a, &b| a.max(b))
}

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
        let prov: Vec<f64> = p.provisioned.iter().map(|x| x.1).collect();
        let lim: Vec<f64> = p.limit.iter().map(|x| x.1).collect();
        let y_max = max_of(&[&p.requested, &p.consumed, &prov, &lim]).max(1.0) * 1.1;
        let t_max = max_of(&[&p.throttle_events]).max(1.0) * 1.25;
        let unit = if p.dim == "Read" { "RCU/s" } else { "WCU/s" };
        let (top, bottom) = area.split_vertically(area.dim_in_pixel().1 * 68 / 100);
        let mut chart = ChartBuilder::on(&top)
            .caption(format!("{} — {} capacity", p.resource, p.dim.to_lowercase()), (FONT, 18))
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
        let mine: Vec<&Marker> = markers.iter().filter(|m| m.on(p)).collect();
        let thrown: f64 = p.throttle_events.iter().sum();
        chart
            .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
            .map_err(&e)?
            .label(format!("throttle events, below ({thrown:.0})"))
            .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], THROTTLED.filled()));
        if !mine.is_empty() {
            chart
                .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
                .map_err(&e)?
                .label(format!("capacity events, below ({}; count per mark)", mine.len()))
                .legend(|(x, y)| Polygon::new(vec![(x + 3, y - 4), (x + 13, y - 4), (x + 8, y + 4)], EVENT.filled()));
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft).map_err(&e)?;

        let per =
            if p.bucket_minutes > 1.0 { format!("throttle events / {} min", p.bucket_minutes) } else { "throttle events / min".into() };
        let mut lower = ChartBuilder::on(&bottom)
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
        let bins = marker_bins(&mine, x_max, plot_px);
        let row = t_max * 0.9;
        lower
            .draw_series(
                bins.iter().map(|(m, _, _)| EmptyElement::at((*m, row)) + Polygon::new(vec![(-5, -6), (5, -6), (0, 2)], EVENT.filled())),
            )
            .map_err(&e)?;
        lower
            .draw_series(
                bins.iter().filter(|b| b.1 > 1).map(|(m, n, _)| {
                    EmptyElement::at((*m, row)) + Text::new(n.to_string(), (7, -12), (FONT, 10).into_font().color(&EVENT))
                }),
            )
            .map_err(&e)?;
    }
    root.present().map_err(&e)?;
    Ok(())
}

/// The heatmap of one resource and dimension: utilization of the partition cap per partition
/// and time bucket, the largest of each bucket.
#[derive(Clone, Debug, PartialEq)]
pub struct Heatmap {
    /// Resource name.
    pub resource: String,
    /// Reads or writes.
    pub dim: crate::model::Dim,
    /// (first minute, first partition, utilization 0-1+) of each bucket.
    pub cells: Vec<(u64, u32, f64)>,
    /// The largest utilization of any cell: the top of the colour scale.
    pub max: f64,
    /// Minutes.
    pub minutes: u64,
    /// Most partitions at any minute.
    pub partitions: u32,
    /// Minutes a cell spans.
    pub time_bucket: u64,
    /// Partitions a cell spans.
    pub partition_bucket: u32,
}

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

/// Draws load-duration curves: per resource and dimension, provisioned and consumed units per
/// second sorted from the highest minute, against the share of time at or above each level;
/// the reserved-capacity break-even share (`break_even` = [read, write], for `years`) as a
/// dashed line and the level worth reserving marked.
///
/// # Errors
/// [`ChartError`] from the backend.
pub fn load_duration<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    curves: &[super::chart_data::DurationCurve],
    break_even: [f64; 2],
    years: u32,
) -> Result<(), ChartError> {
    let e = err("load-duration");
    root.fill(&WHITE).map_err(&e)?;
    if curves.is_empty() {
        root.draw(&Text::new("no traffic", (20, 20), (FONT, 20))).map_err(&e)?;
        return Ok(());
    }
    let areas = root.split_evenly((curves.len(), 1));
    for (c, area) in curves.iter().zip(&areas) {
        let unit = if c.dim == "Read" { "RCU" } else { "WCU" };
        let share = break_even[usize::from(c.dim == "Write")];
        let y_max = c.provisioned.first().copied().unwrap_or(0.0).max(c.consumed.first().copied().unwrap_or(0.0)).max(1.0) * 1.1;
        let mut chart = ChartBuilder::on(area)
            .caption(
                format!(
                    "{} — {} load-duration curve: how much of the time capacity is at or above each level",
                    c.resource,
                    c.dim.to_lowercase()
                ),
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
        } else {
            let level = reserve_level(&c.provisioned, share) as f64;
            chart
                .draw_series(std::iter::once(PathElement::new(vec![(0.0, level), (x, level)], BLACK.stroke_width(2))))
                .map_err(&e)?
                .label(format!("reserve {} {unit}: the provisioned level held at least that long", super::verdict::grouped(level as u64)))
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], BLACK.stroke_width(2)));
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(&e)?;
    }
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
            super::verdict::percent(max_throttle)
        ),
        None => format!("no mode throttles at most {} of attempts; {unit}", super::verdict::percent(max_throttle)),
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
    for (name, color) in COMPONENTS {
        let rects: Vec<Rectangle<(f64, f64)>> = bars
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let below: f64 = b.parts.iter().take_while(|p| p.0 != name).map(|p| p.1).sum();
                let x = i as f64;
                let fill = if over(b) {
                    OVER_LIMIT.mix(0.5 + 0.1 * COMPONENTS.iter().position(|c| c.0 == name).unwrap_or(0) as f64)
                } else {
                    color.mix(1.0)
                };
                b.parts.iter().find(|p| p.0 == name).map(|p| Rectangle::new([(x - 0.35, below), (x + 0.35, below + p.1)], fill.filled()))
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
    if bars.iter().any(over) {
        chart
            .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
            .map_err(&e)?
            .label(format!("throttles over {}: does not hold", super::verdict::percent(max_throttle)))
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
        let label = format!("{} · {} throttled", super::verdict::usd(top), super::verdict::percent(b.throttled_share));
        let style = if over(b) { (FONT, 12).into_font().color(&RGBColor(120, 120, 120)) } else { (FONT, 12).into_font().color(&BLACK) };
        chart.draw_series(std::iter::once(Text::new(label, (x - 0.37, top + y_max * 0.03), style))).map_err(&e)?;
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

/// The x axis of a sweep: where each swept value sits and how it reads.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepAxis {
    /// The swept key.
    pub name: String,
    /// (position, label) of each value, in order.
    pub ticks: Vec<(f64, String)>,
    /// Positions are log2 of the values (a geometric range such as 1, 2, 4, ... 64).
    pub log: bool,
}

impl SweepAxis {
    /// The axis of `values` (as the sweep wrote them): log2 for positive numbers spanning at
    /// least 8x whose consecutive ratios are at least 1.5 (doubling sweeps), linear for other
    /// numbers, and one slot per value, in order, for anything else.
    #[must_use]
    pub fn of(name: &str, values: &[String]) -> Self {
        let mut distinct: Vec<&String> = Vec::new();
        for v in values {
            if !distinct.contains(&v) {
                distinct.push(v);
            }
        }
        let nums: Option<Vec<f64>> = distinct.iter().map(|v| v.parse::<f64>().ok().filter(|x| x.is_finite())).collect();
        let ticks = |pos: &dyn Fn(usize, f64) -> f64| -> Vec<(f64, String)> {
            distinct.iter().enumerate().map(|(i, v)| (pos(i, v.parse::<f64>().unwrap_or(0.0)), (*v).clone())).collect()
        };
        match nums {
            Some(mut n) if !n.is_empty() => {
                n.sort_by(f64::total_cmp);
                let geometric = n[0] > 0.0 && n[n.len() - 1] / n[0] >= 8.0 && n.windows(2).all(|w| w[1] / w[0] >= 1.5);
                if geometric {
                    Self { name: name.to_string(), ticks: ticks(&|_, x| x.log2()), log: true }
                } else {
                    Self { name: name.to_string(), ticks: ticks(&|_, x| x), log: false }
                }
            }
            _ => Self { name: name.to_string(), ticks: ticks(&|i, _| i as f64), log: false },
        }
    }

    /// The position of `value`.
    #[must_use]
    pub fn position(&self, value: &str) -> f64 {
        self.ticks.iter().find(|t| t.1 == value).map_or(0.0, |t| t.0)
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_labels_are_short() {
        assert_eq!(compact(2_500.0), "2.5k");
        assert_eq!(compact(100_000.0), "100k");
        assert_eq!(compact(1_500_000.0), "1.5M");
        assert_eq!(compact(12.0), "12");
        assert_eq!(compact(0.5), "0.5");
        assert_eq!(compact(0.0), "0");
    }

    #[test]
    fn ticks_fall_on_round_clock_and_elapsed_times() {
        // 2026-03-02T09:30:00Z: 20,514 days and 570 minutes after the epoch.
        let start = 20_514 * 86_400 + 570 * 60;
        let t = TimeAxis { start_unix_s: start, minutes: 2_880.0 };
        // 2,880 minutes in at most nine ticks: a 360-minute step. On the clock the first is at
        // 12:00, 150 minutes in; elapsed, at 0.
        let clock = t.ticks(2_880.0, true);
        assert_eq!(clock, vec![150.0, 510.0, 870.0, 1_230.0, 1_590.0, 1_950.0, 2_310.0, 2_670.0]);
        assert_eq!(t.clock(150.0), "03-02 12:00");
        assert_eq!(t.ticks(2_880.0, false), (0..=8).map(|k| f64::from(k) * 360.0).collect::<Vec<_>>());
        let short = TimeAxis { start_unix_s: start, minutes: 15.0 };
        // 15 minutes: a 2-minute step (15 / 2 = 7.5 ticks), clock ticks on even minutes.
        assert_eq!(short.ticks(15.0, true), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0]);
        assert_eq!(short.clock(14.0), "09:44");
    }

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

    #[test]
    fn heatmap_rows_merge_runs_of_one_colour() {
        // Partition 0: idle, idle, busiest; partition 1: half, half (2-minute buckets); a gap
        // (no bucket at minute 2 of partition 1) starts a new run.
        let cells = [(0, 0, 0.0), (0, 1, 0.4), (2, 0, 0.0), (4, 0, 0.8), (4, 1, 0.4)];
        let runs = heat_runs(&cells, 2, 0.8);
        assert_eq!(runs, vec![(0, 4, 0, 0), (4, 6, 0, HEAT_LEVELS), (0, 2, 1, HEAT_LEVELS / 2), (4, 6, 1, HEAT_LEVELS / 2)]);
    }

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

#[cfg(test)]
mod sweep_axis_tests {
    use super::SweepAxis;

    fn of(v: &[&str]) -> SweepAxis {
        SweepAxis::of("k", &v.iter().map(|s| (*s).to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn doubling_ranges_are_log_numbers_linear_and_words_in_order() {
        let a = of(&["1", "2", "4", "8", "16", "2"]);
        assert!(a.log);
        assert_eq!(a.ticks.iter().map(|t| t.0).collect::<Vec<_>>(), vec![0.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(a.position("8"), 3.0);
        let b = of(&["100", "200", "300"]);
        assert!(!b.log);
        assert_eq!(b.position("200"), 200.0);
        let c = of(&["sdk-2026", "none", "legacy"]);
        assert!(!c.log);
        assert_eq!(c.ticks, vec![(0.0, "sdk-2026".to_string()), (1.0, "none".to_string()), (2.0, "legacy".to_string())]);
    }
}
