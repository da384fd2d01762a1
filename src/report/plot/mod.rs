//! Charts, each as SVG and PNG: capacity over time, the hot-partition heatmap, latency, cost by
//! mode, and sweeps. One function per chart, drawing on any plotters backend; the data comes
//! from the rows written to the CSV and JSON files, so `ddbsim plot` redraws a run from its
//! files and tests can check that what is plotted is what the CSV says.

mod backtest;
mod capacity;
mod cost;
mod front;
mod heatmap;
mod latency;
mod load_duration;
mod sweep;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;
use std::sync::Once;

pub use backtest::backtest;
pub use capacity::{capacity, marker_bins};
pub use cost::cost;
pub use front::front;
pub use heatmap::{heat_color, heat_runs, hot_partitions, HEAT_LEVELS};
pub use latency::latency;
pub use load_duration::{load_duration, reserve_level};
pub use sweep::sweep;

/// Chart width, pixels.
pub const WIDTH: u32 = 1200;
/// Height of one panel, pixels.
pub const PANEL_HEIGHT: u32 = 300;
/// Font of every label.
const FONT: &str = "sans-serif";
/// The bundled font (DejaVu Sans, Bitstream Vera licence) for bitmap output.
const FONT_BYTES: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");

const REQUESTED: RGBColor = RGBColor(150, 150, 150);
const CONSUMED: RGBColor = RGBColor(31, 119, 180);
const PROVISIONED: RGBColor = RGBColor(44, 160, 44);
const LIMIT: RGBColor = RGBColor(255, 127, 14);
const THROTTLED: RGBColor = RGBColor(214, 39, 40);
const EVENT: RGBColor = RGBColor(148, 103, 189);
const P50: RGBColor = RGBColor(31, 119, 180);
const P99: RGBColor = RGBColor(255, 127, 14);
const PMAX: RGBColor = RGBColor(214, 39, 40);
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
        crate::format::elapsed((m * 60.0).round().max(0.0) as u64)
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
        format!("UTC time (the run starts {})", crate::format::clock(self.start_unix_s, 0))
    }
}

fn max_of(xs: &[&[f64]]) -> f64 {
    xs.iter().flat_map(|s| s.iter()).fold(0.0f64, |a, &b| a.max(b))
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
}
