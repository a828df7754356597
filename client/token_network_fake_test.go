package client_test

import (
	"context"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The token network list through the fake: one more row, and the row the
// client rejects when the fake breaks one (TestTheFakesUnreadableRowsAreRejectedAlone).
var _ = addListEndpoint(endpoint.TokenNetwork, listEndpoint{
	fill: func(s *fakeexchange.Scenario) {
		s.TokenNetworks = append(s.TokenNetworks, fakeexchange.TokenNetworkRow{Token: "BTC", Network: "BTC", MinimumWithdrawal: "0.001", WithdrawalFee: "0.0005", AllowDeposit: 1})
	},
	read: func(ctx context.Context, c *client.Client) (any, []client.RejectedRow, error) {
		return c.TokenNetworks(ctx)
	},
	unreadable: client.RejectedRow{ID: "token UNREADABLE network NET1", Field: "allowWithdraw"},
})
