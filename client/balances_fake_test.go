package client_test

import (
	"context"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The balances through the fake: two tokens, and the row the client rejects
// when the fake breaks one (TestTheFakesUnreadableRowsAreRejectedAlone).
var _ = addListEndpoint(endpoint.Balances, listEndpoint{
	fill: func(s *fakeexchange.Scenario) {
		s.Accounts[0].Balances = []fakeexchange.Balance{{Token: "BTC", Holding: "1.5"}, {Token: "USDT", Holding: "100", AvailableBalance: "90"}}
	},
	read:       func(ctx context.Context, c *client.Client) (any, []client.RejectedRow, error) { return c.Balances(ctx) },
	unreadable: client.RejectedRow{ID: "token UNREADABLE1", Field: "holding"},
})
