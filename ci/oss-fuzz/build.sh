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
# The source is the checkout this script sits in (ci/oss-fuzz/build.sh of
# it); copied alone to $SRC/build.sh, as the services run it, the working
# directory (the Dockerfile's WORKDIR, $SRC/schedtrace).
# $SCHEDTRACE_CMAKE_ARGS adds configure arguments (the local emulation,
# ci/oss-fuzz/emulate.sh, hides the packages the service's image lacks).
#
# Test it locally by emulating the service: ci/oss-fuzz/emulate.sh does,
# and checks $OUT as the runner would use it.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -f "$here/../../fuzz/libfuzzer.flags" ]; then
  root="$(cd "$here/../.." && pwd)"
else
  root="$PWD"
fi
[ -f "$root/fuzz/libfuzzer.flags" ] ||
  { echo "build.sh: no schedtrace checkout at $root" >&2; exit 1; }
build="${WORK:-/tmp/schedtrace-oss-fuzz}/build"
mkdir -p "$build" "$OUT/lib"

# Our dependencies are Debian's (abseil, nlohmann-json), built against
# libstdc++: drop the service's -stdlib=libc++ (fine for ASan and UBSan;
# MSan would need every dependency rebuilt with libc++).
CXXFLAGS="${CXXFLAGS//-stdlib=libc++/}"

cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-DNDEBUG \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DCMAKE_BUILD_RPATH='$ORIGIN/lib' \
  -DCMAKE_EXE_LINKER_FLAGS="-Wl,--disable-new-dtags" \
  -DSCHEDTRACE_FUZZ=ON -DSCHEDTRACE_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
  -DBUILD_TESTING=OFF -DSCHEDTRACE_WERROR=OFF ${SCHEDTRACE_CMAKE_ARGS:-}
# The rpath $ORIGIN/lib goes through CMAKE_BUILD_RPATH, which CMake quotes
# for the shell (in CMAKE_EXE_LINKER_FLAGS the link command's shell expanded
# $ORIGIN to nothing); it is a DT_RPATH (--disable-new-dtags), not a
# DT_RUNPATH, so that it also serves the abseil libraries' dependencies on
# one another.
# Release adds -DNDEBUG only (as ci/fuzz-build's RelWithDebInfo has it), no
# -O level: the service's $CFLAGS choose it (-O1 to fuzz).
# SCHEDTRACE_WERROR=OFF: the service's clang is newer than the clang-14 and
# g++ that ci/test builds with -Werror; a warning new to it must not stop
# the fuzzers.
targets=(queue cache scheduler hostile codec quantity)
ninja -C "$build" -j"$(nproc)" "${targets[@]/#/fuzz_}"

for t in "${targets[@]}"; do
  cp "$build/fuzz_$t" "$OUT/"
  rm -f "$OUT/fuzz_${t}_seed_corpus.zip"
  (cd "$root/corpus/$t" && zip -q -r "$OUT/fuzz_${t}_seed_corpus.zip" .)
  if [ -f "$root/fuzz/dicts/$t.dict" ]; then
    cp "$root/fuzz/dicts/$t.dict" "$OUT/fuzz_$t.dict"
  fi
  case "$t" in codec) max_len=8192 ;; quantity) max_len=64 ;; *) max_len=2048 ;; esac
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
