package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/config"
	"github.com/woox-exporter/woox_exporter/shard"
)

func TestShardFlags(t *testing.T) {
	saved := hostname
	t.Cleanup(func() { hostname = saved })
	hostname = func() (string, error) { return "woox-exporter-1", nil }
	for _, tc := range []struct {
		name            string
		count, index    int
		indexSet, fromH bool
		want            sharding
		err             string
	}{
		{"default", 1, 0, false, false, sharding{0, 1}, ""},
		{"explicit", 3, 2, true, false, sharding{2, 3}, ""},
		{"index beyond count", 2, 2, true, false, sharding{}, "--shard.index 2 with --shard.count 2"},
		{"no shards", 0, 0, false, false, sharding{}, "at least 1"},
		{"from the host name", 2, 0, false, true, sharding{1, 2}, ""},
		{"host ordinal beyond count", 1, 0, false, true, sharding{}, "--shard.index 1 with --shard.count 1"},
		{"both", 2, 1, true, true, sharding{}, "give one, not both"},
	} {
		got, err := shardFlags(tc.count, tc.index, tc.indexSet, tc.fromH)
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
	hostname = func() (string, error) { return "woox-exporter", nil }
	if _, err := shardFlags(2, 0, false, true); err == nil || !strings.Contains(err.Error(), `"woox-exporter" does not end in -N`) {
		t.Errorf("host name without an ordinal: %v", err)
	}
	hostname = func() (string, error) { return "", errors.New("no host name") }
	if _, err := shardFlags(2, 0, false, true); err == nil {
		t.Error("a failing host name lookup was accepted")
	}
}

// Every account is in exactly one shard's list, and --config.check says
// which share a replica holds.
func TestShardsSplitTheAccounts(t *testing.T) {
	var all []config.Account
	var yaml strings.Builder
	yaml.WriteString("accounts:\n")
	for i := range 20 {
		name := fmt.Sprintf("desk-%02d", i)
		all = append(all, config.Account{Name: name})
		fmt.Fprintf(&yaml, "  - {name: %s, api_key: key-%02d, api_secret_env: SECRET}\n", name, i)
	}
	seen := map[string]int{}
	for index := range 3 {
		for _, a := range (sharding{index: index, count: 3}).accounts(all) {
			seen[a.Name]++
			if shard.Of(a.Name, 3) != index {
				t.Errorf("%s on shard %d", a.Name, index)
			}
		}
	}
	for _, a := range all {
		if seen[a.Name] != 1 {
			t.Errorf("%s kept by %d shards", a.Name, seen[a.Name])
		}
	}

	path := filepath.Join(t.TempDir(), "accounts.yml")
	if err := os.WriteFile(path, []byte(yaml.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"SECRET=S"}
	total := 0
	for index := range 3 {
		var stdout, stderr bytes.Buffer
		args := []string{"--config.check", "--config.file=" + path, "--shard.count=3", fmt.Sprintf("--shard.index=%d", index)}
		if code := run(args, &stdout, &stderr, env); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", index, code, stderr.String())
		}
		var n int
		if _, err := fmt.Sscanf(stdout.String(), "configuration OK: %d of 20 account(s) on shard", &n); err != nil {
			t.Fatalf("shard %d: %q: %v", index, stdout.String(), err)
		}
		total += n
	}
	if total != 20 {
		t.Errorf("the shards hold %d accounts together, want 20", total)
	}
}
