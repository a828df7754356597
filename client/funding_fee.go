package client

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// FundingFee is one row of GET /v3/futures/fundingFee/history: a funding
// payment of one perpetual position, paid or received.
type FundingFee struct {
	// ID identifies the payment, as text whether the exchange sent a
	// number or a string.
	ID     string
	Symbol string
	// Amount is the fee as sent, unsigned: Paid says which way it went
	// (paymentType Pay, else Receive).
	Amount decimal.Decimal
	Paid   bool
	// Rate and MarkPrice are what it was charged at; nil when not sent.
	Rate, MarkPrice *decimal.Decimal
	// Status is e.g. COMPLETED, upper case as sent; "" when not sent.
	Status string
	// CreatedMs and UpdatedMs are Unix milliseconds; UpdatedMs is 0 when
	// absent.
	CreatedMs, UpdatedMs int64
}

// Completed reports whether the payment is settled: COMPLETED, or no status
// at all (a row listed is a payment made).
func (f FundingFee) Completed() bool { return f.Status == "" || f.Status == "COMPLETED" }

// LatestMs is the payment's latest time: updated, else created.
func (f FundingFee) LatestMs() int64 { return max(f.CreatedMs, f.UpdatedMs) }

// FundingFees returns the account's funding payments from startMs to endMs
// (Unix milliseconds), all pages, each id once, and the rows that could
// not be read.
func (c *Client) FundingFees(ctx context.Context, startMs, endMs int64) ([]FundingFee, []RejectedRow, error) {
	params, err := HistoryQuery{StartTime: startMs, EndTime: endMs}.params()
	if err != nil {
		return nil, nil, &Error{Op: "get funding fee history", Kind: KindOther, Err: err}
	}
	return getList(ctx, c, listRequest[list[FundingFee], string]{name: "funding fee history", endpoint: endpoint.FundingFee,
		params: params}, decodeFundingFees, fundingFeeID, nil)
}

func fundingFeeID(f FundingFee) string { return f.ID }

// decodeFundingFees reads one page: data.rows[] in camelCase or
// snake_case, numbers or strings, times in any unit ParseTime reads.
func decodeFundingFees(data json.RawMessage) (list[FundingFee], error) {
	return decodeDataList(data, "funding fee history", "rows", decodeFundingFee, func(f FundingFee) string { return prefixed("id ", f.ID) })
}

// decodeFundingFee reads one row. Its id, symbol, fee, direction and time
// are required: a payment counted under no symbol, or the wrong way, would
// misstate what the account paid.
func decodeFundingFee(f fields) (p FundingFee, err error) {
	var kind string
	if err = f.read(need("id", &p.ID), need("symbol", &p.Symbol), need("fundingFee", &p.Amount), need("paymentType", &kind)); err != nil {
		return p, err
	}
	switch strings.ToUpper(kind) {
	case "PAY":
		p.Paid = true
	case "RECEIVE":
	default:
		return p, &fieldError{"paymentType", fmt.Errorf("neither Pay nor Receive: %q", truncateForError(kind))}
	}
	err = f.read(may("status", &p.Status), may("fundingRate", &p.Rate), may("markPrice", &p.MarkPrice),
		need("createdTime", &p.CreatedMs), may("updatedTime", &p.UpdatedMs))
	p.Status = strings.ToUpper(p.Status)
	return p, err
}
