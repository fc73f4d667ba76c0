//go:build k8s_1_36 || k8s_1_37

package main

import "k8s.io/client-go/tools/cache"

// HasSyncedChecker is done from the start, as HasSynced is true
// (client-go v0.36 added it to a registration).
func (registration) HasSyncedChecker() cache.DoneChecker { return synced{} }

// synced is a DoneChecker that is done.
type synced struct{}

var syncedDone = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (synced) Name() string          { return "schedtrace-upstream: delivered synchronously" }
func (synced) Done() <-chan struct{} { return syncedDone }
