package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// checkExporter checks what the exporter needs of its manifests, beyond
// what the API types say: docs/deploying.md, Running several replicas. operator says
// which variant o is: with the prometheus-operator's objects, or the base
// without any.
func checkExporter(o *objects, operator bool) error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if len(o.statefulSets) != 1 {
		return fmt.Errorf("want one StatefulSet, got %d", len(o.statefulSets))
	}
	sts := o.statefulSets[0]
	pod := sts.Spec.Template.Spec
	if len(pod.Containers) != 1 {
		return fmt.Errorf("StatefulSet %s: want one container, got %d", sts.Name, len(pod.Containers))
	}
	c := pod.Containers[0]
	checkShards(sts, c, fail)
	checkSecurity(pod, c, fail)
	checkProbes(c, fail)
	checkSpread(pod, sts, fail)
	checkDisruption(o, sts, fail)
	checkVolumes(sts, c, fail)
	checkAccounts(o, pod, c, fail)
	if err := checkSelection(o, sts, fail); err != nil {
		return errors.Join(append(errs, err)...)
	}
	checkOperatorObjects(o, operator, fail)
	checkNetworkPolicy(o, sts, c, fail)
	return errors.Join(errs...)
}

// checkNetworkPolicy checks that one NetworkPolicy selects the exporter's
// pods and admits ingress only on the metrics port, only from pods it
// names, in the namespaces it names: /metrics shows which keys can
// withdraw, balances and positions.
func checkNetworkPolicy(o *objects, sts appsv1.StatefulSet, c corev1.Container, fail failFunc) {
	podLabels := labels.Set(sts.Spec.Template.Labels)
	var policies []networkingv1.NetworkPolicy
	for _, np := range o.networkPolicies {
		if sel, err := metav1.LabelSelectorAsSelector(&np.Spec.PodSelector); err == nil && sel.Matches(podLabels) {
			policies = append(policies, np)
		}
	}
	if len(policies) != 1 {
		fail("want one NetworkPolicy selecting the exporter's pods (only the scraper may read /metrics), got %d", len(policies))
		return
	}
	np := policies[0]
	if !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeIngress) {
		fail("NetworkPolicy %s must restrict Ingress", np.Name)
	}
	var metricsPort int32
	for _, p := range c.Ports {
		if p.Name == "http" {
			metricsPort = p.ContainerPort
		}
	}
	for i, rule := range np.Spec.Ingress {
		if len(rule.From) == 0 {
			fail("NetworkPolicy %s: ingress rule %d admits every source", np.Name, i)
		}
		for _, peer := range rule.From {
			if peer.IPBlock == nil && !namesLabels(peer.PodSelector) {
				fail("NetworkPolicy %s: ingress rule %d admits every pod of the namespaces it selects; name the scraper's pods", np.Name, i)
			}
			// No namespaceSelector: the policy's own namespace.
			if peer.NamespaceSelector != nil && !namesLabels(peer.NamespaceSelector) {
				fail("NetworkPolicy %s: ingress rule %d admits the scraper's labels in every namespace; name the scraper's namespace", np.Name, i)
			}
		}
		if len(rule.Ports) == 0 {
			fail("NetworkPolicy %s: ingress rule %d admits every port", np.Name, i)
		}
		for _, p := range rule.Ports {
			if p.Port == nil || (p.Port.String() != "http" && p.Port.IntValue() != int(metricsPort)) {
				fail("NetworkPolicy %s: ingress rule %d admits a port other than the metrics port", np.Name, i)
			}
		}
	}
}

// namesLabels reports whether sel names a label: an empty selector selects
// everything.
func namesLabels(sel *metav1.LabelSelector) bool {
	return sel != nil && len(sel.MatchLabels)+len(sel.MatchExpressions) > 0
}

// failFunc records one failed check.
type failFunc func(format string, args ...any)

// checkShards checks for one pod per shard, the shard from the pod's ordinal.
func checkShards(sts appsv1.StatefulSet, c corev1.Container, fail failFunc) {
	replicas := int32(1)
	if sts.Spec.Replicas != nil {
		replicas = *sts.Spec.Replicas
	}
	if count, ok := flagValue(c.Args, "--shard.count"); !ok || count != strconv.Itoa(int(replicas)) {
		fail("--shard.count %q (set %v) must equal the %d replicas", count, ok, replicas)
	}
	if !slices.Contains(c.Args, "--shard.from-hostname") {
		fail("the container must take its shard from the pod's ordinal (--shard.from-hostname)")
	}
	if _, ok := flagValue(c.Args, "--shard.index"); ok {
		fail("--shard.index would give every pod the same shard")
	}
}

// checkSecurity checks for non-root, read-only, no capabilities, and
// memory requested and limited.
func checkSecurity(pod corev1.PodSpec, c corev1.Container, fail failFunc) {
	psc := pod.SecurityContext
	switch {
	case psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot:
		fail("the pod must set runAsNonRoot")
	case psc.FSGroup == nil:
		fail("the pod must set fsGroup, the group of the secret files (mode 0440)")
	}
	sc := c.SecurityContext
	switch {
	case sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem:
		fail("the container must have a read-only root filesystem")
	case sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation:
		fail("the container must set allowPrivilegeEscalation: false")
	case sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL"):
		fail("the container must drop ALL capabilities")
	}
	if _, ok := c.Resources.Requests[corev1.ResourceMemory]; !ok {
		fail("the container must request memory")
	}
	if _, ok := c.Resources.Limits[corev1.ResourceMemory]; !ok {
		fail("the container must limit memory")
	}
}

// checkProbes checks for probes on the exporter's health and readiness; behind
// a web config, whose basic auth the kubelet cannot answer, a TCP check of
// the metrics port will do.
func checkProbes(c corev1.Container, fail failFunc) {
	_, webConfig := flagValue(c.Args, "--web.config.file")
	for _, p := range []struct {
		name  string
		probe *corev1.Probe
		path  string
	}{{"liveness", c.LivenessProbe, "/-/healthy"}, {"readiness", c.ReadinessProbe, "/-/ready"}} {
		switch {
		case p.probe != nil && p.probe.HTTPGet != nil && p.probe.HTTPGet.Path == p.path:
		case p.probe != nil && p.probe.TCPSocket != nil && webConfig:
			if p.probe.TCPSocket.Port.String() != "http" {
				fail("the %s probe must connect to the metrics port (http)", p.name)
			}
		default:
			fail("the %s probe must GET %s (or, behind --web.config.file's basic auth, connect to the metrics port)", p.name, p.path)
		}
	}
}

// checkVolumes checks for secrets read-only, mode 0440, and the state file
// on the pod's claim.
func checkVolumes(sts appsv1.StatefulSet, c corev1.Container, fail failFunc) {
	mounts := map[string]corev1.VolumeMount{}
	for _, m := range c.VolumeMounts {
		mounts[m.Name] = m
	}
	for _, v := range sts.Spec.Template.Spec.Volumes {
		if v.Secret == nil {
			continue
		}
		if v.Secret.DefaultMode == nil || *v.Secret.DefaultMode != 0o440 {
			fail("secret volume %s: defaultMode must be 0440", v.Name)
		}
		if m, ok := mounts[v.Name]; !ok || !m.ReadOnly {
			fail("secret volume %s must be mounted read-only", v.Name)
		}
	}
	state, ok := flagValue(c.Args, "--token-history.state-file")
	if !ok {
		fail("no --token-history.state-file: counters would restart from zero with every pod")
	}
	claimed := false
	for _, t := range sts.Spec.VolumeClaimTemplates {
		if m, ok := mounts[t.Name]; ok && strings.HasPrefix(state, strings.TrimSuffix(m.MountPath, "/")+"/") && !m.ReadOnly {
			claimed = true
		}
	}
	if !claimed {
		fail("the state file %s must be on a volume claim template, one per pod", state)
	}
}

// checkSelection checks that the Service selects the pods and the
// ServiceMonitor, if any, the Service. Without the Service it returns the
// error that ends the checks.
func checkSelection(o *objects, sts appsv1.StatefulSet, fail failFunc) error {
	podLabels := labels.Set(sts.Spec.Template.Labels)
	if sel := labels.SelectorFromSet(sts.Spec.Selector.MatchLabels); !sel.Matches(podLabels) {
		fail("the StatefulSet's selector does not select its own pods")
	}
	var svc *corev1.Service
	for i := range o.services {
		if o.services[i].Name == sts.Spec.ServiceName {
			svc = &o.services[i]
		}
	}
	if svc == nil {
		return fmt.Errorf("no Service %q (the StatefulSet's serviceName)", sts.Spec.ServiceName)
	}
	if len(svc.Spec.Selector) == 0 || !labels.SelectorFromSet(svc.Spec.Selector).Matches(podLabels) {
		fail("Service %s does not select the exporter's pods", svc.Name)
	}
	if len(o.serviceMonitors) != 1 {
		return nil
	}
	sm := o.serviceMonitors[0]
	if !labels.SelectorFromSet(sm.Spec.Selector.MatchLabels).Matches(labels.Set(svc.Labels)) {
		fail("ServiceMonitor %s does not select Service %s", sm.Name, svc.Name)
	}
	for _, ep := range sm.Spec.Endpoints {
		if !slices.ContainsFunc(svc.Spec.Ports, func(p corev1.ServicePort) bool { return p.Name == ep.Port }) {
			fail("ServiceMonitor %s scrapes port %q, which Service %s does not have", sm.Name, ep.Port, svc.Name)
		}
	}
	return nil
}

// checkOperatorObjects checks for one ServiceMonitor and one PrometheusRule
// with the exporter's rules in the operator variant, and for none in the
// base, which must apply without the prometheus-operator's CRDs.
func checkOperatorObjects(o *objects, operator bool, fail failFunc) {
	if !operator {
		if len(o.serviceMonitors)+len(o.prometheusRules) > 0 {
			fail("the base must apply without the prometheus-operator's CRDs: %d ServiceMonitor and %d PrometheusRule belong in the operator variant", len(o.serviceMonitors), len(o.prometheusRules))
		}
		return
	}
	if len(o.serviceMonitors) != 1 {
		fail("want one ServiceMonitor, got %d", len(o.serviceMonitors))
	}
	if len(o.prometheusRules) != 1 || len(o.prometheusRules[0].Spec.Groups) == 0 {
		fail("want one PrometheusRule with the exporter's rule groups")
	}
}

// flagValue finds --name=value in args.
func flagValue(args []string, name string) (string, bool) {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v, true
		}
	}
	return "", false
}
