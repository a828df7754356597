package client

import (
	"context"
	"encoding/json"

	"github.com/woox-exporter/woox_exporter/endpoint"
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

// SubAccounts returns the sub-accounts of a main account, each once. Only a
// main account's key may read them: a sub-account's key gets an error for
// which NotPermitted is true. The endpoint documents no paging: see
// getMetaList.
func (c *Client) SubAccounts(ctx context.Context) ([]SubAccount, []RejectedRow, error) {
	return getMetaList(ctx, c, "get sub-accounts", endpoint.SubAccounts, decodeSubAccountsPage, subAccountID)
}

func subAccountID(s SubAccount) string { return s.ApplicationID }

// decodeSubAccounts reads the rows of one answer.
func decodeSubAccounts(data json.RawMessage) (list[SubAccount], error) {
	l, _, err := decodeSubAccountsPage(data)
	return l, err
}

// decodeSubAccountsPage reads one answer: data.rows[] with the v3 names
// (applicationId, name, createdTime) or the v1 ones (application_id,
// account, created_time), and data.meta if one came.
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
