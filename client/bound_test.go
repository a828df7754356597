package client

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// A decimal beyond MaxAmount makes its row unreadable, naming the field,
// on every endpoint; the rows beside it are read, and the bound itself is
// read.
func TestDecimalsBeyondTheBoundMakeTheirRowUnreadable(t *testing.T) {
	const over, at = "1000000000000000.1", "-1e15"
	balances, err := decodeBalances(json.RawMessage(`{"holding":[{"token":"USDT","holding":"` + over + `"},{"token":"BTC","holding":"` + at + `"}]}`))
	if err != nil || len(balances.rows) != 1 || balances.rows[0].Token != "BTC" || len(balances.rejected) != 1 || balances.rejected[0].Field != "holding" {
		t.Errorf("balances: %+v, %v", balances, err)
	}
	positions, err := decodePositions(json.RawMessage(`{"positions":[{"symbol":"PERP_BTC_USDT","positionSide":"BOTH","marginMode":"CROSS","holding":"1","markPrice":"1e300"},{"symbol":"PERP_ETH_USDT","positionSide":"BOTH","marginMode":"CROSS","holding":"1"}]}`))
	if err != nil || len(positions.rows) != 1 || len(positions.rejected) != 1 || positions.rejected[0].Field != "markPrice" {
		t.Errorf("positions: %+v, %v", positions, err)
	}
	networks, err := decodeTokenNetworks(json.RawMessage(`{"rows":[{"token":"USDT","network":"ETH","minimumWithdrawal":"1e400","withdrawalFee":"1","allowDeposit":1,"allowWithdraw":1}]}`))
	if err != nil || len(networks.rows) != 0 || len(networks.rejected) != 1 || networks.rejected[0].Field != "minimumWithdrawal" {
		t.Errorf("token networks: %+v, %v", networks, err)
	}
	if _, err := decodeAccountInfo(json.RawMessage(`{"totalCollateral":"1e16"}`)); err == nil || !strings.Contains(err.Error(), "totalCollateral") {
		t.Errorf("account info with a collateral of 1e16: %v", err)
	}
	page, err := decodeHistory(json.RawMessage(`{"rows":[{"id":1,"type":"DEPOSIT","token":"USDT","amount":"1e400","timestamp":1721295317627},` +
		`{"id":2,"type":"DEPOSIT","token":"USDT","amount":"` + at + `","timestamp":1721295317627}]}`))
	if err != nil || len(page.Records) != 1 || page.Records[0].ID != 2 || len(page.Malformed) != 1 || page.Malformed[0].Key != "id:1" ||
		!strings.HasPrefix(page.Malformed[0].Err, "amount: ") {
		t.Errorf("history: %+v, %v", page, err)
	}
}

// SetMaxAmount raises the bound for tokens that need more; zero restores
// the default.
func TestSetMaxAmount(t *testing.T) {
	t.Cleanup(func() { SetMaxAmount(decimal.Decimal{}) })
	SetMaxAmount(decimal.New(1, 20))
	if _, err := parseDecimal("1e19"); err != nil {
		t.Errorf("1e19 under a bound of 1e20: %v", err)
	}
	SetMaxAmount(decimal.Decimal{})
	if _, err := parseDecimal("1e19"); err == nil || !MaxAmount().Equal(DefaultMaxAmount) {
		t.Errorf("1e19 read after the bound was reset to %s", MaxAmount())
	}
}
