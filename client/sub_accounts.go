package client

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// EndpointSubAccounts names the sub-accounts endpoint in the endpoint label
// and as a budget key; PathSubAccounts is its path.
const (
	EndpointSubAccounts = "sub_accounts"
	PathSubAccounts     = "/v3/account/subAccounts/all"
)

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
	rows []SubAccount
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
func (c *Client) SubAccounts(ctx context.Context) ([]SubAccount, error) {
	var out []SubAccount
	seen := map[string]bool{}
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
			return out, err
		}
		fresh := 0
		for _, r := range p.rows {
			if !seen[r.ApplicationID] {
				seen[r.ApplicationID] = true
				out = append(out, r)
				fresh++
			}
		}
		// No meta, a total reached, or a page that brings nothing new (an
		// exchange answering any page with the first) ends the list.
		if p.meta == nil || len(out) >= p.meta.Total || fresh == 0 {
			return out, nil
		}
	}
	return out, &Error{Op: "get sub-accounts", Kind: KindBadResponse, Err: fmt.Errorf("more than %d pages", maxPages)}
}

// decodeSubAccounts reads the rows of one answer.
func decodeSubAccounts(data json.RawMessage) ([]SubAccount, error) {
	p, err := decodeSubAccountsPage(data)
	return p.rows, err
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
	if m, ok := f[fieldKey("meta")]; ok && !isNull(m) {
		var pm pageMeta
		if err := json.Unmarshal(m, &pm); err != nil {
			return subAccountsPage{}, fmt.Errorf("sub-accounts: meta: %w", err)
		}
		out.meta = metaOf(&pm)
	}
	out.rows = make([]SubAccount, 0, len(rows))
	for i, raw := range rows {
		r, err := rowFields("rows", i, raw)
		if err != nil {
			return subAccountsPage{}, err
		}
		id, err := r.requiredText("applicationId")
		if err != nil {
			return subAccountsPage{}, fmt.Errorf("row %d: %w", i, err)
		}
		s := SubAccount{ApplicationID: id}
		if s.Name, _, err = r.firstText("name", "account", "accountName", "subAccountName"); err != nil {
			return subAccountsPage{}, fmt.Errorf("row %d: application id %s: %w", i, id, err)
		}
		if s.CreatedMs, _, err = r.time("createdTime"); err != nil {
			return subAccountsPage{}, fmt.Errorf("row %d: application id %s: %w", i, id, err)
		}
		out.rows = append(out.rows, s)
	}
	return out, nil
}
