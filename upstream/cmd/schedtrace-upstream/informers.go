package main

// A SharedInformerFactory for scheduler.New whose informers are never
// started: every handler that addAllEventHandlers registers is kept, in
// registration order, so that the scheduler layer can deliver each informer
// event itself, synchronously, after updating the real informer's store
// (docs/FORMAT.md, "Informer deliveries"). Listers and stores are the real
// factory's, so the scheduler's pod lister sees what the trace delivered.

import (
	"sync"

	"k8s.io/client-go/informers"
	coreinformers "k8s.io/client-go/informers/core"
	corev1informers "k8s.io/client-go/informers/core/v1"
	storageinformers "k8s.io/client-go/informers/storage"
	storagev1informers "k8s.io/client-go/informers/storage/v1"
	"k8s.io/client-go/tools/cache"
)

// handlerSet holds the handlers registered per kind (Pod, Node,
// PersistentVolume, ...), in registration order.
type handlerSet struct {
	mu     sync.Mutex
	byKind map[string][]cache.ResourceEventHandler
}

func newHandlerSet() *handlerSet {
	return &handlerSet{byKind: map[string][]cache.ResourceEventHandler{}}
}

func (h *handlerSet) add(kind string, handler cache.ResourceEventHandler) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.byKind[kind] = append(h.byKind[kind], handler)
}

// of returns the handlers of a kind, in registration order.
func (h *handlerSet) of(kind string) []cache.ResourceEventHandler {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]cache.ResourceEventHandler{}, h.byKind[kind]...)
}

// capturingInformer is a real informer whose AddEventHandler only records
// the handler (informers_k1*.go: its signature is the era's).
type capturingInformer struct {
	cache.SharedIndexInformer
	kind string
	h    *handlerSet
}

type capturingFactory struct {
	informers.SharedInformerFactory
	h *handlerSet
}

func (f capturingFactory) Core() coreinformers.Interface {
	return coreGroup{f.SharedInformerFactory.Core(), f.h}
}

func (f capturingFactory) Storage() storageinformers.Interface {
	return storageGroup{f.SharedInformerFactory.Storage(), f.h}
}

type coreGroup struct {
	coreinformers.Interface
	h *handlerSet
}

func (g coreGroup) V1() corev1informers.Interface { return coreV1{g.Interface.V1(), g.h} }

type coreV1 struct {
	corev1informers.Interface
	h *handlerSet
}

func (c coreV1) Pods() podInformerT { return podInformer{c.Interface.Pods(), c.h} }
func (c coreV1) Nodes() nodeInformerT {
	return nodeInformer{c.Interface.Nodes(), c.h}
}
func (c coreV1) PersistentVolumes() pvInformerT {
	return pvInformer{c.Interface.PersistentVolumes(), c.h}
}
func (c coreV1) PersistentVolumeClaims() pvcInformerT {
	return pvcInformer{c.Interface.PersistentVolumeClaims(), c.h}
}

type storageGroup struct {
	storageinformers.Interface
	h *handlerSet
}

func (g storageGroup) V1() storagev1informers.Interface { return storageV1{g.Interface.V1(), g.h} }

type storageV1 struct {
	storagev1informers.Interface
	h *handlerSet
}

func (s storageV1) CSINodes() csiNodeInformerT {
	return csiNodeInformer{s.Interface.CSINodes(), s.h}
}
func (s storageV1) CSIDrivers() csiDriverInformerT {
	return csiDriverInformer{s.Interface.CSIDrivers(), s.h}
}
func (s storageV1) CSIStorageCapacities() csiCapacityInformerT {
	return csiCapacityInformer{s.Interface.CSIStorageCapacities(), s.h}
}
func (s storageV1) StorageClasses() storageClassInformerT {
	return storageClassInformer{s.Interface.StorageClasses(), s.h}
}

// One wrapper per informer kind: the real informer, Informer() capturing.
// The interfaces they wrap (podInformerT, ...) are the era's: client-go
// v0.37 returns Typed ones (informers_k*.go).

type podInformer struct {
	podInformerT
	h *handlerSet
}

func (i podInformer) Informer() cache.SharedIndexInformer {
	return capturingInformer{i.podInformerT.Informer(), "Pod", i.h}
}

type nodeInformer struct {
	nodeInformerT
	h *handlerSet
}

func (i nodeInformer) Informer() cache.SharedIndexInformer {
	return capturingInformer{i.nodeInformerT.Informer(), "Node", i.h}
}

type pvInformer struct {
	pvInformerT
	h *handlerSet
}

func (i pvInformer) Informer() cache.SharedIndexInformer {
	return capturingInformer{i.pvInformerT.Informer(), "PersistentVolume", i.h}
}

type pvcInformer struct {
	pvcInformerT
	h *handlerSet
}

func (i pvcInformer) Informer() cache.SharedIndexInformer {
	return capturingInformer{i.pvcInformerT.Informer(), "PersistentVolumeClaim", i.h}
}

type csiNodeInformer struct {
	csiNodeInformerT
	h *handlerSet
}

func (i csiNodeInformer) Informer() cache.SharedIndexInformer {
	return capturingInformer{i.csiNodeInformerT.Informer(), "CSINode", i.h}
}

type csiDriverInformer struct {
	csiDriverInformerT
	h *handlerSet
}

func (i csiDriverInformer) Informer() cache.SharedIndexInformer {
	return capturingInformer{i.csiDriverInformerT.Informer(), "CSIDriver", i.h}
}

type csiCapacityInformer struct {
	csiCapacityInformerT
	h *handlerSet
}

func (i csiCapacityInformer) Informer() cache.SharedIndexInformer {
	return capturingInformer{i.csiCapacityInformerT.Informer(), "CSIStorageCapacity", i.h}
}

type storageClassInformer struct {
	storageClassInformerT
	h *handlerSet
}

func (i storageClassInformer) Informer() cache.SharedIndexInformer {
	return capturingInformer{i.storageClassInformerT.Informer(), "StorageClass", i.h}
}
