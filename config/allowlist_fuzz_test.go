package config

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoadAllowList feeds arbitrary files to LoadAllowList. It must not
// panic, must return a list or an error, never both, and every entry it
// accepts must match itself.
func FuzzLoadAllowList(f *testing.F) {
	f.Add([]byte("- network: ETH\n  address: 0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa\n  name: cold\n- {network: XRP, address: r1, tag: 7}\n"))
	f.Add([]byte("- &x {network: ETH, address: a}\n- *x\n"))
	f.Add([]byte("[]"))
	f.Add([]byte(""))
	path := filepath.Join(f.TempDir(), "allowlist.yml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		l, err := LoadAllowList(path)
		if (l == nil) == (err == nil) {
			t.Fatalf("LoadAllowList = %v, %v: want a list or an error", l, err)
		}
		if err != nil {
			return
		}
		fl := &fileLoader{path: path}
		root, derr := fl.document(data, "")
		if derr != nil {
			t.Fatalf("accepted a file whose document does not parse: %v", derr)
		}
		if len(root.Content) != l.Len() {
			t.Errorf("%d entries in the file, %d in the list", len(root.Content), l.Len())
		}
		for _, n := range root.Content {
			e, ok := fl.allowEntry(resolve(n), "")
			if !ok {
				t.Fatalf("accepted an entry with errors: %v", fl.err())
			}
			if _, ok := l.Match(e.Network, e.Address, e.Tag); !ok {
				t.Errorf("entry %s does not match itself", e)
			}
		}
	})
}
