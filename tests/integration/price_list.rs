//! AWS's Price List offer files read into catalogs (`ddbsim prices import` and `update`):
//! trimmed files written to AWS's documented format (tests/fixtures/prices, with products
//! ddbsim must ignore), each price checked against the file's own figure times the catalog's
//! unit, bills worked by hand on the catalogs, gaps that refuse a run naming the price, bad
//! files refused with the reason, `update` against a server on 127.0.0.1, and a large file
//! streamed in bounded memory.

use crate::ddbsim;
use ddbsim::cost::offer::{build_catalogs, read_offer_file, BuiltCatalog, OFFER_BYTES};
use ddbsim::cost::{BillComponent, Catalog, PriceItem};
use ddbsim::report::Summary;
use ddbsim::{simulate, RunOptions};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/prices").join(name)
}

const FILES: [&str; 4] =
    ["AmazonDynamoDB-us-east-2.json", "AmazonDynamoDB-eu-west-1.json", "AmazonDAX-eu-west-1.json", "AmazonCloudWatch-us-east-2.json"];

fn built() -> Vec<BuiltCatalog> {
    let offers: Vec<_> = FILES.iter().map(|f| read_offer_file(&fixture(f)).unwrap()).collect();
    build_catalogs(&offers).unwrap()
}

fn catalog(region: &str) -> Catalog {
    let b = built().into_iter().find(|b| b.region == region).unwrap();
    Catalog::parse(&b.text, Path::new("built.toml")).unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// Every price the files hold, as the file states it per unit times the catalog's unit: a
/// million request units, 100 reserved units, 100,000 stream reads.
#[test]
fn each_price_is_the_files_figure_in_the_catalogs_unit() {
    let e2 = catalog("us-east-2");
    let p = |i: PriceItem| e2.price(i).usd;
    // 0.000000625 and 0.000000125 per request unit: $0.625 and $0.125 a million.
    assert_eq!(p(PriceItem::OnDemandWritePerMillion), 0.625);
    assert_eq!(p(PriceItem::OnDemandReadPerMillion), 0.125);
    assert_eq!(p(PriceItem::IaOnDemandWritePerMillion), 0.78);
    assert_eq!(p(PriceItem::IaOnDemandReadPerMillion), 0.155);
    // The paid band above the $0 band of 18,600 unit-hours.
    assert_eq!(p(PriceItem::ProvisionedWcuHour), 0.00065);
    assert_eq!(p(PriceItem::ProvisionedRcuHour), 0.00013);
    assert_eq!(p(PriceItem::IaProvisionedWcuHour), 0.00081);
    assert_eq!(p(PriceItem::StorageGbMonth), 0.25);
    assert_eq!(p(PriceItem::IaStorageGbMonth), 0.1);
    // 1 year: $1.50 upfront and $0.000128 an hour per WCU: $150 and $0.0128 per 100.
    assert_eq!(p(PriceItem::Reserved1yWcu100Upfront), 150.0);
    assert_eq!(p(PriceItem::Reserved1yWcu100Hour), 0.0128);
    assert_eq!(p(PriceItem::Reserved1yRcu100Upfront), 30.0);
    assert_eq!(p(PriceItem::Reserved1yRcu100Hour), 0.0025);
    // $0.0000002 a GetRecords request after 2.5 million: $0.02 per 100,000.
    assert_eq!(p(PriceItem::StreamsReadPer100k), 0.02);
    // Replicated writes: the Standard product, not the IA one the file also lists ($0.78).
    assert_eq!(p(PriceItem::ReplicatedWritePerMillion), 0.625);
    assert_eq!(p(PriceItem::ReplicatedWcuHour), 0.00065);
    assert_eq!((p(PriceItem::PitrGbMonth), p(PriceItem::BackupGbMonth)), (0.2, 0.1));
    assert_eq!((p(PriceItem::RestoreGb), p(PriceItem::ExportGb)), (0.15, 0.1));
    // From the CloudWatch file: $0.50 a rule-month, $0.00000003 an event = $0.03 a million.
    assert_eq!(p(PriceItem::ContributorInsightsRuleMonth), 0.5);
    assert_eq!(p(PriceItem::ContributorInsightsEventsPerMillion), 0.03);
    // The $0 bands: 18,600 unit-hours / 744 = 25 RCU and 25 WCU; 25 GB.
    assert_eq!((e2.free_rcu, e2.free_wcu, e2.free_storage_gb), (25, 25, 25.0));
    let w = e2.price(PriceItem::OnDemandWritePerMillion);
    assert!(
        w.verified
            && w.source.contains("SKU D0001QZ7K2M")
            && w.source.contains("USE2-WriteRequestUnits")
            && w.source.contains("2026-11-03"),
        "{w:?}"
    );
    assert_eq!(e2.prices_read_on, "2026-11-03");
    assert!(e2.price_list.as_deref().unwrap().contains("AmazonDynamoDB version 20261103190411"));

    let w1 = catalog("eu-west-1");
    let q = |i: PriceItem| w1.price(i).usd;
    assert_eq!((q(PriceItem::OnDemandWritePerMillion), q(PriceItem::OnDemandReadPerMillion)), (0.705, 0.1415));
    assert_eq!((q(PriceItem::ProvisionedWcuHour), q(PriceItem::StorageGbMonth), q(PriceItem::PitrGbMonth)), (0.000735, 0.283, 0.22));
    // eu-west-1 sells 3 years: $2.034 upfront, $0.000092 an hour per WCU.
    assert_eq!((q(PriceItem::Reserved3yWcu100Upfront), q(PriceItem::Reserved3yWcu100Hour)), (203.4, 0.0092));
    assert_eq!((q(PriceItem::Reserved3yRcu100Upfront), q(PriceItem::Reserved3yRcu100Hour)), (40.68, 0.0018));
    // DAX from its own file; the t3.small it also lists prices nothing of ddbsim's.
    assert_eq!((q(PriceItem::DaxR5LargeHour), q(PriceItem::DaxR5X24largeHour)), (0.289, 13.838));
}

/// What the files lack is a named gap, never a default: 3-year reservations in us-east-2,
/// inter-Region transfer (another offer), DAX where its file does not reach, vector search.
#[test]
fn a_price_the_files_lack_is_a_named_gap() {
    let b = built();
    let gaps = |r: &str| -> Vec<(PriceItem, String)> { b.iter().find(|c| c.region == r).unwrap().gaps.clone() };
    let e2 = gaps("us-east-2");
    let names: Vec<&str> = e2.iter().map(|(i, _)| i.name()).collect();
    assert_eq!(e2.len(), 17, "{names:?}");
    assert!(e2.iter().any(|(i, why)| *i == PriceItem::Reserved3yWcu100Upfront && why.contains("no 3-year reservation")), "{e2:?}");
    assert!(e2.iter().any(|(i, why)| *i == PriceItem::CrossRegionTransferGb && why.contains("AWSDataTransfer")), "{e2:?}");
    assert!(e2.iter().any(|(i, why)| *i == PriceItem::DaxR5LargeHour
        && why.contains("AmazonDAX offer file published 2026-10-20 lists no product for it in us-east-2")));
    let w1 = gaps("eu-west-1");
    assert_eq!(w1.len(), 7, "{w1:?}");
    assert!(w1.iter().any(|(i, _)| *i == PriceItem::ContributorInsightsRuleMonth));
    let c = catalog("us-east-2");
    assert!(c.sells_reserved(1).is_ok());
    let three = c.sells_reserved(3).unwrap_err();
    assert!(three.contains("no price for 3-year reserved capacity in us-east-2"), "{three}");
    assert!(c.gaps.contains_key(&PriceItem::VectorWriteGb) && !c.items.contains_key(&PriceItem::VectorWriteGb));
}

/// A month of each line: an hour simulated with `extrapolate = "repeat"` (x 730).
fn monthly(c: &Catalog, read: u64, write: u64, storage_gb: u64, extra: &str) -> Vec<(BillComponent, f64)> {
    let text = format!(
        "[scenario]\nduration = \"1h\"\nseed = 1\n\n[pricing]\nregion = \"{}\"\nextrapolate = \"repeat\"\n\n\
         [table]\nname = \"T\"\npartition_key = \"id\"\ncapacity = {{ mode = \"provisioned\", read = {read}, write = {write} }}\n\
         storage_gb = {storage_gb}\n{extra}\n[keys.id]\ncardinality = 1000\n\n\
         [[pattern]]\nname = \"read\"\nop = \"get_item\"\nrate = {{ constant = 1 }}\n",
        c.region
    );
    let sc = ddbsim::scenario::parse_str(&text, Path::new("prices.toml")).unwrap();
    let r = simulate(&sc, &RunOptions::default());
    let s = Summary::new(&sc, &r, c);
    assert!(s.prices.contains("from AWS's Price List read on 2026-11-03"), "{}", s.prices);
    s.cost.lines.iter().map(|l| (l.component, l.cost_usd * 730.0 / s.cost.window_hours)).collect()
}

fn line(lines: &[(BillComponent, f64)], c: BillComponent) -> f64 {
    lines.iter().filter(|(x, _)| *x == c).map(|(_, usd)| usd).sum()
}

/// us-east-2 on the imported catalog bills as Infracost's golden file (S1 of
/// docs/prices-verified.md): 20 WCU $9.49 a month, 30 RCU $2.85, 230 GB $57.50. eu-west-1:
/// 100 WCU x 730 h x $0.000735 = $53.655, 100 RCU x 730 x $0.000147 = $10.731, 100 GB x
/// $0.283 = $28.30, PITR 100 GB x $0.22 = $22.00, 3 dax.r5.large x 730 x $0.289 = $632.91.
#[test]
fn bills_on_imported_catalogs_are_worked_by_hand() {
    let m = monthly(&catalog("us-east-2"), 30, 20, 230, "");
    assert!((line(&m, BillComponent::Writes) - 9.49).abs() < 0.005, "{m:?}");
    assert!((line(&m, BillComponent::Reads) - 2.85).abs() < 0.005, "{m:?}");
    assert!((line(&m, BillComponent::Storage) - 57.50).abs() < 1e-6, "{m:?}");
    let dax = "[table.backups]\npitr = true\n[dax]\nnode_type = \"dax.r5.large\"\nnodes = 3\n";
    let m = monthly(&catalog("eu-west-1"), 100, 100, 100, dax);
    assert!((line(&m, BillComponent::Writes) - 53.655).abs() < 1e-6, "{m:?}");
    assert!((line(&m, BillComponent::Reads) - 10.731).abs() < 1e-6, "{m:?}");
    assert!((line(&m, BillComponent::Storage) - 28.30).abs() < 1e-6, "{m:?}");
    assert!((line(&m, BillComponent::Pitr) - 22.00).abs() < 1e-6, "{m:?}");
    assert!((line(&m, BillComponent::Dax) - 632.91).abs() < 1e-6, "{m:?}");
}

fn scenario(dir: &Path, region: &str, extra: &str) -> PathBuf {
    let p = dir.join(format!("{region}.scenario.toml"));
    let text = format!(
        "[scenario]\nduration = \"10m\"\nseed = 1\n[pricing]\nregion = \"{region}\"\n{extra}\n[table]\nname = \"T\"\npartition_key = \"id\"\n\
         capacity = {{ mode = \"provisioned\", read = 30, write = 20 }}\n[keys.id]\ncardinality = 1000\n\
         [[pattern]]\nname = \"read\"\nop = \"get_item\"\nrate = {{ constant = 1 }}\n"
    );
    std::fs::write(&p, text).unwrap();
    p
}

/// The loop a user runs: import the files, run on the folder of catalogs; a run that bills a
/// gap is refused naming it and the remedy, and an override prices it.
#[test]
fn prices_import_then_run_with_the_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("prices");
    let mut args = vec!["prices", "import", "--out", out.to_str().unwrap()];
    let paths: Vec<String> = FILES.iter().map(|f| fixture(f).display().to_string()).collect();
    args.extend(paths.iter().map(String::as_str));
    let o = ddbsim(&args);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("us-east-2.toml: 23 of 40 prices from the Price List published 2026-11-03T19:04:11Z"), "{}", text(&o));
    assert!(text(&o).contains("gap: cross_region_transfer_gb"), "{}", text(&o));
    // Again without --force: refused, nothing replaced.
    let again = ddbsim(&args);
    assert_eq!(again.status.code(), Some(1), "{}", text(&again));
    assert!(text(&again).contains("--force"), "{}", text(&again));

    let sc = scenario(tmp.path(), "us-east-2", "");
    let run_out = tmp.path().join("run");
    let o = ddbsim(&["run", sc.to_str().unwrap(), "--prices", out.to_str().unwrap(), "--out", run_out.to_str().unwrap(), "-q"]);
    assert!(o.status.success(), "{}", text(&o));
    let summary = std::fs::read_to_string(run_out.join("summary.json")).unwrap();
    assert!(summary.contains("us-east-2 prices from AWS's Price List read on 2026-11-03"), "{summary}");

    let dax = scenario(tmp.path(), "us-east-2", "[dax]\nnode_type = \"dax.r5.large\"\nnodes = 3\n");
    let o = ddbsim(&["run", dax.to_str().unwrap(), "--prices", out.to_str().unwrap(), "--out", run_out.to_str().unwrap(), "-q"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("lacks 1 price(s) this scenario bills"), "{}", text(&o));
    assert!(
        text(&o).contains("dax_r5_large_hour: the AmazonDAX offer file published 2026-10-20 lists no product for it in us-east-2"),
        "{}",
        text(&o)
    );
    assert!(text(&o).contains("[pricing.overrides] dax_r5_large_hour = PRICE"), "{}", text(&o));
    let v = ddbsim(&["validate", dax.to_str().unwrap(), "--prices", out.to_str().unwrap()]);
    assert_eq!(v.status.code(), Some(1), "{}", text(&v));
    let priced =
        scenario(tmp.path(), "us-east-2", "overrides = { dax_r5_large_hour = 0.255 }\n[dax]\nnode_type = \"dax.r5.large\"\nnodes = 3\n");
    let o =
        ddbsim(&["run", priced.to_str().unwrap(), "--prices", out.to_str().unwrap(), "--out", run_out.to_str().unwrap(), "-q", "--force"]);
    assert!(o.status.success(), "{}", text(&o));

    // A Region without a built-in catalog is a scenario's to name; it runs on its own catalog.
    let south = scenario(tmp.path(), "ap-south-1", "");
    let o = ddbsim(&["run", south.to_str().unwrap(), "--out", run_out.to_str().unwrap(), "-q", "--force"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("`ddbsim prices update --region ap-south-1`"), "{}", text(&o));
    let o =
        ddbsim(&["run", south.to_str().unwrap(), "--prices", out.to_str().unwrap(), "--out", run_out.to_str().unwrap(), "-q", "--force"]);
    assert!(text(&o).contains("no catalog for region \"ap-south-1\""), "{}", text(&o));
}

/// A corrupt, truncated or wrong-service file is refused with the reason; a file over the cap
/// is refused before a byte of it is read (a sparse file of 2 GiB + 1 byte).
#[test]
fn bad_offer_files_are_refused_with_the_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let good = std::fs::read_to_string(fixture(FILES[0])).unwrap();
    let write = |name: &str, t: &str| {
        let p = tmp.path().join(name);
        std::fs::write(&p, t).unwrap();
        p
    };
    let why = |p: &Path| read_offer_file(p).unwrap_err();
    let truncated = write("truncated.json", &good[..good.len() / 2]);
    assert!(why(&truncated).contains("the file ends early (truncated?)"), "{}", why(&truncated));
    let corrupt = write("corrupt.json", &good.replacen("\"products\" : {", "\"products\" : {]", 1));
    assert!(why(&corrupt).contains("not an AWS Price List offer file") && why(&corrupt).contains("line 7"), "{}", why(&corrupt));
    let s3 = write("s3.json", &good.replace("\"offerCode\" : \"AmazonDynamoDB\"", "\"offerCode\" : \"AmazonS3\""));
    assert!(why(&s3).contains("offer \"AmazonS3\" is not one ddbsim prices from"), "{}", why(&s3));
    let undated = write("undated.json", &good.replace("\"publicationDate\"", "\"published\""));
    assert!(why(&undated).contains("no `publicationDate`"), "{}", why(&undated));
    let huge = tmp.path().join("huge.json");
    std::fs::File::create(&huge).unwrap().set_len(OFFER_BYTES + 1).unwrap();
    assert!(why(&huge).contains("ddbsim reads at most 2048 MiB"), "{}", why(&huge));
    let o = ddbsim(&["prices", "import", truncated.to_str().unwrap(), "--out", tmp.path().join("p").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(!tmp.path().join("p/us-east-2.toml").exists());
}

/// A local Price List: each service's `region_index.json` and the files it names, counted.
struct Server {
    url: String,
    hits: Arc<AtomicUsize>,
}

fn serve(routes: Vec<(String, Vec<u8>, Option<u64>)>) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = hits.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request = String::new();
            if reader.read_line(&mut request).is_err() {
                continue;
            }
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" {
                    break;
                }
            }
            counted.fetch_add(1, Ordering::SeqCst);
            let path = request.split_whitespace().nth(1).unwrap_or("").to_string();
            match routes.iter().find(|(p, _, _)| *p == path) {
                Some((_, body, declared)) => {
                    let len = declared.unwrap_or(body.len() as u64);
                    let _ = write!(
                        stream,
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len}\r\nConnection: close\r\n\r\n"
                    );
                    let _ = stream.write_all(body);
                }
                None => {
                    let _ = write!(stream, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                }
            }
        }
    });
    Server { url, hits }
}

fn index(service: &str, regions: &[&str]) -> (String, Vec<u8>, Option<u64>) {
    let entries: Vec<String> = regions
        .iter()
        .map(|r| format!("\"{r}\" : {{ \"regionCode\" : \"{r}\", \"currentVersionUrl\" : \"/offers/v1.0/aws/{service}/20261103190411/{r}/index.json\" }}"))
        .collect();
    let body = format!(
        "{{ \"formatVersion\" : \"v1.0\", \"disclaimer\" : \"test\", \"publicationDate\" : \"2026-11-03T19:04:11Z\", \"regions\" : {{ {} }} }}",
        entries.join(", ")
    );
    (format!("/offers/v1.0/aws/{service}/current/region_index.json"), body.into_bytes(), None)
}

fn file(service: &str, region: &str, declared: Option<u64>) -> (String, Vec<u8>, Option<u64>) {
    let body = std::fs::read(fixture(&format!("{service}-{region}.json"))).unwrap();
    (format!("/offers/v1.0/aws/{service}/20261103190411/{region}/index.json"), body, declared)
}

/// `prices update` fetches each service's Region index and the Regions' files from the
/// endpoint, streams them into catalogs, and refuses what it cannot use before writing.
#[test]
fn prices_update_reads_a_local_price_list() {
    let routes = vec![
        index("AmazonDynamoDB", &["us-east-2", "eu-west-1"]),
        index("AmazonDAX", &["eu-west-1"]),
        index("AmazonCloudWatch", &["us-east-2"]),
        file("AmazonDynamoDB", "us-east-2", None),
        file("AmazonDynamoDB", "eu-west-1", None),
        file("AmazonDAX", "eu-west-1", None),
        file("AmazonCloudWatch", "us-east-2", None),
    ];
    let s = serve(routes);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("prices");
    let o = ddbsim(&["prices", "update", "--all", "--endpoint", &s.url, "--out", out.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let regions: Vec<&str> = doc["catalogs"].as_array().unwrap().iter().map(|c| c["region"].as_str().unwrap()).collect();
    assert_eq!(regions, ["eu-west-1", "us-east-2"]);
    assert_eq!(doc["catalogs"][1]["priced"], 23);
    // Three indexes and four files.
    assert_eq!(s.hits.load(Ordering::SeqCst), 7);
    let c = Catalog::load(&out.join("eu-west-1.toml")).unwrap();
    assert_eq!(c.price(PriceItem::DaxR5LargeHour).usd, 0.289);
    assert!(c.price_list.unwrap().contains("/offers/v1.0/aws/AmazonDAX/20261103190411/eu-west-1/index.json"));

    // An existing catalog without --force: refused before any request.
    let before = s.hits.load(Ordering::SeqCst);
    let o = ddbsim(&["prices", "update", "--region", "us-east-2", "--endpoint", &s.url, "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("us-east-2.toml: exists; give --force"), "{}", text(&o));
    assert_eq!(s.hits.load(Ordering::SeqCst), before);
    // A Region the Price List does not list.
    let o = ddbsim(&["prices", "update", "--region", "ap-south-1", "--endpoint", &s.url, "--out", out.to_str().unwrap()]);
    assert!(
        text(&o).contains("--region ap-south-1: AWS's Price List has no DynamoDB offer for it; Regions: eu-west-1, us-east-2"),
        "{}",
        text(&o)
    );
    assert_eq!(o.status.code(), Some(1));

    // A file that says it is larger than the cap is refused before it is read.
    let big = serve(vec![
        index("AmazonDynamoDB", &["us-east-2"]),
        index("AmazonDAX", &[]),
        index("AmazonCloudWatch", &[]),
        file("AmazonDynamoDB", "us-east-2", Some(OFFER_BYTES + 1)),
    ]);
    let o =
        ddbsim(&["prices", "update", "--region", "us-east-2", "--endpoint", &big.url, "--out", tmp.path().join("big").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("ddbsim reads at most 2048 MiB"), "{}", text(&o));
    assert!(!tmp.path().join("big/us-east-2.toml").exists());
}

/// A file of every Region, hundreds of thousands of products ddbsim ignores around the ones it
/// prices, is streamed: the process's peak memory stays under 256 MiB (the file, read whole
/// as JSON, would take several times its size).
#[test]
fn a_large_offer_file_is_streamed_in_bounded_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("AmazonDynamoDB-all.json");
    let good = std::fs::read_to_string(fixture(FILES[0])).unwrap();
    let (head, rest) = good.split_once("\"products\" : {").unwrap();
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    write!(f, "{head}\"products\" : {{").unwrap();
    for i in 0..360_000 {
        writeln!(
            f,
            "\"PAD{i:08}\" : {{ \"sku\" : \"PAD{i:08}\", \"productFamily\" : \"Data Transfer\", \"attributes\" : {{ \"servicecode\" : \"AmazonDynamoDB\", \
             \"regionCode\" : \"us-east-2\", \"usagetype\" : \"USE2-DataTransfer-Out-Bytes-{i}\", \"transferType\" : \"AWS Outbound\", \
             \"fromLocation\" : \"US East (Ohio)\", \"toLocation\" : \"External\" }} }},"
        )
        .unwrap();
    }
    write!(f, "{rest}").unwrap();
    f.flush().unwrap();
    drop(f);
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size > 100 << 20, "{size}");
    let o = ddbsim(&["prices", "import", path.to_str().unwrap(), "--out", tmp.path().join("p").to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["catalogs"][0]["priced"], 21);
    let peak = doc["peak_memory_bytes"].as_u64().unwrap();
    assert!(peak < 256 << 20, "peak {peak} bytes for a file of {size}");
}

/// `aws pricing get-products` output (each product and its terms as JSON text in `PriceList`,
/// the AWS CLI's pages merged) holds the same facts: the same catalog as the offer file's.
#[test]
fn get_products_output_gives_the_offer_files_catalog() {
    let read = |f: &str| read_offer_file(&fixture(f)).unwrap();
    let cw = read("AmazonCloudWatch-us-east-2.json");
    let from_offer = build_catalogs(&[read(FILES[0]), cw.clone()]).unwrap();
    let from_api = build_catalogs(&[read("get-products-AmazonDynamoDB-us-east-2.json"), cw]).unwrap();
    let strip = |t: &str| t.lines().filter(|l| !l.starts_with("price_list")).collect::<Vec<_>>().join("\n");
    assert_eq!(strip(&from_api[0].text), strip(&from_offer[0].text));
    assert_eq!(from_api[0].priced, 23);
}
