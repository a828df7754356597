package shard

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	ordinal1 := func() (string, error) { return "woox-exporter-1", nil }
	for _, tc := range []struct {
		name            string
		count, index    int
		indexSet, fromH bool
		want            Replica
		err             string
	}{
		{"default", 1, 0, false, false, Replica{0, 1}, ""},
		{"explicit", 3, 2, true, false, Replica{2, 3}, ""},
		{"index beyond count", 2, 2, true, false, Replica{}, "--shard.index 2 with --shard.count 2"},
		{"no shards", 0, 0, false, false, Replica{}, "at least 1"},
		{"from the host name", 2, 0, false, true, Replica{1, 2}, ""},
		{"host ordinal beyond count", 1, 0, false, true, Replica{}, "--shard.index 1 with --shard.count 1"},
		{"both", 2, 1, true, true, Replica{}, "give one, not both"},
	} {
		got, err := Resolve(tc.count, tc.index, tc.indexSet, tc.fromH, ordinal1)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
	noOrdinal := func() (string, error) { return "woox-exporter", nil }
	if _, err := Resolve(2, 0, false, true, noOrdinal); err == nil || !strings.Contains(err.Error(), `"woox-exporter" does not end in -N`) {
		t.Errorf("host name without an ordinal: %v", err)
	}
	failing := func() (string, error) { return "", errors.New("no host name") }
	if _, err := Resolve(2, 0, false, true, failing); err == nil {
		t.Error("a failing host name lookup was accepted")
	}
}

// Every account is owned by exactly one replica: the one its name hashes to.
func TestReplicasSplitTheAccounts(t *testing.T) {
	seen := map[string]int{}
	var names []string
	for i := range 20 {
		names = append(names, fmt.Sprintf("desk-%02d", i))
	}
	for index := range 3 {
		r := Replica{Index: index, Count: 3}
		for _, name := range names {
			if !r.Owns(name) {
				continue
			}
			seen[name]++
			if Of(name, 3) != index {
				t.Errorf("%s on shard %d", name, index)
			}
		}
	}
	for _, name := range names {
		if seen[name] != 1 {
			t.Errorf("%s kept by %d shards", name, seen[name])
		}
	}
}
