//go:build k8s_1_35 || k8s_1_36 || k8s_1_37

package main

import "k8s.io/client-go/tools/cache"

// AddEventHandlerWithOptions records the handler too: client-go has it since
// v0.31, and a handler added through it must not reach the real informer.
func (i capturingInformer) AddEventHandlerWithOptions(handler cache.ResourceEventHandler, _ cache.HandlerOptions) (cache.ResourceEventHandlerRegistration, error) {
	return i.AddEventHandler(handler)
}
