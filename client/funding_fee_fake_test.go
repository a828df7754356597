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

// The funding fees through the fake: one paid, one received, and the row
// the client rejects when the fake breaks one
// (TestTheFakesUnreadableRowsAreRejectedAlone).
var _ = addListEndpoint(endpoint.FundingFee, listEndpoint{
	fill: func(s *fakeexchange.Scenario) {
		s.Accounts[0].FundingFees = []fakeexchange.FundingFee{
			{ID: 1, Symbol: "PERP_BTC_USDT", FundingFee: "9.5", PaymentType: "Pay", CreatedAgo: 2 * time.Hour},
			{ID: 2, Symbol: "PERP_ETH_USDT", FundingFee: "1.25", PaymentType: "Receive", CreatedAgo: time.Hour},
		}
	},
	read: func(ctx context.Context, c *client.Client) (any, []client.RejectedRow, error) {
		now := time.Now()
		return c.FundingFees(ctx, now.Add(-24*time.Hour).UnixMilli(), now.UnixMilli())
	},
	unreadable: client.RejectedRow{ID: "id 900000001", Field: "fundingFee"},
})

// The docs example and its all-strings form, through the real client:
// the fee unsigned as sent, the direction from paymentType.
func TestDocsExampleFundingFees(t *testing.T) {
	for _, file := range forms("docs_funding_fee") {
		t.Run(file, func(t *testing.T) {
			got, rejected, err := captureClient(t, endpoint.PathOf(endpoint.FundingFee), file).FundingFees(context.Background(), 1696000000000, 1721351502594)
			if err != nil || len(rejected) != 0 || len(got) != 2 {
				t.Fatal(got, err, rejected)
			}
			pay, receive := got[0], got[1]
			if pay.ID != "1286360" || pay.Symbol != "PERP_BTC_USDT" || !pay.Amount.Equal(*dec("9.56021744")) || !pay.Paid || !pay.Completed() ||
				!sameDecimal(pay.Rate, dec("-0.00001445")) || !sameDecimal(pay.MarkPrice, dec("26930.6")) ||
				pay.CreatedMs != 1696060873259 || pay.UpdatedMs != 1696060873286 || pay.LatestMs() != 1696060873286 {
				t.Errorf("paid: %+v", pay)
			}
			if receive.ID != "1286115" || receive.Paid || !receive.Amount.Equal(*dec("43.14503239")) || !sameDecimal(receive.Rate, dec("0.00006526")) ||
				receive.CreatedMs != 1696032073609 {
				t.Errorf("received: %+v", receive)
			}
		})
	}
}

// Every reading of the fake: a payment each way, the query window and the time
// unit as served.
func TestFundingFeesAgainstTheFake(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		created := time.Now().Add(-time.Hour).UnixMilli()
		s.Accounts[0].FundingFees = []fakeexchange.FundingFee{
			{ID: 7, Symbol: "PERP_BTC_USDT", FundingRate: "-0.0001", MarkPrice: "65000", FundingFee: "6.5", PaymentType: "Pay",
				Status: "COMPLETED", CreatedTime: created},
			{ID: 8, Symbol: "PERP_ETH_USDT", FundingFee: "0.25", PaymentType: "Receive", CreatedTime: created + 1000, UpdatedTime: created + 2000},
			{ID: 9, Symbol: "PERP_ETH_USDT", FundingFee: "1", PaymentType: "Pay", CreatedTime: created - 3*3600_000},
		}
		c := newHarness(t, s).client(t, nil)
		now := time.Now()
		got, rejected, err := c.FundingFees(context.Background(), now.Add(-2*time.Hour).UnixMilli(), now.UnixMilli())
		if err != nil || len(rejected) != 0 || len(got) != 2 {
			t.Fatal(got, err, rejected)
		}
		received, paid := got[0], got[1]
		if received.ID != "8" || received.Paid || !received.Amount.Equal(*dec("0.25")) || received.CreatedMs != rowTime(s, created+1000) ||
			received.UpdatedMs != rowTime(s, created+2000) || received.Rate != nil {
			t.Errorf("received: %+v", received)
		}
		if paid.ID != "7" || !paid.Paid || !paid.Amount.Equal(*dec("6.5")) || !sameDecimal(paid.Rate, dec("-0.0001")) || paid.Symbol != "PERP_BTC_USDT" ||
			!paid.Completed() || paid.CreatedMs != rowTime(s, created) {
			t.Errorf("paid: %+v", paid)
		}
	})
}

// Answers that cannot be read as a whole fail naming the endpoint; a
// query window that is not 13-digit milliseconds is never sent.
func TestFundingFeesMalformedAnswers(t *testing.T) {
	path := endpoint.PathOf(endpoint.FundingFee)
	for body, want := range map[string]string{
		`{"success":true,"data":{}}`:          "no rows",
		`{"success":true,"data":{"rows":{}}}`: "rows",
		`{"success":true,"data":[]}`:          "funding fee history",
	} {
		_, _, err := bodyClient(t, path, []byte(body)).FundingFees(context.Background(), 1700000000000, 1700000001000)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to contain %q", body, err, want)
		}
	}
	if _, _, err := bodyClient(t, path, nil).FundingFees(context.Background(), 1700000000, 1700000001000); err == nil {
		t.Error("a start time in seconds was sent")
	}
}
