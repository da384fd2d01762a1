//! What a recommendation searches: the capacity modes, and the settings of one candidate.

use serde::Serialize;
use std::fmt::Write as _;

/// Which capacity modes a recommendation searches and may pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)]
pub struct Modes {
    /// On-demand (always simulated: its run gives the demand).
    pub on_demand: bool,
    /// Provisioned at fixed capacity.
    pub provisioned: bool,
    /// Provisioned with auto scaling (target tracking, with scheduled floors where the
    /// history repeats daily).
    pub autoscaling: bool,
    /// Reserved capacity on the best provisioned or auto-scaled candidate.
    pub reserved: bool,
}

impl Modes {
    /// Every mode.
    pub const ALL: Modes = Modes { on_demand: true, provisioned: true, autoscaling: true, reserved: true };

    /// Does the set include `mode`?
    #[must_use]
    pub fn includes(&self, mode: Mode) -> bool {
        match mode {
            Mode::OnDemand => self.on_demand,
            Mode::Provisioned => self.provisioned,
            Mode::Autoscaling => self.autoscaling,
            Mode::Reserved => self.reserved,
        }
    }
}

/// A capacity mode a recommendation searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// On-demand.
    OnDemand,
    /// Provisioned at fixed capacity.
    Provisioned,
    /// Provisioned with auto scaling.
    Autoscaling,
    /// Reserved capacity on a provisioned candidate.
    Reserved,
}

impl Mode {
    /// Every mode, in the order reports list them.
    pub const ALL: [Mode; 4] = [Mode::OnDemand, Mode::Provisioned, Mode::Autoscaling, Mode::Reserved];

    /// `on_demand`, `provisioned`, `autoscaling`, `reserved`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Mode::OnDemand => "on_demand",
            Mode::Provisioned => "provisioned",
            Mode::Autoscaling => "autoscaling",
            Mode::Reserved => "reserved",
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Capacity settings of one candidate.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Settings {
    /// On-demand, table and GSIs.
    OnDemand,
    /// Provisioned at fixed RCU/WCU, per resource (table first).
    Provisioned {
        /// [RCU, WCU] per resource.
        units: Vec<[u64; 2]>,
    },
    /// Provisioned with target tracking, per resource.
    Autoscaling {
        /// Target utilisation, percent.
        target: f64,
        /// [read, write] minimum per resource.
        min: Vec<[u64; 2]>,
        /// [read, write] maximum per resource.
        max: Vec<[u64; 2]>,
        /// Scheduled floors raised every day (empty: none).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        daily: Vec<DailyFloor>,
    },
    /// A provisioned candidate's run with reserved capacity.
    Reserved {
        /// The candidate it reserves for (index into the candidates).
        of: usize,
        /// Reserved RCU (table and GSIs together).
        rcu: u64,
        /// Reserved WCU.
        wcu: u64,
        /// Term, years.
        years: u32,
    },
}

impl Settings {
    /// The mode.
    #[must_use]
    pub fn mode(&self) -> Mode {
        match self {
            Settings::OnDemand => Mode::OnDemand,
            Settings::Provisioned { .. } => Mode::Provisioned,
            Settings::Autoscaling { .. } => Mode::Autoscaling,
            Settings::Reserved { .. } => Mode::Reserved,
        }
    }

    /// The settings in words, for the table's resource names `names`.
    #[must_use]
    pub fn describe(&self, names: &[String]) -> String {
        let per = |v: &[[u64; 2]], f: &dyn Fn(&[u64; 2]) -> String| -> String {
            v.iter().zip(names).map(|(x, n)| format!("{n} {}", f(x))).collect::<Vec<_>>().join("; ")
        };
        match self {
            Settings::OnDemand => "on-demand, table and GSIs".into(),
            Settings::Provisioned { units } => format!("provisioned: {}", per(units, &|x| format!("{} RCU / {} WCU", x[0], x[1]))),
            Settings::Autoscaling { target, min, max, daily } => {
                let both: Vec<[u64; 4]> = min.iter().zip(max).map(|(a, b)| [a[0], b[0], a[1], b[1]]).collect();
                let text: Vec<String> =
                    both.iter().zip(names).map(|(x, n)| format!("{n} read {}-{}, write {}-{}", x[0], x[1], x[2], x[3])).collect();
                let mut s = format!("auto scaling at {target:.0} %: {}", text.join("; "));
                for f in daily {
                    let hm = |m: u32| format!("{:02}:{:02}", m / 60 % 24, m % 60);
                    let floors: Vec<String> = f
                        .min
                        .iter()
                        .zip(names)
                        .filter(|(x, _)| x[0] > 0 || x[1] > 0)
                        .map(|(x, n)| {
                            let dims: Vec<String> =
                                [("read", x[0]), ("write", x[1])].iter().filter(|(_, u)| *u > 0).map(|(d, u)| format!("{d} {u}")).collect();
                            format!("{n} {}", dims.join(", "))
                        })
                        .collect();
                    let _ = write!(s, "; daily {}-{} UTC min {}", hm(f.from_min), hm(f.to_min), floors.join("; "));
                }
                s
            }
            Settings::Reserved { of, rcu, wcu, years } => {
                format!("candidate {of} with {rcu} RCU / {wcu} WCU reserved for {years} year(s)")
            }
        }
    }
}

/// A floor scheduled every day (Application Auto Scaling scheduled actions): from `from_min`
/// to `to_min` minutes after midnight UTC the scalable targets' `min` is raised to `min`
/// (0: unchanged), then set back. The raise is issued [`FLOOR_LEAD_S`] early, so capacity
/// is in place when the load arrives.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DailyFloor {
    /// Start, minutes after midnight UTC.
    pub from_min: u32,
    /// End, minutes after midnight UTC (after `from_min`; past 1,440 for a floor over
    /// midnight).
    pub to_min: u32,
    /// [read, write] minimum per resource while raised, 0 where not raised.
    pub min: Vec<[u64; 2]>,
}

/// How early a scheduled floor is raised: an UpdateTable that adds capacity takes minutes
/// (spec §3.4), longer when partitions are added.
pub const FLOOR_LEAD_S: u64 = 15 * 60;
