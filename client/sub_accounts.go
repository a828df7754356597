package client

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// EndpointSubAccounts is the endpoint's name in the endpoint table (endpoint.All).
const EndpointSubAccounts = endpoint.SubAccounts

// PathSubAccounts is the endpoint's path in the endpoint table.
var PathSubAccounts = endpoint.PathOf(endpoint.SubAccounts)

// SubAccount is one row of GET /v3/account/subAccounts/all.
type SubAccount struct {
	// ApplicationID identifies the sub-account.
	ApplicationID string
	// Name is the sub-account's name; "" when not sent.
	Name string
	// CreatedMs is Unix milliseconds, 0 when not sent.
	CreatedMs int64
}

// subAccountsPage is one answer: its rows, and its meta when it sent one.
type subAccountsPage struct {
	list[SubAccount]
	meta *PageMeta
}

// SubAccounts returns the sub-accounts of a main account, each once. Only a
// main account's key may read them: a sub-account's key gets an error for
// which NotPermitted is true.
//
// The endpoint documents no query parameters, and an exchange that refuses
// unknown ones (-1004) would fail every poll that sent page or size: the
// first request sends none. Only an answer whose meta counts more
// sub-accounts than it holds is followed by page=2, 3, ...
func (c *Client) SubAccounts(ctx context.Context) ([]SubAccount, []RejectedRow, error) {
	all := newPagedList[SubAccount]()
	for page := 1; page <= maxPages; page++ {
		query, op := "", "get sub-accounts"
		if page > 1 {
			query, op = encodeQuery([]param{{"page", strconv.Itoa(page)}}), fmt.Sprintf("get sub-accounts page %d", page)
		}
		var p subAccountsPage
		err := c.get(ctx, request{op: op, endpoint: EndpointSubAccounts, path: PathSubAccounts, query: query, signed: true,
			decode: func(data json.RawMessage, _ int64) (err error) {
				p, err = decodeSubAccountsPage(data)
				return err
			}})
		if err != nil {
			return all.rows, all.rejected, err
		}
		fresh := all.add(list[SubAccount]{rows: p.rows, rejected: c.onPage(p.rejected, page)}, subAccountID, nil)
		// No meta, a total reached, or a page that brings nothing new (an
		// exchange answering any page with the first) ends the list.
		if p.meta == nil || len(all.rows)+len(all.rejected) >= p.meta.Total || fresh == 0 {
			return all.rows, all.rejected, nil
		}
	}
	return all.rows, all.rejected, &Error{Op: "get sub-accounts", Kind: KindBadResponse, Err: fmt.Errorf("more than %d pages", maxPages)}
}

func subAccountID(s SubAccount) string { return s.ApplicationID }

// decodeSubAccounts reads the rows of one answer.
func decodeSubAccounts(data json.RawMessage) (list[SubAccount], error) {
	p, err := decodeSubAccountsPage(data)
	return p.list, err
}

// decodeSubAccountsPage reads one answer: data.rows[] with the v3 names
// (applicationId, name, createdTime) or the v1 ones (application_id,
// account, created_time), and data.meta if one came.
func decodeSubAccountsPage(data json.RawMessage) (subAccountsPage, error) {
	f, rows, err := decodeDataRows(data, "sub-accounts", "rows")
	if err != nil {
		return subAccountsPage{}, err
	}
	var out subAccountsPage
	if out.meta, err = f.meta("sub-accounts"); err != nil {
		return subAccountsPage{}, err
	}
	out.list = decodeList(rows, decodeSubAccount, func(s SubAccount) string { return prefixed("application id ", s.ApplicationID) })
	return out, nil
}

func decodeSubAccount(f fields) (s SubAccount, err error) {
	if err = f.read(need("applicationId", &s.ApplicationID)); err != nil {
		return s, err
	}
	for _, name := range []string{"name", "account", "accountName", "subAccountName"} {
		if err = f.read(may(name, &s.Name)); err != nil || s.Name != "" {
			break
		}
	}
	if err == nil {
		err = f.read(may("createdTime", &s.CreatedMs))
	}
	return s, err
}
