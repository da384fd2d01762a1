#!/usr/bin/env bash
# README's performance table, measured in one run on this machine: the headline in both
# fidelities, exact mode at 100 vs 100,000 partitions, the 24 h run's peak memory with its
# outputs, and the SimPy model of the same scenario run right after exact mode (the ratio).
# Usage: bash tools/bench.sh [extra `ddbsim bench` flags, e.g. --simpy-duration 20s]
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -c 'import simpy' 2>/dev/null; then
    python3 -m pip install --quiet simpy
fi
cargo build --release --quiet
exec ./target/release/ddbsim bench --markdown --simpy tools/simpy_baseline.py "$@"
