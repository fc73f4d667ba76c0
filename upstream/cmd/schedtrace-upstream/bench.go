package main

// schedtrace-upstream bench: upstream's throughput on one trace, measured in
// this process, to read beside `schedtrace bench --sut=model|impl`
// (docs/BENCHMARKS.md). Driving upstream through the child-process protocol
// (`schedtrace bench --sut=exec:...`) mostly measures the protocol: the JSON
// of every step and the snapshot after it. Here the whole trace is read and
// every step decoded (header, steps, and their objects into v1.Pod and
// v1.Node) before the clock starts; then the steps are applied to the layer
// as serve applies them, taking no snapshot. It prints the lines
// `schedtrace bench` prints, and the settle's:
//
//	bench: upstream v1.26.7 on FILE: 83636 steps (20193 schedule_one), layer scheduler
//	831 events/s (CPU time in apply, every thread; 653 by the wall clock)
//	201 scheduling cycles/s
//	peak memory 534.5 MB (getrusage ru_maxrss: the whole process, decoding and ...)
//	apply time 100.625 s CPU, 128.089 s wall; wall time 132.586 s (decoding included)
//	settle time 53.146 s wall, 20.438 s CPU (...); without it 1043 events/s, ...
//
// The rates divide by the CPU time of the whole process while applying
// (getrusage RUSAGE_SELF, user+system): upstream filters and scores nodes on
// parallel goroutines and collects garbage on other threads, and all of that
// is its work; the wall-clock rate is printed beside it. The settle time is
// the layer's, not upstream's: after each step it waits until the binding
// goroutines are parked (settle, in scheduler_common.go), so that the next
// step finds them where the trace expects; the rates without it are
// upstream's own.
// The peak memory holds the decoded trace too, so it does not compare with
// schedtrace's.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"k8s.io/klog/v2"
)

// settleTime and settleCPU sum the time the scheduler layer spent waiting
// for its binding goroutines to settle after a step: by the wall clock, and
// the CPU time of the thread that waited (the goroutine dumps; in a bench the
// main goroutine keeps its thread, so that this is the waiting's own cost).
var (
	settleTime time.Duration
	settleCPU  float64
)

// threadCPU is the CPU time of the calling thread, in seconds
// (CLOCK_THREAD_CPUTIME_ID).
func threadCPU() float64 {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return float64(ts.Nano()) / 1e9
}

// benchUsage is the bench mode's command line.
const benchUsage = "usage: schedtrace-upstream bench [--steps=K] [--upstream=V] [--cpuprofile=FILE] TRACE"

// bench runs `schedtrace-upstream bench ARGS`; it returns the exit code:
// 2 for a bad command line or bad input, 1 when the layer fails.
func bench(args []string, w io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	steps := fs.Int64("steps", -1, "apply only the first K steps (a prefix)")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the applying (`go tool pprof`) to this file")
	version := fs.String("upstream", "", "run the trace as this version's, whatever its header says (as `schedtrace bench --upstream`)")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 || *steps < -1 {
		fmt.Fprintln(os.Stderr, benchUsage)
		return 2
	}
	path := fs.Arg(0)
	// Upstream's error logs (a scripted Bind error, ...) would be noise
	// among the figures.
	klog.SetOutput(io.Discard)
	klogFlags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(klogFlags)
	_ = klogFlags.Set("stderrthreshold", "FATAL")
	// The settle's CPU time is read on this goroutine's thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	wallStart := time.Now()
	startRSS := currentRSS()

	// Everything decoded before the clock.
	h, trace, truncated, err := readTrace(path, *steps)
	if err != nil {
		fmt.Fprintf(os.Stderr, "schedtrace-upstream bench: %s: %v\n", path, err)
		return 2
	}
	if *version != "" {
		h.Upstream = *version
	}
	sys, err := configure(h)
	if err != nil {
		fmt.Fprintf(os.Stderr, "schedtrace-upstream bench: %s: configure: %v\n", path, err)
		return 1
	}
	defer sys.close()
	// The garbage of decoding (the file's bytes, the raw arguments) is
	// collected now, not on the clock, and returned to the system.
	debug.FreeOSMemory()
	decodedRSS := currentRSS()

	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "schedtrace-upstream bench: %v\n", err)
			return 2
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(os.Stderr, "schedtrace-upstream bench: %v\n", err)
			return 2
		}
		defer pprof.StopCPUProfile()
	}

	var applied, cycles int64
	fatal := false
	settleTime, settleCPU = 0, 0
	cpuStart := processCPU()
	applyStart := time.Now()
	for i := range trace {
		st := &trace[i]
		setClock(st.T)
		_, f, err := applyGuarded(sys, st)
		if err != nil {
			fmt.Fprintf(os.Stderr, "schedtrace-upstream bench: %s: step %d: %s: %v\n", path, i+1, st.Op, err)
			return 1
		}
		applied++
		if st.Op == "schedule_one" {
			cycles++
		}
		if f {
			fatal = true
			break
		}
	}
	applyWall := time.Since(applyStart).Seconds()
	applyCPU := processCPU() - cpuStart
	endRSS := currentRSS()
	settle := settleTime.Seconds()
	ownCPU := applyCPU - settleCPU
	wall := time.Since(wallStart).Seconds()

	rate := func(n int64, s float64) float64 {
		if s <= 0 {
			return 0
		}
		return float64(n) / s
	}
	how := ""
	switch {
	case truncated:
		how = ", a prefix (--steps)"
	case fatal:
		how = ", ended by a fatal step"
	}
	as := ""
	if *version != "" {
		as = ", as " + *version + " (--upstream)"
	}
	fmt.Fprintf(w, "bench: upstream %s on %s: %d steps (%d schedule_one)%s, layer %s%s\n",
		upstreamVersion, path, applied, cycles, how, h.Layer, as)
	fmt.Fprintf(w, "%.0f events/s (CPU time in apply, every thread; %.0f by the wall clock)\n",
		rate(applied, applyCPU), rate(applied, applyWall))
	fmt.Fprintf(w, "%.0f scheduling cycles/s\n", rate(cycles, applyCPU))
	fmt.Fprintf(w, "peak memory %.1f MB (getrusage ru_maxrss: the whole process, decoding and the decoded trace included; %.1f MB resident at start, %.1f MB once decoded, %.1f MB at the end)\n",
		float64(peakRSS())/1e6, float64(startRSS)/1e6, float64(decodedRSS)/1e6, float64(endRSS)/1e6)
	fmt.Fprintf(w, "apply time %.3f s CPU, %.3f s wall; wall time %.3f s (decoding included)\n",
		applyCPU, applyWall, wall)
	if h.Layer == "scheduler" {
		fmt.Fprintf(w, "settle time %.3f s wall, %.3f s CPU (within apply: the layer waiting for the binding goroutines after each step); without it %.0f events/s, %.0f scheduling cycles/s (CPU)\n",
			settle, settleCPU, rate(applied, ownCPU), rate(cycles, ownCPU))
	}
	return 0
}

// readTrace reads the header and up to max steps (all for -1), every object
// argument decoded; truncated says steps were left unread.
func readTrace(path string, max int64) (*header, []step, bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, false, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	var h *header
	var trace []step
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if h == nil {
			h = &header{}
			if err := json.Unmarshal(text, h); err != nil {
				return nil, nil, false, fmt.Errorf("%d: header: %v", line, err)
			}
			continue
		}
		if max >= 0 && int64(len(trace)) >= max {
			return h, trace, true, nil
		}
		var st step
		if err := json.Unmarshal(text, &st); err != nil {
			return nil, nil, false, fmt.Errorf("%d: step: %v", line, err)
		}
		if err := st.decodeObjects(); err != nil {
			return nil, nil, false, fmt.Errorf("%d: %s: %v", line, st.Op, err)
		}
		trace = append(trace, st)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, false, err
	}
	if h == nil {
		return nil, nil, false, fmt.Errorf("empty trace: no header")
	}
	return h, trace, false, nil
}

// processCPU is the CPU time of the whole process so far, user and system,
// in seconds.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// peakRSS is the process's peak resident set in bytes (ru_maxrss, KiB on
// Linux); -1 when unknown.
func peakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return ru.Maxrss * 1024
}

// currentRSS is the process's resident set now, in bytes, from
// /proc/self/statm; -1 when unknown.
func currentRSS() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return -1
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return -1
	}
	return pages * int64(os.Getpagesize())
}
