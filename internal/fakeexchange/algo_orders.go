package fakeexchange

import "github.com/woox-exporter/woox_exporter/endpoint"

func init() { addRoute(endpoint.AlgoOrders, algoOrders.route()) }

// algoOrders answer a page of the account's algo orders, oldest first, with
// meta counting every match: status=INCOMPLETE lists NEW and PARTIAL_FILLED
// (of algoStatus). An event places one, changes its status or removes it;
// the unreadable row has no algo type.
var algoOrders = &rowsEndpoint[AlgoOrder]{name: endpoint.AlgoOrders, section: "algo_orders", event: "algo_order",
	under: "rows", sorted: true, change: patch, paged: true,
	filters:  []string{"symbol", "side", "positionSide", "algoType", "orderType", "isTriggered", "algoOrderTag", "realizedPnl", "startTime", "endTime"},
	status:   func(o AlgoOrder) string { return o.AlgoStatus },
	scenario: func(_ *Scenario, a Account) []AlgoOrder { return a.AlgoOrders },
	unreadable: func(e *Exchange, i int) any {
		return e.render(AlgoOrder{AlgoOrderID: 900_000 + int64(i), Symbol: "PERP_BTC_USDT", AlgoStatus: "NEW"})
	},
}

// AlgoOrder is one algo order of the account, as the docs' rows show it.
type AlgoOrder struct {
	AlgoOrderID int64  `yaml:"algo_order_id" wire:"algoOrderId,key"`
	Symbol      string `yaml:"symbol" wire:"symbol"`
	// AlgoType is STOP, TP_SL, POSITIONAL_TP_SL, TRAILING_STOP, ...
	AlgoType string `yaml:"algo_type" wire:"algoType"`
	Side     string `yaml:"side" wire:"side"`
	Quantity string `yaml:"quantity" wire:"quantity,number"`
	// AlgoStatus is NEW or PARTIAL_FILLED while open.
	AlgoStatus  string `yaml:"algo_status" wire:"algoStatus"`
	ReduceOnly  *bool  `yaml:"reduce_only" wire:"reduceOnly"`
	IsTriggered *bool  `yaml:"is_triggered" wire:"isTriggered"`
	// CreatedTime is in Unix milliseconds.
	CreatedTime int64 `yaml:"created_time" wire:"createdTime,integer"`
}
