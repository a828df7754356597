package client

import (
	"context"
	"encoding/json"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// AlgoOrder is one row of GET /v3/trade/algoOrders: an order the exchange
// places when its trigger fires (a stop, a take-profit, a trailing stop).
type AlgoOrder struct {
	ID       string // algoOrderId
	Symbol   string
	AlgoType string // STOP, TP_SL, TRAILING_STOP, ...
	Status   string // algoStatus, "" when not sent
}

// algoOrdersQuery asks for the open algo orders (INCOMPLETE), 100 a page.
var algoOrdersQuery = []param{{"status", "INCOMPLETE"}, {"size", "100"}}

// OpenAlgoOrders returns the account's open algo orders, each once, and the rows not read.
func (c *Client) OpenAlgoOrders(ctx context.Context) ([]AlgoOrder, []RejectedRow, error) {
	rows, rejected, err := getMetaList(ctx, c, "get algo orders", endpoint.AlgoOrders, algoOrdersQuery, decodeAlgoOrdersPage,
		func(o AlgoOrder) string { return o.ID })
	open := rows[:0]
	for _, o := range rows {
		if !closedStatus[o.Status] { // listed by an exchange ignoring status=INCOMPLETE
			open = append(open, o)
		}
	}
	return open, rejected, err
}

// decodeAlgoOrdersPage reads one answer: data.rows[] and data.meta.
func decodeAlgoOrdersPage(data json.RawMessage) (list[AlgoOrder], *PageMeta, error) {
	return decodeMetaList(data, "algo orders", func(f fields) (o AlgoOrder, err error) {
		err = f.read(need("algoOrderId", &o.ID), need("symbol", &o.Symbol), need("algoType", &o.AlgoType), may("algoStatus", &o.Status))
		return o, err
	}, func(o AlgoOrder) string { return prefixed("algo order ", o.ID) })
}
