package fakeexchange

import "strconv"

// PathTokenNetwork is the public list of networks each token moves on.
const PathTokenNetwork = "/v3/public/tokenNetwork"

// EndpointTokenNetwork names the token network endpoint in faults and the
// request log.
const EndpointTokenNetwork = "token_network"

var tokenNetworkRoute = route{path: PathTokenNetwork, name: EndpointTokenNetwork, public: true,
	serve: func(e *Exchange, _, rawQuery string) (any, *apiError) { return e.serveTokenNetwork(rawQuery) }}

type tokenNetworkJSON struct {
	Protocol          string `json:"protocol"`
	Network           string `json:"network"`
	Token             string `json:"token"`
	Name              string `json:"name"`
	MinimumWithdrawal any    `json:"minimumWithdrawal"`
	WithdrawalFee     any    `json:"withdrawalFee"`
	AllowDeposit      any    `json:"allowDeposit"`
	AllowWithdraw     any    `json:"allowWithdraw"`
}

func (e *Exchange) serveTokenNetwork(rawQuery string) (any, *apiError) {
	if _, aerr := parseQuery(rawQuery); aerr != nil {
		return nil, aerr
	}
	e.mu.Lock()
	rows := make([]tokenNetworkJSON, 0, len(e.networks))
	for _, n := range e.networks {
		rows = append(rows, tokenNetworkJSON{
			Protocol: n.Protocol, Network: n.Network, Token: n.Token, Name: n.Name,
			MinimumWithdrawal: e.number(n.MinimumWithdrawal),
			WithdrawalFee:     e.number(n.WithdrawalFee),
			AllowDeposit:      e.number(strconv.Itoa(n.AllowDeposit)),
			AllowWithdraw:     e.number(strconv.Itoa(n.AllowWithdraw)),
		})
	}
	e.mu.Unlock()
	return rowsData{Rows: rows}, nil
}
