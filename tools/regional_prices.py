#!/usr/bin/env python3
"""Writes the built-in price catalogs prices/<region>.toml.

Where the numbers come from (each catalog says it per price, with the source IDs of
docs/prices-verified.md, "the verification"):

- A value found in the verification's sources (Price-List-derived readings: Infracost's golden
  file, a Pricing-Calculator reconciliation, dated offer-file quotes; and AWS's own
  reserved-capacity tool) is taken as found. No AWS page or Price List file was read first-hand.
- `verified = true` only where the verification rates the value **strong**: two or more
  independent sources derived from AWS's Price List agree on it. One secondary source, AWS's
  reserved-capacity tool alone, an analogy, or an inference is `verified = false`, and reports
  print "(price unverified)" beside it.
- Every other price of a region is **inferred**: the us-east-1 price times the region's
  provisioned-WCU ratio to us-east-1. Before the November 2024 cut this ratio reproduced the
  regions' on-demand and storage prices; after it AWS rounded each region's prices separately,
  and the verification found the ratio off by 0.1-2.8 % wherever a price was read. Unverified.
- A replicated write request unit costs a write request unit in the same region since November
  2024 (S3, S1/S2, S14): where a region's WRU was found, its rWRU is inferred equal.
- us-east-2 sells no 3-year reserved capacity (AWS's tool removed it, S7's CHANGELOG; the Price
  List holds no such SKU, S2): its catalog marks those items `offered = false`.

Run from the repository root: python3 tools/regional_prices.py
"""
import tomllib

TOOL = "awslabs/amazon-dynamodb-tools archived/reco/src/ddb_rc_reco/config.py (AWS-maintained)"
VERIFICATION = "docs/prices-verified.md"
# region: (tool code, provisioned WCU-hour from AWS's tool, transfer out per GB (recalled))
REGIONS = {
    "us-east-2": ("CMH", 0.00065, 0.02),
    "us-west-2": ("PDX", 0.00065, 0.02),
    "eu-west-1": ("DUB", 0.000735, 0.02),
    "eu-central-1": ("FRA", 0.000793, 0.02),
    "ap-southeast-1": ("SIN", 0.00074, 0.09),
    "ap-northeast-1": ("NRT", 0.000742, 0.09),
}
BASE_WCU = 0.00065
RES = ["reserved_1y_wcu_100_upfront", "reserved_1y_wcu_100_hour", "reserved_1y_rcu_100_upfront", "reserved_1y_rcu_100_hour"]
RES3 = [r.replace("1y", "3y") for r in RES]
DAX = ["dax_r5_large_hour", "dax_r5_xlarge_hour", "dax_r5_2xlarge_hour", "dax_r5_4xlarge_hour",
       "dax_r5_8xlarge_hour", "dax_r5_12xlarge_hour", "dax_r5_16xlarge_hour", "dax_r5_24xlarge_hour"]
S, W = True, False  # strong, weak

# What the verification found, per region: item -> (USD, sources, strong?).
FOUND = {
    "us-east-1": {
        "on_demand_write_per_million": (0.625, "S3, S4, S8", S),
        "on_demand_read_per_million": (0.125, "S3, S4, S8", S),
        "provisioned_wcu_hour": (0.00065, "S7, S8, S19", S),
        "provisioned_rcu_hour": (0.00013, "S3, S7, S8", S),
        "storage_gb_month": (0.25, "S3, S4, S9; the first 25 GB-month free in the offer file", S),
        "ia_on_demand_write_per_million": (0.78, "S3, S4, S8", S),
        "ia_on_demand_read_per_million": (0.155, "S3, S4, S8", S),
        "ia_provisioned_wcu_hour": (0.00081, "S8, S19", S),
        "ia_provisioned_rcu_hour": (0.00016, "S8, S19", S),
        "ia_storage_gb_month": (0.1, "S3, S4, S9", S),
        **{k: (v, "S7, S8 (S2: the same in us-east-2)", S) for k, v in zip(RES, [150.0, 0.0128, 30.0, 0.0025])},
        **{k: (v, "S7 only (AWS's tool); the Price List's 3-year SKUs were not confirmed", W)
           for k, v in zip(RES3, [180.0, 0.0081, 36.0, 0.0016])},
        "streams_read_per_100k": (0.02, "S9, S1/S2; the first 2.5 M a month free", S),
        "replicated_write_per_million": (0.625, "S3 (ReplWriteRequestUnits), S1/S2", S),
        "replicated_wcu_hour": (0.00065, "S7, S1/S2", S),
        "cross_region_transfer_gb": (0.02, "S8, S3, S16", S),
        "contributor_insights_rule_month": (0.5, "S2b (CW:ContributorRulesManaged), S15", S),
        "contributor_insights_events_per_million": (0.03, "S2b (CW:ContributorEventsManaged), S15", S),
        "pitr_gb_month": (0.2, "S4, S9, S1", S),
        "backup_gb_month": (0.1, "S9, S1/S2", S),
        "restore_gb": (0.15, "S9, S1/S2", S),
        "export_gb": (0.1, "S9, S2", S),
        "dax_r5_large_hour": (0.255, "S8, S9, S2 (us-east-2: 3 nodes x 730 h = $558.45, an AWS Pricing Calculator capture)", S),
        "dax_r5_xlarge_hour": (0.509, "S8, S9", S),
        **{k: (v, "S8 (ScyllaDB's calculator)", W) for k, v in zip(DAX[2:], [1.017, 2.034, 4.069, 6.12, 8.137, 12.24])},
    },
    "us-east-2": {
        "on_demand_write_per_million": (0.625, "S1, S2", S),
        "on_demand_read_per_million": (0.125, "S1, S2", S),
        "provisioned_wcu_hour": (0.00065, "S1, S2, S7", S),
        "provisioned_rcu_hour": (0.00013, "S1, S2, S7", S),
        "storage_gb_month": (0.25, "S1, S2", S),
        "ia_on_demand_write_per_million": (0.78, "S2 (quoted for Standard-IA replicated writes)", W),
        "ia_on_demand_read_per_million": (0.155, "S2", W),
        "ia_storage_gb_month": (0.1, "S2", W),
        **{k: (v, "S2, S7", S) for k, v in zip(RES, [150.0, 0.0128, 30.0, 0.0025])},
        "streams_read_per_100k": (0.02, "S1, S2", S),
        "replicated_write_per_million": (0.625, "S1, S2", S),
        "replicated_wcu_hour": (0.00065, "S1, S2, S7", S),
        "contributor_insights_rule_month": (0.5, "S2b, S15", S),
        "contributor_insights_events_per_million": (0.03, "S2b, S15", S),
        "pitr_gb_month": (0.2, "S1, S2", S),
        "backup_gb_month": (0.1, "S1, S2", S),
        "restore_gb": (0.15, "S1, S2", S),
        "export_gb": (0.1, "S2", W),
        "dax_r5_large_hour": (0.255, "S2: 3 nodes x 730 h x $0.255 = $558.45, an AWS Pricing Calculator capture", W),
    },
    "us-west-2": {
        "provisioned_wcu_hour": (0.00065, "S7, S19b (USW2-WriteCapacityUnit-Hrs)", S),
        "provisioned_rcu_hour": (0.00013, "S7, S19b (USW2-ReadCapacityUnit-Hrs)", S),
        "storage_gb_month": (0.25, "S19b (a test fixture of the offer file)", W),
        **{k: (v, "S7 only (AWS's tool)", W) for k, v in zip(RES + RES3, [150.0, 0.0128, 30.0, 0.0025, 180.0, 0.0081, 36.0, 0.0016])},
        "replicated_wcu_hour": (0.00065, "S7", W),
        "pitr_gb_month": (0.2, "S11 (SKU UKQHCFER4QFSMKMD, USW2-TimedPITRStorage-ByteHrs)", W),
    },
    "eu-west-1": {
        "on_demand_write_per_million": (0.705, "S4, S10b, S10c, S10d", S),
        "on_demand_read_per_million": (0.1415, "S4, S10b, S10c, S10d", S),
        "provisioned_wcu_hour": (0.000735, "S10a (SKU 36CGV8QUHJZG65HD), S10c, S7", S),
        "provisioned_rcu_hour": (0.000147, "S10a (SKU J7FH9ZNSN6J2RR9Q), S10c, S7", S),
        "storage_gb_month": (0.283, "S4, S10b, S10d", S),
        "ia_on_demand_write_per_million": (0.885, "S4", W),
        "ia_on_demand_read_per_million": (0.177, "S4", W),
        "ia_storage_gb_month": (0.1132, "S4", W),
        **{k: (v, "S10a (Price List, 2025-08-28), S7", S)
           for k, v in zip(RES + RES3, [169.5, 0.0145, 33.9, 0.0029, 203.4, 0.0092, 40.68, 0.0018])},
        "replicated_write_per_million": (0.705, "inferred: rWRU = WRU since November 2024 (S3, S1/S2, S14), and WRU $0.705", W),
        "replicated_wcu_hour": (0.000735, "S7", W),
        "cross_region_transfer_gb": (0.02, "S16 (EU-USE1-AWS-Out-Bytes)", W),
        "pitr_gb_month": (0.22, "S4, S10b (not 0.8 x storage, as elsewhere)", S),
    },
    "eu-central-1": {
        "on_demand_write_per_million": (0.7625, "S4, S5", S),
        "on_demand_read_per_million": (0.1525, "S4, S5", S),
        "provisioned_wcu_hour": (0.000793, "S7", W),
        "provisioned_rcu_hour": (0.0001586, "S7", W),
        "storage_gb_month": (0.306, "S4, S5", S),
        "ia_on_demand_write_per_million": (0.955, "S4", W),
        "ia_on_demand_read_per_million": (0.1905, "S4", W),
        "ia_storage_gb_month": (0.1224, "S4", W),
        **{k: (v, "S7 only (AWS's tool)", W) for k, v in zip(RES + RES3, [183.0, 0.0157, 36.6, 0.0032, 219.6, 0.0099, 43.8, 0.0019])},
        "replicated_write_per_million": (0.7625, "inferred: rWRU = WRU since November 2024 (S3, S1/S2, S14), and WRU $0.7625", W),
        "replicated_wcu_hour": (0.000793, "S7", W),
        "cross_region_transfer_gb": (0.02, "S16 (EUC1-APS1-AWS-Out-Bytes)", W),
        "pitr_gb_month": (0.2448, "S4, S5", S),
    },
    "ap-southeast-1": {
        "provisioned_wcu_hour": (0.00074, "S7", W),
        "provisioned_rcu_hour": (0.000148, "S7", W),
        **{k: (v, "S7 only (AWS's tool)", W) for k, v in zip(RES + RES3, [171.0, 0.0146, 34.2, 0.0029, 205.2, 0.0093, 41.04, 0.0018])},
        "replicated_wcu_hour": (0.00074, "S7", W),
    },
    "ap-northeast-1": {
        "on_demand_write_per_million": (0.715, "S6, S12a (APN1-WriteRequestUnits), S12b, S12c", S),
        "on_demand_read_per_million": (0.1425, "S6, S12a (APN1-ReadRequestUnits), S12b, S12c", S),
        "provisioned_wcu_hour": (0.000742, "S7", W),
        "provisioned_rcu_hour": (0.0001484, "S7", W),
        "storage_gb_month": (0.285, "S6, S12b", S),
        "ia_storage_gb_month": (0.114, "S12b (a test fixture of the offer file)", W),
        **{k: (v, "S7 only (AWS's tool)", W) for k, v in zip(RES + RES3, [171.4, 0.0147, 34.2, 0.0029, 205.6, 0.0093, 41.0, 0.0018])},
        "replicated_write_per_million": (0.715, "inferred: rWRU = WRU since November 2024 (S3, S1/S2, S14), and WRU $0.715", W),
        "replicated_wcu_hour": (0.000742, "S7", W),
        "cross_region_transfer_gb": (0.09, "S12a (APN1-APN3-AWS-Out-Bytes, Tokyo to Osaka)", W),
        "pitr_gb_month": (0.228, "S6", W),
        "backup_gb_month": (0.114, "S6", W),
        "restore_gb": (0.171, "S6", W),
    },
}
NOT_OFFERED = {
    "us-east-2": (RES3, "not sold in us-east-2: AWS's tool removed it because it 'does not appear on public pricing page' "
                        f"(S7 CHANGELOG 1.1.2), and the Price List holds no 3-year SKU there (S2, 2026-05); {VERIFICATION}"),
}

HEADER = """# DynamoDB list prices, {region}. Written by tools/regional_prices.py (see it for the rules);
# the sources S1-S19 are those of {verification}, which compared every price
# with Price-List-derived sources (no AWS page or Price List file could be read first-hand).
# `verified = true`: two or more independent Price-List-derived sources agree on the value
# ("strong"). `verified = false`: one secondary source, AWS's reserved-capacity tool alone, an
# analogy or an inference (a ratio to us-east-1); reports print "(price unverified)" beside it.
# Replace or override any of them with `--prices FILE` or `[pricing.overrides]`."""


def sig(x, n=6):
    return float(f"{x:.{n}g}")


def found_source(sources, strong):
    return f"{VERIFICATION}: {sources} ({'strong: 2+ Price-List-derived sources agree' if strong else 'weak: one source or an inference'})"


def write(region, items, free_tier, prices_read_on):
    out = [HEADER.format(region=region, verification=VERIFICATION), f'region = "{region}"', 'currency = "USD"',
           f'prices_read_on = "{prices_read_on}"', ""]
    not_offered, why = NOT_OFFERED.get(region, ([], ""))
    for name, (usd, verified, source) in items.items():
        if name in not_offered:
            out += [f"[items.{name}]", "offered = false", "verified = true", f'source = "{why}"', ""]
        else:
            out += [f"[items.{name}]", f"usd = {usd!r}", f"verified = {'true' if verified else 'false'}", f'source = "{source}"', ""]
    out += ["[free_tier]", f"rcu = {free_tier['rcu']}", f"wcu = {free_tier['wcu']}", f"storage_gb = {free_tier['storage_gb']}", ""]
    with open(f"prices/{region}.toml", "w") as f:
        f.write("\n".join(out))


def main():
    with open("prices/us-east-1.toml", "rb") as f:
        base = tomllib.load(f)
    # us-east-1: its found values and their strength; the rest keep their hand-written sources.
    east = {}
    for name, item in base["items"].items():
        if name in FOUND["us-east-1"]:
            usd, sources, strong = FOUND["us-east-1"][name]
            east[name] = (usd, strong, found_source(sources, strong))
        else:
            east[name] = (item["usd"], item["verified"], item["source"])
    write("us-east-1", east, base["free_tier"], base["prices_read_on"])
    for region, (code, wcu, transfer) in REGIONS.items():
        ratio = wcu / BASE_WCU
        items = {}
        for name, (east_usd, _, _) in east.items():
            if name in FOUND[region]:
                usd, sources, strong = FOUND[region][name]
                items[name] = (usd, strong, found_source(sources, strong))
            elif name.startswith("contributor_insights"):
                items[name] = (east_usd, False, "us-east-1's: CloudWatch's regional prices were not found (not derived from DynamoDB's ratio)")
            elif name == "cross_region_transfer_gb":
                items[name] = (transfer, False, f"recalled from AWS's data-transfer pricing: out of {region} to another AWS region, per GB (not found in a source)")
            elif ratio == 1.0:
                items[name] = (east_usd, False, f"inferred: equal to us-east-1 ({code}'s provisioned prices equal us-east-1's, {TOOL}); not found for {region}")
            else:
                items[name] = (sig(east_usd * ratio), False,
                               f"inferred: us-east-1 ${east_usd} x {wcu} / {BASE_WCU} ({code}'s provisioned WCU-hour over us-east-1's, {TOOL}); not found for {region}")
        write(region, items, base["free_tier"], base["prices_read_on"])


if __name__ == "__main__":
    main()
