package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// kustomizeBinary is kustomize on the PATH or in GOPATH/bin, where .ci/run
// installs it. Without it the test skips, or fails when REQUIRE_TEST_TOOLS is
// 1 (as in CI), so that CI cannot pass without rendering the manifests.
func kustomizeBinary(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("kustomize"); err == nil {
		return p
	}
	if gopath, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(gopath)), "bin", "kustomize")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	const install = "go install sigs.k8s.io/kustomize/kustomize/v5@v5.5.0"
	if os.Getenv("REQUIRE_TEST_TOOLS") == "1" {
		t.Fatalf("kustomize is not installed (%s), and REQUIRE_TEST_TOOLS=1 says it must be", install)
	}
	t.Skipf("kustomize is not installed (%s): skipped", install)
	return ""
}

// TestKustomizationsRenderAndPass builds both kustomizations as a user
// would apply them and validates what kustomize writes: the base without
// the operator's objects, the operator variant with them.
func TestKustomizationsRenderAndPass(t *testing.T) {
	kustomize := kustomizeBinary(t)
	placeholder := statefulSetImage(t)
	for _, variant := range []struct {
		dir      string
		operator bool
	}{{"base", false}, {"operator", true}} {
		t.Run(variant.dir, func(t *testing.T) {
			var stderr bytes.Buffer
			cmd := exec.Command(kustomize, "build", filepath.Join("..", variant.dir))
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("kustomize build deploy/kubernetes/%s: %v\n%s", variant.dir, err, stderr.String())
			}
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
