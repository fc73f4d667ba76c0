#!/usr/bin/env bash
# ctest examples.cache.js / examples.cache.python: the example adapters of
# docs/examples/ (the cache layer of v1.26.7) against
#   1. every cache trace of v1.26.7 in golden/: all pass, none fails;
#   2. generated cache traces whose clock starts high (--high-clock=1: near
#      the int64-nanosecond limit, or near 2^62 ms, beyond 2^53): all pass;
#   3. the same traces, and then golden/, against a copy of the adapter
#      that reads integers as a double-based JSON reader does (rounded to
#      53 bits): some fail in each, so the exact integers of (1) and (2)
#      are what make them pass;
#   4. a copy keyed by pod name instead of uid: it passes 30 plain
#      generated traces (diff --plain) and fails diff's default mix of
#      plain, perturbed and hostile ones, the command ADAPTERS.md gives.
# Skips (77) when the interpreter is missing, unless $CI is set (ci/test):
# there ci/bootstrap installs it and a missing one is a failure.
# Usage: example-adapter.sh SCHEDTRACE SOURCE_DIR js|python
set -euo pipefail
schedtrace="$1"
source="$(cd "$2" && pwd)"
lang="$3"
name="examples.cache.$lang"
fail() { echo "$name: $*" >&2; exit 1; }

case "$lang" in
  js)
    interpreter="$(command -v node || command -v nodejs || true)"
    wanted="node (or nodejs)"
    adapter="$source/docs/examples/cache-adapter.js"
    # JSON.parse rounds every integer beyond 2^53 before the reviver sees
    # it; the reviver then makes the rounded value a BigInt.
    exact='const msg = parseJson(line);'
    rounded='const msg = JSON.parse(line, (k, v) => (Number.isInteger(v) ? BigInt(v) : v));'
    variant="rounded.js"
    ;;
  python)
    interpreter="$(command -v python3 || true)"
    wanted="python3"
    adapter="$source/docs/examples/cache_adapter.py"
    # Every integer through a double, as a float-based reader gives it.
    exact='msg = json.loads(line)'
    rounded='msg = json.loads(line, parse_int=lambda s: int(float(s)))'
    variant="rounded.py"
    ;;
  *) fail "unknown example language '$lang' (js or python)" ;;
esac
if [ -z "$interpreter" ]; then
  if [ -n "${CI:-}" ]; then
    fail "no $wanted on PATH (ci/bootstrap installs it)"
  fi
  echo "$name: skipped: no $wanted on PATH to run $adapter"
  exit 77
fi

# The counts of a run, from its JSON report (schema schedtrace-report/1),
# read with the example's own interpreter: "passed failed skipped" of the
# row of v1.26.7's cache layer, or of the whole run with "all".
counts() {  # REPORT v1.26.7|all
  case "$lang" in
    js) "$interpreter" -e '
      const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
      const s = r.systems[0];
      const row = process.argv[2] === "all" ? s
        : s.table.find((x) => x.upstream === process.argv[2] && x.layer === "cache") || {};
      console.log(`${row.passed} ${row.failed} ${row.skipped}`);' "$1" "$2" ;;
    python) "$interpreter" -c '
import json, sys
s = json.load(open(sys.argv[1]))["systems"][0]
rows = [x for x in s["table"] if x["upstream"] == sys.argv[2] and x["layer"] == "cache"]
row = s if sys.argv[2] == "all" else (rows[0] if rows else {})
print(row.get("passed"), row.get("failed"), row.get("skipped"))' "$1" "$2" ;;
  esac
}

tmp="$(mktemp -d "${TMPDIR:-/tmp}/schedtrace-example.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
show() { echo "--- $1 (exit $2), last lines:"; tail -25 "$3"; }

# 1. The golden corpus: every cache trace of v1.26.7 (an absent upstream is
# v1.26.7) must pass; the other versions' are skipped, as the adapter's
# header reply declares v1.26.7 (the run starts it once for them).
dirs=("$source/golden")
want=0
while IFS= read -r f; do
  header="$(grep -m1 -v '^[[:space:]]*\(#\|$\)' "$f")"
  case "$header" in *'"layer":"cache"'*) ;; *) continue ;; esac
  case "$header" in
    *'"upstream":"v1.26.7"'* | *'"upstream":""'*) want=$((want + 1)) ;;
    *'"upstream":'*) ;;
    *) want=$((want + 1)) ;;
  esac
done < <(find "${dirs[@]}" -name '*.jsonl')
[ "$want" -gt 90 ] || fail "found only $want cache traces of v1.26.7 in golden/"
status=0
"$schedtrace" conformance -q --sut="exec:$interpreter $adapter" --layer=cache \
  --report="$tmp/golden.json" "${dirs[@]}" >"$tmp/golden.out" 2>&1 || status=$?
[ "$status" -eq 0 ] || { show conformance "$status" "$tmp/golden.out"; fail "conformance exit status $status, want 0"; }
got="$(counts "$tmp/golden.json" v1.26.7)"
[ "$got" = "$want 0 0" ] ||
  { show conformance "$status" "$tmp/golden.out"; fail "v1.26.7 cache traces passed, failed, skipped: $got, want $want 0 0"; }
echo "$name: golden: $want of $want cache traces of v1.26.7 passed"

# 2. Generated traces with high clocks. At least one must start beyond
# 2^53 ms = 9007199254740992 (17 digits or more), or this proves nothing.
for seed in $(seq 1 30); do
  "$schedtrace" gen --layer=cache --seed="$seed" --high-clock=1 \
    --out="$tmp/high-$seed.jsonl" 2>/dev/null
done
beyond=0
for f in "$tmp"/high-*.jsonl; do
  t="$(sed -n '2s/^{"t":\([0-9]*\).*/\1/p' "$f")"
  if [ "${#t}" -gt 16 ] || { [ "${#t}" -eq 16 ] && [[ "$t" > "9007199254740992" ]]; }; then
    beyond=$((beyond + 1))
  fi
done
[ "$beyond" -gt 0 ] || fail "no generated trace has a clock beyond 2^53"
status=0
"$schedtrace" replay -q --sut="exec:$interpreter $adapter" --report="$tmp/high.json" \
  "$tmp"/high-*.jsonl >"$tmp/high.out" 2>&1 || status=$?
got="$(counts "$tmp/high.json" all)"
[ "$status" -eq 0 ] && [ "$got" = "30 0 0" ] ||
  { show replay "$status" "$tmp/high.out"; fail "generated high-clock traces passed, failed, skipped: $got, want 30 0 0"; }
echo "$name: generated: 30 of 30 high-clock traces passed ($beyond beyond 2^53 ms)"

# 3. The same adapter reading integers as doubles fails some of them.
grep -qF "$exact" "$adapter" || fail "$adapter no longer reads its input with: $exact"
awk -v exact="$exact" -v rounded="$rounded" \
  '{ i = index($0, exact); if (i) $0 = substr($0, 1, i - 1) rounded substr($0, i + length(exact)); print }' \
  "$adapter" >"$tmp/$variant"
status=0
"$schedtrace" replay -q --sut="exec:$interpreter $tmp/$variant" --report="$tmp/rounded.json" \
  "$tmp"/high-*.jsonl >"$tmp/rounded.out" 2>&1 || status=$?
read -r passed failed _ <<<"$(counts "$tmp/rounded.json" all)"
[ "$status" -eq 1 ] && [ "$failed" -gt 0 ] ||
  { show "replay (rounded integers)" "$status" "$tmp/rounded.out"; fail "with integers rounded to doubles: exit status $status and $failed failed, want 1 and some"; }
echo "$name: with integers rounded to doubles: $passed passed, $failed failed"
# ... and so does the golden corpus alone (-x: the first failure is enough).
status=0
"$schedtrace" conformance -q -x --sut="exec:$interpreter $tmp/$variant" --layer=cache \
  "${dirs[@]}" >"$tmp/rounded-golden.out" 2>&1 || status=$?
[ "$status" -eq 1 ] ||
  { show "conformance (rounded integers)" "$status" "$tmp/rounded-golden.out"; fail "with integers rounded to doubles, golden/: exit status $status, want 1 (a trace fails)"; }
echo "$name: with integers rounded to doubles, golden/ fails too:" \
  "$(grep -m1 -o 'e\.g\. [^ ]*' "$tmp/rounded-golden.out" || echo "exit status 1")"

# 4. The commands ADAPTERS.md gives catch a cache keyed by pod name instead
# of uid: a copy of the adapter with that mistake passes plain generated
# traces (--plain), and fails diff's default mix, whose perturbed traces
# re-create pods under their name with a new uid.
case "$lang" in
  js) by_name=('s/^  return uid;$/  return keyOf(pod);/'
               's/uidOf(p) === uid/keyOf(p) === uid/') ;;
  python) by_name=('s/^    return uid$/    return key_of(pod)/'
                   's/if uid_of(p) == uid:/if key_of(p) == uid:/') ;;
esac
sed -e "${by_name[0]}" -e "${by_name[1]}" "$adapter" >"$tmp/by-name.$lang"
[ "$(diff "$adapter" "$tmp/by-name.$lang" | grep -c '^>')" -eq 2 ] ||
  fail "$adapter: the key lines the by-name copy changes are gone"
diff_run() {  # MODE-FLAGS...
  "$schedtrace" diff -q --a=model --b="exec:$interpreter $tmp/by-name.$lang" \
    --layer=cache --upstream=v1.26.7 --count=30 --seed=1 \
    --out-dir="$tmp/by-name-failures" "$@" 2>/dev/null | tail -n 1
}
plain="$(diff_run --plain || true)"
[ "$plain" = "30 passed, 0 failed" ] ||
  fail "keyed by name, 30 plain traces: '$plain', want all passed (else this check proves nothing)"
mixed="$(diff_run || true)"
case "$mixed" in
  "0 passed"* | *" 0 failed"*) fail "keyed by name, diff's default mix: '$mixed', want failures" ;;
esac
echo "$name: keyed by name instead of uid: plain: $plain; default mix: $mixed"
