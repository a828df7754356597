package client

import (
	"context"
	"encoding/json"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// SubAccount is one row of GET /v3/account/subAccounts/all.
type SubAccount struct {
	ApplicationID string // identifies the sub-account
	Name          string // "" when not sent
	CreatedMs     int64  // Unix milliseconds, 0 when not sent
}

// SubAccounts returns the sub-accounts of a main account, each once (see
// getMetaList). A sub-account's key gets an error NotPermitted is true of.
func (c *Client) SubAccounts(ctx context.Context) ([]SubAccount, []RejectedRow, error) {
	return getMetaList(ctx, c, "get sub-accounts", endpoint.SubAccounts, nil, decodeSubAccountsPage, subAccountID)
}

func subAccountID(s SubAccount) string { return s.ApplicationID }

// decodeSubAccountsPage reads one answer: data.rows[] (v3 name or v1
// account) and data.meta if one came.
func decodeSubAccountsPage(data json.RawMessage) (list[SubAccount], *PageMeta, error) {
	return decodeMetaList(data, "sub-accounts", decodeSubAccount, func(s SubAccount) string { return prefixed("application id ", s.ApplicationID) })
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
