#!/usr/bin/env python3
"""Compiles every translation unit of a CMake build tree with -fsyntax-only.

Reads BUILD/compile_commands.json (CMAKE_EXPORT_COMPILE_COMMANDS=ON) and runs
each compile command once, its output options (-o, -MD/-MF/-MT, -c) replaced
by -fsyntax-only: the compiler parses, instantiates and warns as in a real
build (-Werror included), without generating code; identical commands run
once. ci/clang-check uses it to hold the tree warning-free under clang-14
without a second full build.

Usage: syntax-check.py BUILD [-j N]
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


def _run(cmd, directory):
    p = subprocess.run(cmd, cwd=directory, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    opts = ap.parse_args()
    with open(os.path.join(opts.build, "compile_commands.json")) as f:
        entries = json.load(f)
    jobs, seen = [], set()
    for e in entries:
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
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
