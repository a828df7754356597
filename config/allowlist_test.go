package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeAllowList writes content to a file and returns its path.
func writeAllowList(t testing.TB, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "allowlist.yml")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadAllowListReadsEveryField(t *testing.T) {
	p := writeAllowList(t, `# treasury
- network: ETH
  address: 0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa
  name: cold wallet
- {network: XRP, address: rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh, tag: 104}
- network: XRP
  address: rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh
  tag: "0104"
- network: TRON
  address: TTsY9uu2Y3aBH1vSir1md7oRqZe7DscA4v
  tag: ~
`)
	l, err := LoadAllowList(p)
	if err != nil {
		t.Fatal(err)
	}
	if l.Len() != 4 {
		t.Fatalf("%d entries, want 4", l.Len())
	}
	// An unquoted 0x address stays text, not a number; a number tag keeps
	// its digits as written.
	if e, ok := l.Match("ETH", "0x31d64b3230f8badd91de1710a65df536af8f7cda", ""); !ok || e.Name != "cold wallet" || e.Line != 2 {
		t.Errorf("ETH entry %+v, %t; want the cold wallet of line 2", e, ok)
	}
	for _, tag := range []string{"104", "0104"} {
		if _, ok := l.Match("XRP", "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh", tag); !ok {
			t.Errorf("XRP tag %s not matched", tag)
		}
	}
	if _, ok := l.Match("TRON", "TTsY9uu2Y3aBH1vSir1md7oRqZe7DscA4v", ""); !ok {
		t.Error("a null tag is no tag: TRON not matched")
	}
}

func TestLoadAllowListAcceptsAnEmptyList(t *testing.T) {
	l, err := LoadAllowList(writeAllowList(t, "[]\n"))
	if err != nil || l == nil || l.Len() != 0 {
		t.Errorf("LoadAllowList([]) = %v, %v; want an empty list", l, err)
	}
}

// Every error names the file and the line of the mistake.
func TestLoadAllowListErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		want          []string
	}{
		{"empty file", "", []string{": no entries: the file is empty; write []"}},
		{"not a list", "network: ETH\naddress: x\n", []string{":1: expected a list of entries"}},
		{"yaml syntax", "- network: ETH\n  address: 0xabc\n- network: [TRON\n  address: T\n", []string{"invalid YAML"}},
		{"indentation slip", "- network: ETH\n  address: a1\n-  network: TRON\n  address: b2\n", []string{":4: invalid YAML"}},
		{"no network", "- network: ETH\n  address: a1\n- address: b2\n", []string{":3: [1].network: required"}},
		{"no address", "- network: ETH\n  address: a1\n-\n  network: TRON\n", []string{":4: [1].address: required"}},
		{"empty address", "- network: ETH\n  address: \"\"\n", []string{":1: [0].address: required"}},
		{"duplicate in another case", "- network: ETH\n  address: 0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa\n- network: eth\n  name: again\n  address: 0x31d64b3230f8badd91de1710a65df536af8f7cda\n",
			[]string{":3: [1]: duplicate entry: the same destination as the entry at line 1"}},
		{"duplicate with the same tag", "- {network: XRP, address: r1, tag: 7}\n- {network: XRP, address: r1, tag: 8}\n- {network: XRP, address: r1, tag: 7}\n",
			[]string{":3: [2]: duplicate entry: the same destination as the entry at line 1"}},
		{"unknown field", "- network: ETH\n  address: a1\n  memo: 5\n", []string{":3: [0].memo: unknown field"}},
		{"not a scalar", "- network: ETH\n  address: [a1]\n", []string{":2: [0].address: expected a string, got a list"}},
		{"entry not a mapping", "- ETH a1\n", []string{":1: [0]: expected an entry"}},
		{"space in an address", "- network: ETH\n  address: \"a 1\"\n", []string{":2: [0].address: \"a 1\" holds a space"}},
		{"odd network", "- network: \"E TH\"\n  address: a1\n", []string{":1: [0].network: \"E TH\" must match"}},
		{"two mistakes", "- network: ETH\n- address: b\n", []string{":1: [0].address: required", ":2: [1].network: required"}},
		{"two documents", "[]\n---\n[]\n", []string{":2: only one YAML document"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeAllowList(t, tc.content)
			l, err := LoadAllowList(p)
			if err == nil {
				t.Fatalf("no error; loaded %d entries", l.Len())
			}
			if l != nil {
				t.Error("a list came back with the error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), p+w) && !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
				if strings.HasPrefix(w, ":") && !strings.Contains(err.Error(), p+w) {
					t.Errorf("error %q does not name %s%s", err, p, w)
				}
			}
		})
	}
}

func TestLoadAllowListRefusesWhatIsNoFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadAllowList(filepath.Join(dir, "missing.yml")); err == nil {
		t.Error("a missing file was accepted")
	}
	if _, err := LoadAllowList(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
}
