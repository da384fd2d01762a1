#!/usr/bin/env sh
# Installs a released ddbsim binary: picks the build for this OS and CPU, downloads it and its
# SHA-256 checksum from the GitHub release, checks the one against the other, and puts
# `ddbsim` in DDBSIM_INSTALL_DIR (default ~/.local/bin). No Rust toolchain needed.
#
#   curl -sSfL https://raw.githubusercontent.com/OWNER/ddbsim/main/action/install.sh | sh
#
# DDBSIM_REPO (OWNER/NAME, default your-org/ddbsim), DDBSIM_VERSION (a tag such as v0.1.0, or
# latest), DDBSIM_INSTALL_DIR, and DDBSIM_DOWNLOAD_URL (a folder holding the archives and their
# .sha256 files, instead of the release: a mirror, or file:// for a local build).
set -eu

repo="${DDBSIM_REPO:-your-org/ddbsim}"
version="${DDBSIM_VERSION:-latest}"
dest="${DDBSIM_INSTALL_DIR:-$HOME/.local/bin}"

fail() {
  echo "ddbsim install: $*" >&2
  exit 1
}

os="$(uname -s)"
arch="$(uname -m)"
case "$arch" in
  x86_64 | amd64) cpu=x86_64 ;;
  aarch64 | arm64) cpu=aarch64 ;;
  *) fail "no release build for the CPU $arch: build from source with cargo install" ;;
esac
case "$os" in
  Linux) target="$cpu-unknown-linux-musl" ext=tar.gz ;;
  Darwin) target="$cpu-apple-darwin" ext=tar.gz ;;
  MINGW* | MSYS* | CYGWIN* | Windows_NT) target="x86_64-pc-windows-msvc" ext=zip ;;
  *) fail "no release build for $os: build from source with cargo install" ;;
esac

archive="ddbsim-$target.$ext"
if [ -n "${DDBSIM_DOWNLOAD_URL:-}" ]; then
  base="$DDBSIM_DOWNLOAD_URL"
elif [ "$version" = latest ]; then
  base="https://github.com/$repo/releases/latest/download"
else
  base="https://github.com/$repo/releases/download/$version"
fi

command -v curl >/dev/null 2>&1 || fail "curl is needed to download $archive"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
curl -sSfL "$base/$archive" -o "$tmp/$archive" || fail "could not download $base/$archive"
curl -sSfL "$base/$archive.sha256" -o "$tmp/$archive.sha256" || fail "could not download $base/$archive.sha256"

want="$(cut -d ' ' -f 1 < "$tmp/$archive.sha256")"
if command -v sha256sum >/dev/null 2>&1; then
  got="$(sha256sum "$tmp/$archive" | cut -d ' ' -f 1)"
else
  got="$(shasum -a 256 "$tmp/$archive" | cut -d ' ' -f 1)"
fi
[ "$want" = "$got" ] || fail "$archive: checksum $got is not the release's $want; nothing installed"

mkdir -p "$tmp/x" "$dest"
case "$ext" in
  tar.gz) tar -xzf "$tmp/$archive" -C "$tmp/x" ;;
  zip) unzip -q "$tmp/$archive" -d "$tmp/x" ;;
esac
bin="ddbsim"
[ "$ext" = zip ] && bin="ddbsim.exe"
[ -f "$tmp/x/$bin" ] || fail "$archive holds no $bin"
# Into place whole: a copy beside the destination, then a rename.
cp "$tmp/x/$bin" "$dest/.$bin.new"
chmod 755 "$dest/.$bin.new"
mv "$dest/.$bin.new" "$dest/$bin"
if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$dest" >> "$GITHUB_PATH"
fi
echo "installed $("$dest/$bin" --version) to $dest/$bin"
