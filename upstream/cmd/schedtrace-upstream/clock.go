package main

import (
	"time"

	testingclock "k8s.io/utils/clock/testing"
)

// fakeClock is every layer's clock: set to the step's t (milliseconds since
// the Unix epoch) before the step is applied.
var fakeClock = testingclock.NewFakeClock(time.UnixMilli(0))

func setClock(t int64) { fakeClock.SetTime(time.UnixMilli(t)) }

func now() time.Time { return fakeClock.Now() }

// millis prints an instant of the fake clock in whole milliseconds, rounded
// down.
func millis(t time.Time) int64 { return t.UnixMilli() }
