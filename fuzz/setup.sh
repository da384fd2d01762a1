#!/usr/bin/env bash
# Makes `cargo fuzz` work on a fresh machine: the nightly toolchain (libFuzzer's sanitizer
# flags need it) and cargo-fuzz, both from the registries. Safe to run twice.
set -euo pipefail
CARGO_FUZZ_VERSION=0.13.2
if ! command -v rustup >/dev/null; then
  echo "fuzz/setup.sh: rustup is needed to install the nightly toolchain (https://rustup.rs)" >&2
  exit 1
fi
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION"; then
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi
# libFuzzer is compiled from C++ by the libfuzzer-sys build script.
if ! command -v c++ >/dev/null && ! command -v clang++ >/dev/null; then
  echo "fuzz/setup.sh: a C++ compiler is needed (Debian: apt-get install g++)" >&2
  exit 1
fi
rustup run nightly rustc --version
cargo fuzz --version
