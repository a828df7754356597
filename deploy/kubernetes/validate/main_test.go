package main

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// The kustomizations' resources as written (without the labels, the image
// and the generated ConfigMap kustomize adds).
var (
	baseFiles     = []string{"base/serviceaccount.yaml", "base/statefulset.yaml", "base/service.yaml", "base/networkpolicy.yaml"}
	operatorFiles = basePlus("operator/servicemonitor.yaml", "operator/prometheusrule.yaml")
)

func basePlus(files ...string) []string { return append(slices.Clone(baseFiles), files...) }

func manifests(t *testing.T, files []string) string {
	t.Helper()
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile("../" + f)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("---\n")
		b.Write(data)
	}
	return b.String()
}

func validate(stream string, operator bool) error {
	objs, err := decodeAll([]byte(stream))
	if err != nil {
		return err
	}
	return checkExporter(objs, operator)
}

func TestBothVariantsPass(t *testing.T) {
	if err := validate(manifests(t, baseFiles), false); err != nil {
		t.Errorf("base: %v", err)
	}
	if err := validate(manifests(t, operatorFiles), true); err != nil {
		t.Errorf("operator: %v", err)
	}
}

// The base must apply on a cluster without the operator's CRDs, and the
// operator variant must bring both of its objects.
func TestVariantsHoldTheirOperatorObjects(t *testing.T) {
	for _, tc := range []struct {
		name     string
		files    []string
		operator bool
		want     string
	}{
		{"base with a ServiceMonitor", basePlus("operator/servicemonitor.yaml"), false, "without the prometheus-operator's CRDs"},
		{"base with a PrometheusRule", basePlus("operator/prometheusrule.yaml"), false, "without the prometheus-operator's CRDs"},
		{"operator without its ServiceMonitor", basePlus("operator/prometheusrule.yaml"), true, "want one ServiceMonitor"},
		{"operator without its PrometheusRule", basePlus("operator/servicemonitor.yaml"), true, "want one PrometheusRule"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := validate(manifests(t, tc.files), tc.operator)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// Each change breaks something the API or the exporter needs, and is
// named in the error.
func TestBrokenManifestsFail(t *testing.T) {
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"misspelt field", "  replicas: 2\n", "  replica: 2\n", `unknown field "replica"`},
		{"field of another version", "  serviceName: woox-exporter\n", "  serviceName: woox-exporter\n  minReadySecond: 5\n", `unknown field "minReadySecond"`},
		{"wrong type", "  replicas: 2\n", "  replicas: two\n", "replicas"},
		{"unknown ServiceMonitor field", "      interval: 15s\n", "      intervall: 15s\n", `unknown field "intervall"`},
		{"replicas and shard count disagree", "  replicas: 2\n", "  replicas: 3\n", "--shard.count"},
		{"no ordinal", "            - --shard.from-hostname\n", "", "--shard.from-hostname"},
		{"secret readable by others", "defaultMode: 0440", "defaultMode: 0444", "defaultMode must be 0440"},
		{"no fsGroup", "        fsGroup: 65532\n", "", "fsGroup"},
		{"writable root", "readOnlyRootFilesystem: true", "readOnlyRootFilesystem: false", "read-only root filesystem"},
		{"capabilities kept", "drop: [ALL]", "drop: [NET_RAW]", "drop ALL"},
		{"liveness on the readiness path", "              path: /-/healthy\n", "              path: /-/ready\n", "liveness probe must GET /-/healthy"},
		{"no memory limit", "            limits:\n              memory: 120Mi\n", "", "limit memory"},
		{"state off the claim", "--token-history.state-file=/var/lib/woox_exporter/", "--token-history.state-file=/tmp/", "volume claim template"},
		{"service selects nothing", "  selector:\n    app.kubernetes.io/component: exporter\n  ports:", "  selector:\n    app.kubernetes.io/component: other\n  ports:", "does not select the exporter's pods"},
		{"monitor on a missing port", "    - port: http\n      # 15s", "    - port: metrics\n      # 15s", `port "metrics"`},
		{"unknown kind", "kind: ServiceAccount", "kind: ServiceAcount", "not one this deployment uses"},
		{"network policy selects other pods", "  podSelector:\n    matchLabels:\n      app.kubernetes.io/component: exporter\n", "  podSelector:\n    matchLabels:\n      app.kubernetes.io/component: other\n", "want one NetworkPolicy selecting the exporter's pods"},
		{"network policy admits every pod", "          podSelector:\n            matchExpressions:\n              - key: app.kubernetes.io/name\n                operator: In\n                values: [prometheus]\n", "", "admits every pod"},
		{"network policy admits another port", "        - port: http\n          protocol: TCP\n", "        - port: 22\n          protocol: TCP\n", "a port other than the metrics port"},
		{"network policy lets everything in", "  policyTypes:\n    - Ingress\n", "  policyTypes:\n    - Egress\n", "must restrict Ingress"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := manifests(t, operatorFiles)
			if !strings.Contains(b, tc.old) {
				t.Fatalf("the manifests no longer contain %q", tc.old)
			}
			err := validate(strings.Replace(b, tc.old, tc.new, 1), true)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
