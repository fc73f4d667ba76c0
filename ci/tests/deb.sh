#!/usr/bin/env bash
# ctest install.deb: `cpack -G DEB` on the built tree makes a
# Debian package whose contents hold usr/bin/schedtrace, the golden corpus
# and the docs under usr/share/schedtrace, and whose Depends (dpkg-shlibdeps)
# name abseil; unpacked, its schedtrace passes conformance on its corpus.
# Usage: deb.sh BUILD_DIR SOURCE_DIR [--no-depends]
# --no-depends: without dpkg-shlibdeps (most of the time this takes), so
# without Depends; the rest is checked the same.
set -euo pipefail
build="$(cd "$1" && pwd)"
source="$(cd "$2" && pwd)"
depends_flags=()
check_depends=1
if [ "${3:-}" = --no-depends ]; then
  depends_flags=(-D CPACK_DEBIAN_PACKAGE_SHLIBDEPS=OFF)
  check_depends=""
fi
tmp="$(mktemp -d "${TMPDIR:-/tmp}/schedtrace-deb.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "install.deb: $*" >&2; exit 1; }

(cd "$tmp" && cpack -G DEB "${depends_flags[@]}" \
  --config "$build/CPackConfig.cmake" -B "$tmp/out") \
  >"$tmp/cpack.log" 2>&1 || { cat "$tmp/cpack.log"; fail "cpack failed"; }
debs=("$tmp"/out/schedtrace_*.deb)
[ -f "${debs[0]}" ] || { cat "$tmp/cpack.log"; fail "no schedtrace_*.deb"; }
deb="${debs[0]}"

dpkg-deb -c "$deb" | awk '{ print $NF }' | sed 's|^\./||' >"$tmp/contents"
for f in usr/bin/schedtrace usr/share/schedtrace/README.md \
         usr/share/schedtrace/docs/MUTANTS.md \
         usr/share/schedtrace/golden/upstream-v1.26.7/INDEX.md; do
  grep -qx "$f" "$tmp/contents" || fail "$f not in $(basename "$deb")"
done
want="$(cd "$source/golden" && find . -name '*.jsonl' | wc -l)"
got="$(grep -c '^usr/share/schedtrace/golden/.*\.jsonl$' "$tmp/contents" || true)"
[ "$got" -eq "$want" ] || fail "$got golden traces in the package, want $want"
if grep -Eq '_test$|^usr/bin/(fuzz_|schedtrace_)' "$tmp/contents"; then
  fail "test or fuzz binaries packaged: $(grep -E '_test$|^usr/bin/(fuzz_|schedtrace_)' "$tmp/contents")"
fi

[ "$(dpkg-deb -f "$deb" Package)" = schedtrace ] || fail "Package is not schedtrace"
arch="$(dpkg-deb -f "$deb" Architecture)"
[ "$arch" = "$(dpkg --print-architecture)" ] || fail "Architecture $arch"
depends="$(dpkg-deb -f "$deb" Depends)"
if [ -n "$check_depends" ]; then
  case "$depends" in *libabsl*) ;; *) fail "Depends lacks abseil: $depends" ;; esac
fi

# The unpacked package works where it lands: its schedtrace replays its own
# corpus (as /usr/bin/schedtrace would /usr/share/schedtrace/golden).
dpkg-deb -x "$deb" "$tmp/root"
mkdir "$tmp/cwd"
status=0
(cd "$tmp/cwd" && env -u SCHEDTRACE_GOLDEN "$tmp/root/usr/bin/schedtrace" conformance -v) \
  >"$tmp/conformance.out" 2>&1 || status=$?
[ "$status" -eq 0 ] || { tail -20 "$tmp/conformance.out"; fail "packaged schedtrace conformance: exit $status"; }
runs="$(grep -c "^PASS $tmp/root/usr/share/schedtrace/golden/" "$tmp/conformance.out" || true)"
# A layer a system does not judge yet in a version is skipped (the summary
# line counts them).
skips="$(sed -n 's/^[0-9]* passed, 0 failed, \([0-9]*\) skipped$/\1/p' "$tmp/conformance.out" | tail -1)"
runs=$((runs + ${skips:-0}))
[ "$runs" -eq $((2 * want)) ] ||
  { tail -20 "$tmp/conformance.out"; fail "packaged schedtrace replayed $runs traces of its corpus, want $((2 * want))"; }
echo "install.deb: $(basename "$deb"), $got traces, conformance passes from it; Depends: ${depends:-(not computed)}"
