package client_test

import (
	"context"

	"github.com/woox-exporter/woox_exporter/client"
)

// The credentials through the fake: the scenario's own keys, and the row the
// client rejects when the fake breaks one (TestTheFakesUnreadableRowsAreRejectedAlone).
var _ = addListEndpoint(client.EndpointCredentials, listEndpoint{
	read: func(ctx context.Context, c *client.Client) (any, []client.RejectedRow, error) {
		return c.Credentials(ctx)
	},
	unreadable: client.RejectedRow{Field: "apiKey"},
})
