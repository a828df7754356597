package collector

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/go-kit/log"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// Odd bytes in every label (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape).
var _ = addOddAnswer(endpoint.SubAccounts, oddAnswer{path: endpoint.PathOf(endpoint.SubAccounts), family: "woox_sub_account_info",
	body: `{"success":true,"data":{"rows":[{"applicationId":"a\xff1","account":"d\xc3\x28sk"},{"applicationId":"` + oddLong + `","account":""}]},"timestamp":1700000000000}`})

func TestSubAccountsMetrics(t *testing.T) {
	r := newRig(t, &fakeexchange.Scenario{})
	for _, s := range []fakeexchange.SubAccount{
		{ApplicationID: "6b43de5c-0955-4887-9862-d84e4689f9fe", Name: "desk-a", CreatedTime: 1579399877041},
		{ApplicationID: "7c00", Name: ""},
	} {
		if err := r.fake.Apply(fakeexchange.Event{AddSubAccount: &fakeexchange.Change[fakeexchange.SubAccount]{Account: "main",
			Row: s}}); err != nil {
			t.Fatal(err)
		}
	}
	e := onlyEndpoint(t, r, endpoint.SubAccounts)
	expectMetrics(t, e.byName[endpoint.SubAccounts], "sub_accounts.metrics")
}

// A sub-account's key is refused: logged once at warn, never asked again,
// and the poll does not fail (nobody is paged for it).
func TestSubAccountsRefusedKeyStopsAsking(t *testing.T) {
	sub := mainAccount()
	sub.Name, sub.IsSubAccount = "sub", true
	sub.Keys[0].APIKey = "SUBKEYaaaaaaaaaaaaaa0001"
	// Without retries, each request is one call of the collector's.
	r := newRig(t, &fakeexchange.Scenario{Accounts: []fakeexchange.Account{mainAccount(), sub}},
		clientConfig(func(c *client.Config) { c.MaxRetries = -1 }))
	calls := func(account string) int {
		n := 0
		for _, q := range r.requests(endpoint.SubAccounts) {
			if q.Account == account {
				n++
			}
		}
		return n
	}
	var logs bytes.Buffer
	s := &subAccounts{latest: &latest[[]client.SubAccount]{account: "sub"}, api: r.apis["sub"], logger: log.NewLogfmtLogger(&logs)}
	asked := 0 // by the first poll: the client may sign again after learning the exchange's time
	for i := range 3 {
		if _, err := s.poll(context.Background(), func() {}); err != nil {
			t.Fatalf("a refused key failed the poll: %v", err)
		}
		if i == 0 {
			asked = calls("sub")
		}
	}
	if n := calls("sub"); asked == 0 || n != asked {
		t.Errorf("%d requests after three polls, %d after the first: a refused key is not asked again", n, asked)
	}
	if n := strings.Count(logs.String(), "level=warn"); n != 1 || !strings.Contains(logs.String(), "account=sub") {
		t.Errorf("want one warning naming the account, got:\n%s", logs.String())
	}
	if s.load() != nil {
		t.Error("a refused key exports no sub-accounts")
	}

	// Other failures fail the poll and are retried.
	r.fake.InjectFault(fakeexchange.Fault{Endpoint: endpoint.SubAccounts, Kind: fakeexchange.FaultHTTPError, Status: 502})
	s = &subAccounts{latest: &latest[[]client.SubAccount]{account: "main"}, api: r.api(), logger: log.NewNopLogger()}
	for range 2 {
		if _, err := s.poll(context.Background(), func() {}); err == nil {
			t.Fatal("a 502 did not fail the poll")
		}
	}
	if n := calls("main"); n != 2 {
		t.Errorf("%d requests after transient failures, want 2", n)
	}
}
