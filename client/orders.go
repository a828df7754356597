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

// OpenOrders returns how many orders of the account are open, as GET
// /v3/trade/orders counts them.
func (c *Client) OpenOrders(ctx context.Context) (int64, error) {
	return getData(ctx, c, request{op: "get open orders", endpoint: endpoint.Orders, signed: true, query: openOrdersQuery}, decodeOpenOrderCount)
}

// decodeOpenOrderCount reads data.meta.total; the rows are not counted, as
// counting them finds a page, not the orders. A closed order listed says the
// status filter was ignored.
func decodeOpenOrderCount(data json.RawMessage) (int64, error) {
	f, err := readData(data, "open orders")
	if err != nil {
		return 0, err
	}
	m := f.get("meta")
	if isNull(m) {
		return 0, errors.New("open orders: answer has no meta.total")
	}
	var pm pageMeta
	if err := pm.decode(m); err != nil {
		return 0, fmt.Errorf("open orders: meta: %w", err)
	}
	switch {
	case !pm.Total.set:
		return 0, errors.New("open orders: answer has no meta.total")
	case pm.Total.Value < 0:
		return 0, fmt.Errorf("open orders: meta.total %d is negative", pm.Total.Value)
	}
	if st := firstOrderStatus(f); closedStatus[st] {
		return 0, fmt.Errorf("open orders: an order of status %s listed for status=INCOMPLETE: the count would hold closed orders", st)
	}
	return pm.Total.Value, nil
}

// closedStatus are the statuses of the COMPLETED bundle: an exchange that
// ignored status=INCOMPLETE would list them.
var closedStatus = map[string]bool{"CANCELLED": true, "FILLED": true, "REJECTED": true}

// firstOrderStatus is the status of the answer's first row, "" when none
// can be read.
func firstOrderStatus(data fields) string {
	rows, err := decodeRows(data.get("rows"), "rows")
	if err != nil || len(rows) == 0 {
		return ""
	}
	var status string
	if f, err := readFields(nil, rows[0]); err == nil && f.read(may("status", &status)) == nil {
		return status
	}
	return ""
}
