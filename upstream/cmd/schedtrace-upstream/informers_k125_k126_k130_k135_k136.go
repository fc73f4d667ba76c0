//go:build k8s_1_25 || k8s_1_26 || k8s_1_30 || k8s_1_35 || k8s_1_36

package main

import (
	corev1informers "k8s.io/client-go/informers/core/v1"
	storagev1informers "k8s.io/client-go/informers/storage/v1"
)

// The informer interfaces the capturing factory's groups return.
type (
	podInformerT          = corev1informers.PodInformer
	nodeInformerT         = corev1informers.NodeInformer
	pvInformerT           = corev1informers.PersistentVolumeInformer
	pvcInformerT          = corev1informers.PersistentVolumeClaimInformer
	csiNodeInformerT      = storagev1informers.CSINodeInformer
	csiDriverInformerT    = storagev1informers.CSIDriverInformer
	csiCapacityInformerT  = storagev1informers.CSIStorageCapacityInformer
	storageClassInformerT = storagev1informers.StorageClassInformer
)
