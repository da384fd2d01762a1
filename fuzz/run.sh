#!/usr/bin/env bash
# Runs one fuzz target for a time: fuzz/run.sh engine 1800   (or: scenario 1800)
# The corpus grows in fuzz/corpus/TARGET; crashes land in fuzz/artifacts/TARGET. Minimise the
# corpus before committing it: cargo +nightly fuzz cmin TARGET
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: fuzz/run.sh TARGET SECONDS}
secs=${2:-1800}
bash fuzz/setup.sh >/dev/null
mkdir -p "fuzz/corpus/$target"
# No sanitizer: ddbsim is safe Rust (its one unsafe call sets a signal disposition in the CLI), and
# AddressSanitizer would cost 3x in executions; debug assertions catch arithmetic overflow.
# rss_limit_mb: the guard keeps an accepted run under 1.5 GiB; malloc_limit_mb catches a single
# allocation that escapes it.
exec cargo +nightly fuzz run --sanitizer none --debug-assertions "$target" "fuzz/corpus/$target" -- \
  -max_total_time="$secs" -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=60 -print_final_stats=1
