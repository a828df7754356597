package client

import (
	"strings"
	"testing"
)

func TestDecodeSubAccountsSpellings(t *testing.T) {
	for name, body := range map[string]string{
		"v3 camelCase":  `{"success":true,"data":{"rows":[{"applicationId":"6b43de5c","account":"desk-a","createdTime":"1579399877.041"},{"applicationId":"7c00","accountName":"desk-b"}]}}`,
		"v1 snake_case": `{"success":true,"data":{"rows":[{"application_id":"6b43de5c","account":"desk-a","created_time":1579399877041},{"application_id":"7c00","account_name":"desk-b"}],"meta":{"total":2}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			l, err := decodeSubAccounts(mustData(t, body))
			if err != nil || len(l.rejected) != 0 {
				t.Fatal(err, l.rejected)
			}
			rows := l.rows
			want := []SubAccount{{ApplicationID: "6b43de5c", Name: "desk-a", CreatedMs: 1579399877041}, {ApplicationID: "7c00", Name: "desk-b"}}
			if len(rows) != 2 || rows[0] != want[0] || rows[1] != want[1] {
				t.Errorf("got %+v, want %+v", rows, want)
			}
		})
	}
}

// A sub-account row that cannot be read is left out naming its field; the
// other rows are read. An answer without rows fails.
func TestDecodeSubAccountsRejectsOddRows(t *testing.T) {
	checkOddRows(t, "rows", `{"applicationId":"g","name":"desk"}`, `{"application_id":"h","account":"desk-b","created_time":1579399877041}`, decodeSubAccounts, []oddRow{
		{"no application id", `{"account":"x"}`, "", "applicationId", "applicationId: missing"},
		{"created time not a time", `{"applicationId":"a","createdTime":"soon"}`, "application id a", "createdTime", `createdTime: invalid time "soon"`},
		{"name an object", `{"applicationId":"a","name":{}}`, "application id a", "name", "name: expected a number or string"},
	})
	for body, want := range map[string]string{
		`{"success":true,"data":{}}`:                               "no rows",
		`{"success":true,"data":{"rows":[],"meta":{"total":"x"}}}`: "meta",
	} {
		if _, err := decodeSubAccounts(mustData(t, body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to contain %q", body, err, want)
		}
	}
}

func TestNotPermitted(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&Error{Kind: KindAuth, StatusCode: 401, Code: CodeUnauthorized}, true},
		{&Error{Kind: KindOther, StatusCode: 403}, true},
		{&Error{Kind: KindAuth, StatusCode: 401, Code: CodeInvalidSignature}, false},
		{&Error{Kind: KindRateLimited, StatusCode: 429, Code: CodeTooManyRequests}, false},
		{nil, false},
	} {
		if got := NotPermitted(c.err); got != c.want {
			t.Errorf("NotPermitted(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
