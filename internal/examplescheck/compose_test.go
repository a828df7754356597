package examplescheck

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// maxStartWait is the longest a compose service may wait on other services'
// health checks before it starts: the demo is opened in Grafana at once.
const maxStartWait = 15 * time.Second

// composeHealth is the part of the compose file the start-order check reads.
type composeHealth struct {
	Services map[string]struct {
		DependsOn   yaml.Node `yaml:"depends_on"`
		Healthcheck struct {
			Interval      string `yaml:"interval"`
			StartInterval string `yaml:"start_interval"`
		} `yaml:"healthcheck"`
	} `yaml:"services"`
}

// healthyDeps are the services a depends_on waits to be healthy: the map
// form with condition service_healthy (the list form waits for nothing but
// the start).
func healthyDeps(n yaml.Node) ([]string, error) {
	if n.Kind != yaml.MappingNode {
		return nil, nil
	}
	var deps map[string]struct {
		Condition string `yaml:"condition"`
	}
	if err := n.Decode(&deps); err != nil {
		return nil, err
	}
	var out []string
	for name, d := range deps {
		if d.Condition == "service_healthy" {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out, nil
}

// startWaitProblems: Compose runs a container's first health check one
// interval (or start_interval) after it starts, and starts a service that
// depends on it being healthy only then; along a chain those waits add up.
func startWaitProblems(composeYAML []byte) []string {
	var c composeHealth
	if out := decode("examples/docker-compose.yml", composeYAML, &c); out != nil {
		return out
	}
	var out []string
	firstCheck := func(name string) time.Duration {
		h := c.Services[name].Healthcheck
		s := h.Interval
		if h.StartInterval != "" {
			s = h.StartInterval
		}
		if s == "" {
			return 30 * time.Second // Compose's default interval
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			out = append(out, fmt.Sprintf("examples/docker-compose.yml: service %s: healthcheck interval %q: %v", name, s, err))
		}
		return d
	}
	wait := map[string]time.Duration{}
	var waitOf func(name string, seen []string) time.Duration
	waitOf = func(name string, seen []string) time.Duration {
		if w, ok := wait[name]; ok {
			return w
		}
		if slices.Contains(seen, name) {
			out = append(out, fmt.Sprintf("examples/docker-compose.yml: depends_on cycle through %s", name))
			return 0
		}
		deps, err := healthyDeps(c.Services[name].DependsOn)
		if err != nil {
			out = append(out, fmt.Sprintf("examples/docker-compose.yml: service %s: depends_on: %v", name, err))
		}
		var w time.Duration
		for _, d := range deps {
			w = max(w, waitOf(d, append(seen, name))+firstCheck(d))
		}
		wait[name] = w
		return w
	}
	names := make([]string, 0, len(c.Services))
	for name := range c.Services {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if w := waitOf(name, nil); w > maxStartWait {
			out = append(out, fmt.Sprintf("examples/docker-compose.yml: service %s starts only after %s of health checks (limit %s): depend on service_started where the service copes with its dependency starting later", name, w, maxStartWait))
		}
	}
	return out
}

func TestComposeStartsNoServiceBehindAHealthCheckChain(t *testing.T) {
	report(t, startWaitProblems(read(t, composeFile)))
}

func TestStartWaitCheckFails(t *testing.T) {
	chain := []byte(`
services:
  grafana:
    depends_on:
      prometheus:
        condition: service_healthy
  prometheus:
    healthcheck: {interval: 30s}
    depends_on:
      alertmanager:
        condition: service_healthy
  alertmanager:
    healthcheck: {interval: 30s}
`)
	wantProblem(t, startWaitProblems(chain), "service grafana starts only after 1m0s of health checks (limit 15s)")
	started := []byte(`
services:
  grafana:
    depends_on:
      prometheus:
        condition: service_started
  prometheus:
    healthcheck: {interval: 30s}
    depends_on: [alertmanager]
  alertmanager:
    healthcheck: {interval: 30s}
`)
	if got := startWaitProblems(started); len(got) != 0 {
		t.Errorf("services that wait only for a start: got %q, want no problem", got)
	}
}
