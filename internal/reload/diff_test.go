package reload

import (
	"reflect"
	"testing"

	"github.com/woox-exporter/woox_exporter/config"
)

func TestDiffTellsAddedRemovedAndRotatedAccounts(t *testing.T) {
	acc := func(name, key, secret string) config.Account {
		return config.Account{Name: name, APIKey: key, Secret: config.NewSecret(secret)}
	}
	inUse := []config.Account{acc("main", "k1", "s1"), acc("sub", "k2", "s2"), acc("hedge", "k3", "s3"), acc("old", "k4", "s4")}
	read := []config.Account{acc("main", "k1", "s1"), acc("sub", "k2", "s2-rotated"), acc("hedge", "k3-new", "s3"), acc("new", "k5", "s5")}
	got := Diff(inUse, read)
	want := Changes{Added: []string{"new"}, Removed: []string{"old"}, Rotated: []string{"sub", "hedge"}, NewKey: true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Diff = %+v, want %+v", got, want)
	}
	if c := Diff(inUse, append(read[:1:1], acc("sub", "k2", "s2-rotated"), inUse[2], inUse[3])); c.NewKey || len(c.Rotated) != 1 {
		t.Errorf("a new secret under the same key: %+v, want one rotated and no new key", c)
	}
	if !Diff(inUse, inUse).None() {
		t.Error("the same accounts differ")
	}
	if got.None() {
		t.Error("None with changes")
	}
}
