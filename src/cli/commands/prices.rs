//! `ddbsim prices update` and `ddbsim prices import`: AWS's Price List offer files read into
//! one price catalog per Region, each price with its SKU, usage type and publication date.

use crate::cli::CliError;
use crate::cost::offer::{build_catalogs, read_offer, read_offer_file, BuiltCatalog, Offer, Service, OFFER_BYTES};
use crate::cost::Catalog;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Most bytes of a service's `region_index.json`.
const INDEX_BYTES: u64 = 16 << 20;

/// Where catalogs go and what is said.
pub(in crate::cli) struct Out<'a> {
    /// The folder.
    pub(in crate::cli) dir: &'a Path,
    /// Replace existing catalogs.
    pub(in crate::cli) force: bool,
    /// Print JSON on stdout.
    pub(in crate::cli) json: bool,
}

/// `ddbsim prices import FILE...`.
pub(in crate::cli) fn prices_import(files: &[PathBuf], out: &Out<'_>) -> Result<(), CliError> {
    check_out(out.dir)?;
    let mut offers = Vec::new();
    for f in files {
        offers.push(read_offer_file(f).map_err(CliError::Argument)?);
    }
    write(&offers, out)
}

/// `ddbsim prices update`: the offer files of `regions` (none: every Region AWS sells DynamoDB
/// in) fetched from `endpoint` and streamed into catalogs.
pub(in crate::cli) fn prices_update(regions: &[String], endpoint: &str, out: &Out<'_>) -> Result<(), CliError> {
    check_out(out.dir)?;
    if !out.force {
        for r in regions {
            refuse_existing(out.dir, r)?;
        }
    }
    let endpoint = endpoint.trim_end_matches('/');
    if !(endpoint.starts_with("https://") || endpoint.starts_with("http://")) {
        return Err(CliError::Argument(format!("--endpoint {endpoint}: a URL (https://...)")));
    }
    let agent =
        ureq::Agent::new_with_config(ureq::Agent::config_builder().timeout_global(Some(std::time::Duration::from_secs(600))).build());
    let mut offers: Vec<Offer> = Vec::new();
    let mut wanted: Vec<String> = regions.to_vec();
    for service in Service::ALL {
        let index_url = format!("{endpoint}/offers/v1.0/aws/{}/current/region_index.json", service.code());
        let index = get(&agent, &index_url, INDEX_BYTES)?;
        let listed = region_index(&index, &index_url)?;
        if service == Service::DynamoDb {
            if wanted.is_empty() {
                wanted = listed.iter().map(|(r, _)| r.clone()).collect();
                if !out.force {
                    for r in &wanted {
                        refuse_existing(out.dir, r)?;
                    }
                }
            }
            if let Some(r) = wanted.iter().find(|r| !listed.iter().any(|(l, _)| l == *r)) {
                let names: Vec<&str> = listed.iter().map(|(l, _)| l.as_str()).collect();
                return Err(CliError::Argument(format!(
                    "--region {r}: AWS's Price List has no DynamoDB offer for it; Regions: {}",
                    names.join(", ")
                )));
            }
        }
        for r in &wanted {
            // A Region without DAX or CloudWatch's offer leaves those prices as named gaps.
            let Some((_, rel)) = listed.iter().find(|(l, _)| l == r) else { continue };
            let url = format!("{endpoint}{rel}");
            if !out.json {
                eprintln!("reading {url}");
            }
            offers.push(stream_offer(&agent, &url)?);
        }
    }
    write(&offers, out)
}

/// The output folder is created, or refused before any file is read or fetched.
fn check_out(dir: &Path) -> Result<(), CliError> {
    if dir.exists() && !dir.is_dir() {
        return Err(CliError::Argument(format!("--out {}: exists and is not a folder", dir.display())));
    }
    std::fs::create_dir_all(dir).map_err(|e| CliError::Output(crate::OutputError { path: dir.to_path_buf(), source: e }))
}

fn refuse_existing(dir: &Path, region: &str) -> Result<(), CliError> {
    let p = dir.join(format!("{region}.toml"));
    if p.exists() {
        return Err(CliError::Argument(format!("{}: exists; give --force to replace it", p.display())));
    }
    Ok(())
}

fn get(agent: &ureq::Agent, url: &str, cap: u64) -> Result<Vec<u8>, CliError> {
    let mut body = Vec::new();
    open(agent, url, cap)?.read_to_end(&mut body).map_err(|e| CliError::Argument(format!("{url}: reading the response: {e}")))?;
    if body.len() as u64 > cap {
        return Err(CliError::Argument(format!("{url}: more than {} MiB; not a Price List file", cap >> 20)));
    }
    Ok(body)
}

/// The response body of `url`, refused when its declared length passes `cap`, read no further
/// than `cap + 1` bytes.
fn open(agent: &ureq::Agent, url: &str, cap: u64) -> Result<impl Read, CliError> {
    let resp = agent.get(url).call().map_err(|e| CliError::Argument(format!("{url}: {e}")))?;
    let declared = resp.headers().get("content-length").and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if let Some(n) = declared.filter(|n| *n > cap) {
        return Err(CliError::Argument(format!("{url}: the file is {n} bytes; ddbsim reads at most {} MiB of one", cap >> 20)));
    }
    Ok(resp.into_body().into_with_config().limit(cap + 1).reader())
}

fn stream_offer(agent: &ureq::Agent, url: &str) -> Result<Offer, CliError> {
    let body = open(agent, url, OFFER_BYTES)?;
    read_offer(std::io::BufReader::with_capacity(1 << 16, body), url).map_err(CliError::Argument)
}

/// `(regionCode, currentVersionUrl)` of a service's `region_index.json`.
fn region_index(bytes: &[u8], url: &str) -> Result<Vec<(String, String)>, CliError> {
    #[derive(serde::Deserialize)]
    struct Index {
        regions: std::collections::BTreeMap<String, Entry>,
    }
    #[derive(serde::Deserialize)]
    struct Entry {
        #[serde(rename = "regionCode")]
        region: String,
        #[serde(rename = "currentVersionUrl")]
        url: String,
    }
    let i: Index = serde_json::from_slice(bytes).map_err(|e| CliError::Argument(format!("{url}: not a Price List region index ({e})")))?;
    Ok(i.regions.into_values().map(|e| (e.region, e.url)).collect())
}

/// Builds the catalogs, checks each reads back, and places them as one set.
fn write(offers: &[Offer], out: &Out<'_>) -> Result<(), CliError> {
    let built = build_catalogs(offers).map_err(CliError::Argument)?;
    let staging = super::publish::staging(out.dir)?;
    let names: Vec<String> = built.iter().map(|b| format!("{}.toml", b.region)).collect();
    super::publish::stage(staging.path(), names.iter().map(String::as_str).zip(built.iter().map(|b| b.text.as_str())))?;
    for n in &names {
        Catalog::load(&staging.path().join(n))?;
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    super::publish::place_all(staging.path(), out.dir, &refs, out.force)?;
    say(&built, offers, out);
    Ok(())
}

fn say(built: &[BuiltCatalog], offers: &[Offer], out: &Out<'_>) {
    let published = |r: &str| {
        offers
            .iter()
            .find(|o| o.service == Service::DynamoDb && o.products.iter().any(|p| p.region == r))
            .map_or("", |o| o.published.as_str())
    };
    if out.json {
        let catalogs: Vec<serde_json::Value> = built
            .iter()
            .map(|b| {
                let gaps: Vec<serde_json::Value> =
                    b.gaps.iter().map(|(i, why)| serde_json::json!({ "item": i.name(), "reason": why })).collect();
                serde_json::json!({
                    "region": b.region,
                    "path": out.dir.join(format!("{}.toml", b.region)).display().to_string(),
                    "published": published(&b.region),
                    "priced": b.priced,
                    "gaps": gaps,
                })
            })
            .collect();
        let doc = serde_json::json!({ "catalogs": catalogs, "peak_memory_bytes": super::peak_memory_bytes() });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return;
    }
    for b in built {
        let path = out.dir.join(format!("{}.toml", b.region));
        println!(
            "wrote {}: {} of {} prices from the Price List published {}",
            path.display(),
            b.priced,
            b.priced + b.gaps.len(),
            published(&b.region)
        );
        for (item, why) in &b.gaps {
            println!("  gap: {item}: {why}");
        }
    }
    if let Some(b) = built.first() {
        println!(
            "use them with `--prices {}` and `[pricing] region = \"{}\"`; a gap is priced by `[pricing.overrides]` or by editing the file",
            out.dir.display(),
            b.region
        );
    }
}
