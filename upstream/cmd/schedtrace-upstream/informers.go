//go:build k8s_1_25 || k8s_1_26 || k8s_1_30

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

func (c coreV1) Pods() corev1informers.PodInformer { return podInformer{c.Interface.Pods(), c.h} }
func (c coreV1) Nodes() corev1informers.NodeInformer {
	return nodeInformer{c.Interface.Nodes(), c.h}
}
func (c coreV1) PersistentVolumes() corev1informers.PersistentVolumeInformer {
	return pvInformer{c.Interface.PersistentVolumes(), c.h}
}
func (c coreV1) PersistentVolumeClaims() corev1informers.PersistentVolumeClaimInformer {
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

func (s storageV1) CSINodes() storagev1informers.CSINodeInformer {
	return csiNodeInformer{s.Interface.CSINodes(), s.h}
}
func (s storageV1) CSIDrivers() storagev1informers.CSIDriverInformer {
	return csiDriverInformer{s.Interface.CSIDrivers(), s.h}
}
func (s storageV1) CSIStorageCapacities() storagev1informers.CSIStorageCapacityInformer {
	return csiCapacityInformer{s.Interface.CSIStorageCapacities(), s.h}
}
func (s storageV1) StorageClasses() storagev1informers.StorageClassInformer {
	return storageClassInformer{s.Interface.StorageClasses(), s.h}
}

// One wrapper per informer kind: the real informer, Informer() capturing.

type podInformer struct {
	corev1informers.PodInformer
	h *handlerSet
}

func (i podInformer) Informer() cache.SharedIndexInformer {
	return capturingInformer{i.PodInformer.Informer(), "Pod", i.h}
}

type nodeInformer struct {
	corev1informers.NodeInformer
	h *handlerSet
}

func (i nodeInformer) Informer() cache.SharedIndexInformer {
	return capturingInformer{i.NodeInformer.Informer(), "Node", i.h}
}

type pvInformer struct {
	corev1informers.PersistentVolumeInformer
	h *handlerSet
}

func (i pvInformer) Informer() cache.SharedIndexInformer {
	return capturingInformer{i.PersistentVolumeInformer.Informer(), "PersistentVolume", i.h}
}

type pvcInformer struct {
	corev1informers.PersistentVolumeClaimInformer
	h *handlerSet
}

func (i pvcInformer) Informer() cache.SharedIndexInformer {
	return capturingInformer{i.PersistentVolumeClaimInformer.Informer(), "PersistentVolumeClaim", i.h}
}

type csiNodeInformer struct {
	storagev1informers.CSINodeInformer
	h *handlerSet
}

func (i csiNodeInformer) Informer() cache.SharedIndexInformer {
	return capturingInformer{i.CSINodeInformer.Informer(), "CSINode", i.h}
}

type csiDriverInformer struct {
	storagev1informers.CSIDriverInformer
	h *handlerSet
}

func (i csiDriverInformer) Informer() cache.SharedIndexInformer {
	return capturingInformer{i.CSIDriverInformer.Informer(), "CSIDriver", i.h}
}

type csiCapacityInformer struct {
	storagev1informers.CSIStorageCapacityInformer
	h *handlerSet
}

func (i csiCapacityInformer) Informer() cache.SharedIndexInformer {
	return capturingInformer{i.CSIStorageCapacityInformer.Informer(), "CSIStorageCapacity", i.h}
}

type storageClassInformer struct {
	storagev1informers.StorageClassInformer
	h *handlerSet
}

func (i storageClassInformer) Informer() cache.SharedIndexInformer {
	return capturingInformer{i.StorageClassInformer.Informer(), "StorageClass", i.h}
}
