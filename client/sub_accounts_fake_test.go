package client_test

import (
	"context"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The sub-accounts through the fake: two, one without a name, and the row
// the client rejects when the fake breaks one (TestTheFakesUnreadableRowsAreRejectedAlone).
var _ = addListEndpoint(endpoint.SubAccounts, listEndpoint{
	fill: func(s *fakeexchange.Scenario) {
		s.Accounts[0].SubAccounts = []fakeexchange.SubAccount{{ApplicationID: "app-1", Name: "desk-a"}, {ApplicationID: "app-2"}}
	},
	read: func(ctx context.Context, c *client.Client) (any, []client.RejectedRow, error) {
		return c.SubAccounts(ctx)
	},
	unreadable: client.RejectedRow{Field: "applicationId"},
})
