package fakeexchange

import "slices"

// PathCredentials lists the API keys of the account that signs the request.
const PathCredentials = "/v3/account/credentials"

// EndpointCredentials names the credentials endpoint in faults and the
// request log.
const EndpointCredentials = "credentials"

var credentialsRoute = route{path: PathCredentials, name: EndpointCredentials, serve: (*Exchange).serveCredentials}

type credentialJSON struct {
	AccountName string   `json:"accountName"`
	UserID      any      `json:"userId"`
	APIKey      string   `json:"apiKey"`
	Permissions []string `json:"permissions"`
	AllowedIPs  []string `json:"allowedIPs,omitempty"`
}

func (e *Exchange) serveCredentials(account, rawQuery string) (any, *apiError) {
	q, aerr := parseQuery(rawQuery, "page", "size")
	if aerr != nil {
		return nil, aerr
	}
	page, size, aerr := paging(q)
	if aerr != nil {
		return nil, aerr
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	a := e.accounts[account]
	all := make([]credentialJSON, 0, len(a.keyOrder))
	for _, k := range a.keyOrder {
		key := e.keys[k].key
		all = append(all, credentialJSON{
			AccountName: a.accountName, UserID: e.integer(a.userID), APIKey: key.APIKey,
			Permissions: append(make([]string, 0, len(key.Permissions)), key.Permissions...),
			AllowedIPs:  slices.Clone(key.AllowedIPs),
		})
	}
	from, to, served := e.pageRange(len(all), page, size)
	return pageData{Rows: all[from:to], Meta: e.meta(len(all), served, size)}, nil
}
