# ClusterFuzzLite builder image for schedtrace (.clusterfuzzlite/Dockerfile;
# its build context is the repository, so the source is copied, not
# cloned). Same base image and packages as the OSS-Fuzz Dockerfile; the
# ubuntu-24-04 tag matches project.yaml's base_os_version.
FROM gcr.io/oss-fuzz-base/base-builder:ubuntu-24-04
RUN apt-get update && apt-get install -y --no-install-recommends \
      cmake ninja-build zip libabsl-dev nlohmann-json3-dev
COPY . $SRC/schedtrace
WORKDIR $SRC/schedtrace
COPY ci/oss-fuzz/build.sh $SRC/
