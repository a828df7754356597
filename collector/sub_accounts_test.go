package collector

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/go-kit/log"

	"github.com/woox-exporter/woox_exporter/client"
)

func TestSubAccountsMetrics(t *testing.T) {
	account := &fakeAccount{now: historyNow, subAccounts: []client.SubAccount{
		{ApplicationID: "6b43de5c-0955-4887-9862-d84e4689f9fe", Name: "desk-a", CreatedMs: 1579399877041},
		{ApplicationID: "7c00", Name: ""},
	}}
	e := onlyEndpoint(t, client.EndpointSubAccounts, account)
	expectMetrics(t, e.byName[client.EndpointSubAccounts], "sub_accounts.metrics")
}

// A sub-account's key is refused: logged once at warn, never asked again,
// and the poll does not fail (nobody is paged for it).
func TestSubAccountsRefusedKeyStopsAsking(t *testing.T) {
	var logs bytes.Buffer
	account := &countingSubAccounts{err: &client.Error{Op: "get sub-accounts page 1", Kind: client.KindAuth, StatusCode: 401, Code: client.CodeUnauthorized}}
	s := &subAccounts{latest: latest[[]client.SubAccount]{account: "sub"}, api: account, logger: log.NewLogfmtLogger(&logs)}
	for range 3 {
		if err := s.poll(context.Background(), func() {}); err != nil {
			t.Fatalf("a refused key failed the poll: %v", err)
		}
	}
	if account.calls != 1 {
		t.Errorf("%d requests, want 1: a refused key is not asked again", account.calls)
	}
	if n := strings.Count(logs.String(), "level=warn"); n != 1 || !strings.Contains(logs.String(), "account=sub") {
		t.Errorf("want one warning naming the account, got:\n%s", logs.String())
	}
	if s.load() != nil {
		t.Error("a refused key exports no sub-accounts")
	}

	// Other failures fail the poll and are retried.
	other := &countingSubAccounts{err: &client.Error{Op: "get sub-accounts page 1", Kind: client.KindTransient, StatusCode: 502}}
	s = &subAccounts{latest: latest[[]client.SubAccount]{account: "main"}, api: other, logger: log.NewNopLogger()}
	for range 2 {
		if err := s.poll(context.Background(), func() {}); err == nil {
			t.Fatal("a 502 did not fail the poll")
		}
	}
	if other.calls != 2 {
		t.Errorf("%d requests after transient failures, want 2", other.calls)
	}
}

type countingSubAccounts struct {
	calls int
	err   error
}

func (c *countingSubAccounts) SubAccounts(context.Context) ([]client.SubAccount, error) {
	c.calls++
	return nil, c.err
}
