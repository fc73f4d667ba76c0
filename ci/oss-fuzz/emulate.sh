#!/usr/bin/env bash
# Emulates the OSS-Fuzz / ClusterFuzzLite build of schedtrace locally (no
# docker): checks that project.yaml and both Dockerfiles agree on the
# Ubuntu 24.04 base image and install what the build needs, then runs
# build.sh the way the service's `compile` does -- copied alone to
# $SRC/build.sh, from $SRC/schedtrace, with the service's environment
# ($CC $CXX $CFLAGS $CXXFLAGS with -stdlib=libc++, $LIB_FUZZING_ENGINE $OUT
# $WORK $SRC $SANITIZER) and without the packages its image lacks (GTest,
# rapidcheck, Google Benchmark) -- and checks $OUT as the runner uses it:
# every target, its seed corpus, options and dictionary, abseil found in
# $OUT/lib, and each target replaying its seed corpus.
# Usage: emulate.sh [SCRATCH_DIR]   (default: a fresh temporary directory)
# The compiler is clang-14, or $OSS_FUZZ_CC/$OSS_FUZZ_CXX (the service's own
# clang is newer).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/ci/oss-fuzz"
fail() { echo "oss-fuzz emulation: $*" >&2; exit 1; }

# --- The files the service reads.
yaml="$here/project.yaml"
os="$(sed -nE 's/^base_os_version:[[:space:]]*"?([a-z0-9-]+)"?[[:space:]]*$/\1/p' "$yaml")"
[ "$os" = ubuntu-24-04 ] ||
  fail "project.yaml: base_os_version is '${os}', want ubuntu-24-04 (Ubuntu 20.04 has no libabsl-dev)"
grep -qE '^language:[[:space:]]*c\+\+[[:space:]]*$' "$yaml" || fail "project.yaml: language is not c++"
for key in main_repo primary_contact sanitizers fuzzing_engines; do
  grep -q "^$key:" "$yaml" || fail "project.yaml: no $key"
done
for df in "$here/Dockerfile" "$here/clusterfuzzlite.Dockerfile"; do
  name="$(basename "$df")"
  from="$(grep -E '^FROM ' "$df" | awk '{ print $2 }')"
  [ "$from" = "gcr.io/oss-fuzz-base/base-builder:$os" ] ||
    fail "$name: FROM $from, want gcr.io/oss-fuzz-base/base-builder:$os (project.yaml's base_os_version)"
  for pkg in cmake ninja-build zip libabsl-dev nlohmann-json3-dev; do
    grep -Eq "[[:space:]]$pkg([[:space:]]|\$)" "$df" || fail "$name: does not install $pkg"
  done
  grep -Eq '^WORKDIR \$SRC/schedtrace$' "$df" || fail "$name: WORKDIR is not \$SRC/schedtrace"
  grep -Eq '^COPY .*build\.sh \$SRC/$' "$df" || fail "$name: does not copy build.sh to \$SRC/"
done
# OSS-Fuzz's context is projects/schedtrace/ (these three files): its
# Dockerfile clones the source and copies build.sh from beside itself.
grep -Eq '^RUN git clone .*https://github.com/schedtrace/schedtrace' "$here/Dockerfile" ||
  fail "Dockerfile: does not clone main_repo"
grep -Eq '^COPY build\.sh \$SRC/$' "$here/Dockerfile" || fail "Dockerfile: COPY build.sh \$SRC/"
# ClusterFuzzLite's context is the repository.
grep -Eq '^COPY \. \$SRC/schedtrace$' "$here/clusterfuzzlite.Dockerfile" ||
  fail "clusterfuzzlite.Dockerfile: does not copy the repository"
grep -Eq '^COPY ci/oss-fuzz/build\.sh \$SRC/$' "$here/clusterfuzzlite.Dockerfile" ||
  fail "clusterfuzzlite.Dockerfile: COPY ci/oss-fuzz/build.sh \$SRC/"

# --- The build, as the service runs it.
scratch="${1:-}"
if [ -z "$scratch" ]; then
  scratch="$(mktemp -d "${TMPDIR:-/tmp}/schedtrace-oss-fuzz.XXXXXX")"
  trap 'rm -rf "$scratch"' EXIT
fi
mkdir -p "$scratch"
scratch="$(cd "$scratch" && pwd)"
src="$scratch/src" out="$scratch/out" work="$scratch/work"
rm -rf "$src" "$out"
mkdir -p "$src" "$out" "$work"
cp "$here/build.sh" "$src/build.sh"
ln -s "$root" "$src/schedtrace"
cflags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
(
  cd "$src/schedtrace"
  env -u SCHEDTRACE_GOLDEN \
    SRC="$src" OUT="$out" WORK="$work" \
    CC="${OSS_FUZZ_CC:-clang-14}" CXX="${OSS_FUZZ_CXX:-clang++-14}" \
    CFLAGS="$cflags" CXXFLAGS="$cflags -stdlib=libc++" \
    LIB_FUZZING_ENGINE=-fsanitize=fuzzer SANITIZER=address \
    FUZZING_ENGINE=libfuzzer ARCHITECTURE=x86_64 FUZZING_LANGUAGE=c++ \
    SCHEDTRACE_CMAKE_ARGS="-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_rapidcheck=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON" \
    bash -eu "$src/build.sh"
) >"$scratch/build.log" 2>&1 || { tail -40 "$scratch/build.log"; fail "build.sh failed (log: $scratch/build.log)"; }

# --- $OUT as the runner uses it.
for t in queue cache scheduler hostile codec quantity; do
  bin="$out/fuzz_$t"
  [ -x "$bin" ] || fail "no $bin"
  [ -f "$out/fuzz_${t}_seed_corpus.zip" ] || fail "no fuzz_${t}_seed_corpus.zip"
  want="$(find "$root/corpus/$t" -type f | wc -l)"
  got="$(unzip -Z1 "$out/fuzz_${t}_seed_corpus.zip" | grep -vc '/$' || true)"
  [ "$got" -eq "$want" ] || fail "fuzz_${t}_seed_corpus.zip holds $got files, corpus/$t $want"
  grep -qx '\[libfuzzer\]' "$out/fuzz_$t.options" || fail "fuzz_$t.options: no [libfuzzer]"
  grep -Eq '^max_len = [0-9]+$' "$out/fuzz_$t.options" || fail "fuzz_$t.options: no max_len"
  if [ -f "$root/fuzz/dicts/$t.dict" ]; then
    [ -f "$out/fuzz_$t.dict" ] || fail "no fuzz_$t.dict"
    grep -qx "dict = fuzz_$t.dict" "$out/fuzz_$t.options" || fail "fuzz_$t.options: no dict"
  fi
  # (Into a file: grep -q closing a pipe early fails nm under pipefail.)
  nm "$bin" >"$scratch/nm" 2>&1 || fail "nm fuzz_$t failed"
  grep -q __asan_init "$scratch/nm" || fail "fuzz_$t is not built with AddressSanitizer"
  grep -q LLVMFuzzerTestOneInput "$scratch/nm" || fail "fuzz_$t has no LLVMFuzzerTestOneInput"
  readelf -d "$bin" >"$scratch/dynamic"
  ldd "$bin" >"$scratch/ldd"
  # The runner image has no abseil: every abseil library, direct or not,
  # must resolve to $OUT/lib.
  grep -q '(RPATH).*\$ORIGIN/lib' "$scratch/dynamic" || fail "fuzz_$t: no \$ORIGIN/lib rpath"
  grep -q libabsl_ "$scratch/ldd" || fail "fuzz_$t links no abseil library (ldd)"
  stray="$(awk '/libabsl_/ { print $3 }' "$scratch/ldd" | grep -v "^$out/lib/" || true)"
  [ -z "$stray" ] || fail "fuzz_$t loads abseil from outside \$OUT/lib: $(echo $stray | head -c 200)"
  if grep -q 'not found' "$scratch/ldd"; then fail "fuzz_$t: $(grep 'not found' "$scratch/ldd")"; fi
  # The runner: unpack the seed corpus and replay it (no fuzzing).
  c="$scratch/corpus-$t"
  rm -rf "$c" && mkdir -p "$c" && unzip -q -o "$out/fuzz_${t}_seed_corpus.zip" -d "$c"
  max_len="$(sed -nE 's/^max_len = ([0-9]+)$/\1/p' "$out/fuzz_$t.options")"
  (cd "$out" && ./"fuzz_$t" -runs=0 -max_len="$max_len" "$c") >"$scratch/run-$t.log" 2>&1 ||
    { tail -20 "$scratch/run-$t.log"; fail "fuzz_$t failed on its seed corpus"; }
done
echo "oss-fuzz emulation: project.yaml and Dockerfiles on $os; build.sh built 6 targets into \$OUT; each replayed its seed corpus"
