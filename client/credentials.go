package client

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// EndpointCredentials names the credentials endpoint in the endpoint label
// and as a budget key; PathCredentials is its path.
const (
	EndpointCredentials = "credentials"
	PathCredentials     = "/v3/account/credentials"
)

// Credentials returns every API key of the account, all pages, each key
// once even if pages repeat it.
func (c *Client) Credentials(ctx context.Context) ([]Credential, error) {
	var all []Credential
	seen := map[string]bool{}
	err := getPages(ctx, c, listRequest[[]Credential, string]{
		name: "credentials", endpoint: EndpointCredentials, path: PathCredentials, size: MaxPageSize,
		decode: func(data json.RawMessage, _ int64) ([]Credential, error) {
			rows, _, err := decodeCredentials(data)
			return rows, err
		},
		identities: func(rows []Credential) []string {
			keys := make([]string, len(rows))
			for i, r := range rows {
				keys[i] = r.APIKey
			}
			return keys
		},
	}, func(rows []Credential) error {
		for _, r := range rows {
			if !seen[r.APIKey] {
				seen[r.APIKey] = true
				all = append(all, r)
			}
		}
		return nil
	})
	return all, err
}

// Credential is one row of GET /v3/account/credentials: one API key of the
// account and what it may do.
type Credential struct {
	AccountName string
	UserID      string
	APIKey      string
	Permissions []string
	// AllowedIPs is empty when the key has no IP restriction (the exchange
	// omits the field, sends null or sends an empty list).
	AllowedIPs []string
}

type credentialsData struct {
	Rows []credentialRow `json:"rows"`
	Meta *pageMeta       `json:"meta"`
}

type credentialRow struct {
	AccountName string     `json:"accountName"`
	UserID      flexString `json:"userId"`
	APIKey      string     `json:"apiKey"`
	Permissions []string   `json:"permissions"`
	AllowedIPs  []string   `json:"allowedIPs"`
}

// decodeCredentials decodes one page of GET /v3/account/credentials.
func decodeCredentials(data json.RawMessage) ([]Credential, *PageMeta, error) {
	var d credentialsData
	if err := decodeData(data, &d); err != nil {
		return nil, nil, err
	}
	out := make([]Credential, 0, len(d.Rows))
	for i, r := range d.Rows {
		if r.APIKey == "" {
			return nil, nil, fmt.Errorf("row %d: missing apiKey", i)
		}
		out = append(out, Credential{
			AccountName: r.AccountName, UserID: string(r.UserID), APIKey: r.APIKey,
			Permissions: r.Permissions, AllowedIPs: nonEmpty(r.AllowedIPs),
		})
	}
	return out, metaOf(d.Meta), nil
}

func nonEmpty(ips []string) []string {
	out := ips[:0:0]
	for _, ip := range ips {
		if strings.TrimSpace(ip) != "" {
			out = append(out, ip)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
