package statefile

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A save killed between creating its temporary file and renaming it leaves
// the file behind; the next Open removes it and only it.
func TestOpenRemovesOnlyTheTemporariesOfItsOwnSaves(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "woox.json")
	s, err := Open(path, openTime, testSections...)
	if err != nil {
		t.Fatal(err)
	}
	if err := save(s, "main", sampleState(t, 1)); err != nil {
		t.Fatal(err)
	}
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ours := []string{".woox.json.tmp-123456", ".woox.json.tmp-9"}
	kept := []string{
		".other.json.tmp-123456",  // another state file's save
		"woox.json.tmp-1",         // not hidden: not a name this package makes
		".woox.json.tmp-",         // the pattern's prefix alone
		"woox.json.corrupt-2026",  // a set-aside file the operator may want
		".woox_exporter-probe-77", // another exporter's directory check
		"notes.txt",
	}
	for _, name := range append(slices.Clone(ours), kept...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{half a docu"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".woox.json.tmp-dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, ".woox.json.tmp-dir", "woox.json")

	s, err = Open(path, openTime, testSections...)
	if err != nil {
		t.Fatal(err)
	}
	var removed []string
	for _, f := range s.RemovedTemporaries() {
		removed = append(removed, filepath.Base(f))
	}
	slices.Sort(removed)
	if !slices.Equal(removed, ours) {
		t.Errorf("RemovedTemporaries = %q, want %q", removed, ours)
	}
	for _, name := range ours {
		if _, err := os.Lstat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", name, err)
		}
	}
	for _, name := range kept {
		if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was removed: %v", name, err)
		}
	}
	if after, _ := os.ReadFile(path); string(after) != string(saved) {
		t.Error("the state file itself changed")
	}
	if got := states(s); len(got) != 1 {
		t.Errorf("states after the cleanup: %d accounts, want 1", len(got))
	}
}
