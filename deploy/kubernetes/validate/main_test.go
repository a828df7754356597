package main

import (
	"os"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// The kustomizations' resources as written (without the labels and the
// image kustomize adds), and the ConfigMap its configMapGenerator makes of
// base/accounts.yml.
var (
	baseFiles     = []string{"base/serviceaccount.yaml", "base/statefulset.yaml", "base/service.yaml", "base/networkpolicy.yaml", "base/poddisruptionbudget.yaml"}
	operatorFiles = basePlus("operator/servicemonitor.yaml", "operator/prometheusrule.yaml")
)

func basePlus(files ...string) []string { return append(slices.Clone(baseFiles), files...) }

func manifests(t *testing.T, files []string) string {
	t.Helper()
	var b strings.Builder
	accounts, err := os.ReadFile("../base/accounts.yml")
	if err != nil {
		t.Fatal(err)
	}
	cm, err := yaml.Marshal(map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]string{"name": "woox-exporter-accounts"},
		"data":     map[string]string{"accounts.yml": string(accounts)},
	})
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString("---\n")
	b.Write(cm)
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

// meta is an object's kind and metadata.
type meta struct {
	kind string
	metav1.ObjectMeta
}

// metas lists every object's kind and metadata.
func (o *objects) metas() []meta {
	var out []meta
	add := func(kind string, m metav1.ObjectMeta) { out = append(out, meta{kind, m}) }
	for _, x := range o.serviceAccounts {
		add("ServiceAccount", x.ObjectMeta)
	}
	for _, x := range o.configMaps {
		add("ConfigMap", x.ObjectMeta)
	}
	for _, x := range o.secrets {
		add("Secret", x.ObjectMeta)
	}
	for _, x := range o.services {
		add("Service", x.ObjectMeta)
	}
	for _, x := range o.statefulSets {
		add("StatefulSet", x.ObjectMeta)
	}
	for _, x := range o.networkPolicies {
		add("NetworkPolicy", x.ObjectMeta)
	}
	for _, x := range o.disruptions {
		add("PodDisruptionBudget", x.ObjectMeta)
	}
	for _, x := range o.serviceMonitors {
		add("ServiceMonitor", x.ObjectMeta)
	}
	for _, x := range o.prometheusRules {
		add("PrometheusRule", x.ObjectMeta)
	}
	return out
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

// Without its PodDisruptionBudget, a drain may evict every shard at once.
func TestBaseWithoutDisruptionBudgetFails(t *testing.T) {
	files := slices.DeleteFunc(slices.Clone(baseFiles), func(f string) bool { return f == "base/poddisruptionbudget.yaml" })
	err := validate(manifests(t, files), false)
	if want := "want one PodDisruptionBudget selecting the exporter's pods"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one containing %q", err, want)
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
		{"secrets not mounted", "            - name: secrets\n              mountPath: /etc/woox_exporter/secrets\n", "", "account main: its api_secret_file /etc/woox_exporter/secrets/main is on no Secret volume"},
		{"secrets mounted elsewhere", "              mountPath: /etc/woox_exporter/secrets\n", "              mountPath: /etc/woox_exporter/keys\n", "is on no Secret volume"},
		{"accounts file not mounted", "              mountPath: /etc/woox_exporter/accounts.yml\n", "              mountPath: /etc/woox_exporter/config.yml\n", "the accounts file /etc/woox_exporter/accounts.yml is on no ConfigMap volume"},
		{"accounts from another ConfigMap", "            name: woox-exporter-accounts\n", "            name: woox-exporter-config\n", "no ConfigMap woox-exporter-config"},
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
		{"network policy admits every namespace", "        - namespaceSelector:\n            matchLabels:\n              kubernetes.io/metadata.name: monitoring\n", "        - namespaceSelector: {}\n", "in every namespace"},
		{"shards may share a node", "          topologyKey: kubernetes.io/hostname\n", "          topologyKey: topology.kubernetes.io/zone\n", "spread across nodes"},
		{"spread over other pods", "          labelSelector:\n            matchLabels:\n              app.kubernetes.io/component: exporter\n", "          labelSelector:\n            matchLabels:\n              app.kubernetes.io/component: other\n", "spread across nodes"},
		{"disruption budget over other pods", "  maxUnavailable: 1\n  selector:\n    matchLabels:\n      app.kubernetes.io/component: exporter\n", "  maxUnavailable: 1\n  selector:\n    matchLabels:\n      app.kubernetes.io/component: other\n", "want one PodDisruptionBudget"},
		{"disruption budget blocks drains", "  maxUnavailable: 1\n", "  maxUnavailable: 0\n", "blocks every drain"},
		{"disruption budget by minAvailable", "  maxUnavailable: 1\n", "  minAvailable: 1\n", "not minAvailable"},
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
