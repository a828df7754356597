package mixincheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

const repo = "../.."

// rendered are the files scripts/mixin.sh render writes, relative to the
// repository: the rules, the dashboard, and the rules again for the
// kustomize PrometheusRule and the Helm chart's.
var rendered = []string{
	"alerts/woox_exporter.rules.yml",
	"dashboards/woox_exporter.json",
	"deploy/kubernetes/operator/prometheusrule.yaml",
	"deploy/helm/woox-exporter/files/woox_exporter.rules.yml",
}

// needTools skips the test when the renderer's tools are missing (CI
// installs them before the tests, and makes their absence a failure).
func needTools(t *testing.T) {
	t.Helper()
	testsupport.Tool(t, "jsonnet", "jsonnet")
	testsupport.Tool(t, "jq", "jq")
}

// mixin runs scripts/mixin.sh with args and returns its standard output.
func mixin(t *testing.T, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("bash", append([]string{filepath.Join(repo, "scripts/mixin.sh")}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scripts/mixin.sh %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

func TestRenderedFilesMatchTheMixin(t *testing.T) {
	needTools(t)
	dir := t.TempDir()
	mixin(t, "render", dir)
	for _, f := range rendered {
		want, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(repo, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the rendered mixin (first difference at line %d); edit mixin/, then run: bash scripts/mixin.sh render", f, firstDifferentLine(got, want))
		}
	}
}

func firstDifferentLine(a, b []byte) int {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range la {
		if i >= len(lb) || la[i] != lb[i] {
			return i + 1
		}
	}
	return len(la) + 1
}

// renderedData is the rules and the dashboard as scripts/mixin.sh data
// prints them.
type renderedData struct {
	Rules     any `json:"rules"`
	Dashboard any `json:"dashboard"`
}

func data(t *testing.T, config string) (renderedData, error) {
	t.Helper()
	cmd := exec.Command("bash", filepath.Join(repo, "scripts/mixin.sh"), "data", config)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return renderedData{}, fmt.Errorf("%v: %s", err, firstLines(stderr.String(), 20))
	}
	var d renderedData
	if err := json.Unmarshal(out, &d); err != nil {
		return renderedData{}, fmt.Errorf("read the rendered data: %w", err)
	}
	return d, nil
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// The field list is the config's own keys, so a new field is checked
// without editing this test.
func TestEveryConfigFieldChangesTheRenderedMixin(t *testing.T) {
	needTools(t)
	var config map[string]any
	if err := json.Unmarshal(mixin(t, "config"), &config); err != nil {
		t.Fatalf("read _config: %v", err)
	}
	base, err := data(t, "{}")
	if err != nil {
		t.Fatalf("render with the default _config: %v", err)
	}
	fields := make([]string, 0, len(config))
	for f := range config {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	for _, f := range fields {
		t.Run(f, func(t *testing.T) {
			t.Parallel()
			from := config[f]
			to, err := changed(f, from)
			if err != nil {
				t.Fatalf("_config.%s: cannot make a different value of %v: %v", f, from, err)
			}
			override, _ := json.Marshal(map[string]any{f: to})
			got, err := data(t, string(override))
			if err != nil {
				t.Fatalf("_config.%s: the mixin does not render with %s: %v", f, override, err)
			}
			if reflect.DeepEqual(got.Rules, base.Rules) && reflect.DeepEqual(got.Dashboard, base.Dashboard) {
				t.Errorf("_config.%s is not used: %v -> %v changes neither %s nor %s; feed it into the rule or panel it names", f, from, to, rendered[0], rendered[1])
			}
		})
	}
	t.Logf("%d _config fields checked", len(fields))
}

var (
	duration = regexp.MustCompile(`^([0-9]+)(ms|s|m|h|d|w|y)$`)
	matcher  = regexp.MustCompile(`^\s*[a-zA-Z_][a-zA-Z0-9_]*\s*(=|!=|=~|!~)\s*"`)
)

// changed is a different value of the same type for the _config field
// named field. Durations ("10m") double; selectors (the name ends in
// Selector, or the value is a label matcher) get one more matcher; other
// strings a suffix; numbers grow by 1, booleans flip, lists get one more
// element, objects one more key. A type without a rule is an error, so a new
// kind of setting cannot pass unchecked.
func changed(field string, v any) (any, error) {
	const extra = `mixin_settings_check="changed"`
	switch v := v.(type) {
	case string:
		if m := duration.FindStringSubmatch(v); m != nil {
			var n int
			fmt.Sscan(m[1], &n) //nolint:errcheck // the pattern holds digits only
			return fmt.Sprintf("%d%s", 2*n, m[2]), nil
		}
		if strings.HasSuffix(field, "Selector") || matcher.MatchString(v) {
			if v == "" {
				return extra, nil
			}
			return v + ", " + extra, nil
		}
		return v + "-changed", nil
	case float64:
		return v + 1, nil
	case bool:
		return !v, nil
	case []any:
		if len(v) == 0 {
			return []any{"changed"}, nil
		}
		first, err := changed("", v[0])
		if err != nil {
			return nil, err
		}
		return append(append([]any{}, v...), first), nil
	case map[string]any:
		out := map[string]any{"mixin_settings_check": "changed"}
		for k, x := range v {
			out[k] = x
		}
		return out, nil
	default:
		return nil, fmt.Errorf("no rule to change a %T", v)
	}
}

func TestChangedMakesADifferentValueOfEachKind(t *testing.T) {
	for _, c := range []struct {
		field string
		from  any
		want  any
	}{
		{"pollFailingFor", "10m", "20m"},
		{"wooxSelector", `job="woox"`, `job="woox", mixin_settings_check="changed"`},
		{"watchedTokenNetworksSelector", "", `mixin_settings_check="changed"`},
		{"runbookURL", "https://x", "https://x-changed"},
		{"clockSkewSeconds", 60.0, 61.0},
		{"flag", true, false},
		{"list", []any{"a"}, []any{"a", "a-changed"}},
		{"obj", map[string]any{"a": 1.0}, map[string]any{"a": 1.0, "mixin_settings_check": "changed"}},
	} {
		got, err := changed(c.field, c.from)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("changed(%s, %#v) = %#v, %v; want %#v", c.field, c.from, got, err, c.want)
		}
	}
	if _, err := changed("x", nil); err == nil {
		t.Error("changed accepted a null, which it has no rule for")
	}
}
