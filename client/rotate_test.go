package client_test

import (
	"context"
	"testing"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// A key rotated at the exchange (same key, new secret; then a new key) is
// used from the next request on.
func TestSetCredentialsSignsTheNextRequestWithTheRotatedKey(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		h := newHarness(t, s)
		c := h.client(t, nil)
		ctx := context.Background()
		if _, _, err := c.Credentials(ctx); err != nil {
			t.Fatal(err)
		}
		if err := h.fake.Apply(fakeexchange.Event{Key: &fakeexchange.Change[fakeexchange.Key]{Account: "main", Row: fakeexchange.Key{APIKey: testKey, APISecret: "ROTATED-SECRET"}}}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Credentials(ctx); !client.IsAuth(err) {
			t.Fatalf("with the old secret: err = %v, want an auth error", err)
		}
		if err := c.SetCredentials(testKey, "ROTATED-SECRET"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Credentials(ctx); err != nil {
			t.Fatalf("after SetCredentials with the rotated secret: %v", err)
		}
		// A new key replaces the old one.
		if err := h.fake.Apply(fakeexchange.Event{Key: &fakeexchange.Change[fakeexchange.Key]{Account: "main", Row: fakeexchange.Key{APIKey: "new-key-0123456789==", APISecret: "NEW-SECRET", Permissions: []string{"READ"}}}}); err != nil {
			t.Fatal(err)
		}
		if err := h.fake.Apply(fakeexchange.Event{Key: &fakeexchange.Change[fakeexchange.Key]{Account: "main", Row: fakeexchange.Key{APIKey: testKey}, Remove: true}}); err != nil {
			t.Fatal(err)
		}
		if err := c.SetCredentials("new-key-0123456789==", "NEW-SECRET"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Credentials(ctx); err != nil {
			t.Fatalf("after SetCredentials with a new key: %v", err)
		}
		if n := len(h.fake.Requests()); n < 4 {
			t.Errorf("the fake saw %d requests, want at least 4", n)
		}
	})
}

func TestSetCredentialsRefusesHalfAPairAndThePublicClient(t *testing.T) {
	h := newHarness(t, testScenario())
	if err := h.client(t, nil).SetCredentials("key-only", ""); err == nil {
		t.Error("a key without a secret was accepted")
	}
	public := h.client(t, func(c *client.Config) { c.APIKey, c.APISecret = "", "" })
	if err := public.SetCredentials(testKey, testSecret); err == nil {
		t.Error("the public client took credentials")
	}
}
