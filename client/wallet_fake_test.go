package client_test

import (
	"context"
	"time"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The wallet history through the fake: two transfers in flight, and the row
// the client rejects when the fake breaks one (TestTheFakesUnreadableRowsAreRejectedAlone).
var _ = addListEndpoint(endpoint.Wallet, listEndpoint{
	fill: func(s *fakeexchange.Scenario) {
		s.Accounts[0].Transfers = []fakeexchange.Transfer{
			{ID: "w1", Token: "TRON_USDT", Side: "WITHDRAW", Amount: "500", Status: "PROCESSING", CreatedAgo: 2 * time.Hour},
			{ID: "w2", Token: "BTC", Side: "DEPOSIT", Amount: "1", Status: "NEW", CreatedAgo: time.Hour},
		}
	},
	read: func(ctx context.Context, c *client.Client) (any, []client.RejectedRow, error) {
		now := time.Now()
		return c.WalletHistory(ctx, now.Add(-24*time.Hour).UnixMilli(), now.UnixMilli())
	},
	unreadable: client.RejectedRow{ID: "id unreadable-1", Field: "createdTime"},
})
