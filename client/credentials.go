package client

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// Credentials returns every API key of the account, each once, and the rows not read.
func (c *Client) Credentials(ctx context.Context) ([]Credential, []RejectedRow, error) {
	return getList(ctx, c, listRequest[list[Credential], string]{name: "credentials", endpoint: endpoint.Credentials},
		rowsOnly(decodeCredentials), credentialKey, nil)
}

func credentialKey(c Credential) string { return c.APIKey }

// Credential is one row of GET /v3/account/credentials: an API key and what it may do.
type Credential struct {
	AccountName string
	UserID      string
	APIKey      string
	Permissions []string
	AllowedIPs  []string // empty when the key has no IP restriction
}

// decodeCredentials decodes one page of GET /v3/account/credentials. A
// row's errors quote none of its values: the row holds an API key.
func decodeCredentials(data json.RawMessage) (list[Credential], *PageMeta, error) {
	return decodeMetaList(data, "credentials", decodeCredential, func(c Credential) string {
		if c.APIKey == "" {
			return ""
		}
		return "api key " + MaskAPIKey(c.APIKey, false)
	})
}

func decodeCredential(f fields) (c Credential, err error) {
	if err = f.read(need("apiKey", &c.APIKey), may("accountName", &c.AccountName), may("userId", &c.UserID)); err != nil {
		return c, unquoted(err)
	}
	if err = f.read(may("permissions", &c.Permissions), may("allowedIPs", &c.AllowedIPs)); err != nil {
		return c, err
	}
	c.AllowedIPs = nonEmpty(c.AllowedIPs)
	return c, nil
}

// unquoted is a field error without the value it may quote.
func unquoted(err error) error {
	var fe *fieldError
	if !errors.As(err, &fe) || errors.Is(err, errMissing) {
		return err
	}
	return &fieldError{fe.field, errors.New("not a string or number")}
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
