package fakeexchange

import (
	"fmt"
	"testing"
)

// A listing set by ListCredentials is served in its place, repeats and all,
// while the account's keys still sign; nil lists the keys again.
func TestListCredentialsServesTheListingAndKeysStillSign(t *testing.T) {
	h := newHarness(t, testScenario())
	if err := h.ex.ListCredentials("a", []Key{
		{APIKey: "listed-1", Permissions: []string{"READ"}},
		{APIKey: "listed-1", Permissions: []string{"READ", "TRADE"}, AllowedIPs: []string{"10.0.0.1"}},
	}); err != nil {
		t.Fatal(err)
	}
	m := wantOK(t, h.get(PathCredentials, "", "a1")) // a1 is not listed, and signs
	rows := rowsOf(t, m)
	if got := fmt.Sprint(rows); got != "[map[accountName:Alpha apiKey:listed-1 permissions:[READ] userId:1] "+
		"map[accountName:Alpha allowedIPs:[10.0.0.1] apiKey:listed-1 permissions:[READ TRADE] userId:1]]" {
		t.Errorf("rows %s", got)
	}
	if got := fmt.Sprint(metaOf(t, m)["total"]); got != "2" {
		t.Errorf("meta.total %s, want 2", got)
	}
	if err := h.ex.ListCredentials("a", []Key{}); err != nil {
		t.Fatal(err)
	}
	if rows := rowsOf(t, wantOK(t, h.get(PathCredentials, "", "a1"))); len(rows) != 0 {
		t.Errorf("an empty listing served %v", rows)
	}
	if err := h.ex.ListCredentials("a", nil); err != nil {
		t.Fatal(err)
	}
	if rows := rowsOf(t, wantOK(t, h.get(PathCredentials, "", "a1"))); len(rows) != 4 || rows[0]["apiKey"] != "a1" {
		t.Errorf("after nil: %v, want the account's four keys", rows)
	}
	if err := h.ex.ListCredentials("a", []Key{{}}); err == nil {
		t.Error("a row without a key was taken")
	}
	if err := h.ex.ListCredentials("nobody", nil); err == nil {
		t.Error("an unknown account was taken")
	}
}
