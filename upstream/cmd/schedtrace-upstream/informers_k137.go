//go:build k8s_1_37

package main

import (
	corev1informers "k8s.io/client-go/informers/core/v1"
	storagev1informers "k8s.io/client-go/informers/storage/v1"
)

// The informer interfaces the capturing factory's groups return: client-go
// v0.37's Typed ones (their TypedInformer is the real informer's; upstream's
// scheduler registers its handlers through Informer()).
type (
	podInformerT          = corev1informers.TypedPodInformer
	nodeInformerT         = corev1informers.TypedNodeInformer
	pvInformerT           = corev1informers.TypedPersistentVolumeInformer
	pvcInformerT          = corev1informers.TypedPersistentVolumeClaimInformer
	csiNodeInformerT      = storagev1informers.TypedCSINodeInformer
	csiDriverInformerT    = storagev1informers.TypedCSIDriverInformer
	csiCapacityInformerT  = storagev1informers.TypedCSIStorageCapacityInformer
	storageClassInformerT = storagev1informers.TypedStorageClassInformer
)
