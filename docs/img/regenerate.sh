#!/usr/bin/env bash
# Regenerates the images README shows, from the bundled scenarios, with a release build and
# Debian's chromium (for the report screenshot). Run from the repository root.
set -euo pipefail
cargo build --release --quiet
B=target/release/ddbsim
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
$B run scenarios/diurnal-staircase.toml --quiet --out "$T/ds"
$B run scenarios/status-gsi.toml --quiet --out "$T/sg"
$B run scenarios/quickstart.toml --quiet --out "$T/qs"
$B compare scenarios/spiky-batch.toml --quiet --out "$T/cmp"
$B shards scenarios/hot-date-sharding.toml --key day --quiet --out "$T/sh"
cp "$T/ds/capacity.png" docs/img/capacity-diurnal-staircase.png
cp "$T/ds/load-duration.png" docs/img/load-duration-diurnal-staircase.png
cp "$T/qs/latency.png" docs/img/latency-quickstart.png
cp "$T/sg/hot-partitions.png" docs/img/hot-partitions-status-gsi.png
cp "$T/cmp/cost.png" docs/img/cost-spiky-batch.png
cp "$T/sh/shards.png" docs/img/shards-hot-date-sharding.png
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1300,1500 \
  --virtual-time-budget=3000 --screenshot="$PWD/docs/img/report-quickstart.png" "file://$T/qs/report.html" 2>/dev/null
