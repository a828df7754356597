package main

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

const (
	chartDir = "../../helm/woox-exporter"
	// rulesFile is what the chart's PrometheusRule must hold, rendered from
	// the mixin like the chart's own copy.
	rulesFile = "../../../alerts/woox_exporter.rules.yml"
	// namespace is the release's namespace in every rendering here.
	namespace = "monitoring"
)

// helmBinary is helm on the PATH or in GOPATH/bin, where .ci/run installs it.
func helmBinary(t *testing.T) string {
	t.Helper()
	return goTool(t, "helm", "GOFLAGS='' go install helm.sh/helm/v3/cmd/helm@v3.22.0")
}

// ciValues are the chart's CI values files (ci/*-values.yaml, Helm's
// convention), as paths.
func ciValues(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(chartDir, "ci", "*-values.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no values files in %s/ci (%v)", chartDir, err)
	}
	return files
}

func TestChartLints(t *testing.T) {
	helm := helmBinary(t)
	for _, values := range append([]string{""}, ciValues(t)...) {
		args := []string{"lint", "--strict", chartDir}
		if values != "" {
			args = append(args, "--values", values)
		}
		if out, err := exec.Command(helm, args...).CombinedOutput(); err != nil {
			t.Errorf("helm %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// chartValues are the values the checks below read: the chart's
// values.yaml with the values files given over it, as Helm merges them
// (maps key by key, lists whole).
type chartValues struct {
	Shards int `json:"shards"`
	Image  struct {
		Repository string `json:"repository"`
		Tag        string `json:"tag"`
		Digest     string `json:"digest"`
	} `json:"image"`
	Accounts []struct {
		Name string `json:"name"`
	} `json:"accounts"`
	NetworkPolicy struct {
		Enabled           bool                  `json:"enabled"`
		NamespaceSelector *metav1.LabelSelector `json:"namespaceSelector"`
		PodSelector       *metav1.LabelSelector `json:"podSelector"`
	} `json:"networkPolicy"`
	ServiceMonitor operatorValues `json:"serviceMonitor"`
	PrometheusRule operatorValues `json:"prometheusRule"`
}

type operatorValues struct {
	Enabled          bool              `json:"enabled"`
	AdditionalLabels map[string]string `json:"additionalLabels"`
}

// render runs helm template on chart with the values files given, as
// `helm install RELEASE chart -n monitoring -f FILE...` would render it,
// and returns the objects and the values they were rendered from.
func render(t *testing.T, helm, chart, release string, valueFiles ...string) (*objects, chartValues, error) {
	t.Helper()
	var v chartValues
	for _, f := range append([]string{filepath.Join(chart, "values.yaml")}, valueFiles...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	out, err := helmTemplate(helm, chart, release, nil, valueFiles...)
	if err != nil {
		return nil, v, err
	}
	objs, err := decodeAll(out)
	return objs, v, err
}

// helmTemplate runs helm template on chart with the values files given
// and more arguments, and returns what it writes.
func helmTemplate(helm, chart, release string, extra []string, valueFiles ...string) ([]byte, error) {
	args := append([]string{"template", release, chart, "--namespace", namespace}, extra...)
	for _, f := range valueFiles {
		args = append(args, "--values", f)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(helm, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("helm template: %v: %s", err, stderr.String())
	}
	return out, nil
}

// valuesFile writes YAML values to a temporary file and returns its path.
func valuesFile(t *testing.T, values string) string {
	t.Helper()
	// Not t.TempDir: its path holds the test's name, and helm splits a
	// --values argument at commas.
	dir, err := os.MkdirTemp("", "woox-values")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	f := filepath.Join(dir, "values.yaml")
	if err := os.WriteFile(f, []byte(values), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestChartRendersAndPasses renders the chart with its default values and
// each CI values file, under two release names, and validates the objects
// as the kustomizations' are, then against the values: the shards, the
// image, the accounts, the operator's objects and their labels.
func TestChartRendersAndPasses(t *testing.T) {
	helm := helmBinary(t)
	for _, values := range append([]string{""}, ciValues(t)...) {
		for _, release := range []string{"woox-exporter", "prod"} {
			name := strings.TrimSuffix(filepath.Base(values), "-values.yaml")
			if values == "" {
				name = "default"
			}
			t.Run(name+"/"+release, func(t *testing.T) {
				var files []string
				if values != "" {
					files = append(files, values)
				}
				objs, v, err := render(t, helm, chartDir, release, files...)
				if err != nil {
					t.Fatal(err)
				}
				if v.ServiceMonitor.Enabled != v.PrometheusRule.Enabled {
					t.Fatalf("%s enables one of serviceMonitor and prometheusRule: enable both or neither, so that the validator knows which to expect", values)
				}
				if err := errors.Join(checkExporter(objs, v.ServiceMonitor.Enabled), checkChart(t, objs, v)); err != nil {
					t.Errorf("the chart with %s values: %v", name, err)
				}
			})
		}
	}
}

// The operator's objects appear only when enabled, with the labels their
// Prometheus selects them by.
func TestChartOperatorObjectsFollowValues(t *testing.T) {
	helm := helmBinary(t)
	for _, values := range []string{
		"serviceMonitor: {enabled: true}",
		"prometheusRule: {enabled: true}",
		"serviceMonitor: {enabled: true, additionalLabels: {release: kps}}",
		"prometheusRule: {enabled: true, additionalLabels: {release: kps, team: risk}}",
		"serviceMonitor: {enabled: false, additionalLabels: {release: kps}}\nprometheusRule: {enabled: false, additionalLabels: {release: kps}}",
	} {
		t.Run(values, func(t *testing.T) {
			objs, v, err := render(t, helm, chartDir, "woox-exporter", valuesFile(t, values))
			if err != nil {
				t.Fatal(err)
			}
			if err := checkChart(t, objs, v); err != nil {
				t.Error(err)
			}
		})
	}
}

// checkChart checks the rendered objects against the values they were
// rendered from, beyond checkExporter's needs of every variant.
func checkChart(t *testing.T, o *objects, v chartValues) error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	for _, m := range o.metas() {
		if m.Namespace != namespace {
			fail("%s %s is in namespace %q, not the release's %q", m.kind, m.Name, m.Namespace, namespace)
		}
	}
	if len(o.statefulSets) != 1 || len(o.statefulSets[0].Spec.Template.Spec.Containers) != 1 {
		return errors.Join(append(errs, errors.New("want one StatefulSet with one container"))...)
	}
	sts := o.statefulSets[0]
	if r := sts.Spec.Replicas; r == nil || int(*r) != v.Shards {
		fail("StatefulSet %s: replicas %s, want shards: %d", sts.Name, deref(r), v.Shards)
	}
	c := sts.Spec.Template.Spec.Containers[0]
	if count, _ := flagValue(c.Args, "--shard.count"); count != strconv.Itoa(v.Shards) {
		fail("--shard.count=%s, want shards: %d", count, v.Shards)
	}
	if want := wantImage(t, v); c.Image != want {
		fail("image %s, want %s", c.Image, want)
	}
	checkChartAccounts(o, v, fail)
	checkChartScraper(o, v, fail)
	var smLabels, prLabels []map[string]string
	for _, sm := range o.serviceMonitors {
		smLabels = append(smLabels, sm.Labels)
		checkJobAndInterval(sm, fail)
	}
	for _, pr := range o.prometheusRules {
		prLabels = append(prLabels, pr.Labels)
		if err := sameGroups(pr.Spec.Groups, rulesFile); err != nil {
			fail("PrometheusRule %s: %v", pr.Name, err)
		}
	}
	checkOperatorObject("ServiceMonitor", v.ServiceMonitor, smLabels, fail)
	checkOperatorObject("PrometheusRule", v.PrometheusRule, prLabels, fail)
	return errors.Join(errs...)
}

func deref(p *int32) string {
	if p == nil {
		return "unset"
	}
	return strconv.Itoa(int(*p))
}

// wantImage is the image the values name: the tag defaults to
// v<appVersion>, the release's tag.
func wantImage(t *testing.T, v chartValues) string {
	var chart struct {
		AppVersion string `json:"appVersion"`
	}
	b, err := os.ReadFile(filepath.Join(chartDir, "Chart.yaml"))
	if err == nil {
		err = yaml.Unmarshal(b, &chart)
	}
	if err != nil || chart.AppVersion == "" {
		t.Fatalf("Chart.yaml: no appVersion (%v)", err)
	}
	ref := v.Image.Repository + ":" + v.Image.Tag
	if v.Image.Tag == "" {
		ref += "v" + chart.AppVersion
	}
	if v.Image.Digest != "" {
		ref += "@" + v.Image.Digest
	}
	return ref
}

// checkChartAccounts checks that the accounts file lists the values'
// accounts, in order; checkAccounts follows their secrets.
func checkChartAccounts(o *objects, v chartValues, fail failFunc) {
	var want []string
	for _, a := range v.Accounts {
		want = append(want, a.Name)
	}
	var got []string
	for _, cm := range o.configMaps {
		var f struct {
			Accounts []struct {
				Name string `json:"name"`
			} `json:"accounts"`
		}
		if err := yaml.Unmarshal([]byte(cm.Data["accounts.yml"]), &f); err != nil {
			fail("ConfigMap %s: %v", cm.Name, err)
		}
		for _, a := range f.Accounts {
			got = append(got, a.Name)
		}
	}
	if !reflect.DeepEqual(got, want) {
		fail("the accounts file lists %v, want the values' %v", got, want)
	}
}

// The scraper the chart admits when the values name none:
// kube-prometheus-stack's Prometheus pods, in its usual namespace.
var (
	defaultScraperNamespace = &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": "monitoring"}}
	defaultScraperPods      = &metav1.LabelSelector{MatchLabels: map[string]string{"app.kubernetes.io/name": "prometheus"}}
)

// checkChartScraper checks that the NetworkPolicy's first peer is the
// values' scraper (kube-prometheus-stack's by default): its namespace and
// its pods, in one peer, so that a pod must match both.
func checkChartScraper(o *objects, v chartValues, fail failFunc) {
	if !v.NetworkPolicy.Enabled {
		return
	}
	ns, pods := v.NetworkPolicy.NamespaceSelector, v.NetworkPolicy.PodSelector
	if ns == nil || reflect.DeepEqual(*ns, metav1.LabelSelector{}) {
		ns = defaultScraperNamespace
	}
	if pods == nil || reflect.DeepEqual(*pods, metav1.LabelSelector{}) {
		pods = defaultScraperPods
	}
	if len(o.networkPolicies) != 1 || len(o.networkPolicies[0].Spec.Ingress) == 0 || len(o.networkPolicies[0].Spec.Ingress[0].From) == 0 {
		fail("want one NetworkPolicy admitting the scraper (networkPolicy.enabled)")
		return
	}
	peer := o.networkPolicies[0].Spec.Ingress[0].From[0]
	if !reflect.DeepEqual(peer.NamespaceSelector, ns) || !reflect.DeepEqual(peer.PodSelector, pods) {
		fail("the NetworkPolicy's first peer is namespaces %v, pods %v; want namespaceSelector %v and podSelector %v in one peer",
			peer.NamespaceSelector, peer.PodSelector, ns, pods)
	}
}

// checkJobAndInterval checks for job="woox", which the alerts and the
// dashboard select, and the 15s the forecasts' 45s window needs.
func checkJobAndInterval(sm monitoringv1.ServiceMonitor, fail failFunc) {
	for _, ep := range sm.Spec.Endpoints {
		if ep.Interval != "15s" {
			fail("ServiceMonitor %s: interval %q, want 15s", sm.Name, ep.Interval)
		}
		rl := ep.RelabelConfigs
		if len(rl) == 0 || rl[0].TargetLabel != "job" || rl[0].Replacement == nil || *rl[0].Replacement != "woox" {
			fail("ServiceMonitor %s: the first relabeling must set job=\"woox\", which the alerts select", sm.Name)
		}
	}
}

// checkOperatorObject checks that the kind is rendered once when enabled,
// never otherwise, and carries the additional labels.
func checkOperatorObject(kind string, v operatorValues, labels []map[string]string, fail failFunc) {
	want := 0
	if v.Enabled {
		want = 1
	}
	if len(labels) != want {
		fail("%d %s, want %d (enabled: %v)", len(labels), kind, want, v.Enabled)
		return
	}
	for _, l := range labels {
		for k, x := range v.AdditionalLabels {
			if l[k] != x {
				fail("%s has label %s=%q, want additionalLabels' %q (the Prometheus' selector)", kind, k, l[k], x)
			}
		}
	}
}

// sameGroups checks that groups are the rule groups of file.
func sameGroups(groups []monitoringv1.RuleGroup, file string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var want struct {
		Groups []monitoringv1.RuleGroup `json:"groups"`
	}
	if err := yaml.UnmarshalStrict(b, &want); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if len(groups) != len(want.Groups) {
		return fmt.Errorf("%d rule groups, %s has %d", len(groups), file, len(want.Groups))
	}
	for i := range groups {
		if !reflect.DeepEqual(groups[i], want.Groups[i]) {
			return fmt.Errorf("rule group %d (%s) differs from %s's (%s): bash scripts/mixin.sh render writes both", i, groups[i].Name, file, want.Groups[i].Name)
		}
	}
	return nil
}

// The options that the validator's checks of every variant do not reach.
func TestChartOptions(t *testing.T) {
	helm := helmBinary(t)
	for _, tc := range []struct {
		name, values string
		check        func(*objects) error
	}{
		{"persistence off: an emptyDir", "persistence: {enabled: false}", func(o *objects) error {
			sts := o.statefulSets[0]
			for _, v := range sts.Spec.Template.Spec.Volumes {
				if v.Name == "state" && v.EmptyDir != nil && len(sts.Spec.VolumeClaimTemplates) == 0 {
					return nil
				}
			}
			return errors.New("want the state volume an emptyDir, and no volume claim template")
		}},
		{"network policy off", "networkPolicy: {enabled: false}", func(o *objects) error {
			if len(o.networkPolicies) != 0 {
				return fmt.Errorf("%d NetworkPolicies, want none", len(o.networkPolicies))
			}
			return nil
		}},
		{"created secret", "accounts: [{name: main, api_key: K}]\nsecrets: {create: {main: S3CRET}}", func(o *objects) error {
			if len(o.secrets) != 1 || string(o.secrets[0].Data["main"]) != "S3CRET" {
				return fmt.Errorf("want one Secret with key main, got %d", len(o.secrets))
			}
			return nil
		}},
		{"existing service account", "serviceAccount: {create: false, name: mine}", func(o *objects) error {
			if len(o.serviceAccounts) != 0 || o.statefulSets[0].Spec.Template.Spec.ServiceAccountName != "mine" {
				return errors.New("want no ServiceAccount, and the pods running as mine")
			}
			return nil
		}},
		{"extra args after the chart's", "extraArgs: [--log.format=json]", func(o *objects) error {
			args := o.statefulSets[0].Spec.Template.Spec.Containers[0].Args
			if args[len(args)-1] != "--log.format=json" {
				return fmt.Errorf("args %v do not end with the extra one", args)
			}
			return nil
		}},
		{"scraper's pods replace the default's labels", "networkPolicy: {podSelector: {matchLabels: {app: vm}}}", func(o *objects) error {
			peer := o.networkPolicies[0].Spec.Ingress[0].From[0]
			if want := map[string]string{"app": "vm"}; !maps.Equal(peer.PodSelector.MatchLabels, want) {
				return fmt.Errorf("the NetworkPolicy admits pods %v, want %v alone", peer.PodSelector.MatchLabels, want)
			}
			if !reflect.DeepEqual(peer.NamespaceSelector, defaultScraperNamespace) {
				return fmt.Errorf("the NetworkPolicy admits namespaces %v, want the default %v", peer.NamespaceSelector, defaultScraperNamespace)
			}
			return nil
		}},
		{"scraper's namespace by expression", "networkPolicy: {namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [monitoring, vm]}]}}", func(o *objects) error {
			peer := o.networkPolicies[0].Spec.Ingress[0].From[0]
			if ns := peer.NamespaceSelector; ns == nil || len(ns.MatchLabels) != 0 || len(ns.MatchExpressions) != 1 {
				return fmt.Errorf("the NetworkPolicy admits namespaces %v, want the expression alone", ns)
			}
			return nil
		}},
		{"image digest", "image: {digest: 'sha256:0123'}", func(o *objects) error {
			if img := o.statefulSets[0].Spec.Template.Spec.Containers[0].Image; !strings.HasSuffix(img, ":v0.1.0@sha256:0123") {
				return fmt.Errorf("image %s is not pinned by the digest", img)
			}
			return nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs, _, err := render(t, helm, chartDir, "woox-exporter", valuesFile(t, tc.values))
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.check(objs); err != nil {
				t.Error(err)
			}
		})
	}
}

// Each change to a copy of the chart breaks something the API, the
// exporter or the values need, and is named in the error.
func TestBrokenChartFails(t *testing.T) {
	helm := helmBinary(t)
	const sharded, created = "ci/sharded-operator-values.yaml", "ci/created-secret-values.yaml"
	const scraperPeer = `- {{ include "woox-exporter.scraper" . | trim | nindent 10 | trim }}`
	for _, tc := range []struct {
		name, file, old, new, values, want string
	}{
		{"misspelt field", "templates/statefulset.yaml", "  podManagementPolicy: Parallel\n", "  podManagementPolicys: Parallel\n", sharded, `unknown field "podManagementPolicys"`},
		{"replicas fixed", "templates/statefulset.yaml", "  replicas: {{ $shards }}\n", "  replicas: 2\n", sharded, "replicas 2, want shards: 3"},
		{"shard count fixed", "templates/statefulset.yaml", "--shard.count={{ $shards }}", "--shard.count=2", sharded, "--shard.count"},
		{"secret readable by others", "templates/statefulset.yaml", "defaultMode: 0440", "defaultMode: 0444", sharded, "defaultMode must be 0440"},
		{"secret under the account's name", "templates/_helpers.tpl", `(.secretKey | default .name | toString)`, `(.name | toString)`, created, `holds no key "hedging"`},
		{"scraper in any namespace", "templates/networkpolicy.yaml", scraperPeer, "- namespaceSelector: {}\n          podSelector: {matchLabels: {app.kubernetes.io/name: prometheus}}", sharded, "in every namespace"},
		{"scraper's namespace and pods in two peers", "templates/networkpolicy.yaml", scraperPeer, "- namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: monitoring}}\n        - podSelector: {matchLabels: {app.kubernetes.io/name: prometheus}}", sharded, "in one peer"},
		{"no disruption budget", "templates/poddisruptionbudget.yaml", "{{- if .Values.podDisruptionBudget.enabled }}", "{{- if false }}", sharded, "want one PodDisruptionBudget"},
		{"spread over another label", "templates/statefulset.yaml", `{{- include "woox-exporter.selectorLabels" $ | nindent 14 }}`, "app: other", created, "spread across nodes"},
		{"probes on TCP without a web config", "templates/_helpers.tpl", "{{- if and $web.existingSecret $web.basicAuth }}", "{{- if true }}", sharded, "the liveness probe must GET /-/healthy"},
		{"no ServiceMonitor labels", "templates/servicemonitor.yaml", "    {{- with .Values.serviceMonitor.additionalLabels }}\n", "    {{- with .Values.serviceMonitor.relabelings }}\n", sharded, "ServiceMonitor has label release"},
		{"no PrometheusRule labels", "templates/prometheusrule.yaml", "    {{- with .Values.prometheusRule.additionalLabels }}\n", "    {{- with .Values.podLabels }}\n", sharded, "PrometheusRule has label release"},
		{"job not set", "templates/servicemonitor.yaml", "replacement: woox\n", "replacement: woox-exporter\n", sharded, `set job="woox"`},
		{"stale rules", "files/woox_exporter.rules.yml", `severity: "critical"`, `severity: "warning"`, sharded, "differs from"},
		{"PrometheusRule always on", "templates/prometheusrule.yaml", "{{- if .Values.prometheusRule.enabled }}", "{{- if true }}", created, "1 PrometheusRule, want 0"},
		{"accounts file not mounted", "templates/statefulset.yaml", "              mountPath: /etc/woox_exporter/accounts.yml\n", "              mountPath: /etc/woox_exporter/config.yml\n", created, "is on no ConfigMap volume"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chart := filepath.Join(copyTree(t, filepath.Dir(chartDir), filepath.Base(chartDir)), filepath.Base(chartDir))
			f := filepath.Join(chart, tc.file)
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(b, []byte(tc.old)) {
				t.Fatalf("%s no longer contains %q", tc.file, tc.old)
			}
			if err := os.WriteFile(f, bytes.Replace(b, []byte(tc.old), []byte(tc.new), 1), 0o644); err != nil {
				t.Fatal(err)
			}
			objs, v, err := render(t, helm, chart, "woox-exporter", filepath.Join(chartDir, tc.values))
			if err == nil {
				err = errors.Join(checkExporter(objs, v.ServiceMonitor.Enabled), checkChart(t, objs, v))
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
