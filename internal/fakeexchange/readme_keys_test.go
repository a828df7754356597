package fakeexchange

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// readmeKeyRow is a row of README.md's table of demo keys: account, key
// and secret, each in backquotes.
var readmeKeyRow = regexp.MustCompile("(?m)^\\| `([a-z]+)` \\| `([^`]+)` \\| `([^`]+)` \\|")

// README.md lists every key of DefaultScenario with its account and secret,
// where the quick start is, and no other.
func TestReadmeListsTheDemoKeys(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var listed, want []string
	for _, m := range readmeKeyRow.FindAllStringSubmatch(string(b), -1) {
		listed = append(listed, m[1]+" "+m[2]+" "+m[3])
	}
	for _, a := range DefaultScenario().Accounts {
		for _, k := range a.Keys {
			want = append(want, a.Name+" "+k.APIKey+" "+k.APISecret)
		}
	}
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("README.md lists the demo keys\n  %q\nDefaultScenario has\n  %q", listed, want)
	}
}
