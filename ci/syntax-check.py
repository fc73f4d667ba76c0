#!/usr/bin/env python3
"""Compiles every translation unit of a CMake build tree with -fsyntax-only.

Reads BUILD/compile_commands.json (CMAKE_EXPORT_COMPILE_COMMANDS=ON) and runs
each compile command once, its output options (-o, -MD/-MF/-MT, -c) replaced
by -fsyntax-only: the compiler parses, instantiates and warns as in a real
build (-Werror included), without generating code; identical commands run
once. ci/clang-check uses it to hold the tree warning-free under clang-14
without a second full build.

--skip-built OTHER leaves out what another clang-14 build tree has already
compiled for real with the same warnings (-Wall -Wextra -Werror) and the same
definitions (NDEBUG aside): a translation unit whose object file OTHER holds
(ci/test passes build-fuzz, after ci/fuzz-build succeeded: the libraries'
sources, built there with ASan and UBSan).

Usage: syntax-check.py BUILD [-j N] [--skip-built OTHER]
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys

# Options taking the next argument that only concern outputs.
_OUTPUT_WITH_ARG = {"-o", "-MF", "-MT", "-MQ"}
_OUTPUT_FLAGS = {"-c", "-MD", "-MMD"}


def _syntax_only(entry):
    args = entry.get("arguments") or shlex.split(entry["command"])
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in _OUTPUT_WITH_ARG:
            skip = True
            continue
        if a in _OUTPUT_FLAGS:
            continue
        out.append(a)
    # A compiler launcher (ccache) has nothing to cache here.
    if os.path.basename(out[0]) == "ccache":
        out = out[1:]
    return out + ["-fsyntax-only"]


def _args(entry):
    return entry.get("arguments") or shlex.split(entry["command"])


def _unit(entry):
    """What makes a compile the same translation unit: file and -D's."""
    defs = sorted(a for a in _args(entry)
                  if a.startswith("-D") and a != "-DNDEBUG")
    return (os.path.realpath(os.path.join(entry["directory"], entry["file"])),
            tuple(defs))


def _built_with_werror(build):
    """The units BUILD compiled with clang-14 and -Wall -Wextra -Werror."""
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = json.load(f)
    units = set()
    for e in entries:
        args = _args(e)
        compiler = [a for a in args[:2] if "clang" in os.path.basename(a)]
        if not compiler or "14" not in os.path.basename(compiler[0]):
            continue
        if not {"-Wall", "-Wextra", "-Werror"} <= set(args):
            continue
        out = args[args.index("-o") + 1] if "-o" in args else None
        if out and os.path.exists(os.path.join(e["directory"], out)):
            units.add(_unit(e))
    return units


def _run(cmd, directory):
    p = subprocess.run(cmd, cwd=directory, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--skip-built", metavar="OTHER")
    opts = ap.parse_args()
    with open(os.path.join(opts.build, "compile_commands.json")) as f:
        entries = json.load(f)
    built = _built_with_werror(opts.skip_built) if opts.skip_built else set()
    jobs, seen, skipped = [], set(), 0
    for e in entries:
        if _unit(e) in built:
            skipped += 1
            continue
        cmd = _syntax_only(e)
        key = (e["directory"], tuple(cmd))
        if key not in seen:
            seen.add(key)
            jobs.append((e["file"], cmd, e["directory"]))
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.j) as pool:
        futures = {pool.submit(_run, cmd, d): f for f, cmd, d in jobs}
        for fut in concurrent.futures.as_completed(futures):
            status, output = fut.result()
            if status != 0 or output:
                sys.stdout.write(output)
            if status != 0:
                failed += 1
                print("FAILED: " + futures[fut], flush=True)
    print("syntax-check: %d of %d translation units failed" % (failed, len(jobs))
          if failed else
          "syntax-check: %d translation units clean" % len(jobs))
    if skipped:
        print("syntax-check: %d more compiled by clang-14 with -Werror in %s"
              % (skipped, opts.skip_built))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
