package client_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The transfer history through the fake: one transfer out, one in flight
// in, and the row the client rejects when the fake breaks one
// (TestTheFakesUnreadableRowsAreRejectedAlone).
var _ = addListEndpoint(endpoint.TransferHistory, listEndpoint{
	fill: func(s *fakeexchange.Scenario) {
		s.Accounts[0].AccountTransfers = []fakeexchange.AccountTransfer{
			{ID: 1, Token: "USDT", Amount: "250", CounterpartyApplicationID: "app-x", CounterpartyAccountName: "X", CreatedAgo: 2 * time.Hour},
			{ID: 2, Token: "BTC", Amount: "1", Status: "PENDING", Direction: "in", CounterpartyApplicationID: "app-y", CreatedAgo: time.Hour},
		}
	},
	read: func(ctx context.Context, c *client.Client) (any, []client.RejectedRow, error) {
		now := time.Now()
		return c.TransferHistory(ctx, now.Add(-24*time.Hour).UnixMilli(), now.UnixMilli())
	},
	unreadable: client.RejectedRow{ID: "id 900000001", Field: "createdTime"},
})

// The docs example (with the comma it misses) and its all-strings form,
// through the real client.
func TestDocsExampleTransferHistory(t *testing.T) {
	for _, file := range forms("docs_transfer_history") {
		t.Run(file, func(t *testing.T) {
			got, rejected, err := captureClient(t, endpoint.PathOf(endpoint.TransferHistory), file).TransferHistory(context.Background(), 1642000000000, 1721295317627)
			if err != nil || len(rejected) != 0 {
				t.Fatal(err, rejected)
			}
			if len(got) != 1 {
				t.Fatalf("got %+v", got)
			}
			g := got[0]
			if g.ID != "225" || g.Token != "USDT" || !g.Amount.Equal(*dec("1000000")) || g.Status != "COMPLETED" || !g.Completed() ||
				g.From != (client.TransferParty{ApplicationID: "046b5c5c-5b44-4d27-9593-ddc32c0a08ae", AccountName: "Main"}) ||
				g.To != (client.TransferParty{ApplicationID: "082ae5ae-e26a-4fb1-be5b-03e5b4867663", AccountName: "sub001"}) ||
				g.CreatedMs != 1642660941534 || g.UpdatedMs != 1642660941950 {
				t.Errorf("got %+v", g)
			}
		})
	}
}

// Every reading of the fake: both sides of a transfer between scenario
// accounts, a counterparty outside, in any spelling and number encoding;
// the account's own applicationId from account info.
func TestTransferHistoryAgainstTheFake(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		created := time.Now().Add(-time.Hour).UnixMilli()
		s.Accounts = append(s.Accounts, fakeexchange.Account{Name: "sub", AccountName: "Sub-1",
			Keys: []fakeexchange.Key{{APIKey: "sub-key", APISecret: "SUBSECRET", Permissions: []string{"READ"}}}})
		s.Accounts[0].AccountTransfers = []fakeexchange.AccountTransfer{
			{ID: 7, Token: "USDT", Amount: "12.5", Counterparty: s.Accounts[1].Name, CreatedTime: created},
			{ID: 8, Token: "BTC", Amount: "0.001", Status: "PENDING", Direction: "in", CounterpartyApplicationID: "app-x", CreatedTime: created + 1000},
		}
		h := newHarness(t, s)
		c := h.client(t, nil)
		now := time.Now()
		got, rejected, err := c.TransferHistory(context.Background(), now.Add(-2*time.Hour).UnixMilli(), now.UnixMilli())
		if err != nil || len(rejected) != 0 {
			t.Fatal(err, rejected)
		}
		if len(got) != 2 {
			t.Fatalf("got %+v", got)
		}
		in, out := got[0], got[1]
		if in.ID != "8" || in.Final() || in.From != (client.TransferParty{ApplicationID: "app-x"}) || in.To.ApplicationID != "app-"+s.Accounts[0].Name ||
			in.CreatedMs != walletTime(s, created+1000) || !in.Amount.Equal(*dec("0.001")) {
			t.Errorf("in flight: %+v", in)
		}
		if out.ID != "7" || !out.Completed() || out.To.ApplicationID != "app-"+s.Accounts[1].Name || out.To.AccountName != "Sub-1" ||
			!out.Amount.Equal(*dec("12.5")) || out.CreatedMs != walletTime(s, created) {
			t.Errorf("completed: %+v", out)
		}
		id, err := c.ApplicationID(context.Background())
		if err != nil || id != "app-"+s.Accounts[0].Name {
			t.Errorf("application id %q, %v", id, err)
		}
	})
}

// Answers that cannot be read as a whole fail with an error naming the
// endpoint; a query window that is not 13-digit milliseconds is never sent.
func TestTransferHistoryMalformedAnswers(t *testing.T) {
	for body, want := range map[string]string{
		`{"success":true,"data":{}}`:                   "no rows",
		`{"success":true,"data":{"rows":{}}}`:          "rows",
		`{"success":true,"data":[]}`:                   "transfer history",
		`{"success":true,"data":{"rows":[]`:            "",
		`{"success":false,"code":-1003,"message":"x"}`: "",
	} {
		_, _, err := bodyClient(t, endpoint.PathOf(endpoint.TransferHistory), []byte(body)).TransferHistory(context.Background(), 1700000000000, 1700000001000)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to contain %q", body, err, want)
		}
	}
	if _, _, err := bodyClient(t, endpoint.PathOf(endpoint.TransferHistory), nil).TransferHistory(context.Background(), 1700000000, 1700000001000); err == nil {
		t.Error("a start time in seconds was sent")
	}
	if _, err := bodyClient(t, endpoint.PathOf(endpoint.AccountInfo), []byte(`{"success":true,"data":{"accountMode":"FUTURES"}}`)).ApplicationID(context.Background()); err == nil ||
		!strings.Contains(err.Error(), "applicationId") {
		t.Errorf("account info without applicationId: %v", err)
	}
}
