package collector

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// Odd bytes in every label (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape).
var _ = addOddAnswer(endpoint.Credentials, oddAnswer{path: endpoint.PathOf(endpoint.Credentials), family: "woox_api_key_info",
	body: `{"success":true,"data":{"rows":[` +
		`{"accountName":"M\xffain","userId":12,"apiKey":"` + faultKey + `","permissions":["READ","NEW_\xffPERM",""],"allowedIPs":[]},` +
		`{"accountName":"Main","userId":12,"apiKey":"k\xff\xfe-other-key-with-bad-bytes","permissions":["READ"],"allowedIPs":null}` +
		`],"meta":{"total":2,"recordsPerPage":25,"currentPage":1}},"timestamp":1700000000000}`})

// credentialRows are what the credentials of "main" (Main, user 12523)
// list in the tests.
func credentialRows() []fakeexchange.Key {
	return []fakeexchange.Key{
		{APIKey: ownKey, Permissions: []string{"READ"}},
		{APIKey: "TRADEKEYbbbbbbbbbbbb0002", Permissions: []string{"READ", "TRADE", "WITHDRAWAL"},
			AllowedIPs: []string{"10.0.0.1", "10.0.0.2", "10.0.0.2"}},
		// Unknown and lower-case permissions; a short key.
		{APIKey: "short", Permissions: []string{"trade", "TRANSFER"}},
		// Masks to the same label as TRADEKEY...0002: must get its own.
		{APIKey: "TRADEKEYcccccccccccc0002", Permissions: []string{"WITHDRAWAL"}},
		// Listed twice: the first row wins.
		{APIKey: ownKey, Permissions: []string{"READ", "TRADE"}},
	}
}

func newCredentialsAccount(api CredentialsAPI, showFull bool, logger log.Logger) *credentialsAccount {
	return &credentialsAccount{name: "main", ownKey: ownKey, api: api, showFull: showFull, logger: logger,
		keys: keyWatch{state: &countedState[APIKeys]{h: apiKeyChanges, account: "main", logger: logger}}}
}

func TestCredentialsMetricsMaskKeysAndShowEveryPermission(t *testing.T) {
	a := newCredentialsAccount(newTestRig(t).api(), false, log.NewNopLogger())
	if _, err := a.poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	expectMetrics(t, &CredentialsCollector{accounts: []*credentialsAccount{a}}, "credentials.metrics")
}

func TestCredentialsShowFullKey(t *testing.T) {
	r := newTestRig(t)
	r.listCredentials(t, credentialRows()[:2])
	a := newCredentialsAccount(r.api(), true, log.NewNopLogger())
	if _, err := a.poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	expectMetrics(t, &CredentialsCollector{accounts: []*credentialsAccount{a}}, "credentials_full_key.metrics")
}

func TestCredentialsNeverExportIPAddresses(t *testing.T) {
	a := newCredentialsAccount(newTestRig(t).api(), true, log.NewNopLogger())
	if _, err := a.poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, k := range a.snap.Load().keys {
		out.WriteString(k.label + k.accountName + k.userID)
		for p := range k.permissions {
			out.WriteString(p)
		}
	}
	if strings.Contains(out.String(), "10.0.0") {
		t.Errorf("an IP address reached a label value: %s", out.String())
	}
}

func TestCredentialsOwnKeyMissingIsLoggedOnceAndNotExported(t *testing.T) {
	var buf testsupport.SyncBuffer
	r := newTestRig(t)
	// ownKey signs, but the list leaves it out.
	r.listCredentials(t, credentialRows()[1:2])
	a := newCredentialsAccount(r.api(), false, log.NewLogfmtLogger(&buf))
	for range 3 {
		if _, err := a.poll(context.Background(), func() {}); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(buf.String(), "own API key is not in"); n != 1 {
		t.Errorf("logged %d times, want once:\n%s", n, buf.String())
	}
	if strings.Contains(buf.String(), ownKey) {
		t.Errorf("log shows the full key:\n%s", buf.String())
	}
	expectMetrics(t, &CredentialsCollector{accounts: []*credentialsAccount{a}}, "credentials_own_key_missing.metrics")

	// Found again, then lost again: logged again.
	r.listCredentials(t, credentialRows())
	if _, err := a.poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	r.listCredentials(t, credentialRows()[1:2])
	if _, err := a.poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "own API key is not in"); n != 2 {
		t.Errorf("logged %d times after the key came back and went, want 2", n)
	}
}

// labels maps each full key to its exported label; the test credentials
// carry their key in UserID to tell the rows apart.
func labels(creds []client.Credential) map[string]string {
	out := map[string]string{}
	for _, r := range apiKeyRows(creds, false) {
		out[r.userID] = r.label
	}
	return out
}

// Keys that mask alike keep their labels when another such key is added or
// removed, and in any order: a key's series never move to another key.
func TestCredentialsAlikeKeysKeepTheirLabelsWhenKeysComeAndGo(t *testing.T) {
	key := func(mid string) client.Credential {
		return client.Credential{APIKey: "SAME" + mid + "TAIL", UserID: "SAME" + mid + "TAIL"}
	}
	two := []client.Credential{key("mmmmmmmmmmmm2"), key("mmmmmmmmmmmm5")}
	before := labels(two)
	// A key sorting before both, one between them, and one after.
	more := append([]client.Credential{key("mmmmmmmmmmmm1"), key("mmmmmmmmmmmm3"), key("mmmmmmmmmmmm9")}, two...)
	slices.Reverse(more)
	after := labels(more)
	for k, l := range before {
		if after[k] != l {
			t.Errorf("key %s: label %q became %q when alike keys were added", k, l, after[k])
		}
		if !strings.HasPrefix(l, "SAME...TAIL~") || len(l) != len("SAME...TAIL~")+4 {
			t.Errorf("key %s: label %q, want SAME...TAIL~ and 4 hex digits", k, l)
		}
	}
	seen := map[string]bool{}
	for _, l := range after {
		if seen[l] {
			t.Errorf("label %q given twice", l)
		}
		seen[l] = true
	}
	// A key whose mask no other key shares has no suffix.
	if got := labels([]client.Credential{key("mmmmmmmmmmmm2"), {APIKey: "OTHERxxxxxxxxTAIL", UserID: "other"}}); got["SAMEmmmmmmmmmmmm2TAIL"] != "SAME...TAIL" {
		t.Errorf("lone key labelled %q, want SAME...TAIL", got["SAMEmmmmmmmmmmmm2TAIL"])
	}
}

// Two alike keys whose hashes share the first 4 hex digits (1 in 65,536
// pairs) still get distinct labels, so the scrape never breaks.
func TestCredentialsAlikeKeysWithTheSameHashPrefixStayDistinct(t *testing.T) {
	byPrefix := map[string]string{}
	var a, b string
	for i := 0; a == ""; i++ { // a birthday search: a few hundred keys
		k := fmt.Sprintf("SAME%012dTAIL", i)
		sum := sha256.Sum256([]byte(k))
		p := hex.EncodeToString(sum[:2])
		if other, ok := byPrefix[p]; ok {
			a, b = other, k
		}
		byPrefix[p] = k
	}
	creds := []client.Credential{{APIKey: a, UserID: a}, {APIKey: b, UserID: b}}
	got := labels(creds)
	if got[a] == got[b] {
		t.Fatalf("keys %s and %s both labelled %q", a, b, got[a])
	}
	r := newTestRig(t)
	r.listCredentials(t, []fakeexchange.Key{{APIKey: a}, {APIKey: b}})
	c := &CredentialsCollector{accounts: []*credentialsAccount{newCredentialsAccount(r.api(), false, log.NewNopLogger())}}
	if _, err := c.accounts[0].poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	if problems, err := testutil.CollectAndLint(c); err != nil || len(problems) > 0 {
		t.Errorf("scrape: %v %v", err, problems)
	}
}
