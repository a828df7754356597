package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// oddRow is one row that cannot be read, and how it must be rejected.
type oddRow struct {
	name, row string
	// id, field and err are the rejection's ID and Field, and the start
	// of its Err.
	id, field, err string
}

// checkOddRows decodes each odd row between the good rows a and b, in the
// array field of data, and checks that the odd row alone is rejected, at
// index 1, as its case says, and the good rows decode as they do without
// it.
func checkOddRows[T any](t *testing.T, field, a, b string, decode func(json.RawMessage) (list[T], error), cases []oddRow) {
	t.Helper()
	good, err := decode(json.RawMessage(`{"` + field + `":[` + a + `,` + b + `]}`))
	if err != nil || len(good.rows) != 2 || len(good.rejected) != 0 {
		t.Fatalf("the good rows %s, %s: %+v, %v", a, b, good, err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := decode(json.RawMessage(`{"` + field + `":[` + a + `,` + tc.row + `,` + b + `]}`))
			if err != nil {
				t.Fatalf("one odd row failed the answer: %v", err)
			}
			if !reflect.DeepEqual(l.rows, good.rows) {
				t.Errorf("rows = %+v, want the good rows %+v", l.rows, good.rows)
			}
			if len(l.rejected) != 1 {
				t.Fatalf("rejected = %+v, want the odd row", l.rejected)
			}
			r := l.rejected[0]
			if r.Index != 1 || r.ID != tc.id || r.Field != tc.field || !strings.HasPrefix(r.Err, tc.err) {
				t.Errorf("rejected %+v, want index 1, id %q, field %q, error starting %q", r, tc.id, tc.field, tc.err)
			}
		})
	}
}

// Rows that are not objects are rejected without quoting them: a bare
// value may be a key.
func TestRowsThatAreNotObjectsAreRejectedUnquoted(t *testing.T) {
	l, _, err := decodeCredentials(mustData(t, `{"success":true,"data":{"rows":["+Pxxxxxxxxxxxxxxxxxxxx==",5,null,[1]]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.rows) != 0 || len(l.rejected) != 4 {
		t.Fatalf("%+v", l)
	}
	hashes := map[uint64]bool{}
	for i, r := range l.rejected {
		if r.Index != i || r.Err != "row is not a JSON object" || r.Field != "" || r.ID != "" {
			t.Errorf("rejected %+v", r)
		}
		hashes[r.hash] = true
	}
	if len(hashes) != 4 {
		t.Errorf("rows of different bytes share an identity: %v", hashes)
	}
}

// A page of rows that cannot be read is still a full page: paging goes on
// past it, and a rejected row that a later page repeats is reported once.
func TestRejectedRowsCountForPagingAndAreReportedOnce(t *testing.T) {
	bad := `{"accountName":"Main","permissions":["READ"]}`
	var rows []string
	for range DefaultPageSize {
		rows = append(rows, bad)
	}
	page1 := `[` + strings.Join(rows, ",") + `]`
	for i := range rows {
		rows[i] = `{"apiKey":"key-` + strings.Repeat("x", i+1) + `","permissions":["READ"]}`
	}
	page2 := `[` + bad + `,` + strings.Join(rows[:3], ",") + `]`
	srv := pagesServer(t, page1, page2)
	keys, rejected, err := newTestClient(t, srv.URL, nil).Credentials(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 3 {
		t.Errorf("%d keys, want the 3 of page 2", len(keys))
	}
	if len(rejected) != 1 || rejected[0].Page != 1 || rejected[0].Index != 0 || rejected[0].Field != "apiKey" || rejected[0].Err != "apiKey: missing" {
		t.Errorf("rejected = %+v, want the key-less row once, from page 1", rejected)
	}
}

// A credentials row's errors quote none of its values, and name the key
// only masked.
func TestRejectedCredentialsQuoteNothing(t *testing.T) {
	key := "+PabcdefghijklmnopqrstU=="
	checkOddRows(t, "rows", `{"accountName":"Main","userId":1,"apiKey":"+Pxxxxxxxxxxxxxxxxxxxx==","permissions":["READ"]}`,
		`{"apiKey":"+Pyyyyyyyyyyyyyyyyyyyy==","permissions":["READ","TRADE"],"allowedIPs":["127.0.0.1"]}`,
		func(d json.RawMessage) (list[Credential], error) {
			l, _, err := decodeCredentials(d)
			return l, err
		}, []oddRow{
			{"no key", `{"accountName":"Main","permissions":["READ"]}`, "", "apiKey", "apiKey: missing"},
			{"key an object", `{"apiKey":{"k":"` + key + `"}}`, "", "apiKey", "apiKey: not a string or number"},
			{"permissions not a list", `{"apiKey":"` + key + `","permissions":"` + key + `"}`, "api key +Pab...tU==", "permissions", "permissions: not a list of strings"},
			{"allowed IPs of numbers", `{"apiKey":"` + key + `","allowedIPs":[1]}`, "api key +Pab...tU==", "allowedIPs", "allowedIPs: not a list of strings"},
			{"user id an object", `{"apiKey":"` + key + `","userId":{"x":"` + key + `"}}`, "api key +Pab...tU==", "userId", "userId: not a string or number"},
			{"two spellings", `{"apiKey":"` + key + `","api_key":"other"}`, "", "apiKey", `fields "apiKey" and "api_key" disagree`},
		})
}

// Through the client, a rejected row's error loses what the client never
// repeats: its own key.
func TestRejectedRowErrorsAreRedacted(t *testing.T) {
	key := strings.Repeat("k", 20)
	body := `{"success":true,"data":{"rows":[{"token":"A","network":"B","minimumWithdrawal":"1","withdrawalFee":"` + key + `","allowDeposit":1,"allowWithdraw":1}]}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(body)) }))
	t.Cleanup(srv.Close)
	_, rejected, err := newTestClient(t, srv.URL, func(c *Config) { c.APIKey = key }).TokenNetworks(context.Background())
	if err != nil || len(rejected) != 1 {
		t.Fatalf("%+v, %v", rejected, err)
	}
	if r := rejected[0]; strings.Contains(r.Err, key) || r.Page != 1 || r.Field != "withdrawalFee" {
		t.Errorf("rejected %+v", r)
	}
}
