package main

import (
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"
)

// The measured figures are in one place, docs/performance.md's Sizing
// section; the manifests, the chart and the deployment guide quote it.
const (
	performanceDoc = "../../../docs/performance.md"
	deployingDoc   = "../../../docs/deploying.md"
	readme         = "../../../README.md"
)

// sizingSection is the text of docs/performance.md's Sizing section, its
// emphasis marks removed.
func sizingSection(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(performanceDoc)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "\n### Sizing\n")
	if !ok {
		t.Fatalf("%s has no ### Sizing section", performanceDoc)
	}
	if i := strings.Index(rest, "\n#"); i >= 0 {
		rest = rest[:i]
	}
	return strings.ReplaceAll(rest, "**", "")
}

// sizingResources are the resources Sizing says the manifests set.
func sizingResources(t *testing.T, sizing string) (memRequest, memLimit, cpuRequest string) {
	t.Helper()
	m := regexp.MustCompile(`memory\s+request\s+(\d+Mi),\s+limit\s+(\d+Mi),\s+CPU\s+request\s+(\d+m)`).FindStringSubmatch(sizing)
	if m == nil {
		t.Fatalf("%s, Sizing: no \"memory request NMi, limit NMi, CPU request Nm\"", performanceDoc)
	}
	return m[1], m[2], m[3]
}

// The base's and the chart's resources are those Sizing gives figures for.
func TestResourcesAreTheSizedOnes(t *testing.T) {
	memRequest, memLimit, cpuRequest := sizingResources(t, sizingSection(t))
	var chart struct {
		Resources struct {
			Requests map[string]string `json:"requests"`
			Limits   map[string]string `json:"limits"`
		} `json:"resources"`
	}
	b, err := os.ReadFile(chartDir + "/values.yaml")
	if err == nil {
		err = yaml.Unmarshal(b, &chart)
	}
	if err != nil {
		t.Fatal(err)
	}
	objs, err := decodeAll([]byte(manifests(t, baseFiles)))
	if err != nil {
		t.Fatal(err)
	}
	base := objs.statefulSets[0].Spec.Template.Spec.Containers[0].Resources
	for _, r := range []struct{ where, got, want string }{
		{"the chart's memory request", chart.Resources.Requests["memory"], memRequest},
		{"the chart's memory limit", chart.Resources.Limits["memory"], memLimit},
		{"the chart's CPU request", chart.Resources.Requests["cpu"], cpuRequest},
		{"the base's memory request", base.Requests.Memory().String(), memRequest},
		{"the base's memory limit", base.Limits.Memory().String(), memLimit},
		{"the base's CPU request", base.Requests.Cpu().String(), cpuRequest},
	} {
		if r.got != r.want {
			t.Errorf("%s is %s; docs/performance.md, Sizing, sizes %s", r.where, r.got, r.want)
		}
	}
}

// figure is a measured figure as the documents write it: megabytes,
// mebibytes, a ratio.
var figure = regexp.MustCompile(`\b\d+(\.\d+)? ?(MB|MiB|Mi|×|x)(\s|$|[),.;:])`)

// Every figure the deployment guide, the README, the chart's values and
// the base's StatefulSet (their comments) quote about sizing is one of
// Sizing's: a run measured anew changes Sizing, and this fails until the
// quotes follow.
func TestSizingQuotesAreSizings(t *testing.T) {
	sizing := sizingSection(t)
	known := map[string]bool{}
	for _, m := range figure.FindAllStringSubmatch(sizing, -1) {
		known[normalFigure(t, m[0])] = true
	}
	for _, f := range []struct{ file, from, to string }{
		{deployingDoc, "## Running several replicas", "- `--shard.count N`"},
		{deployingDoc, "## Kubernetes", "### 1. Build and push the image"},
		{readme, "- [several replicas]", "- [Kubernetes]"},
		{chartDir + "/values.yaml", "", ""},
		{"../base/statefulset.yaml", "", ""},
	} {
		text := between(t, f.file, f.from, f.to)
		if strings.HasSuffix(f.file, ".yaml") {
			text = comments(text)
		}
		for _, m := range figure.FindAllStringSubmatch(text, -1) {
			if n := normalFigure(t, m[0]); !known[n] {
				t.Errorf("%s quotes %q, which docs/performance.md's Sizing section does not give (it gives %v)", f.file, strings.TrimSpace(m[0]), keys(known))
			}
		}
	}
}

// normalFigure writes a figure one way: 96 MiB and 96Mi alike, 2.1 × and
// 2.1 x alike.
func normalFigure(t *testing.T, s string) string {
	t.Helper()
	m := regexp.MustCompile(`(\d+(?:\.\d+)?) ?(MB|MiB|Mi|×|x)`).FindStringSubmatch(s)
	switch m[2] {
	case "MiB", "Mi":
		q, err := resource.ParseQuantity(m[1] + "Mi")
		if err != nil {
			return m[1] + " MiB"
		}
		return fmt.Sprintf("%d bytes", q.Value())
	case "x", "×":
		return m[1] + " ×"
	}
	return m[1] + " MB"
}

// between is the text of file from the line starting with from to the one
// starting with to (the whole file when from is empty).
func between(t *testing.T, file, from, to string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if from == "" {
		return s
	}
	_, s, ok := strings.Cut(s, "\n"+from)
	if !ok {
		t.Fatalf("%s: no line %q", file, from)
	}
	s, _, ok = strings.Cut(s, "\n"+to)
	if !ok {
		t.Fatalf("%s: no line %q after %q", file, to, from)
	}
	return s
}

// comments are the comment lines of a YAML file: its values (a volume's
// 64Mi) are not sizing quotes, and the resources are checked above.
func comments(yamlText string) string {
	var b strings.Builder
	for _, l := range strings.Split(yamlText, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

func keys(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }
