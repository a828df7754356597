package fakeexchange

import (
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// yamlKeys adds the YAML keys of the struct t holds (through pointers,
// slices and maps) and of every struct its fields hold, each with the Go
// field that declares it.
func yamlKeys(t reflect.Type, keys map[string]string) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for f := range t.Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if (!f.IsExported() && !f.Anonymous) || name == "-" {
			continue
		}
		if opts != "inline" {
			if name == "" {
				name = strings.ToLower(f.Name)
			}
			if _, ok := keys[name]; !ok {
				keys[name] = t.Name() + "." + f.Name
			}
		}
		yamlKeys(f.Type, keys)
	}
}

// mappingKeys adds every mapping key of the YAML document under n.
func mappingKeys(n *yaml.Node, keys map[string]bool) {
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 {
			keys[c.Value] = true
			continue
		}
		mappingKeys(c, keys)
	}
}

// testdata/example.yaml is what --scenario's help sends a reader to for
// every field: a key a new endpoint adds to Account, Event or Scenario and
// forgets there fails here.
func TestExampleScenarioShowsEveryKey(t *testing.T) {
	want := map[string]string{}
	yamlKeys(reflect.TypeFor[Scenario](), want)
	b, err := os.ReadFile("testdata/example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	mappingKeys(&doc, got)
	for _, key := range slices.Sorted(maps.Keys(want)) {
		if !got[key] {
			t.Errorf("testdata/example.yaml has no key %s (%s)", key, want[key])
		}
	}
	if len(want) < 100 {
		t.Errorf("found only %d scenario keys: the walk of the types lost its way", len(want))
	}
}
