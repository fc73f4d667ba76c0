#!/usr/bin/env bash
# ctest install.conformance: `cmake --install BUILD` into a
# temporary prefix, then PREFIX/bin/schedtrace conformance with no PATH, no
# $SCHEDTRACE_GOLDEN, from a directory outside the source tree. It must pass
# every trace, and every trace it names must be the installed copy under
# PREFIX/share/schedtrace/golden (not SOURCE/golden, which still exists).
# Usage: install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$(cd "$1" && pwd)"
source="$(cd "$2" && pwd)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/schedtrace-install.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
fail() { echo "install.conformance: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" ||
  { cat "$tmp/install.log"; fail "cmake --install failed"; }

[ -x "$prefix/bin/schedtrace" ] || fail "no $prefix/bin/schedtrace"
golden="$prefix/share/schedtrace/golden"
for f in README.md docs/MUTANTS.md golden/upstream-v1.26.7/INDEX.md \
         golden/upstream-v1.26.7/README.md; do
  [ -f "$prefix/share/schedtrace/$f" ] || fail "not installed: share/schedtrace/$f"
done
want="$(cd "$source/golden" && find . -type f | sort)"
got="$(cd "$golden" && find . -type f | sort)"
[ "$want" = "$got" ] ||
  fail "share/schedtrace/golden differs from golden/: $(diff <(echo "$want") <(echo "$got") | head -5)"
traces="$(find "$golden" -name '*.jsonl' | wc -l)"
upstream="$(find "$golden/upstream-v1.26.7" -name '*.jsonl' | wc -l)"
[ "$upstream" -gt 0 ] || fail "no upstream-v1.26.7 trace installed"

# Outside the source and build trees, with a PATH that has no schedtrace.
mkdir "$tmp/cwd"
cd "$tmp/cwd"
status=0
env -u SCHEDTRACE_GOLDEN "$prefix/bin/schedtrace" conformance -v >"$tmp/out" 2>&1 ||
  status=$?
show() { echo "--- schedtrace conformance (exit $status), last lines:"; tail -30 "$tmp/out"; }
[ "$status" -eq 0 ] || { show; fail "exit status $status, want 0"; }

# Two systems (model, impl), one PASS line per trace each (-v), every one under
# the installed corpus; a layer a system does not judge yet in a version
# (from v1.35 the layers come one by one) is skipped, as the summary counts.
passes="$(grep -c '^PASS ' "$tmp/out" || true)"
skips="$(sed -n 's/^[0-9]* passed, 0 failed, \([0-9]*\) skipped$/\1/p' "$tmp/out" | tail -1)"
skips="${skips:-0}"
[ "$((passes + skips))" -eq $((2 * traces)) ] ||
  { show; fail "$passes PASS lines and $skips skipped, want $((2 * traces)) (2 systems x $traces traces)"; }
[ "$passes" -gt "$skips" ] || { show; fail "$skips skipped, $passes PASS"; }
outside="$(grep '^PASS ' "$tmp/out" | grep -v "^PASS $golden/" | head -3 || true)"
[ -z "$outside" ] || { show; fail "traces not from $golden: $outside"; }
grep -q "^PASS $golden/upstream-v1.26.7/" "$tmp/out" ||
  { show; fail "no upstream-v1.26.7 trace replayed"; }
if grep -qF "$source/golden" "$tmp/out"; then
  show; fail "the output names the source tree's golden/"
fi
echo "install.conformance: $prefix/bin/schedtrace conformance passed" \
  "$passes trace runs ($traces traces, $upstream of upstream-v1.26.7) from $golden"
