package client_test

import (
	"context"
	"slices"
	"testing"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The credentials through the fake: the scenario's own keys, and the row the
// client rejects when the fake breaks one (TestTheFakesUnreadableRowsAreRejectedAlone).
var _ = addListEndpoint(endpoint.Credentials, listEndpoint{
	read: func(ctx context.Context, c *client.Client) (any, []client.RejectedRow, error) {
		return c.Credentials(ctx)
	},
	unreadable: client.RejectedRow{Field: "apiKey"},
})

// A key whose allow-list and permissions change at the fake is read with
// its new ones in every reading of the API; an empty list sent as [] reads
// as no list, no restriction.
func TestCredentialsShowAKeysNewAccessInEveryReading(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		h := newHarness(t, s)
		c := h.client(t, nil)
		const other = "other-key-abcdef=="
		read := func() client.Credential {
			t.Helper()
			creds, rejected, err := c.Credentials(context.Background())
			if err != nil || len(rejected) != 0 || len(creds) != 2 || creds[1].APIKey != other {
				t.Fatalf("credentials %+v, rejected %v, %v", creds, rejected, err)
			}
			return creds[1]
		}
		if k := read(); !slices.Equal(k.AllowedIPs, []string{"10.0.0.1"}) || !slices.Equal(k.Permissions, []string{"READ", "TRADE"}) {
			t.Fatalf("before: %+v", k)
		}
		if err := h.fake.Apply(fakeexchange.Event{Key: &fakeexchange.Change[fakeexchange.Key]{Account: "main", Row: fakeexchange.Key{APIKey: other,
			Permissions: []string{"WITHDRAWAL", "READ"}, AllowedIPs: []string{"6.6.6.6"}}}}); err != nil {
			t.Fatal(err)
		}
		if k := read(); !slices.Equal(k.AllowedIPs, []string{"6.6.6.6"}) || !slices.Equal(k.Permissions, []string{"WITHDRAWAL", "READ"}) {
			t.Errorf("after the change: %+v", k)
		}
		if err := h.fake.Apply(fakeexchange.Event{Key: &fakeexchange.Change[fakeexchange.Key]{Account: "main", Row: fakeexchange.Key{APIKey: other, AllowedIPs: []string{}}}}); err != nil {
			t.Fatal(err)
		}
		if k := read(); k.AllowedIPs != nil || !slices.Equal(k.Permissions, []string{"WITHDRAWAL", "READ"}) {
			t.Errorf("after allowedIPs []: %+v", k)
		}
	})
}
