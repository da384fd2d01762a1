//! `recommend --emit cli`: the pick as the AWS CLI calls that apply it, printed, never run —
//! `dynamodb update-table` for the mode and capacity of the table and its GSIs, and Application
//! Auto Scaling's `register-scalable-target`, `put-scaling-policy` (target tracking) and
//! `put-scheduled-action` (the daily floors) for auto scaling.

use crate::scenario::Scenario;
use crate::study::recommend::{DailyFloor, Recommendation, Settings, FLOOR_LEAD_S};
use std::fmt::Write as _;

/// A resource of the table: its Application Auto Scaling id and dimension prefix.
struct Resource<'a> {
    name: &'a str,
    id: String,
    dimension: &'static str,
}

fn resources(sc: &Scenario) -> Vec<Resource<'_>> {
    let t = &sc.table.name;
    std::iter::once(Resource { name: t, id: format!("table/{t}"), dimension: "dynamodb:table" })
        .chain(sc.gsis.iter().map(|g| Resource { name: &g.name, id: format!("table/{t}/index/{}", g.name), dimension: "dynamodb:index" }))
        .collect()
}

/// The AWS CLI calls that apply `rec`'s pick to `sc`'s table, as a shell script.
///
/// # Errors
/// When nothing was picked (no setting holds).
pub fn aws_cli(rec: &Recommendation, sc: &Scenario) -> Result<String, String> {
    let Some(pick) = rec.pick else {
        return Err("no setting holds within the limits, so there is no change to emit".into());
    };
    let region = &sc.pricing.region;
    let table = &sc.table.name;
    let rs = resources(sc);
    let mut o = String::new();
    let _ = writeln!(o, "#!/bin/sh\n# ddbsim recommend: {} ({})", rec.candidates[pick].description, rec.prices);
    let _ = writeln!(o, "# Review, then run. Switching billing mode is allowed once in 24 hours per table.\nset -e");
    let mut settings = &rec.candidates[pick].settings;
    let mut reserved = None;
    if let Settings::Reserved { of, rcu, wcu, years } = settings {
        reserved = Some((*rcu, *wcu, *years));
        settings = &rec.candidates[*of].settings;
    }
    let had_scaling: Vec<&Resource<'_>> = rs
        .iter()
        .enumerate()
        .filter(|(i, _)| if *i == 0 { sc.table.autoscaling.is_some() } else { sc.gsis[i - 1].autoscaling.is_some() })
        .map(|(_, r)| r)
        .collect();
    match settings {
        Settings::OnDemand => {
            for r in &had_scaling {
                for d in ["Read", "Write"] {
                    let _ = writeln!(
                        o,
                        "aws application-autoscaling deregister-scalable-target --service-namespace dynamodb --resource-id {} \
                         --scalable-dimension {}:{d}CapacityUnits --region {region}",
                        r.id, r.dimension
                    );
                }
            }
            let _ = writeln!(o, "aws dynamodb update-table --table-name {table} --billing-mode PAY_PER_REQUEST --region {region}");
        }
        Settings::Provisioned { units } => update_table(&mut o, sc, units, region),
        Settings::Autoscaling { target, min, max, daily } => {
            update_table(&mut o, sc, min, region);
            for (i, r) in rs.iter().enumerate() {
                for (d, dim) in ["Read", "Write"].iter().enumerate() {
                    let _ = writeln!(
                        o,
                        "aws application-autoscaling register-scalable-target --service-namespace dynamodb --resource-id {} \
                         --scalable-dimension {}:{dim}CapacityUnits --min-capacity {} --max-capacity {} --region {region}",
                        r.id,
                        r.dimension,
                        min[i][d],
                        max[i][d].max(min[i][d])
                    );
                    let _ = writeln!(
                        o,
                        "aws application-autoscaling put-scaling-policy --service-namespace dynamodb --resource-id {} \
                         --scalable-dimension {}:{dim}CapacityUnits --policy-name {}-{}-target-tracking --policy-type TargetTrackingScaling \
                         --target-tracking-scaling-policy-configuration '{{\"TargetValue\":{target:.1},\"PredefinedMetricSpecification\":\
                         {{\"PredefinedMetricType\":\"DynamoDB{dim}CapacityUtilization\"}}}}' --region {region}",
                        r.id,
                        r.dimension,
                        r.name,
                        dim.to_lowercase()
                    );
                }
            }
            for f in daily {
                floors(&mut o, &rs, f, min, region);
            }
        }
        Settings::Reserved { .. } => return Err("a reservation reserves for another candidate, never for a reservation".into()),
    }
    if let Some((rcu, wcu, years)) = reserved {
        let _ = writeln!(
            o,
            "# Reserved capacity: buy {rcu} RCU and {wcu} WCU ({} and {} blocks of 100) for {years} year(s) in {region} in the DynamoDB \
             console (Reserved capacity); neither the AWS CLI nor the DynamoDB API has a call that buys it.",
            rcu / 100,
            wcu / 100
        );
    }
    Ok(o)
}

/// `update-table` to provisioned at `units` ([RCU, WCU] per resource, the table's first).
fn update_table(o: &mut String, sc: &Scenario, units: &[[u64; 2]], region: &str) {
    let table = &sc.table.name;
    let mut line = format!(
        "aws dynamodb update-table --table-name {table} --billing-mode PROVISIONED \
         --provisioned-throughput ReadCapacityUnits={},WriteCapacityUnits={}",
        units[0][0], units[0][1]
    );
    if !sc.gsis.is_empty() {
        let updates: Vec<String> = sc
            .gsis
            .iter()
            .zip(&units[1..])
            .map(|(g, u)| {
                format!(
                    "{{\"Update\":{{\"IndexName\":\"{}\",\"ProvisionedThroughput\":{{\"ReadCapacityUnits\":{},\"WriteCapacityUnits\":{}}}}}}}",
                    g.name, u[0], u[1]
                )
            })
            .collect();
        let _ = write!(line, " --global-secondary-index-updates '[{}]'", updates.join(","));
    }
    let _ = writeln!(o, "{line} --region {region}");
}

/// A daily floor: Application Auto Scaling's scheduled actions raise each minimum it raises
/// [`FLOOR_LEAD_S`] before its start and set it back at its end, every day (UTC).
fn floors(o: &mut String, rs: &[Resource<'_>], f: &DailyFloor, min: &[[u64; 2]], region: &str) {
    let raise = (i64::from(f.from_min) - (FLOOR_LEAD_S / 60) as i64).rem_euclid(1_440) as u32;
    let lower = f.to_min % 1_440;
    let cron = |m: u32| format!("cron({} {} * * ? *)", m % 60, m / 60);
    for (i, r) in rs.iter().enumerate() {
        for (d, dim) in ["Read", "Write"].iter().enumerate() {
            if f.min[i][d] == 0 {
                continue;
            }
            for (at, floor, what) in [(raise, f.min[i][d], "raise"), (lower, min[i][d], "lower")] {
                let _ = writeln!(
                    o,
                    "aws application-autoscaling put-scheduled-action --service-namespace dynamodb --resource-id {} \
                     --scalable-dimension {}:{dim}CapacityUnits --scheduled-action-name {}-{}-{what}-{:02}{:02} \
                     --schedule '{}' --scalable-target-action MinCapacity={floor} --region {region}",
                    r.id,
                    r.dimension,
                    r.name,
                    dim.to_lowercase(),
                    at / 60,
                    at % 60,
                    cron(at)
                );
            }
        }
    }
}
