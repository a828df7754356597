package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// openOrdersQuery asks for a page of one open order (INCOMPLETE: NEW and
// PARTIAL_FILLED): meta.total counts them all, in one request however many.
var openOrdersQuery = encodeQuery([]param{{"status", "INCOMPLETE"}, {"page", "1"}, {"size", "1"}})

// closedStatus are the COMPLETED bundle's statuses: an exchange that ignored
// status=INCOMPLETE would list them.
var closedStatus = map[string]bool{"CANCELLED": true, "FILLED": true, "REJECTED": true}

// OpenOrders returns how many orders of the account are open, as GET
// /v3/trade/orders counts them.
func (c *Client) OpenOrders(ctx context.Context) (int64, error) {
	return getData(ctx, c, request{op: "get open orders", endpoint: endpoint.Orders, signed: true, query: openOrdersQuery}, decodeOpenOrderCount)
}

// decodeOpenOrderCount reads data.meta.total, never counting rows (a page,
// not the orders); a closed order listed says the status filter was ignored.
func decodeOpenOrderCount(data json.RawMessage) (int64, error) {
	f, err := readData(data, "open orders")
	if err != nil {
		return 0, err
	}
	var pm pageMeta
	if m := f.get("meta"); !isNull(m) {
		if err := pm.decode(m); err != nil {
			return 0, fmt.Errorf("open orders: meta: %w", err)
		}
	}
	var status string
	if rows, err := decodeRows(f.get("rows"), "rows"); err == nil && len(rows) > 0 {
		if row, err := readFields(nil, rows[0]); err == nil {
			_ = row.read(may("status", &status)) // an unreadable status is no closed one
		}
	}
	switch {
	case !pm.Total.set:
		return 0, errors.New("open orders: answer has no meta.total")
	case pm.Total.Value < 0:
		return 0, fmt.Errorf("open orders: meta.total %d is negative", pm.Total.Value)
	case closedStatus[status]:
		return 0, fmt.Errorf("open orders: an order of status %s listed for status=INCOMPLETE: the count would hold closed orders", status)
	}
	return pm.Total.Value, nil
}
