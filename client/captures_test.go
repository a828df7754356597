package client_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
)

// captureClient is a client of a server that answers every request to path
// with the file testdata/captures/name.
func captureClient(t *testing.T, path, name string) *client.Client {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", "captures", name))
	if err != nil {
		t.Fatal(err)
	}
	return bodyClient(t, path, body)
}

// bodyClient is a client of a server that answers every request to path
// with body.
func bodyClient(t *testing.T, path string, body []byte) *client.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, Account: "main", APIKey: "capture-key", APISecret: "CAPTURESECRET",
		MaxRetries: -1, Metrics: client.NewMetrics(prometheus.NewRegistry()), Logger: log.NewNopLogger()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// forms are a capture and its all-strings form.
func forms(name string) []string { return []string{name + ".json", name + "_strings.json"} }

// dec is a hand-written expected decimal; nil stands for "not sent".
func dec(s string) *decimal.Decimal {
	d := decimal.RequireFromString(s)
	return &d
}

func sameDecimal(got, want *decimal.Decimal) bool {
	if got == nil || want == nil {
		return got == want
	}
	return got.Equal(*want)
}

func TestCaptureSystemInfo(t *testing.T) {
	for _, file := range forms("system_info") {
		t.Run(file, func(t *testing.T) {
			got, err := captureClient(t, endpoint.PathOf(endpoint.SystemInfo), file).SystemInfo(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			// A stale estimate while the status is normal.
			want := client.SystemInfo{Status: 0, Message: "System is functioning properly.", EstimatedEndTime: 1749963600362}
			if got != want || got.Maintenance() {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
}

func TestCaptureAccountInfo(t *testing.T) {
	for _, file := range forms("account_info") {
		t.Run(file, func(t *testing.T) {
			got, err := captureClient(t, endpoint.PathOf(endpoint.AccountInfo), file).AccountInfo(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got.AccountMode != "FUTURES" || got.PositionMode != "ONE_WAY" {
				t.Errorf("account mode %q, position mode %q", got.AccountMode, got.PositionMode)
			}
			for _, f := range []struct {
				name      string
				got, want *decimal.Decimal
			}{
				{"leverage", got.Leverage, dec("0")},
				{"marginRatio", got.MarginRatio, dec("10")},
				{"openMarginRatio", got.OpenMarginRatio, dec("10")},
				{"initialMarginRatio", got.InitialMarginRatio, dec("10")},
				{"maintenanceMarginRatio", got.MaintenanceMarginRatio, dec("0.03")},
				{"totalCollateral", got.TotalCollateral, dec("165.60282626")},
				{"freeCollateral", got.FreeCollateral, dec("165.60282626")},
				{"totalAccountValue", got.TotalAccountValue, dec("167.51599846")},
				// The captured answer has no fee rate at all.
				{"takerFeeRate", got.TakerFeeRate, nil},
				{"makerFeeRate", got.MakerFeeRate, nil},
				{"futuresTakerFeeRate", got.FuturesTakerFeeRate, nil},
				{"futuresMakerFeeRate", got.FuturesMakerFeeRate, nil},
			} {
				if !sameDecimal(f.got, f.want) {
					t.Errorf("%s = %v, want %v", f.name, f.got, f.want)
				}
			}
		})
	}
}

func TestCaptureWalletHistory(t *testing.T) {
	for _, file := range forms("wallet_history") {
		t.Run(file, func(t *testing.T) {
			// A query window around the capture's row (created March 2024).
			got, rejected, err := captureClient(t, endpoint.PathOf(endpoint.Wallet), file).WalletHistory(context.Background(), 1700000000000, 1760000000000)
			if err != nil || len(rejected) != 0 {
				t.Fatal(err, rejected)
			}
			if len(got) != 1 {
				t.Fatalf("%d transfers, want 1: %+v", len(got), got)
			}
			tr := got[0]
			if tr.ID != "24032312465400366" || tr.Token != "TRON_USDT" || tr.Type != "BALANCE" || tr.Side != "DEPOSIT" ||
				tr.Status != "COMPLETED" || !tr.Final() || !sameDecimal(tr.Amount, dec("5")) ||
				tr.CreatedMs != 1711198014126 || tr.UpdatedMs != 1721624583727 ||
				tr.TargetAddress != "TTsY9uu2Y3aBH1vSir1md7oRqZe7DscA4v" || tr.Tag != "" {
				t.Errorf("got %+v", tr)
			}
		})
	}
}

func TestDocsExampleCredentials(t *testing.T) {
	for _, file := range forms("docs_credentials") {
		t.Run(file, func(t *testing.T) {
			got, rejected, err := captureClient(t, endpoint.PathOf(endpoint.Credentials), file).Credentials(context.Background())
			if err != nil || len(rejected) != 0 {
				t.Fatal(err, rejected)
			}
			if len(got) != 1 {
				t.Fatalf("%d keys, want 1: %+v", len(got), got)
			}
			k := got[0]
			if k.AccountName != "Main" || k.UserID != "12523" || k.APIKey != "+Pxxxxxxxxxxxxxxxxxxxx==" ||
				!slices.Equal(k.Permissions, []string{"READ", "TRADE", "WITHDRAWAL"}) || !slices.Equal(k.AllowedIPs, []string{"123.0.0.1", "124.2.1.1"}) {
				t.Errorf("got %+v", k)
			}
		})
	}
}

func TestDocsExampleSubAccounts(t *testing.T) {
	for _, file := range forms("docs_sub_accounts") {
		t.Run(file, func(t *testing.T) {
			got, rejected, err := captureClient(t, endpoint.PathOf(endpoint.SubAccounts), file).SubAccounts(context.Background())
			if err != nil || len(rejected) != 0 {
				t.Fatal(err, rejected)
			}
			want := []client.SubAccount{
				{ApplicationID: "6b43de5c-0955-4887-9862-d84e4689f9fe", Name: "sub-account-1", CreatedMs: 1579399877041},
				{ApplicationID: "7c00e2a8-1111-4c3d-8e8e-000000000002", Name: "sub-account-2", CreatedMs: 1699999999999},
			}
			if !slices.Equal(got, want) {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
}

func TestDocsExampleBalances(t *testing.T) {
	for _, file := range forms("docs_balances") {
		t.Run(file, func(t *testing.T) {
			got, rejected, err := captureClient(t, endpoint.PathOf(endpoint.Balances), file).Balances(context.Background())
			if err != nil || len(rejected) != 0 {
				t.Fatal(err, rejected)
			}
			want := []client.Balance{
				{Token: "USDT", Holding: dec("165.60282626"), Frozen: dec("0"), Staked: dec("0"), Available: dec("165.60282626"), MarkPrice: dec("1")},
				{Token: "BTC", Holding: dec("0.0012"), Frozen: dec("0.0002"), Staked: dec("0"), Available: dec("0.001")},
			}
			if len(got) != len(want) {
				t.Fatalf("got %+v", got)
			}
			for i, w := range want {
				g := got[i]
				if g.Token != w.Token || !sameDecimal(g.Holding, w.Holding) || !sameDecimal(g.Frozen, w.Frozen) || !sameDecimal(g.Staked, w.Staked) ||
					!sameDecimal(g.Available, w.Available) || !sameDecimal(g.MarkPrice, w.MarkPrice) {
					t.Errorf("balance %d: got %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

// The v1 spelling public clients read: allow_withdraw "0" is a disabled
// network, not a missing flag; numbers as strings and as numbers.
func TestTokenNetworkV1Spelling(t *testing.T) {
	got, rejected, err := captureClient(t, endpoint.PathOf(endpoint.TokenNetwork), "token_network_v1.json").TokenNetworks(context.Background())
	if err != nil || len(rejected) != 0 {
		t.Fatal(err, rejected)
	}
	want := []client.TokenNetwork{
		{Token: "USDT", Network: "TRON", Protocol: "TRC20", Name: "Tron", MinimumWithdrawal: *dec("2"), WithdrawalFee: *dec("1"), AllowDeposit: true},
		{Token: "USDT", Network: "ETH", Protocol: "ERC20", Name: "Ethereum", MinimumWithdrawal: *dec("10"), WithdrawalFee: *dec("1.5"), AllowDeposit: true, AllowWithdraw: true},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i, w := range want {
		g := got[i]
		if g.Token != w.Token || g.Network != w.Network || g.Protocol != w.Protocol || g.Name != w.Name || !g.MinimumWithdrawal.Equal(w.MinimumWithdrawal) ||
			!g.WithdrawalFee.Equal(w.WithdrawalFee) || g.AllowDeposit != w.AllowDeposit || g.AllowWithdraw != w.AllowWithdraw {
			t.Errorf("row %d: got %+v, want %+v", i, g, w)
		}
	}
}

// A row without a flag is rejected through the client naming its row and
// the field: it is never read as a disabled network, and never costs the
// other rows.
func TestTokenNetworkRowWithoutAFlagIsRejected(t *testing.T) {
	body := []byte(`{"success":true,"data":{"rows":[{"protocol":"TRC20","network":"TRON","token":"USDT","name":"Tron","minimum_withdrawal":"2","withdrawal_fee":"1","allow_deposit":"1"},` +
		`{"protocol":"ERC20","network":"ETH","token":"USDT","name":"Ethereum","minimum_withdrawal":"10","withdrawal_fee":"4.1","allow_deposit":"1","allow_withdraw":"1"}]},"timestamp":1752646332743}`)
	rows, rejected, err := bodyClient(t, endpoint.PathOf(endpoint.TokenNetwork), body).TokenNetworks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := client.RejectedRow{Page: 1, Index: 0, ID: "token USDT network TRON", Field: "allowWithdraw", Err: "allowWithdraw: missing"}
	if len(rejected) != 1 || rejected[0].Page != want.Page || rejected[0].Index != want.Index || rejected[0].ID != want.ID ||
		rejected[0].Field != want.Field || rejected[0].Err != want.Err {
		t.Errorf("rejected %+v, want %+v", rejected, want)
	}
	if len(rows) != 1 || rows[0].Network != "ETH" || !rows[0].AllowWithdraw {
		t.Errorf("rows %+v, want the ETH row", rows)
	}
}
