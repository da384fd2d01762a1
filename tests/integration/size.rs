//! `ddbsim size`: an item's bytes, units and index entries, against sizes worked by hand from
//! the rules (spec §1.1 and §17).

use crate::ddbsim;

/// `ddbsim size` of the order fixture with its table keys and the ByStatus index.
const ORDER: &[&str] =
    &["size", "tests/fixtures/items/order.json", "--key", "PK", "--key", "SK", "--index", "ByStatus:status,SK:include=total"];

/// tests/fixtures/items/order.json, by hand. Names: PK 2, SK 2, status 6, total 5, currency
/// 8, lines 5, note 4 = 32 bytes. Values: "CUSTOMER#c-1042" 15, "ORDER#2026-12-07#8812" 21,
/// "SHIPPED" 7, 129.95 4 (1 + ceil(3 / 2) + ceil(2 / 2)), "EUR"
/// 3, the list of one map {"sku": "TEE-M", "qty": 2}: map 3 + (1 + 3 + 5) + (1 + 3 + 2) = 18,
/// list 3 + (1 + 18) = 22, and a note of 1,200 bytes: 1,272. The item: 1,304 bytes, 1,404
/// stored; one 4 KB block to read (0.5 / 1 / 2 RCU), two 1 KB blocks to write (2 WCU, 4
/// transactional). ByStatus (status, SK; total included) holds PK 17 + SK 23 + status 13 +
/// total 9 = 62 bytes: 1 WCU, 162 stored; ByNote (note, keys only) PK 17 + SK 23 + note 1,204
/// = 1,244: 2 WCU; ByEmail has no entry (no `email`); ByAll projects the item: 1,304, 2 WCU.
#[test]
fn an_item_is_sized_by_hand() {
    let o = ddbsim(&[ORDER, &["--index", "ByNote:note", "--index", "ByEmail:email", "--index", "ByAll:status:all"]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        "tests/fixtures/items/order.json: 1304 bytes (limit 409600); 1404 stored with the 100-byte overhead
  read:  0.5 RCU eventually consistent, 1 strongly, 2 transactional (4 KB blocks)
  write: 2 WCU, 4 transactional (1 KB blocks)
  index ByStatus: entry 62 bytes, 1 WCU a write of it, 162 stored
  index ByNote: entry 1244 bytes, 2 WCU a write of it, 1344 stored
  index ByEmail: no entry (the item has no `email`: a sparse index skips it)
  index ByAll: entry 1304 bytes, 2 WCU a write of it, 1404 stored
"
    );
    let o = ddbsim(&["size", "tests/fixtures/items/order.json", "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let keys: Vec<&str> = doc.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["bytes", "indexes", "item", "read_units", "stored_bytes", "write_units"]);
    assert_eq!(doc["bytes"], 1304);
    assert_eq!(doc["write_units"]["transactional"], 4.0);
}

/// Bad input names the file and where: JSON that does not parse (its line and column), a
/// value of no DynamoDB type (its path), a key the item lacks, an index that does not parse,
/// an item over 409,600 bytes; exit 1 and nothing on stdout.
#[test]
fn bad_items_are_named_with_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let fails = |args: &[&str], want: &str| {
        let o = ddbsim(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(err.contains(want), "{args:?}: {err}");
    };
    let broken = file("broken.json", "{\n  \"a\": {\"S\": \"x\"},\n  \"b\": \n}\n");
    fails(&["size", &broken], "broken.json:4:1: not JSON");
    let typo = file("typo.json", r#"{"a": {"M": {"b": {"SN": ["1"]}}}}"#);
    fails(&["size", &typo], "typo.json: at /a/M/b/SN: \"SN\" is not a DynamoDB type");
    let ok = file("ok.json", r#"{"id": {"S": "1"}}"#);
    fails(&["size", &ok, "--key", "pk"], "ok.json: the item has no `pk`");
    fails(&["size", &ok, "--index", "ByX"], "--index \"ByX\": an index has 1 to 8 key attributes");
    fails(&["size", &ok, "--index", "ByX:id:some"], "\"some\" is not a projection");
    let big = file("big.json", &format!(r#"{{"a": {{"S": "{}"}}}}"#, "x".repeat(409_600)));
    fails(&["size", &big], "big.json: the item is 409601 bytes: DynamoDB refuses items over 409600 bytes");
    let limit = file("limit.json", &format!(r#"{{"a": {{"S": "{}"}}}}"#, "x".repeat(409_599)));
    assert!(ddbsim(&["size", &limit]).status.success());
    fails(&["size", "no/such/item.json"], "no/such/item.json: cannot read the item");
}

/// README shows what `ddbsim size` prints, byte for byte.
#[test]
fn readme_shows_what_size_prints() {
    let o = ddbsim(&[ORDER, &["--index", "ByEmail:email"]].concat());
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    let readme = std::fs::read_to_string("README.md").unwrap();
    assert!(readme.contains(&out), "README's `ddbsim size` example differs from:\n{out}");
}

/// A pattern sized by its sample item: `item_bytes = { item = "order.json" }` beside the
/// scenario is the 1,304 bytes worked above, so each put is 2 WCU and each strongly
/// consistent get 1 RCU; a missing file, an item that is not DynamoDB JSON, and an item over
/// the limit are problems naming the scenario's line and key and the item's file and place.
#[test]
fn a_pattern_is_sized_by_its_sample_item() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("sc");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy("tests/fixtures/items/order.json", dir.join("order.json")).unwrap();
    let text = |item: &str| {
        format!(
            "[scenario]\nduration = \"1m\"\n[table]\nname = \"Orders\"\npartition_key = \"k\"\ncapacity = {{ mode = \"on_demand\" }}\n[keys.k]\ncardinality = 1000\n\
             [[pattern]]\nname = \"put\"\nop = \"put_item\"\nitem_bytes = {{ item = \"{item}\" }}\nrate = {{ constant = 10 }}\n"
        )
    };
    let path = dir.join("orders.toml");
    std::fs::write(&path, text("order.json")).unwrap();
    let sc = ddbsim::scenario::load(&path).unwrap();
    assert_eq!(sc.patterns[0].size, ddbsim::scenario::SizeSpec::Fixed(1_304));
    let r = crate::run(&sc);
    let (puts, wcu) = (r.patterns[0].served, r.resources[0].minutes.iter().map(|m| m.consumed[1]).sum::<u64>());
    assert!(puts > 0);
    assert_eq!(wcu, 2_000 * puts, "2 WCU a put of 1,304 bytes");

    let problem = |item: &str, file: Option<&str>| {
        if let Some(f) = file {
            std::fs::write(dir.join(item), f).unwrap();
        }
        std::fs::write(&path, text(item)).unwrap();
        ddbsim::scenario::load(&path).unwrap_err().to_string()
    };
    let e = problem("gone.json", None);
    assert!(e.contains("orders.toml:12") && e.contains("item_bytes.item") && e.contains("gone.json: cannot read the sample item"), "{e}");
    let e = problem("typo.json", Some(r#"{"k": {"S": "1"}, "total": {"N": "12,5"}}"#));
    assert!(e.contains("typo.json: at /total/N: \"12,5\" is not a number"), "{e}");
    let e = problem("big.json", Some(&format!(r#"{{"a": {{"S": "{}"}}}}"#, "x".repeat(409_600))));
    assert!(e.contains("the item is 409601 bytes: DynamoDB refuses items over 409600 bytes"), "{e}");
    let e = problem("../outside.json", Some("{}"));
    assert!(e.contains("outside the scenario's folder"), "{e}");
}

/// A put of the scenario `text` with `size` as its `item_bytes`, loaded from `dir`.
fn sized(dir: &std::path::Path, size: &str) -> Result<ddbsim::scenario::Scenario, String> {
    let text = format!(
        "[scenario]\nduration = \"10m\"\n[table]\nname = \"Orders\"\npartition_key = \"k\"\ncapacity = {{ mode = \"on_demand\" }}\n[keys.k]\ncardinality = 1000\n\
         [[pattern]]\nname = \"put\"\nop = \"put_item\"\nitem_bytes = {size}\nrate = {{ constant = 100 }}\n"
    );
    let path = dir.join("orders.toml");
    std::fs::write(&path, text).unwrap();
    ddbsim::scenario::load(&path).map_err(|e| e.to_string())
}

/// The inline sample item is sized as the file form: `{"k": "CUST#1", "total": 129.95}` is
/// 1 + 6 + 5 + 4 (1 + 2 + 1 for 129.95) = 16 bytes.
#[test]
fn a_sample_item_can_be_inline() {
    let dir = tempfile::tempdir().unwrap();
    let sc = sized(dir.path(), r#"{ item = { k = { S = "CUST#1" }, total = { N = "129.95" } } }"#).unwrap();
    assert_eq!(sc.patterns[0].size, ddbsim::scenario::SizeSpec::Fixed(16));
    let e = sized(dir.path(), r#"{ item = { k = { S = "CUST#1" }, total = { N = 129.95 } } }"#).unwrap_err();
    assert!(e.contains("orders.toml:12") && e.contains("item_bytes.item") && e.contains("at /total/N: a N value is a JSON string"), "{e}");
}

/// The schema form (README's example): names PK 2 + SK 2 + price 5 + tags 4 + payload 7 = 20,
/// values S:24 + S:40 + N:6 (1 + 3) + SS:5x12 = 128, payload B:1800: 1,948 bytes, 2 WCU a
/// put. With a payload of 1,000..3,000 bytes the item is uniform over 1,148..3,148 bytes
/// (one attribute varies: its own range), mean 2,148; a put's write units are its bytes over
/// 1 KB rounded up: 2 WCU below 2,048 bytes, 3 below 3,072 and 4 above, so a put averages
/// 2 x 900/2,000 + 3 x 1,024/2,000 + 4 x 76/2,000 = 2.588 WCU (2,000 being the width of the
/// range: 1,148..2,048 is 900 wide, 2,048..3,072 1,024, 3,072..3,148 76).
#[test]
fn an_item_is_sized_from_its_schema() {
    let dir = tempfile::tempdir().unwrap();
    let fixed = r#"{ attributes = { PK = "S:24", SK = "S:40", price = "N:6", tags = "SS:5x12", payload = "B:1800" } }"#;
    let sc = sized(dir.path(), fixed).unwrap();
    assert_eq!(sc.patterns[0].size, ddbsim::scenario::SizeSpec::Fixed(1_948));
    let sc = sized(dir.path(), &fixed.replace("B:1800", "B:1000..3000")).unwrap();
    assert_eq!(sc.patterns[0].size, ddbsim::scenario::SizeSpec::Uniform { lo: 1_148, hi: 3_148 });
    let r = crate::run(&sc);
    let (puts, wcu) = (r.patterns[0].served as f64, r.resources[0].minutes.iter().map(|m| m.consumed[1]).sum::<u64>() as f64 / 1_000.0);
    // About 60,000 puts: the mean's standard error is under 0.003 WCU.
    assert!((wcu / puts - 2.588).abs() < 0.015, "{} WCU a put", wcu / puts);
}

/// A bare `N` is sized at its largest and said so; a schema that is wrong names the scenario's
/// line and the attribute's key; one that can pass 400 KB is refused.
#[test]
fn schema_problems_name_the_attribute() {
    let dir = tempfile::tempdir().unwrap();
    let sc = sized(dir.path(), r#"{ attributes = { PK = "S:24", price = "N" } }"#).unwrap();
    assert_eq!(sc.patterns[0].size, ddbsim::scenario::SizeSpec::Fixed(2 + 24 + 5 + 21));
    let note = sc.notes.iter().map(|n| n.display(std::path::Path::new("orders.toml"))).collect::<Vec<_>>().join("\n");
    assert!(note.contains("item_bytes.attributes.price") && note.contains("21 bytes"), "{note}");
    let e = sized(dir.path(), r#"{ attributes = { PK = "S:24", tags = "XS:3" } }"#).unwrap_err();
    assert!(e.contains("orders.toml:12") && e.contains("item_bytes.attributes.tags") && e.contains("\"XS\" is not a DynamoDB type"), "{e}");
    let e = sized(dir.path(), r#"{ attributes = { PK = "S:24", m = { M = { n = "S:ten" } } } }"#).unwrap_err();
    assert!(e.contains("item_bytes.attributes.m.M.n") && e.contains("not \"ten\""), "{e}");
    let e = sized(dir.path(), r#"{ attributes = { PK = "S:24", blob = "B:400000..410000" } }"#).unwrap_err();
    assert!(e.contains("reach 410030 bytes") && e.contains("409600"), "{e}");
}

/// Index entries sized from the sample item (worked above): with the table's and each GSI's
/// key attributes named, ByStatus (status, SK; total included) holds 62 bytes, 1 WCU a put and
/// 162 stored; ByNote (keys only, keyed on the 1,204-byte note) 1,244 bytes, 2 WCU, where the
/// 100-byte key allowance would have said 1; ByAll the item, 1,304 bytes, 2 WCU; ByEmail
/// nothing (the item has no `email`: a sparse index, said in a note). The table: 2 WCU a put.
/// An item without the table's keys is refused, and an index that projects named attributes
/// needs its writers' items.
#[test]
fn index_entries_are_sized_from_the_item() {
    let root = tempfile::tempdir().unwrap();
    std::fs::copy("tests/fixtures/items/order.json", root.path().join("order.json")).unwrap();
    let text = |keys: &str, item: &str| {
        format!(
            "[scenario]\nduration = \"10m\"\n[table]\nname = \"Orders\"\npartition_key = \"k\"\nkey_attributes = {keys}\ncapacity = {{ mode = \"on_demand\" }}\n\
             [keys.k]\ncardinality = 100000\n[keys.g]\ncardinality = 100000\n\
             [[gsi]]\nname = \"ByStatus\"\npartition_key = \"g\"\nkey_attributes = [\"status\", \"SK\"]\nprojection = {{ include = [\"total\"] }}\n\
             [[gsi]]\nname = \"ByNote\"\npartition_key = \"g\"\nkey_attributes = [\"note\"]\nprojection = \"keys_only\"\n\
             [[gsi]]\nname = \"ByEmail\"\npartition_key = \"g\"\nkey_attributes = [\"email\"]\nprojection = \"keys_only\"\n\
             [[gsi]]\nname = \"ByAll\"\npartition_key = \"g\"\nkey_attributes = [\"status\"]\n\
             [[pattern]]\nname = \"put\"\nop = \"put_item\"\nitem_bytes = {item}\nrate = {{ constant = 10 }}\n"
        )
    };
    let path = root.path().join("orders.toml");
    std::fs::write(&path, text(r#"["PK", "SK"]"#, r#"{ item = "order.json" }"#)).unwrap();
    let sc = ddbsim::scenario::load(&path).unwrap();
    let notes: Vec<String> = sc.notes.iter().map(|n| n.display(&path)).collect();
    assert!(notes.iter().any(|n| n.contains("no \"email\", a key attribute of GSI \"ByEmail\"")), "{notes:?}");
    let r = crate::run(&sc);
    let puts = r.patterns[0].served;
    assert!(puts > 5_000, "{puts}");
    let wcu: Vec<u64> = r.resources.iter().map(|x| x.minutes.iter().map(|m| m.consumed[1]).sum::<u64>() / puts / 1_000).collect();
    assert_eq!(wcu, [2, 1, 2, 0, 2], "WCU a put: table, ByStatus, ByNote, ByEmail, ByAll");
    let stored = |i: usize| r.resources[i].minutes.last().unwrap().stored_bytes;
    assert_eq!((stored(1), stored(2)), (puts * 162, puts * 1_344));

    std::fs::write(&path, text(r#"["PK", "customer"]"#, r#"{ item = "order.json" }"#)).unwrap();
    let e = ddbsim::scenario::load(&path).unwrap_err().to_string();
    assert!(e.contains("item_bytes") && e.contains("the item has no \"customer\", a key attribute of the table"), "{e}");
    std::fs::write(&path, text(r#"["PK", "SK"]"#, "1304")).unwrap();
    let e = ddbsim::scenario::load(&path).unwrap_err().to_string();
    assert!(e.contains("index \"ByStatus\" projects named attributes"), "{e}");
}

/// LSI entries sized from the sample item, charged to the table with the item (spec §1.3):
/// ByNoteL (keys only, its sort key the 1,204-byte note) holds PK 17 + SK 23 + note 1,204 =
/// 1,244 bytes, 2 WCU; ByStatusL (sort key status, total included) 62 bytes, 1 WCU; ByEmailL
/// nothing (no `email`: the item is not in it, said in a note). A put: 2 + 2 + 1 = 5 WCU on the
/// table (the 100-byte key allowance would also give 5, 2 + 1 + 1 + 1 with ByEmailL written,
/// so the bytes tell them apart): the item 1,404 stored, ByNoteL's entry 1,344 and ByStatusL's
/// 162, 2,910 bytes a put.
#[test]
fn lsi_entries_are_sized_from_the_item() {
    let root = tempfile::tempdir().unwrap();
    std::fs::copy("tests/fixtures/items/order.json", root.path().join("order.json")).unwrap();
    let path = root.path().join("orders.toml");
    std::fs::write(
        &path,
        "[scenario]\nduration = \"1m\"\n[table]\nname = \"Orders\"\npartition_key = \"k\"\nkey_attributes = [\"PK\", \"SK\"]\ncapacity = { mode = \"on_demand\" }\n\
         [keys.k]\nvalues = { only = 1.0 }\n\
         [[lsi]]\nname = \"ByNoteL\"\nkey_attributes = [\"note\"]\nprojection = \"keys_only\"\n\
         [[lsi]]\nname = \"ByStatusL\"\nkey_attributes = [\"status\"]\nprojection = { include = [\"total\"] }\n\
         [[lsi]]\nname = \"ByEmailL\"\nkey_attributes = [\"email\"]\nprojection = \"keys_only\"\n\
         [[pattern]]\nname = \"put\"\nop = \"put_item\"\nitem_bytes = { item = \"order.json\" }\nrate = { constant = 2 }\n",
    )
    .unwrap();
    let sc = ddbsim::scenario::load(&path).unwrap();
    let notes: Vec<String> = sc.notes.iter().map(|n| n.display(&path)).collect();
    assert!(notes.iter().any(|n| n.contains("no \"email\", the sort key of LSI \"ByEmailL\"")), "{notes:?}");
    let r = crate::run(&sc);
    let puts = r.patterns[0].served;
    assert!(puts > 60, "{puts}");
    assert_eq!(r.resources[0].minutes.iter().map(|m| m.consumed[1]).sum::<u64>(), puts * 5_000, "5 WCU a put");
    // The table's stored bytes hold its items and their LSI entries.
    assert_eq!(r.resources[0].minutes.last().unwrap().stored_bytes, puts * 2_910, "the table's bytes");
}
