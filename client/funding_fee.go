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
	ID                   string // a number or a string, as text
	Symbol               string
	Amount               decimal.Decimal  // unsigned, as sent
	Paid                 bool             // paymentType Pay, else Receive
	Rate, MarkPrice      *decimal.Decimal // nil when not sent
	Status               string           // e.g. COMPLETED, upper case as sent
	CreatedMs, UpdatedMs int64            // Unix milliseconds, UpdatedMs 0 when not sent
}

// Completed reports whether the payment is made: COMPLETED, or no status
// at all (a row listed is a payment made).
func (f FundingFee) Completed() bool { return f.Status == "" || f.Status == "COMPLETED" }

// LatestMs is the payment's latest time: updated, else created.
func (f FundingFee) LatestMs() int64 { return max(f.CreatedMs, f.UpdatedMs) }

// FundingFees returns the account's funding payments from startMs to endMs
// (Unix ms), each id once, and the rows that could not be read.
func (c *Client) FundingFees(ctx context.Context, startMs, endMs int64) ([]FundingFee, []RejectedRow, error) {
	params, err := HistoryQuery{StartTime: startMs, EndTime: endMs}.params()
	if err != nil {
		return nil, nil, &Error{Op: "get funding fee history", Kind: KindOther, Err: err}
	}
	return getList(ctx, c, listRequest[list[FundingFee], string]{name: "funding fee history", endpoint: endpoint.FundingFee,
		params: params}, decodeFundingFees, fundingFeeID, nil)
}

func fundingFeeID(f FundingFee) string { return f.ID }

// decodeFundingFees reads one page: data.rows[].
func decodeFundingFees(data json.RawMessage) (list[FundingFee], error) {
	return decodeDataList(data, "funding fee history", "rows", decodeFundingFee, func(f FundingFee) string { return prefixed("id ", f.ID) })
}

// decodeFundingFee reads one row. Id, symbol, fee, direction and time are
// required: without them a payment would misstate what the account paid.
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
