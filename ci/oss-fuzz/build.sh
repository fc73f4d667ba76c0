#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script for schedtrace's fuzz targets.
#
# Honours the environment the service sets: $CC $CXX $CFLAGS $CXXFLAGS
# (already carrying the sanitizer and -fsanitize=fuzzer-no-link) and
# $LIB_FUZZING_ENGINE (the engine's link flags), and writes into $OUT: each
# fuzz_<target> binary, its seed corpus (fuzz_<target>_seed_corpus.zip, from
# corpus/<target>/), dictionary (.dict) and options (.options), and the
# shared libraries the runner image lacks (lib/, found through an rpath).
# $WORK is the build directory (default /tmp/schedtrace-oss-fuzz).
#
# Test it locally by emulating the service (ci/oss-fuzz/README.md):
#   CC=clang-14 CXX=clang++-14 \
#   CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize=fuzzer-no-link" \
#   CXXFLAGS="$CFLAGS -stdlib=libc++" LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
#   OUT=/tmp/oss/out WORK=/tmp/oss/work bash ci/oss-fuzz/build.sh
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${WORK:-/tmp/schedtrace-oss-fuzz}/build"
mkdir -p "$build" "$OUT/lib"

# Our dependencies are Debian's (abseil, nlohmann-json), built against
# libstdc++: drop the service's -stdlib=libc++ (fine for ASan and UBSan;
# MSan would need every dependency rebuilt with libc++).
CXXFLAGS="${CXXFLAGS//-stdlib=libc++/}"

cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath,\$ORIGIN/lib" \
  -DSCHEDTRACE_FUZZ=ON -DSCHEDTRACE_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
  -DBUILD_TESTING=OFF
targets=(queue cache scheduler hostile codec quantity)
ninja -C "$build" "${targets[@]/#/fuzz_}"

for t in "${targets[@]}"; do
  cp "$build/fuzz_$t" "$OUT/"
  rm -f "$OUT/fuzz_${t}_seed_corpus.zip"
  (cd "$root/corpus/$t" && zip -q -r "$OUT/fuzz_${t}_seed_corpus.zip" .)
  if [ -f "$root/fuzz/dicts/$t.dict" ]; then
    cp "$root/fuzz/dicts/$t.dict" "$OUT/fuzz_$t.dict"
  fi
  case "$t" in codec) max_len=8192 ;; quantity) max_len=64 ;; *) max_len=1024 ;; esac
  {
    echo "[libfuzzer]"
    echo "max_len = $max_len"
    if [ -f "$root/fuzz/dicts/$t.dict" ]; then echo "dict = fuzz_$t.dict"; fi
    # fuzz/libfuzzer.flags, "-name=value" -> "name = value".
    grep '^-' "$root/fuzz/libfuzzer.flags" | sed -E 's/^-([^=]+)=(.*)$/\1 = \2/'
  } >"$OUT/fuzz_$t.options"
  # The runner image has no abseil: ship the shared libraries we link.
  ldd "$build/fuzz_$t" | awk '/libabsl_/ { print $3 }' | xargs -r cp -u -t "$OUT/lib/"
done
