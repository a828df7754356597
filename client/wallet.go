package client

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// Transfer is one deposit or withdrawal of GET /v3/asset/wallet/history.
type Transfer struct {
	ID string
	// Token is the network-token id the exchange sends, such as TRON_USDT
	// (USDT on the TRON network), or a plain token.
	Token string
	// Type is BALANCE (funds in or out of the account), COLLATERAL (funds
	// moved between portfolios) or another value as sent; "" when absent.
	Type string
	// Side is DEPOSIT or WITHDRAW, or another value as sent.
	Side string
	// Status is e.g. NEW, CONFIRMING, PROCESSING, COMPLETED, CANCELED or
	// FAILED, or another value as sent; see Final.
	Status string
	// Amount is nil when the exchange did not send it.
	Amount *decimal.Decimal
	// TargetAddress is where the transfer went (a withdrawal's
	// destination) and Tag its memo or destination tag (extra), for the
	// chains that use one; "" when absent or empty.
	TargetAddress, Tag string
	// CreatedMs and UpdatedMs are Unix milliseconds; UpdatedMs is 0 when
	// absent.
	CreatedMs, UpdatedMs int64
}

// Final reports whether the transfer is over: COMPLETED, CANCELED (or
// CANCELLED) or FAILED. Every other status, known or not, is in flight.
func (t Transfer) Final() bool {
	switch strings.ToUpper(t.Status) {
	case "COMPLETED", "CANCELED", "CANCELLED", "FAILED":
		return true
	}
	return false
}

// WalletTypeBalance is the wallet history type of deposits to and
// withdrawals from the account, the one the exporter asks for.
const WalletTypeBalance = "BALANCE"

// WalletHistory returns the account's deposits and withdrawals (type
// BALANCE) created from startMs to endMs (Unix milliseconds, both included),
// all pages, each id once, and the rows that could not be read. Rows
// created outside the window or of another type are left out here too, in
// case the exchange ignores a filter.
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

// decodeWalletHistory reads one page: data.rows[] in v3 camelCase or v1
// snake_case, with times in any unit ParseTime reads.
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
