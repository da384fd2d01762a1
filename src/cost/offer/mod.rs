//! AWS's Price List offer files (the bulk API's `AmazonDynamoDB`, `AmazonDAX` and
//! `AmazonCloudWatch` offers, one file per Region or one for every Region) read into ddbsim's
//! price catalogs: `ddbsim prices import` and `ddbsim prices update`.

mod build;
mod kinds;
mod read;

pub use build::{build_catalogs, BuiltCatalog};
pub use kinds::{classify, Service};
pub use read::{read_offer, Dimension, Offer, Product, Term};

use std::io::{BufReader, Read};
use std::path::Path;

/// The Price List bulk API's public endpoint (`/offers/v1.0/aws/<offer>/current/region_index.json`).
pub const PRICE_LIST_ENDPOINT: &str = "https://pricing.us-east-1.amazonaws.com";

/// Most bytes of an offer file (AmazonCloudWatch's file of every Region is several hundred
/// megabytes); a larger file is refused before it is read.
pub const OFFER_BYTES: u64 = 2 << 30;

/// Reads an offer file (`.json`, or `.json.gz` as the bulk API serves it compressed), streamed:
/// refused before reading when larger than [`OFFER_BYTES`].
///
/// # Errors
/// A message naming the file: unreadable, too large, not an offer file, truncated, or an offer
/// of a service ddbsim does not price.
pub fn read_offer_file(path: &Path) -> Result<Offer, String> {
    let shown = path.display().to_string();
    let (f, meta) = crate::input::open_regular(path, "offer file").map_err(|e| format!("{shown}: cannot read the offer file: {e}"))?;
    if meta.len() > OFFER_BYTES {
        return Err(format!("{shown}: the offer file is {} bytes; ddbsim reads at most {} MiB of one", meta.len(), OFFER_BYTES >> 20));
    }
    let capped = f.take(OFFER_BYTES + 1);
    let gz = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    if gz {
        let decoded = flate2::read::GzDecoder::new(BufReader::new(capped)).take(4 * OFFER_BYTES);
        read_offer(BufReader::with_capacity(1 << 16, decoded), &shown)
    } else {
        read_offer(BufReader::with_capacity(1 << 16, capped), &shown)
    }
}
