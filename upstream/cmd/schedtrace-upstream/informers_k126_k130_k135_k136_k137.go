//go:build k8s_1_26 || k8s_1_30 || k8s_1_35 || k8s_1_36 || k8s_1_37

package main

import (
	"time"

	"k8s.io/client-go/tools/cache"
)

// registration is what AddEventHandler returns: a handler that is never
// behind the informer, whose store the layer updates itself.
type registration struct{}

func (registration) HasSynced() bool { return true }

// AddEventHandler records the handler; from v1.26 it returns a
// registration.
func (i capturingInformer) AddEventHandler(handler cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	i.h.add(i.kind, handler)
	return registration{}, nil
}

func (i capturingInformer) AddEventHandlerWithResyncPeriod(handler cache.ResourceEventHandler, _ time.Duration) (cache.ResourceEventHandlerRegistration, error) {
	return i.AddEventHandler(handler)
}
