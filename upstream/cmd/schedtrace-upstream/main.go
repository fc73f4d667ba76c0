// Command schedtrace-upstream runs the real kube-scheduler code of one
// upstream version behind schedtrace's child-process protocol
// (docs/FORMAT.md, "Child-process protocol"): the PriorityQueue (queue
// layer), the scheduler cache (cache layer) or a whole Scheduler from
// scheduler.New (scheduler layer), wired as docs/ADDING-A-VERSION.md
// section 1 describes. It is built once per version by upstream/build, which
// places the small files of upstream/_overlay/ inside upstream's packages so
// that this program can reach what Go keeps internal. The trace runs in a
// worker process of this same program (relay.go), so that upstream ending
// its process is a fatal step.
//
//	schedtrace-upstream              speak the protocol on stdin/stdout
//	schedtrace-upstream --version    print the upstream version built in
//	schedtrace-upstream bench [--steps=K] [--upstream=V] [--cpuprofile=F] TRACE
//	                                 apply a trace in-process and print its
//	                                 throughput, as `schedtrace bench` does
//	                                 (bench.go)
package main

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
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"k8s.io/klog/v2"
)

// layerSystem is one layer of upstream behind the protocol.
type layerSystem interface {
	// apply applies a step whose clock is already set; it returns the out.
	apply(st *step) (out, error)
	// state is the layer's snapshot.
	state() map[string]any
	// close releases what the layer started.
	close()
}

// fatalExit is the panic value with which an exit of upstream's process
// (klog.FlushAndExit, klog.Fatal) is turned into a fatal step.
type fatalExit struct{ code int }

// mainGoroutine is the goroutine that serves the protocol (package
// variables are initialized on the main goroutine).
var mainGoroutine = goroutineID()

// exitedElsewhere is set when upstream exited the process on a goroutine of
// its own (a binding cycle): that goroutine is then parked for good, and the
// layer turns the step into a fatal one on the main goroutine.
var exitedElsewhere atomic.Bool

// osExit replaces klog.OsExit: an exit on the main goroutine panics with
// fatalExit, which applyGuarded recovers; one on another goroutine is
// recorded in exitedElsewhere and parks that goroutine forever.
func osExit(code int) {
	if goroutineID() == mainGoroutine {
		panic(fatalExit{code})
	}
	exitedElsewhere.Store(true)
	select {}
}

// goroutineID is the running goroutine's id, read from its stack header
// ("goroutine 7 [running]:").
func goroutineID() uint64 {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	buf = bytes.TrimPrefix(buf, []byte("goroutine "))
	if i := bytes.IndexByte(buf, ' '); i >= 0 {
		buf = buf[:i]
	}
	id, _ := strconv.ParseUint(string(buf), 10, 64)
	return id
}

func main() {
	version := flag.Bool("version", false, "print the upstream version this binary runs and exit")
	flag.Parse()
	if *version {
		fmt.Println(upstreamVersion)
		return
	}
	if flag.Arg(0) == "bench" {
		quietKlog()
		klog.OsExit = osExit
		os.Exit(bench(flag.Args()[1:], os.Stdout))
	}
	run := relay
	if isWorker() {
		quietKlog()
		klog.OsExit = osExit
		run = serve
	}
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "schedtrace-upstream:", err)
		os.Exit(1)
	}
}

// quietKlog sends upstream's logs to stderr, errors only, so that a long
// trace does not fill the pipe schedtrace drains.
func quietKlog() {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("logtostderr", "true")
	_ = fs.Set("stderrthreshold", "ERROR")
	_ = fs.Set("v", "0")
	klog.SetOutput(io.Discard)
	klog.LogToStderr(false)
}

// serve runs one trace: the header, then one reply per step until the input
// ends or a step is fatal.
func serve(in io.Reader, w io.Writer) error {
	r := bufio.NewReaderSize(in, 1<<20)
	bw := bufio.NewWriter(w)
	reply := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		bw.Write(b)
		bw.WriteByte('\n')
		return bw.Flush()
	}
	line, err := readLine(r)
	if err != nil {
		return err
	}
	var h header
	if err := json.Unmarshal(line, &h); err != nil {
		return reply(map[string]any{"ok": false, "error": "header: " + err.Error()})
	}
	sys, err := configure(&h)
	if err != nil {
		return reply(map[string]any{"ok": false, "error": err.Error(), "upstream": upstreamVersion})
	}
	defer sys.close()
	if err := reply(map[string]any{"ok": true, "upstream": upstreamVersion}); err != nil {
		return err
	}
	for {
		line, err := readLine(r)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var st step
		if err := json.Unmarshal(line, &st); err != nil {
			if err := reply(map[string]any{"ok": false, "error": "step: " + err.Error()}); err != nil {
				return err
			}
			continue
		}
		setClock(st.T)
		o, fatal, err := applyGuarded(sys, &st)
		switch {
		case fatal:
			return reply(map[string]any{"out": out{"fatal": true}})
		case err != nil:
			rep := map[string]any{"ok": false, "error": st.Op + ": " + err.Error()}
			if _, ok := err.(notApplicable); ok {
				rep["notApplicable"] = true
			}
			if err := reply(rep); err != nil {
				return err
			}
		default:
			if err := reply(map[string]any{"out": o, "state": sys.state()}); err != nil {
				return err
			}
		}
	}
}

// applyGuarded applies a step, turning a panic of upstream's code into a
// fatal step (an exit of its process is one too: see relay).
func applyGuarded(sys layerSystem, st *step) (o out, fatal bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "schedtrace-upstream: %s panicked: %v\n%s", st.Op, r, debug.Stack())
			fatal = true
		}
	}()
	o, err = sys.apply(st)
	return o, false, err
}

func readLine(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadBytes('\n')
	if err == io.EOF && len(line) > 0 {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	return []byte(strings.TrimRight(string(line), "\r\n")), nil
}

// configure builds the layer the header names.
func configure(h *header) (layerSystem, error) {
	if h.Schedtrace != 1 {
		return nil, fmt.Errorf("unknown format version %d", h.Schedtrace)
	}
	want := h.Upstream
	if want == "" {
		want = "v1.26.7"
	}
	if want != upstreamVersion {
		return nil, fmt.Errorf("this is upstream %s; the trace is %s (build that version: upstream/build %s)", upstreamVersion, want, want)
	}
	if err := checkFeatures(&h.Config); err != nil {
		return nil, err
	}
	switch h.Layer {
	case "queue":
		return newQueueLayer(&h.Config)
	case "cache":
		return newCacheLayer(&h.Config)
	case "scheduler":
		return newSchedulerLayer(&h.Config)
	}
	return nil, fmt.Errorf("unknown layer %q", h.Layer)
}

// ms converts a duration in milliseconds of the config to a time.Duration,
// wrapping as Go's time.Duration(ms) * time.Millisecond does.
func ms(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
