package client

import (
	"context"
	"encoding/json"
	"fmt"
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

// SubAccounts returns the sub-accounts of a main account, all pages, each
// once. Only a main account's key may read them: a sub-account's key gets
// an error for which NotPermitted is true.
func (c *Client) SubAccounts(ctx context.Context) ([]SubAccount, error) {
	var out []SubAccount
	seen := map[string]bool{}
	err := getPages(ctx, c, listRequest[[]SubAccount, string]{
		name: "sub-accounts", endpoint: EndpointSubAccounts, path: PathSubAccounts, size: MaxPageSize,
		decode: func(data json.RawMessage, _ int64) ([]SubAccount, error) { return decodeSubAccounts(data) },
		identities: func(rows []SubAccount) []string {
			ids := make([]string, len(rows))
			for i, r := range rows {
				ids[i] = r.ApplicationID
			}
			return ids
		},
	}, func(rows []SubAccount) error {
		for _, r := range rows {
			if !seen[r.ApplicationID] {
				seen[r.ApplicationID] = true
				out = append(out, r)
			}
		}
		return nil
	})
	return out, err
}

// decodeSubAccounts reads one page: data.rows[] with the v3 camelCase or
// the v1 snake_case names.
func decodeSubAccounts(data json.RawMessage) ([]SubAccount, error) {
	if err := decodeData(data, new(json.RawMessage)); err != nil {
		return nil, err
	}
	f, err := decodeFields(data)
	if err != nil {
		return nil, fmt.Errorf("sub-accounts: %w", err)
	}
	raw, ok := f[fieldKey("rows")]
	if !ok {
		return nil, fmt.Errorf("sub-accounts: %w", errNoRows)
	}
	rows, err := decodeRows(raw, "rows")
	if err != nil {
		return nil, err
	}
	out := make([]SubAccount, 0, len(rows))
	for i, r := range rows {
		id, err := r.requiredText("applicationId")
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
		s := SubAccount{ApplicationID: id}
		if s.Name, _, err = r.firstText("account", "accountName", "subAccountName"); err != nil {
			return nil, fmt.Errorf("row %d: application id %s: %w", i, id, err)
		}
		if s.CreatedMs, _, err = r.time("createdTime"); err != nil {
			return nil, fmt.Errorf("row %d: application id %s: %w", i, id, err)
		}
		out = append(out, s)
	}
	return out, nil
}
