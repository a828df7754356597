package collector

import (
	"context"
	"strings"
	"testing"

	"github.com/go-kit/log"

	"github.com/woox-exporter/woox_exporter/client"
)

const ownKey = "OWNKEYaaaaaaaaaaaaaa0001"

func credentialRows() []client.Credential {
	return []client.Credential{
		{AccountName: "Main", UserID: "12523", APIKey: ownKey, Permissions: []string{"READ"}},
		{AccountName: "Main", UserID: "12523", APIKey: "TRADEKEYbbbbbbbbbbbb0002", Permissions: []string{"READ", "TRADE", "WITHDRAWAL"},
			AllowedIPs: []string{"10.0.0.1", "10.0.0.2", "10.0.0.2"}},
		// Unknown and lower-case permissions; a short key.
		{AccountName: "Main", UserID: "12523", APIKey: "short", Permissions: []string{"trade", "TRANSFER"}},
		// Masks to the same label as TRADEKEY...0002: must get its own.
		{AccountName: "Main", UserID: "12523", APIKey: "TRADEKEYcccccccccccc0002", Permissions: []string{"WITHDRAWAL"}},
		// Listed twice: the first row wins.
		{AccountName: "Main", UserID: "12523", APIKey: ownKey, Permissions: []string{"READ", "TRADE"}},
	}
}

func newCredentialsAccount(api CredentialsAPI, showFull bool, logger log.Logger) *credentialsAccount {
	return &credentialsAccount{name: "main", ownKey: ownKey, api: api, showFull: showFull, logger: logger}
}

func TestCredentialsMetricsMaskKeysAndShowEveryPermission(t *testing.T) {
	a := newCredentialsAccount(&fakeAccount{creds: credentialRows()}, false, log.NewNopLogger())
	if err := a.poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	expectMetrics(t, &CredentialsCollector{accounts: []*credentialsAccount{a}}, "credentials.metrics")
}

func TestCredentialsShowFullKey(t *testing.T) {
	a := newCredentialsAccount(&fakeAccount{creds: credentialRows()[:2]}, true, log.NewNopLogger())
	if err := a.poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	expectMetrics(t, &CredentialsCollector{accounts: []*credentialsAccount{a}}, "credentials_full_key.metrics")
}

func TestCredentialsNeverExportIPAddresses(t *testing.T) {
	a := newCredentialsAccount(&fakeAccount{creds: credentialRows()}, true, log.NewNopLogger())
	if err := a.poll(context.Background(), func() {}); err != nil {
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
	var buf syncBuffer
	api := &fakeAccount{creds: credentialRows()[1:2]}
	a := newCredentialsAccount(api, false, log.NewLogfmtLogger(&buf))
	for range 3 {
		if err := a.poll(context.Background(), func() {}); err != nil {
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
	api.creds = credentialRows()
	a.poll(context.Background(), func() {})
	api.creds = credentialRows()[1:2]
	a.poll(context.Background(), func() {})
	if n := strings.Count(buf.String(), "own API key is not in"); n != 2 {
		t.Errorf("logged %d times after the key came back and went, want 2", n)
	}
}
