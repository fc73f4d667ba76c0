package main

// Upstream may end its process in the middle of a step: v1.25's cache calls
// os.Exit(1) where later versions call klog.FlushAndExit, and nothing can
// intercept os.Exit. So schedtrace-upstream runs the trace in a worker, a
// second process of this same program, and passes each request and its reply
// through; a worker that exits before replying to a step made that step
// fatal.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
)

// workerEnv, set to "1" in a process's environment, makes it the worker.
const workerEnv = "SCHEDTRACE_UPSTREAM_WORKER"

func isWorker() bool { return os.Getenv(workerEnv) == "1" }

// relay starts the worker and passes the protocol through: one request line
// to it, one reply line back, until the input ends or the worker does.
func relay(in io.Reader, w io.Writer) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	cmd.Stderr = os.Stderr
	toWorker, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	fromWorker, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer cmd.Wait()
	defer toWorker.Close()
	r := bufio.NewReaderSize(in, 1<<20)
	replies := bufio.NewReaderSize(fromWorker, 1<<20)
	for header := true; ; header = false {
		line, err := r.ReadBytes('\n')
		if len(line) == 0 && err == io.EOF {
			return nil
		}
		if err != nil && err != io.EOF {
			return err
		}
		if line[len(line)-1] != '\n' {
			line = append(line, '\n')
		}
		var reply []byte
		if _, err := toWorker.Write(line); err == nil {
			reply, _ = replies.ReadBytes('\n')
		}
		if len(reply) == 0 || reply[len(reply)-1] != '\n' {
			// The worker ended without a complete reply.
			return writeJSON(w, exitReply(header))
		}
		if _, err := w.Write(reply); err != nil {
			return err
		}
	}
}

// exitReply answers a request the worker exited on: a step is fatal, as
// upstream ending its process is; a header was never run.
func exitReply(header bool) any {
	if header {
		return map[string]any{"ok": false, "error": "the worker exited before replying to the header"}
	}
	return map[string]any{"out": out{"fatal": true}}
}

func writeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
