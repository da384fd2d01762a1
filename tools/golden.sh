#!/usr/bin/env bash
# Every output a refactor must keep byte for byte: each bundled scenario run in both fidelities
# (capped at 2 simulated hours), and the JSON documents of compare, check, recommend, sweep and
# shards on a few of them. Usage: tools/golden.sh BINARY OUTDIR; then `diff -r` two OUTDIRs.
set -euo pipefail
bin=$(realpath "$1"); out=$2
rm -rf "$out"; mkdir -p "$out"
cd "$(dirname "$0")/.."
for s in scenarios/*.toml scenarios/imported/*.toml; do
  n=$(basename "$s" .toml)
  for f in fast exact; do
    "$bin" run "$s" --fidelity "$f" --duration 2h --out "$out/run-$n-$f" --quiet --force >/dev/null 2>"$out/run-$n-$f.err" || echo "exit $?" >>"$out/run-$n-$f.err"
  done
done
for n in hot-key quickstart spiky-batch production-bill gsi-cascade dax-catalog global-catalog; do
  "$bin" compare scenarios/$n.toml --duration 1h --json --force --out "$out/cmp-$n" >"$out/compare-$n.json" 2>/dev/null || echo "exit $?" >>"$out/compare-$n.json"
  "$bin" recommend scenarios/$n.toml --duration 1h --budget 6 --json --out "$out/rec-$n" >"$out/recommend-$n.json" 2>/dev/null || echo "exit $?" >>"$out/recommend-$n.json"
done
for n in good-design hot-key ecommerce-single-table over-indexed status-gsi lsi-power-user user-activity date-partition-key; do
  "$bin" check scenarios/$n.toml --json --out "$out/check-$n" >"$out/check-$n.json" 2>/dev/null || echo "exit $?" >>"$out/check-$n.json"
done
"$bin" sweep scenarios/hot-key.toml --set keys.device.shards.count=1,2,4 --replications 2 --duration 5m --json --out "$out/sweep" >"$out/sweep.json" 2>/dev/null
"$bin" shards scenarios/hot-key.toml --key device --max 4 --replications 2 --duration 5m --json --out "$out/shards" >"$out/shards.json" 2>/dev/null
"$bin" import tests/fixtures/import/describe-table.json --json >"$out/import.json" 2>/dev/null || true
"$bin" schema >"$out/schema.json"
