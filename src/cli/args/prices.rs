//! `ddbsim prices` and `--prices`: the catalog a command prices with, and the Price List
//! commands that write catalogs.

use crate::cli::CliError;
use crate::cost::Catalog;
use crate::scenario::Scenario;
use clap::Subcommand;
use std::path::PathBuf;

/// `ddbsim prices`.
#[derive(Debug, Subcommand)]
pub(crate) enum PricesAction {
    /// Download the AmazonDynamoDB, AmazonDAX and AmazonCloudWatch offer files of Regions from
    /// the Price List bulk API and write one catalog each (`--region R`, repeat; or `--all`).
    Update {
        /// A Region to price, e.g. us-east-2 (repeat for more).
        #[arg(long, required_unless_present = "all")]
        region: Vec<String>,
        /// Every Region AWS's Price List sells DynamoDB in.
        #[arg(long, conflicts_with = "region")]
        all: bool,
        /// The folder the catalogs go into, one `REGION.toml` each.
        #[arg(long, default_value = "prices")]
        out: PathBuf,
        /// The Price List's address (a mirror's, for one without the internet).
        #[arg(long, default_value = crate::cost::offer::PRICE_LIST_ENDPOINT)]
        endpoint: String,
        /// Replace catalogs already in the folder.
        #[arg(long)]
        force: bool,
        /// Print `{"catalogs": [{"region", "path", "published", "priced", "gaps"}]}` on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Read offer files you downloaded (`.json` or `.json.gz`, a Region's or every Region's)
    /// and write one catalog for each Region they price.
    Import {
        /// Offer files: AmazonDynamoDB's, and AmazonDAX's and AmazonCloudWatch's for their prices.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The folder the catalogs go into, one `REGION.toml` each.
        #[arg(long, default_value = "prices")]
        out: PathBuf,
        /// Replace catalogs already in the folder.
        #[arg(long)]
        force: bool,
        /// Print `{"catalogs": [{"region", "path", "published", "priced", "gaps"}]}` on stdout.
        #[arg(long)]
        json: bool,
    },
}

/// `--prices`: a catalog file, a folder of them (`REGION.toml`, as `ddbsim prices` writes), or
/// the region's built-in one; its region must be the scenario's, and it must price everything
/// the scenario's runs bill (a Price List catalog may name gaps).
pub(crate) fn catalog_arg(p: Option<&PathBuf>, sc: &Scenario) -> Result<Catalog, CliError> {
    let region = &sc.pricing.region;
    let c = match p {
        Some(dir) if dir.is_dir() => {
            let file = dir.join(format!("{region}.toml"));
            if !file.is_file() {
                return Err(CliError::Argument(format!(
                    "--prices {}: no catalog for region \"{region}\" ({}); `ddbsim prices update --region {region} --out {}` writes one",
                    dir.display(),
                    file.display(),
                    dir.display()
                )));
            }
            Catalog::load(&file)?
        }
        Some(p) => Catalog::load(p)?,
        None => match Catalog::for_region(region) {
            Some(c) => c,
            None => {
                return Err(CliError::Argument(format!(
                    "{}: region \"{region}\" has no built-in price catalog (built in: {}); `ddbsim prices update --region {region}` \
                     writes prices/{region}.toml from AWS's Price List, then give `--prices prices`",
                    sc.source_path.display(),
                    crate::cost::known_regions().join(", ")
                )))
            }
        },
    };
    if c.region != sc.pricing.region {
        return Err(CliError::Argument(format!(
            "{}: the scenario prices region \"{}\" but the catalog is for \"{}\"",
            sc.source_path.display(),
            sc.pricing.region,
            c.region
        )));
    }
    let overridden = c.clone().with_overrides(&sc.pricing.overrides);
    let gaps = overridden.unpriced(&crate::cost::items_used(sc));
    if !gaps.is_empty() {
        let lines: Vec<String> = gaps
            .iter()
            .map(|(i, why)| {
                let how =
                    if i.overridable() { format!("[pricing.overrides] {i} = PRICE") } else { format!("the catalog's [items.{i}] usd") };
                format!("  {i}: {why} (give it with {how})")
            })
            .collect();
        return Err(CliError::Argument(format!(
            "{}: the price catalog for {} lacks {} price(s) this scenario bills:\n{}",
            sc.source_path.display(),
            c.region,
            gaps.len(),
            lines.join("\n")
        )));
    }
    for (i, o) in sc.pricing.reserved.iter().enumerate() {
        c.sells_reserved(o.years).map_err(|why| {
            use crate::scenario::locate::{KeyPath, Locator};
            let at = KeyPath::root().key("pricing").key("reserved").index(i).key("term");
            let (line, column) = Locator::new(&sc.source_text).line_col_of(&at);
            CliError::Argument(format!("{}:{line}:{column}: {at}: {why}", sc.source_path.display()))
        })?;
    }
    Ok(c)
}
