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
			rows, err := decodeSubAccounts(mustData(t, body))
			if err != nil {
				t.Fatal(err)
			}
			want := []SubAccount{{ApplicationID: "6b43de5c", Name: "desk-a", CreatedMs: 1579399877041}, {ApplicationID: "7c00", Name: "desk-b"}}
			if len(rows) != 2 || rows[0] != want[0] || rows[1] != want[1] {
				t.Errorf("got %+v, want %+v", rows, want)
			}
		})
	}
	for body, want := range map[string]string{
		`{"success":true,"data":{"rows":[{"account":"x"}]}}`:                            "row 0: applicationId: missing",
		`{"success":true,"data":{"rows":[{"applicationId":"a","createdTime":"soon"}]}}`: "row 0: application id a: createdTime",
		`{"success":true,"data":{}}`:                                                    "no rows",
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
