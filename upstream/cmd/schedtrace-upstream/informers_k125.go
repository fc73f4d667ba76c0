//go:build k8s_1_25

package main

import (
	"time"

	"k8s.io/client-go/tools/cache"
)

// AddEventHandler records the handler; v1.25's returns nothing.
func (i capturingInformer) AddEventHandler(handler cache.ResourceEventHandler) {
	i.h.add(i.kind, handler)
}

func (i capturingInformer) AddEventHandlerWithResyncPeriod(handler cache.ResourceEventHandler, _ time.Duration) {
	i.AddEventHandler(handler)
}
