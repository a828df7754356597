package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// kustomizeBinary is kustomize on the PATH or in GOPATH/bin, where .ci/run
// installs it.
func kustomizeBinary(t *testing.T) string {
	t.Helper()
	return goTool(t, "kustomize", "go install sigs.k8s.io/kustomize/kustomize/v5@v5.5.0")
}

// goTool is the tool name on the PATH or in GOPATH/bin. Without it the test
// skips, or fails when REQUIRE_TEST_TOOLS is 1 (as in CI), so that CI cannot
// pass without rendering the manifests.
func goTool(t *testing.T, name, install string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if gopath, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(gopath)), "bin", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("REQUIRE_TEST_TOOLS") == "1" {
		t.Fatalf("%s is not installed (%s), and REQUIRE_TEST_TOOLS=1 says it must be", name, install)
	}
	t.Skipf("%s is not installed (%s): skipped", name, install)
	return ""
}

// TestKustomizationsRenderAndPass builds the kustomizations as a user
// would apply them and validates what kustomize writes: the base without
// the operator's objects, the operator variant and the example overlay
// with them.
func TestKustomizationsRenderAndPass(t *testing.T) {
	kustomize := kustomizeBinary(t)
	placeholder := statefulSetImage(t)
	for _, variant := range []struct {
		dir      string
		operator bool
	}{{"base", false}, {"operator", true}, {"overlays/example", true}} {
		t.Run(variant.dir, func(t *testing.T) {
			out := kustomizeBuild(t, kustomize, filepath.Join("..", variant.dir))
			// kustomize silently skips an images: entry that matches no image.
			if bytes.Contains(out, []byte("image: "+placeholder+"\n")) {
				t.Errorf("image %s is not replaced: the images: entry of deploy/kubernetes/base/kustomization.yaml must name it", placeholder)
			}
			if err := validate(string(out), variant.operator); err != nil {
				t.Errorf("deploy/kubernetes/%s as kustomize renders it: %v", variant.dir, err)
			}
		})
	}
}

func kustomizeBuild(t *testing.T, kustomize, dir string) []byte {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command(kustomize, "build", dir)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("kustomize build %s: %v\n%s", dir, err, stderr.String())
	}
	return out
}

// TestExampleOverlayChangesWhatItSays holds the example overlay to what its
// comments promise a user who copies it: its namespace on every object, its
// image in place of the base's, its accounts file in place of the base's
// (one ConfigMap, not two), its number of shards (shards.yaml), and the
// operator's selector label on the ServiceMonitor and the PrometheusRule.
func TestExampleOverlayChangesWhatItSays(t *testing.T) {
	kustomize := kustomizeBinary(t)
	const dir = "../overlays/example"
	objs, err := decodeAll(kustomizeBuild(t, kustomize, dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkOverlay(objs, dir); err != nil {
		t.Error(err)
	}
}

// checkOverlay checks the rendered overlay in dir against its
// kustomization.yaml and accounts.yml.
func checkOverlay(o *objects, dir string) error {
	var k struct {
		Namespace string `json:"namespace"`
		Images    []struct {
			NewName string `json:"newName"`
			NewTag  string `json:"newTag"`
		} `json:"images"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "kustomization.yaml"))
	if err == nil {
		err = yaml.Unmarshal(b, &k)
	}
	if err != nil || len(k.Images) != 1 || k.Namespace == "" {
		return fmt.Errorf("%s/kustomization.yaml: want a namespace and one images: entry (%v)", dir, err)
	}
	accounts, err := os.ReadFile(filepath.Join(dir, "accounts.yml"))
	if err != nil {
		return err
	}
	replicas, err := overlayReplicas(dir)
	if err != nil {
		return err
	}
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	for _, m := range o.metas() {
		if m.Namespace != k.Namespace {
			fail("%s %s is in namespace %q, not the overlay's %q", m.kind, m.Name, m.Namespace, k.Namespace)
		}
		if (m.kind == "ServiceMonitor" || m.kind == "PrometheusRule") && m.Labels["release"] != "kube-prometheus-stack" {
			fail("%s %s has no label release: kube-prometheus-stack, which kube-prometheus-stack's Prometheus selects", m.kind, m.Name)
		}
	}
	if len(o.serviceMonitors) != 1 || len(o.prometheusRules) != 1 {
		fail("want the operator's ServiceMonitor and PrometheusRule, got %d and %d", len(o.serviceMonitors), len(o.prometheusRules))
	}
	want := k.Images[0].NewName + ":" + k.Images[0].NewTag
	for _, sts := range o.statefulSets {
		if got := sts.Spec.Template.Spec.Containers[0].Image; got != want {
			fail("StatefulSet %s runs image %s, not the overlay's %s", sts.Name, got, want)
		}
		if sts.Spec.Replicas == nil || int(*sts.Spec.Replicas) != replicas {
			fail("StatefulSet %s runs %s replicas, not the %d of the overlay's shards.yaml", sts.Name, deref(sts.Spec.Replicas), replicas)
		}
	}
	if len(o.configMaps) != 1 || o.configMaps[0].Data["accounts.yml"] != string(accounts) {
		fail("want one ConfigMap holding the overlay's accounts.yml (configMapGenerator behavior: replace), got %d", len(o.configMaps))
	}
	return errors.Join(errs...)
}

// overlayReplicas is the number of shards the overlay's shards.yaml sets:
// the value of its replace of /spec/replicas.
func overlayReplicas(dir string) (int, error) {
	var ops []struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value any    `json:"value"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "shards.yaml"))
	if err == nil {
		err = yaml.Unmarshal(b, &ops)
	}
	if err != nil {
		return 0, fmt.Errorf("%s/shards.yaml: %w", dir, err)
	}
	for _, op := range ops {
		if n, ok := op.Value.(float64); ok && op.Op == "replace" && op.Path == "/spec/replicas" {
			return int(n), nil
		}
	}
	return 0, fmt.Errorf("%s/shards.yaml: no replace of /spec/replicas", dir)
}

// statefulSetImage is the image statefulset.yaml names, which the base's
// images: entry replaces.
func statefulSetImage(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../base/statefulset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var sts struct {
		Spec struct {
			Template struct {
				Spec struct {
					Containers []struct {
						Image string `json:"image"`
					} `json:"containers"`
				} `json:"spec"`
			} `json:"template"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(b, &sts); err != nil {
		t.Fatal(err)
	}
	if c := sts.Spec.Template.Spec.Containers; len(c) == 0 || c[0].Image == "" {
		t.Fatal("deploy/kubernetes/base/statefulset.yaml names no container image")
	}
	return sts.Spec.Template.Spec.Containers[0].Image
}

// Each change is a mistake a user editing a copy of the overlay could make
// and kustomize builds without complaint; checkOverlay names it.
func TestBrokenOverlayFails(t *testing.T) {
	kustomize := kustomizeBinary(t)
	const kustomization, shards = "kustomization.yaml", "shards.yaml"
	for _, tc := range []struct {
		name, file, old, new, want string
	}{
		{"image named as in statefulset.yaml", kustomization, "  - name: registry.example.com/woox_exporter\n", "  - name: woox_exporter\n", "not the overlay's registry.example.com/team/woox_exporter:v0.1.0"},
		{"patch of another group", kustomization, "      group: monitoring.coreos.com\n", "      group: monitoring.coreos.io\n", "has no label release"},
		{"accounts left as the base's", kustomization, "configMapGenerator:\n  - name: woox-exporter-accounts\n    behavior: replace\n    files:\n      - accounts.yml\n", "", "holding the overlay's accounts.yml"},
		{"replicas changed alone", shards, "  path: /spec/replicas\n  value: 2\n", "  path: /spec/replicas\n  value: 3\n", "--shard.count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyTree(t, "..", "base", "operator", "overlays/example")
			k := filepath.Join(dir, "overlays/example", tc.file)
			b, err := os.ReadFile(k)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(b, []byte(tc.old)) {
				t.Fatalf("the overlay no longer contains %q", tc.old)
			}
			if err := os.WriteFile(k, bytes.Replace(b, []byte(tc.old), []byte(tc.new), 1), 0o644); err != nil {
				t.Fatal(err)
			}
			objs, err := decodeAll(kustomizeBuild(t, kustomize, filepath.Join(dir, "overlays/example")))
			if err == nil {
				err = errors.Join(checkExporter(objs, true), checkOverlay(objs, filepath.Join(dir, "overlays/example")))
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestOverlaySurvivesKustomizeEdit follows docs/deploying.md on a copy of the
// example overlay: kustomize edit set image rewrites kustomization.yaml (and
// drops its comments), and the overlay must still set the image, the shards
// and everything else it did. A shards patch left as a comment in
// kustomization.yaml was lost this way.
func TestOverlaySurvivesKustomizeEdit(t *testing.T) {
	kustomize := kustomizeBinary(t)
	dir := copyTree(t, "..", "base", "operator", "overlays/example")
	mine := filepath.Join(dir, "overlays/mine")
	if err := os.Rename(filepath.Join(dir, "overlays/example"), mine); err != nil {
		t.Fatal(err)
	}
	// 3 shards, as a user would set them in shards.yaml before or after.
	sp := filepath.Join(mine, "shards.yaml")
	b, err := os.ReadFile(sp)
	if err != nil {
		t.Fatal(err)
	}
	// Both replaces; the test op still checks the base's flag.
	b = bytes.Replace(b, []byte("  path: /spec/replicas\n  value: 2\n"), []byte("  path: /spec/replicas\n  value: 3\n"), 1)
	if i := bytes.LastIndex(b, []byte("--shard.count=2")); i >= 0 {
		b = slices.Concat(b[:i], []byte("--shard.count=3"), b[i+len("--shard.count=2"):])
	}
	if err := os.WriteFile(sp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(kustomize, "edit", "set", "image", "registry.example.com/woox_exporter=registry.example.com/mine/woox_exporter:v9.9.9")
	cmd.Dir = mine
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("kustomize edit set image: %v\n%s", err, out)
	}
	objs, err := decodeAll(kustomizeBuild(t, kustomize, mine))
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(checkExporter(objs, true), checkOverlay(objs, mine)); err != nil {
		t.Error(err)
	}
	if r := objs.statefulSets[0].Spec.Replicas; r == nil || *r != 3 {
		t.Errorf("replicas %s after kustomize edit, want shards.yaml's 3", deref(r))
	}
	if img := objs.statefulSets[0].Spec.Template.Spec.Containers[0].Image; img != "registry.example.com/mine/woox_exporter:v9.9.9" {
		t.Errorf("image %s, want the one kustomize edit set", img)
	}
}

// copyTree copies the directories dirs under root to a new temporary
// directory, keeping their relative paths, and returns it.
func copyTree(t *testing.T, root string, dirs ...string) string {
	t.Helper()
	to := t.TempDir()
	for _, d := range dirs {
		err := filepath.WalkDir(filepath.Join(root, d), func(p string, e os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			if e.IsDir() {
				return os.MkdirAll(filepath.Join(to, rel), 0o755)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(to, rel), b, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return to
}
