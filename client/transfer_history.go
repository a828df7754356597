package client

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// AccountTransfer is one row of GET /v3/asset/transfer/history: money moved
// between a main account and one of its sub-accounts.
type AccountTransfer struct {
	ID                   string // a number or a string, as text
	Token                string
	Amount               decimal.Decimal // the magnitude moved
	Status               string          // e.g. COMPLETED, upper case as sent
	From, To             TransferParty
	CreatedMs, UpdatedMs int64 // Unix milliseconds, UpdatedMs 0 when not sent
}

// TransferParty is one side of a transfer.
type TransferParty struct {
	ApplicationID string
	AccountName   string // "" when not sent
}

// Completed reports whether the money has moved.
func (t AccountTransfer) Completed() bool { return t.Status == "COMPLETED" }

// Final reports whether the transfer is over; any other status is in flight.
func (t AccountTransfer) Final() bool { return finalStatus(t.Status) }

// LatestMs is the transfer's latest time: updated, else created.
func (t AccountTransfer) LatestMs() int64 { return max(t.CreatedMs, t.UpdatedMs) }

// TransferHistory returns the account's transfers with its main or
// sub-accounts from startMs to endMs (Unix ms), each id once, and the rows
// that could not be read. Which time startTime filters is not documented: a
// row is left out only when both its times are before startMs.
func (c *Client) TransferHistory(ctx context.Context, startMs, endMs int64) ([]AccountTransfer, []RejectedRow, error) {
	params, err := HistoryQuery{StartTime: startMs, EndTime: endMs}.params()
	if err != nil {
		return nil, nil, &Error{Op: "get transfer history", Kind: KindOther, Err: err}
	}
	inWindow := func(t AccountTransfer) bool { return t.LatestMs() >= startMs }
	return getList(ctx, c, listRequest[list[AccountTransfer], string]{name: "transfer history", endpoint: endpoint.TransferHistory,
		params: params}, decodeTransferHistory, accountTransferID, inWindow)
}

// ApplicationID returns the account's own applicationId (GET
// /v3/account/info), which tells transfers in from transfers out.
func (c *Client) ApplicationID(ctx context.Context) (string, error) {
	return getData(ctx, c, request{op: "get account application id", endpoint: endpoint.AccountInfo, signed: true},
		func(data json.RawMessage) (id string, err error) {
			f, err := readData(data, "")
			if err == nil {
				err = f.read(need("applicationId", &id))
			}
			return id, err
		})
}

func accountTransferID(t AccountTransfer) string { return t.ID }

// decodeTransferHistory reads one page: data.rows[].
func decodeTransferHistory(data json.RawMessage) (list[AccountTransfer], error) {
	return decodeDataList(data, "transfer history", "rows", decodeAccountTransfer, func(t AccountTransfer) string { return prefixed("id ", t.ID) })
}

func decodeAccountTransfer(f fields) (t AccountTransfer, err error) {
	err = f.read(need("id", &t.ID), need("token", &t.Token), need("amount", &t.Amount), need("status", &t.Status))
	t.Status = strings.ToUpper(t.Status)
	if err != nil {
		return t, err
	}
	if t.From, err = f.party("from"); err != nil {
		return t, err
	}
	if t.To, err = f.party("to"); err != nil {
		return t, err
	}
	return t, f.read(need("createdTime", &t.CreatedMs), may("updatedTime", &t.UpdatedMs))
}

// party reads one side of a transfer.
func (f fields) party(name string) (p TransferParty, err error) {
	raw := f.get(name)
	if isNull(raw) {
		return p, &fieldError{name, errMissing}
	}
	party, err := readFields(nil, raw) // raw is a member of a row decodeList read
	if err != nil {
		return p, &fieldError{name, err}
	}
	if err = party.read(need("applicationId", &p.ApplicationID), may("accountName", &p.AccountName)); err != nil {
		var fe *fieldError
		errors.As(err, &fe)
		return p, &fieldError{name + "." + fe.field, fe.err}
	}
	return p, nil
}
