package client

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// Transfer is one deposit or withdrawal of GET /v3/asset/wallet/history.
// Type, Side and Status are upper case; a field not sent is "", 0 or nil.
type Transfer struct {
	ID     string
	Token  string // the network-token id, such as TRON_USDT, or a plain token
	Type   string // BALANCE (in or out of the account), COLLATERAL (between portfolios), ...
	Side   string // DEPOSIT or WITHDRAW
	Status string // NEW, CONFIRMING, PROCESSING, COMPLETED, CANCELED, FAILED, ...
	Amount *decimal.Decimal
	// TargetAddress is a withdrawal's destination, Tag its memo (extra).
	TargetAddress, Tag   string
	CreatedMs, UpdatedMs int64 // Unix milliseconds
}

// Final reports whether the transfer is over; any other status is in flight.
func (t Transfer) Final() bool { return finalStatus(strings.ToUpper(t.Status)) }

// finalStatus reports whether a transfer's status, upper case, ends it.
func finalStatus(status string) bool {
	switch status {
	case "COMPLETED", "CANCELED", "CANCELLED", "FAILED":
		return true
	}
	return false
}

// WalletTypeBalance is the wallet history type of deposits and withdrawals.
const WalletTypeBalance = "BALANCE"

// WalletHistory returns the account's deposits and withdrawals created from
// startMs to endMs (Unix ms, both included), each id once, and the rows that
// could not be read; rows outside the filters are left out here too.
func (c *Client) WalletHistory(ctx context.Context, startMs, endMs int64) ([]Transfer, []RejectedRow, error) {
	params, err := HistoryQuery{Type: WalletTypeBalance, StartTime: startMs, EndTime: endMs}.params()
	if err != nil {
		return nil, nil, &Error{Op: "get wallet history", Kind: KindOther, Err: err}
	}
	inWindow := func(r Transfer) bool {
		return r.CreatedMs >= startMs && r.CreatedMs <= endMs && (r.Type == "" || r.Type == WalletTypeBalance)
	}
	return getList(ctx, c, listRequest[list[Transfer], string]{name: "wallet history", endpoint: endpoint.Wallet, params: params},
		decodeWalletHistory, transferID, inWindow)
}

func transferID(t Transfer) string { return t.ID }

// decodeWalletHistory reads one page: data.rows[].
func decodeWalletHistory(data json.RawMessage) (list[Transfer], error) {
	return decodeDataList(data, "wallet history", "rows", decodeTransfer, func(t Transfer) string { return prefixed("id ", t.ID) })
}

func decodeTransfer(f fields) (t Transfer, err error) {
	if err = f.read(need("id", &t.ID), need("token", &t.Token), may("tokenSide", &t.Side)); err != nil {
		return t, err
	}
	if t.Side == "" {
		if err = f.read(may("side", &t.Side)); err == nil && t.Side == "" {
			err = &fieldError{"tokenSide", errMissing}
		}
		if err != nil {
			return t, err
		}
	}
	err = f.read(may("type", &t.Type), need("status", &t.Status), may("amount", &t.Amount),
		may("targetAddress", &t.TargetAddress), may("extra", &t.Tag), need("createdTime", &t.CreatedMs), may("updatedTime", &t.UpdatedMs))
	t.Side, t.Type, t.Status = strings.ToUpper(t.Side), strings.ToUpper(t.Type), strings.ToUpper(t.Status)
	return t, err
}
