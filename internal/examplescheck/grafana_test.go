package examplescheck

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const (
	datasourcesFile = examples + "/grafana/provisioning/datasources/prometheus.yml"
	providerFile    = examples + "/grafana/provisioning/dashboards/woox.yml"
	guardFile       = examples + "/grafana/require-admin-password.sh"
	// dashboardsDir is where Grafana's provider looks and compose mounts
	// dashboards/.
	dashboardsDir = "/var/lib/grafana/dashboards/woox"
	guardMount    = "./grafana/require-admin-password.sh:/etc/grafana/require-admin-password.sh:ro"
)

// guardEntrypoint: Grafana starts through the guard, which then runs the
// image's own entrypoint.
var guardEntrypoint = []string{"/bin/sh", "/etc/grafana/require-admin-password.sh", "/run.sh"}

// compose is the part of the compose file these checks read.
type compose struct {
	Services map[string]struct {
		Entrypoint []string `yaml:"entrypoint"`
		Volumes    []string `yaml:"volumes"`
	} `yaml:"services"`
}

func decode(name string, b []byte, v any) []string {
	if err := yaml.Unmarshal(b, v); err != nil {
		return []string{fmt.Sprintf("%s: %v", name, err)}
	}
	return nil
}

// provisioningProblems: Grafana's data source is the compose service
// prometheus on 9090, its dashboard provider looks in dashboardsDir, and
// compose mounts ../dashboards there.
func provisioningProblems(datasources, provider, composeYAML []byte) []string {
	type datasource struct {
		URL string `yaml:"url"`
	}
	var ds struct {
		Datasources []datasource `yaml:"datasources"`
	}
	var pr struct {
		Providers []struct {
			Options struct {
				Path string `yaml:"path"`
			} `yaml:"options"`
		} `yaml:"providers"`
	}
	var c compose
	out := decode("examples/grafana/provisioning/datasources/prometheus.yml", datasources, &ds)
	out = append(out, decode("examples/grafana/provisioning/dashboards/woox.yml", provider, &pr)...)
	out = append(out, decode("examples/docker-compose.yml", composeYAML, &c)...)
	if len(out) > 0 {
		return out
	}
	if !slices.Contains(ds.Datasources, datasource{URL: "http://prometheus:9090"}) {
		out = append(out, "examples/grafana/provisioning/datasources/prometheus.yml: no data source at url http://prometheus:9090")
	}
	if _, ok := c.Services["prometheus"]; !ok {
		out = append(out, "examples/docker-compose.yml: no service prometheus, which Grafana's data source names")
	}
	if len(pr.Providers) == 0 || pr.Providers[0].Options.Path != dashboardsDir {
		out = append(out, "examples/grafana/provisioning/dashboards/woox.yml: the provider does not look in "+dashboardsDir)
	}
	mount := "../dashboards:" + dashboardsDir
	if !slices.ContainsFunc(c.Services["grafana"].Volumes, func(v string) bool { return v == mount || v == mount+":ro" }) {
		out = append(out, "examples/docker-compose.yml: grafana does not mount ../dashboards at "+dashboardsDir+", where the provider looks")
	}
	return out
}

// guardWiringProblems: compose starts Grafana through the guard, mounted
// where the entrypoint runs it.
func guardWiringProblems(composeYAML []byte) []string {
	var c compose
	if out := decode("examples/docker-compose.yml", composeYAML, &c); out != nil {
		return out
	}
	g := c.Services["grafana"]
	var out []string
	if !slices.Equal(g.Entrypoint, guardEntrypoint) {
		out = append(out, fmt.Sprintf("examples/docker-compose.yml: grafana's entrypoint is %q, want %q (the guard, then /run.sh)", g.Entrypoint, guardEntrypoint))
	}
	if !slices.Contains(g.Volumes, guardMount) {
		out = append(out, "examples/docker-compose.yml: grafana does not mount the guard: no volume "+guardMount)
	}
	return out
}

// portProblems: the files that name the exporter's address mention its
// default port, 10110.
func portProblems(files map[string][]byte) []string {
	var out []string
	for name, b := range files {
		if !strings.Contains(string(b), "10110") {
			out = append(out, name+" does not mention the default port 10110")
		}
	}
	slices.Sort(out)
	return out
}

func TestGrafanaProvisioningMatchesComposeMounts(t *testing.T) {
	report(t, provisioningProblems(read(t, datasourcesFile), read(t, providerFile), read(t, composeFile)))
}

func TestComposeStartsGrafanaThroughThePasswordGuard(t *testing.T) {
	report(t, guardWiringProblems(read(t, composeFile)))
}

func TestDefaultPortEverywhere(t *testing.T) {
	report(t, portProblems(map[string][]byte{
		"Dockerfile":                  read(t, "../../Dockerfile"),
		"examples/prometheus.yml":     read(t, prometheusFile),
		"examples/docker-compose.yml": read(t, composeFile),
	}))
}

func TestProvisioningCheckFails(t *testing.T) {
	ds, pr, c := string(read(t, datasourcesFile)), string(read(t, providerFile)), string(read(t, composeFile))
	for _, tc := range []struct {
		name, ds, pr, compose, want string
	}{
		{"datasource elsewhere", strings.Replace(ds, "http://prometheus:9090", "http://localhost:9090", 1), pr, c,
			"no data source at url http://prometheus:9090"},
		{"provider path moved", ds, strings.Replace(pr, "path: "+dashboardsDir, "path: /dashboards", 1), c,
			"the provider does not look in " + dashboardsDir},
		{"dashboards mounted elsewhere", ds, pr, strings.Replace(c, "../dashboards:"+dashboardsDir, "../dashboards:/dashboards", 1),
			"grafana does not mount ../dashboards"},
		{"no prometheus service", ds, pr, strings.Replace(c, "\n  prometheus:\n", "\n  prom:\n", 1),
			"no service prometheus"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantProblem(t, provisioningProblems([]byte(tc.ds), []byte(tc.pr), []byte(tc.compose)), tc.want)
		})
	}
}

func TestGuardWiringCheckFails(t *testing.T) {
	c := string(read(t, composeFile))
	noEntrypoint := strings.Replace(c, `    entrypoint: ["/bin/sh", "/etc/grafana/require-admin-password.sh", "/run.sh"]`, "", 1)
	wantProblem(t, guardWiringProblems([]byte(noEntrypoint)), "grafana's entrypoint is []")
	noMount := strings.Replace(c, "      - "+guardMount+"\n", "", 1)
	wantProblem(t, guardWiringProblems([]byte(noMount)), "grafana does not mount the guard")
}

func TestPortCheckFails(t *testing.T) {
	got := portProblems(map[string][]byte{"Dockerfile": []byte("EXPOSE 9100\n")})
	wantProblem(t, got, "Dockerfile does not mention the default port 10110")
}
