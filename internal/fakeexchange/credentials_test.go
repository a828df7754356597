package fakeexchange

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// A listing set by a credentials event is served in its place, repeats and
// all, while the account's keys still sign; remove lists the keys again.
func TestCredentialsEventServesTheListingAndKeysStillSign(t *testing.T) {
	h := newHarness(t, testScenario())
	if err := h.ex.Apply(Event{Credentials: &Change[Key]{Account: "a", All: true, Rows: []Key{
		{APIKey: "listed-1", Permissions: []string{"READ"}},
		{APIKey: "listed-1", Permissions: []string{"READ", "TRADE"}, AllowedIPs: []string{"10.0.0.1"}},
	}}}); err != nil {
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
	if err := h.ex.Apply(Event{Credentials: &Change[Key]{Account: "a", All: true, Rows: []Key{}}}); err != nil {
		t.Fatal(err)
	}
	if rows := rowsOf(t, wantOK(t, h.get(PathCredentials, "", "a1"))); len(rows) != 0 {
		t.Errorf("an empty listing served %v", rows)
	}
	if err := h.ex.Apply(Event{Credentials: &Change[Key]{Account: "a", Remove: true}}); err != nil {
		t.Fatal(err)
	}
	if rows := rowsOf(t, wantOK(t, h.get(PathCredentials, "", "a1"))); len(rows) != 4 || rows[0]["apiKey"] != "a1" {
		t.Errorf("after nil: %v, want the account's four keys", rows)
	}
	if err := h.ex.Apply(Event{Credentials: &Change[Key]{Account: "a", All: true, Rows: []Key{{}}}}); err == nil {
		t.Error("a row without a key was taken")
	}
	if err := h.ex.Apply(Event{Credentials: &Change[Key]{Account: "nobody", Remove: true}}); err == nil {
		t.Error("an unknown account was taken")
	}
}

func TestCredentialsRowsAndAllowedIPsOmission(t *testing.T) {
	h := newHarness(t, testScenario())
	r := h.get(PathCredentials, "", "a1")
	rows := rowsOf(t, wantOK(t, r))
	if len(rows) != 4 {
		t.Fatalf("got %d rows, want the 4 keys of account a", len(rows))
	}
	if _, ok := rows[0]["allowedIPs"]; ok {
		t.Errorf("unrestricted key has allowedIPs: %v", rows[0])
	}
	if fmt.Sprint(rows[1]["allowedIPs"]) != "[127.0.0.1 ::1]" || fmt.Sprint(rows[1]["permissions"]) != "[READ TRADE]" {
		t.Errorf("row 1 = %v", rows[1])
	}
	if rows[0]["accountName"] != "Alpha" || rows[0]["userId"] != json.Number("1") || rows[0]["apiKey"] != "a1" {
		t.Errorf("row 0 = %v", rows[0])
	}
	meta := metaOf(t, r.json(t))
	if fmt.Sprint(meta) != "map[currentPage:1 recordsPerPage:25 total:4]" {
		t.Errorf("meta = %v", meta)
	}
}

func TestCredentialsPagingAndSnakeCaseMeta(t *testing.T) {
	s := testScenario()
	s.SnakeCaseMeta = true
	h := newHarness(t, s)
	r := h.get(PathCredentials, "page=2&size=3", "a1")
	rows := rowsOf(t, wantOK(t, r))
	if len(rows) != 1 || rows[0]["apiKey"] != "a-ip" {
		t.Errorf("page 2 of size 3 = %v", rows)
	}
	if meta := metaOf(t, r.json(t)); fmt.Sprint(meta) != "map[current_page:2 records_per_page:3 total:4]" {
		t.Errorf("meta = %v", meta)
	}
}

// A key event replaces what it sets of the key's access, and the key
// still signs; an empty allow-list is served as [], no list not at all.
func TestKeyEventChangesTheListedAccess(t *testing.T) {
	s, err := ParseScenario([]byte(`
accounts:
  - name: a
    keys:
      - {api_key: a1, api_secret: s-a1, permissions: [READ]}
      - {api_key: a-ip, api_secret: s-ip, permissions: [READ], allowed_ips: [10.0.0.1]}
events:
  - {after: 1ms, key: {account: a, api_key: a-ip, allowed_ips: [6.6.6.6]}}
  - {after: 2ms, key: {account: a, api_key: a1, permissions: [TRADE, READ], allowed_ips: []}}
`))
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.ex.Start(ctx)
	want := "[map[accountName: allowedIPs:[] apiKey:a1 permissions:[TRADE READ] userId:0] " +
		"map[accountName: allowedIPs:[6.6.6.6] apiKey:a-ip permissions:[READ] userId:0]]"
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := fmt.Sprint(rowsOf(t, wantOK(t, h.get(PathCredentials, "", "a1"))))
		if got == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("rows %s\nwant %s", got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestKeyEventErrors(t *testing.T) {
	for _, tc := range []struct{ event, want string }{
		{`{account: a, api_key: nobody, allowed_ips: [6.6.6.6]}`, "key.api_secret: must not be empty for a key the scenario does not have"},
		{`{account: a, api_key: a1}`, "key.api_key: sets neither"},
		{`{account: a, api_key: a1, allowed_ips: [not-an-ip]}`, "key.allowed_ips[0]: not an IP address"},
		{`{account: b, api_key: a1, permissions: [READ]}`, "key.account: unknown account"},
	} {
		_, err := ParseScenario([]byte(`
accounts:
  - name: a
    keys: [{api_key: a1, api_secret: s-a1, permissions: [READ]}]
events:
  - {after: 1s, key: ` + tc.event + `}
`))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.event, err, tc.want)
		}
	}
	h := newHarness(t, testScenario())
	if err := h.ex.Apply(Event{Key: &Change[Key]{Account: "a", Row: Key{APIKey: "nobody", AllowedIPs: []string{"6.6.6.6"}}}}); err == nil {
		t.Error("an update of an unknown key was taken")
	}
}
