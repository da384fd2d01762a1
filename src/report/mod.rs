//! Outputs: what the terminal shows and the files a command writes. Reads finished results
//! only; never runs a simulation.
//!
//! Every result renders through [`Render`]: its terminal text and its [`Artifact`]s (a name and
//! bytes), which [`Output::write_all`] writes as one folder, in one place. A run's files come from
//! [`RunReport`]: `summary.json`, `timeseries.csv`, `partitions.csv`, and unless charts are off,
//! the charts and `report.html`.

pub mod account;
pub mod backtest;
pub mod chart_data;
pub mod check;
pub mod compare;
pub mod diff;
pub mod diff_set;
pub mod emit;
pub mod html;
pub mod metric;
pub mod plot;
pub mod recommend;
pub mod replications;
pub mod summary;
pub mod sweep;
pub mod tables;
pub mod text;
pub use summary::verdict;

use crate::output::{OutputDir, OutputError};
use std::path::{Path, PathBuf};

pub use metric::Metric;
pub use summary::Summary;
pub use tables::{PartitionRow, SeriesRow};

/// The contents of a file: bytes, or a writer that streams them (a long run's CSV files are
/// written row by row, never held whole).
enum Content<'a> {
    Bytes(Vec<u8>),
    Stream(Box<WriteFn<'a>>),
}

/// Writes a file's contents to a writer.
type WriteFn<'a> = dyn Fn(&mut dyn std::io::Write) -> std::io::Result<()> + 'a;

/// A file a command writes: its name in the output folder and its contents.
pub struct Artifact<'a> {
    /// File name.
    pub name: String,
    content: Content<'a>,
}

impl std::fmt::Debug for Artifact<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Artifact").field("name", &self.name).finish_non_exhaustive()
    }
}

impl crate::output::OutputFile for Artifact<'_> {
    fn name(&self) -> &str {
        &self.name
    }

    fn write_to(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        Artifact::write_to(self, w)
    }
}

impl<'a> Artifact<'a> {
    /// A file named `name` with these bytes.
    #[must_use]
    pub fn new(name: &str, bytes: impl Into<Vec<u8>>) -> Self {
        Self { name: name.to_string(), content: Content::Bytes(bytes.into()) }
    }

    /// A file named `name` whose contents `write` streams.
    #[must_use]
    pub fn stream(name: &str, write: impl Fn(&mut dyn std::io::Write) -> std::io::Result<()> + 'a) -> Self {
        Self { name: name.to_string(), content: Content::Stream(Box::new(write)) }
    }

    /// Writes the contents into `w`.
    ///
    /// # Errors
    /// An I/O error of `w`.
    pub fn write_to(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        match &self.content {
            Content::Bytes(b) => w.write_all(b),
            Content::Stream(f) => f(w),
        }
    }

    /// The contents, in memory.
    ///
    /// # Errors
    /// An error of a streaming writer.
    pub fn to_bytes(&self) -> std::io::Result<Vec<u8>> {
        let mut v = Vec::new();
        self.write_to(&mut v)?;
        Ok(v)
    }
}

/// A claimed output folder: locked against other ddbsim runs from the claim until it is
/// dropped, written once, whole ([`crate::output`]).
#[derive(Debug)]
pub struct Output(OutputDir);

impl Output {
    /// Claims `dir` before a command spends time running: it can be written, no other run
    /// holds it, and anything in it is ddbsim's.
    ///
    /// # Errors
    /// [`OutputError`] naming the folder and why.
    pub fn claim(dir: &Path) -> Result<Self, OutputError> {
        Ok(Self(OutputDir::claim(dir)?))
    }

    /// The folder.
    #[must_use]
    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// Writes `artifacts` as the folder's whole contents, replacing the previous output at once
    /// (or leaving it as it was if anything fails); returns their paths.
    ///
    /// # Errors
    /// [`OutputError`] naming the folder or file that could not be written.
    pub fn write_all(&self, artifacts: &[Artifact<'_>]) -> Result<Vec<PathBuf>, OutputError> {
        self.0.write(artifacts, false)
    }

    /// Writes `artifacts` over the previous output, keeping its other files (`ddbsim plot`).
    ///
    /// # Errors
    /// As [`Output::write_all`].
    pub fn update(&self, artifacts: &[Artifact<'_>]) -> Result<Vec<PathBuf>, OutputError> {
        self.0.write(artifacts, true)
    }
}

/// A result that shows itself on the terminal and writes files.
pub trait Render {
    /// What the terminal shows.
    fn text(&self) -> String;
    /// The files it writes.
    ///
    /// # Errors
    /// [`ReportError`] when a chart cannot be drawn.
    fn artifacts(&self) -> Result<Vec<Artifact<'_>>, ReportError>;
}

/// Pretty JSON with a trailing newline (for commands that print it).
#[must_use]
pub fn json_bytes<T: serde::Serialize + ?Sized>(v: &T) -> Vec<u8> {
    json(v)
}

/// Pretty JSON with a trailing newline.
pub(crate) fn json<T: serde::Serialize + ?Sized>(v: &T) -> Vec<u8> {
    let mut s = serde_json::to_string_pretty(v).expect("plain data serialises");
    s.push('\n');
    s.into_bytes()
}

/// Draws a chart with one body for both backends.
#[macro_export]
#[doc(hidden)]
macro_rules! draw_chart {
    ($height:expr, $name:expr, |$root:ident| $body:expr) => {
        $crate::report::plot::render($height, $name, &|$root| $body, &|$root| $body)
    };
}

/// Something the charts or the report could not do. Fatal for the command.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// Writing failed (exit 2).
    #[error(transparent)]
    Output(#[from] OutputError),
    /// Drawing failed (exit 2).
    #[error(transparent)]
    Chart(#[from] plot::ChartError),
    /// The files of an earlier run are missing or malformed (exit 1).
    #[error("{0}")]
    Input(String),
}

/// Where a run's rows come from: the run in memory, or the CSV files of its output folder.
enum Rows<'a> {
    Run(&'a crate::engine::RunResult),
    Files(PathBuf),
}

impl Rows<'_> {
    /// Each `timeseries.csv` row, in order.
    fn series(&self, f: &mut dyn FnMut(&SeriesRow) -> Result<(), ReportError>) -> Result<(), ReportError> {
        match self {
            Rows::Run(r) => {
                let mut res = Ok(());
                tables::for_each_series(r, |row| {
                    if res.is_ok() {
                        res = f(&row);
                    }
                });
                res
            }
            Rows::Files(dir) => read_rows(dir, "timeseries.csv", |row: &SeriesRow| row.value.is_finite(), f),
        }
    }

    /// Each `partitions.csv` row, in order.
    fn partitions(&self, f: &mut dyn FnMut(&PartitionRow) -> Result<(), ReportError>) -> Result<(), ReportError> {
        match self {
            Rows::Run(r) => {
                let mut res = Ok(());
                tables::for_each_partition(r, |row| {
                    if res.is_ok() {
                        res = f(&row);
                    }
                });
                res
            }
            Rows::Files(dir) => {
                let finite = |r: &PartitionRow| {
                    [r.consumed_rcu, r.consumed_wcu, r.read_utilization, r.write_utilization].iter().all(|x| x.is_finite())
                };
                read_rows(dir, "partitions.csv", finite, f)
            }
        }
    }
}

/// The largest `timeseries.csv` or `partitions.csv` `plot` reads: a run the memory guard admits
/// (1 GiB) writes less (a partition-minute row is about 60 bytes, 16 in memory).
const MAX_ROWS_FILE_BYTES: u64 = 4 << 30;

/// Reads the rows of CSV file `name` in `dir` one by one; a row that fails `ok` is refused with
/// its line (a chart cannot scale an axis to infinity).
fn read_rows<T: serde::de::DeserializeOwned>(
    dir: &Path,
    name: &str,
    ok: impl Fn(&T) -> bool,
    f: &mut dyn FnMut(&T) -> Result<(), ReportError>,
) -> Result<(), ReportError> {
    let path = dir.join(name);
    let bad = |m: String| ReportError::Input(format!("{}: {m}", path.display()));
    let (file, meta) =
        crate::input::open_regular(&path, name).map_err(|e| bad(format!("{e} (is this the output folder of `ddbsim run`?)")))?;
    // Streamed row by row; a file larger than any run writes is refused before it is read.
    if meta.len() > MAX_ROWS_FILE_BYTES {
        return Err(bad(format!(
            "{} bytes; ddbsim plots at most {} GiB of one (a run within the memory guard writes less)",
            meta.len(),
            MAX_ROWS_FILE_BYTES >> 30
        )));
    }
    let mut rdr = csv::Reader::from_reader(std::io::BufReader::new(file));
    for (i, row) in rdr.deserialize::<T>().enumerate() {
        let row = row.map_err(|e| bad(e.to_string()))?;
        if !ok(&row) {
            return Err(bad(format!("line {}: a value is not a finite number", i + 2)));
        }
        f(&row)?;
    }
    Ok(())
}

/// A run's outputs: the summary, the rows of its CSV files (streamed from the run or from the
/// files), and its charts.
pub struct RunReport<'a> {
    /// `summary.json`.
    pub summary: Summary,
    rows: Rows<'a>,
    /// Draw the charts and `report.html`.
    pub charts: bool,
}

impl<'a> RunReport<'a> {
    /// The report of run `r` of `sc`, billed at `catalog` prices.
    #[must_use]
    pub fn new(sc: &crate::scenario::Scenario, r: &'a crate::engine::RunResult, catalog: &crate::cost::Catalog, charts: bool) -> Self {
        Self { summary: Summary::new(sc, r, catalog), rows: Rows::Run(r), charts }
    }

    /// The report of an earlier run, from the files in its output folder.
    ///
    /// # Errors
    /// [`ReportError::Input`] naming a missing or malformed file.
    pub fn read(dir: &Path) -> Result<Self, ReportError> {
        let path = dir.join("summary.json");
        let text = crate::input::read_text_capped(&path, crate::input::OWN_OUTPUT_BYTES, "summary.json")
            .map_err(|e| ReportError::Input(format!("{}: {e} (is this the output folder of `ddbsim run`?)", path.display())))?;
        let summary: Summary = serde_json::from_str(&text).map_err(|e| ReportError::Input(format!("{}: {e}", path.display())))?;
        Ok(Self { summary, rows: Rows::Files(dir.to_path_buf()), charts: true })
    }

    /// Markers for capacity events and `[[at]]` actions.
    fn markers(&self) -> Vec<chart_data::Marker> {
        use crate::model::CapacityAction;
        let s = &self.summary;
        let mut m = Vec::new();
        for e in &s.capacity_events {
            if matches!(e.action, CapacityAction::PartitionsAdded | CapacityAction::HeatSplitSkipped) {
                continue;
            }
            let dim = e.dimension.map_or("", |d| d.name());
            let label = if e.old == e.new { e.action.name().to_string() } else { format!("{} {dim} {}", e.action.name(), e.new) };
            m.push(chart_data::Marker { minute: e.time_s as f64 / 60.0, resource: e.resource.clone(), dim: e.dimension, label });
        }
        let table = s.resources.first().map(|r| r.name.clone()).unwrap_or_default();
        for (t, label) in &s.timeline {
            m.push(chart_data::Marker { minute: *t as f64 / 60.0, resource: table.clone(), dim: None, label: format!("[[at]] {label}") });
        }
        m
    }

    /// The x axis of the time charts.
    fn time_axis(&self) -> plot::TimeAxis {
        plot::TimeAxis { start_unix_s: self.summary.start_unix_s, minutes: self.summary.duration_s as f64 / 60.0 }
    }

    /// The charts (capacity, hot partitions, latency) and `report.html`, built by streaming the
    /// rows into bounded buckets.
    ///
    /// # Errors
    /// [`ReportError`] when a row cannot be read or a chart cannot be drawn.
    pub fn chart_artifacts(&self) -> Result<Vec<Artifact<'static>>, ReportError> {
        let minutes = self.summary.duration_s.div_ceil(60);
        let mut series = chart_data::SeriesCharts::new(minutes);
        self.rows.series(&mut |row| {
            series.add(row);
            Ok(())
        })?;
        let mut heat = chart_data::HeatCharts::new(minutes, self.summary.resources.iter().map(|r| (r.name.clone(), r.partitions)));
        self.rows.partitions(&mut |row| {
            heat.add(row);
            Ok(())
        })?;
        let mut out = Vec::new();
        let no_history: Vec<(String, crate::model::Dim)> =
            self.summary.resources.iter().flat_map(|r| r.no_history.iter().map(|d| (r.name.clone(), *d))).collect();
        let panels = series.panels(&no_history);
        let marks = self.markers();
        let time = self.time_axis();
        let h = (plot::PANEL_HEIGHT + 60) * panels.len().max(1) as u32;
        let (svg, png) = draw_chart!(h, "capacity", |root| plot::capacity(root, &panels, &marks, time))?;
        out.push(Artifact::new("capacity.svg", svg));
        out.push(Artifact::new("capacity.png", png));
        let maps = heat.heatmaps();
        let hot: Vec<String> = self
            .summary
            .hot_keys
            .iter()
            .map(|k| format!("{} on {}, partition {}: {:.1}/s", k.label(), k.resource, k.partition, k.requests_per_s))
            .collect();
        let h = (plot::PANEL_HEIGHT - 40) * maps.len().max(1) as u32 + 20;
        let (svg, heat_png) = draw_chart!(h, "hot-partitions", |root| plot::hot_partitions(root, &maps, &hot, time))?;
        out.push(Artifact::new("hot-partitions.svg", svg));
        out.push(Artifact::new("hot-partitions.png", heat_png.clone()));
        let pts = series.latency();
        let (svg, png) = draw_chart!(plot::PANEL_HEIGHT + 100, "latency", |root| plot::latency(root, &pts, time))?;
        out.push(Artifact::new("latency.svg", svg));
        out.push(Artifact::new("latency.png", png));
        let curves = series.duration_curves();
        let break_even = self.summary.reserved_break_even;
        let h = (plot::PANEL_HEIGHT - 20) * curves.len().max(1) as u32;
        let no_reservation =
            crate::cost::no_reservation(self.summary.cost.extrapolated, !self.summary.cost.standard_ia, self.summary.duration_s);
        let (svg, png) =
            draw_chart!(h, "load-duration", |root| plot::load_duration(root, &curves, break_even, 1, no_reservation.as_deref()))?;
        out.push(Artifact::new("load-duration.svg", svg));
        out.push(Artifact::new("load-duration.png", png.clone()));
        let ld_png = png;
        let page = html::Page {
            panels: &panels,
            latency: &pts,
            markers: &marks,
            heatmap_png: &heat_png,
            load_duration_png: &ld_png,
            time: Some(time),
        };
        out.push(Artifact::new("report.html", html::run_report(&self.summary, &page)));
        Ok(out)
    }
}

impl Render for RunReport<'_> {
    fn text(&self) -> String {
        self.summary.to_table()
    }

    fn artifacts(&self) -> Result<Vec<Artifact<'_>>, ReportError> {
        let csv = |header: &'static str, series: bool| {
            move |w: &mut dyn std::io::Write| {
                let err = |e: ReportError| std::io::Error::other(e.to_string());
                if series {
                    tables::write_csv(w, header, |emit| {
                        self.rows.series(&mut |row| emit(row).map_err(|e| ReportError::Input(e.to_string()))).map_err(err)
                    })
                } else {
                    tables::write_csv(w, header, |emit| {
                        self.rows.partitions(&mut |row| emit(row).map_err(|e| ReportError::Input(e.to_string()))).map_err(err)
                    })
                }
            }
        };
        let mut out = vec![
            Artifact::new("summary.json", self.summary.to_json()),
            Artifact::stream("timeseries.csv", csv(tables::TIMESERIES_HEADER, true)),
            Artifact::stream("partitions.csv", csv(tables::PARTITIONS_HEADER, false)),
        ];
        if self.charts {
            out.extend(self.chart_artifacts()?);
        }
        Ok(out)
    }
}
