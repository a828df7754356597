package main

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// The operational options: web config, extra volumes, spread, disruption
// budget, Reloader. Each check reads what the option must change; the
// renderings that keep what checkExporter asks of every variant (all but
// those turning the budget or the spread off, or spreading by other pods)
// pass it too.
func TestChartOperationalOptions(t *testing.T) {
	helm := helmBinary(t)
	const secrets = "accounts: [{name: main, api_key: K}]\nsecrets: {existingSecret: s}\n"
	for _, tc := range []struct {
		name, values string
		check        func(*objects) error
		partial      bool // turns off something checkExporter requires
	}{
		{"web config: mounted read-only, passed, probes on TCP behind basic auth", "webConfig: {existingSecret: web}", func(o *objects) error {
			pod, c := podAndContainer(o)
			if f, _ := flagValue(c.Args, "--web.config.file"); f != "/etc/woox_exporter/web/web-config.yml" {
				return fmt.Errorf("--web.config.file=%q, want the mounted Secret's web-config.yml", f)
			}
			if v, ok := volume(pod, "web-config"); !ok || v.Secret == nil || v.Secret.SecretName != "web" {
				return errors.New("want a volume web-config from the Secret web")
			}
			if m, ok := mount(c, "web-config"); !ok || !m.ReadOnly || m.MountPath != "/etc/woox_exporter/web" {
				return errors.New("want web-config mounted read-only at /etc/woox_exporter/web")
			}
			if c.LivenessProbe.TCPSocket == nil || c.ReadinessProbe.TCPSocket == nil {
				return errors.New("behind basic auth, which the kubelet cannot answer, the probes must connect (tcpSocket)")
			}
			return nil
		}, false},
		{"web config with TLS alone: probes GET over HTTPS, ServiceMonitor scrapes https", "webConfig: {existingSecret: web, basicAuth: false}\nserviceMonitor: {enabled: true, tlsConfig: {serverName: x}}\nprometheusRule: {enabled: true}", func(o *objects) error {
			_, c := podAndContainer(o)
			for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe} {
				if p.HTTPGet == nil || p.HTTPGet.Scheme != corev1.URISchemeHTTPS {
					return fmt.Errorf("probe %+v: want GET over HTTPS", p.ProbeHandler)
				}
			}
			ep := o.serviceMonitors[0].Spec.Endpoints[0]
			if ep.Scheme != "https" || ep.TLSConfig == nil || ep.TLSConfig.ServerName == nil || *ep.TLSConfig.ServerName != "x" {
				return errors.New("the ServiceMonitor must scrape over https with the values' tlsConfig")
			}
			return nil
		}, false},
		{"web config without TLS: probes GET over HTTP", "webConfig: {existingSecret: web, tls: false, basicAuth: false}", func(o *objects) error {
			_, c := podAndContainer(o)
			if p := c.LivenessProbe.HTTPGet; p == nil || (p.Scheme != "" && p.Scheme != corev1.URISchemeHTTP) {
				return errors.New("want the liveness probe to GET over HTTP")
			}
			return nil
		}, false},
		{"extra volumes and mounts", "extraVolumes: [{name: ca, configMap: {name: ca}}]\nextraVolumeMounts: [{name: ca, mountPath: /etc/ca, readOnly: true}]", func(o *objects) error {
			pod, c := podAndContainer(o)
			if v, ok := volume(pod, "ca"); !ok || v.ConfigMap == nil {
				return errors.New("want the extra volume ca")
			}
			if _, ok := mount(c, "ca"); !ok {
				return errors.New("want the extra mount ca")
			}
			return nil
		}, false},
		{"no disruption budget", "podDisruptionBudget: {enabled: false}", func(o *objects) error {
			if len(o.disruptions) != 0 {
				return fmt.Errorf("%d PodDisruptionBudgets, want none", len(o.disruptions))
			}
			return nil
		}, true},
		{"spread dropped", "topologySpreadConstraints: []", func(o *objects) error {
			if pod, _ := podAndContainer(o); len(pod.TopologySpreadConstraints) != 0 {
				return fmt.Errorf("%d topologySpreadConstraints, want none", len(pod.TopologySpreadConstraints))
			}
			return nil
		}, true},
		{"spread strictly, by the values' selector", "topologySpreadConstraints: [{maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: x}}}]", func(o *objects) error {
			pod, _ := podAndContainer(o)
			if c := pod.TopologySpreadConstraints; len(c) != 1 || c[0].WhenUnsatisfiable != corev1.DoNotSchedule || c[0].LabelSelector.MatchLabels["app"] != "x" {
				return fmt.Errorf("topologySpreadConstraints %+v, want the values' one", c)
			}
			return nil
		}, true},
		{"Reloader", secrets + "reloader: {enabled: true}", func(o *objects) error {
			if a := o.statefulSets[0].Annotations["reloader.stakater.com/auto"]; a != "true" {
				return fmt.Errorf("annotation reloader.stakater.com/auto %q on the StatefulSet, want true", a)
			}
			return nil
		}, false},
		{"no Reloader by default", secrets, func(o *objects) error {
			if _, ok := o.statefulSets[0].Annotations["reloader.stakater.com/auto"]; ok {
				return errors.New("Reloader's annotation without reloader.enabled")
			}
			return nil
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs, v, err := render(t, helm, chartDir, "woox-exporter", valuesFile(t, tc.values))
			if err != nil {
				t.Fatal(err)
			}
			err = tc.check(objs)
			if !tc.partial {
				err = errors.Join(checkExporter(objs, v.ServiceMonitor.Enabled), err)
			}
			if err != nil {
				t.Error(err)
			}
		})
	}
}

// A changed accounts list or created Secret changes the pods' template, so
// that helm upgrade restarts them: the exporter reads both at start. A
// change elsewhere does not.
func TestChartRestartsPodsOnConfigChange(t *testing.T) {
	helm := helmBinary(t)
	const base = "accounts: [{name: main, api_key: K}]\nsecrets: {create: {main: S1}}\n"
	annotations := func(values string) map[string]string {
		objs, _, err := render(t, helm, chartDir, "woox-exporter", valuesFile(t, values))
		if err != nil {
			t.Fatal(err)
		}
		return objs.statefulSets[0].Spec.Template.Annotations
	}
	before := annotations(base)
	for _, tc := range []struct {
		name, values string
		changes      []string
	}{
		{"secret rotated", "accounts: [{name: main, api_key: K}]\nsecrets: {create: {main: S2}}\n", []string{"checksum/secrets"}},
		{"key rotated", "accounts: [{name: main, api_key: K2}]\nsecrets: {create: {main: S1}}\n", []string{"checksum/accounts"}},
		{"account added", "accounts: [{name: main, api_key: K}, {name: b, api_key: L}]\nsecrets: {create: {main: S1, b: S3}}\n", []string{"checksum/accounts", "checksum/secrets"}},
		{"nothing the pods read", base + "service: {annotations: {a: b}}\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			after := annotations(tc.values)
			for _, k := range []string{"checksum/accounts", "checksum/secrets"} {
				if before[k] == "" {
					t.Fatalf("no %s annotation on the pods", k)
				}
				if changed, want := before[k] != after[k], slices.Contains(tc.changes, k); changed != want {
					t.Errorf("%s changed: %v, want %v", k, changed, want)
				}
			}
		})
	}
}

// podAndContainer are the StatefulSet's pod spec and its one container.
func podAndContainer(o *objects) (corev1.PodSpec, corev1.Container) {
	pod := o.statefulSets[0].Spec.Template.Spec
	return pod, pod.Containers[0]
}

func volume(pod corev1.PodSpec, name string) (corev1.Volume, bool) {
	i := slices.IndexFunc(pod.Volumes, func(v corev1.Volume) bool { return v.Name == name })
	if i < 0 {
		return corev1.Volume{}, false
	}
	return pod.Volumes[i], true
}

func mount(c corev1.Container, name string) (corev1.VolumeMount, bool) {
	i := slices.IndexFunc(c.VolumeMounts, func(m corev1.VolumeMount) bool { return m.Name == name })
	if i < 0 {
		return corev1.VolumeMount{}, false
	}
	return c.VolumeMounts[i], true
}
