package fakeexchange

import "github.com/woox-exporter/woox_exporter/endpoint"

func init() { addRoute(endpoint.Orders, orders.route()) }

// orders answer a page of the account's orders, oldest first, with meta
// counting every match: status=INCOMPLETE lists NEW and PARTIAL_FILLED. An
// event places an order, changes its status or removes it. No client reads
// its rows, so none is made unreadable.
var orders = &rowsEndpoint[Order]{name: endpoint.Orders, section: "orders", event: "order",
	under: "rows", sorted: true, change: patch, paged: true,
	filters:  []string{"symbol", "side", "positionSide", "type", "orderTag", "withRealizedPnl", "startTime", "endTime"},
	status:   func(o Order) string { return o.Status },
	copies:   copyOrder,
	scenario: func(_ *Scenario, a Account) []Order { return a.Orders },
}

// Order is one order of the account, as the docs' rows show it.
type Order struct {
	OrderID int64  `yaml:"order_id" wire:"orderId,key"`
	Symbol  string `yaml:"symbol" wire:"symbol"`
	// Status is NEW or PARTIAL_FILLED while open; FILLED, CANCELLED or
	// REJECTED once done.
	Status   string `yaml:"status" wire:"status"`
	Side     string `yaml:"side" wire:"side"`
	Type     string `yaml:"type" wire:"type"`
	Price    string `yaml:"price" wire:"price,decimal"`
	Quantity string `yaml:"quantity" wire:"quantity,decimal"`
	// CreatedTime is in Unix milliseconds.
	CreatedTime int64 `yaml:"created_time" wire:"createdTime,integer"`
	// Copies lists the order this many times (ids OrderID, OrderID+1, ...):
	// a runaway bot's flood in one row; 0 is once.
	Copies int `yaml:"copies"`
}

func (o Order) check() error {
	if o.Copies < 0 || o.Copies > 100_000 {
		return fieldErr("copies", "must be within 0 and 100000")
	}
	return nil
}

func copyOrder(o Order) []Order {
	out := make([]Order, max(1, o.Copies))
	for i := range out {
		out[i] = o
		out[i].OrderID += int64(i)
	}
	return out
}
