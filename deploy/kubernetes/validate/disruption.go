package main

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// hostnameKey is the node label that tells nodes apart.
const hostnameKey = "kubernetes.io/hostname"

// checkSpread checks that the shards are spread across nodes: each shard is
// one pod, and shards sharing a node all stop with it. The constraint must
// select the StatefulSet's own pods, or it spreads nothing.
func checkSpread(pod corev1.PodSpec, sts appsv1.StatefulSet, fail failFunc) {
	podLabels := labels.Set(sts.Spec.Template.Labels)
	for _, tsc := range pod.TopologySpreadConstraints {
		if tsc.TopologyKey != hostnameKey || tsc.MaxSkew < 1 {
			continue
		}
		if sel, err := metav1.LabelSelectorAsSelector(tsc.LabelSelector); err == nil && tsc.LabelSelector != nil && !sel.Empty() && sel.Matches(podLabels) {
			return
		}
	}
	fail("the pods must be spread across nodes: a topologySpreadConstraint on %s selecting the exporter's pods (shards on one node all stop with it)", hostnameKey)
}

// checkDisruption checks for one PodDisruptionBudget over the exporter's
// pods that lets a drain evict a shard at a time: maxUnavailable of 1 or
// more. minAvailable, or a maxUnavailable of 0, would block every drain
// of a node that holds a shard.
func checkDisruption(o *objects, sts appsv1.StatefulSet, fail failFunc) {
	podLabels := labels.Set(sts.Spec.Template.Labels)
	var found int
	for _, pdb := range o.disruptions {
		sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
		if err != nil || pdb.Spec.Selector == nil || sel.Empty() || !sel.Matches(podLabels) {
			continue
		}
		found++
		mu := pdb.Spec.MaxUnavailable
		switch {
		case pdb.Spec.MinAvailable != nil || mu == nil:
			fail("PodDisruptionBudget %s: set maxUnavailable, not minAvailable: a drain must be able to evict one shard at a time", pdb.Name)
		case mu.String() == "0" || mu.String() == "0%":
			fail("PodDisruptionBudget %s: maxUnavailable %s blocks every drain of a node holding a shard", pdb.Name, mu.String())
		}
	}
	if found != 1 {
		fail("want one PodDisruptionBudget selecting the exporter's pods (a drain takes one shard at a time), got %d", found)
	}
}
