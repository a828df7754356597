package client

import (
	"context"
	"testing"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

func TestSystemInfoAcceptsBothSpellingsAndNumbersAsStrings(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		want       SystemInfo
	}{
		{"documented", `{"status":0,"msg":"System is functioning properly.","estimatedEndTime":1749963600362}`,
			SystemInfo{Status: 0, Message: "System is functioning properly.", EstimatedEndTime: 1749963600362}},
		{"strings, snake case", `{"status":"2","msg":"upgrade","estimated_end_time":"1749963600362"}`,
			SystemInfo{Status: 2, Message: "upgrade", EstimatedEndTime: 1749963600362}},
		{"end time in seconds with a fraction", `{"status":1,"message":"trading halted","estimatedEndTime":"1749963600.362"}`,
			SystemInfo{Status: 1, Message: "trading halted", EstimatedEndTime: 1749963600362}},
		{"no end time, unknown status", `{"status":7}`, SystemInfo{Status: 7}},
		// The status is what matters: an unreadable estimate is left out.
		{"unreadable end time", `{"status":2,"estimatedEndTime":-1}`, SystemInfo{Status: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeSystemInfo([]byte(tc.data))
			if err != nil || got != tc.want {
				t.Errorf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
	for _, bad := range []string{`{"msg":"no status"}`, `{"status":"x"}`, `null`, `[]`} {
		if got, err := decodeSystemInfo([]byte(bad)); err == nil {
			t.Errorf("%s decoded as %+v", bad, got)
		}
	}
}

func TestSystemInfoThroughTheClient(t *testing.T) {
	srv, calls := pathServer(t, map[string]func() (int, string){
		endpoint.PathOf(endpoint.SystemInfo): fixed(200, `{"success":true,"data":{"status":2,"msg":"upgrade","estimatedEndTime":1749963600362},"timestamp":1749960000000}`),
	})
	c, err := New(Config{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.SystemInfo(context.Background())
	if err != nil || !info.Maintenance() || info.EstimatedEndTime != 1749963600362 {
		t.Errorf("got %+v, %v", info, err)
	}
	if calls(endpoint.PathOf(endpoint.SystemInfo)) != 1 {
		t.Errorf("%d requests", calls(endpoint.PathOf(endpoint.SystemInfo)))
	}
}

// Each history page carries the server time of its own answer, whatever
// unit the answer used.
func TestHistoryPageCarriesItsAnswersServerTime(t *testing.T) {
	for body, want := range map[string]int64{
		`{"success":true,"data":{"rows":[]},"timestamp":1721295318123}`:    1721295318123,
		`{"success":true,"data":{"rows":[]},"timestamp":"1721295318.123"}`: 1721295318123,
		`{"success":true,"data":{"rows":[]},"timestamp":1721295318123456}`: 1721295318123,
		`{"success":true,"data":{"rows":[]}}`:                              0,
		`{"success":true,"data":{"rows":[]},"timestamp":"not a time"}`:     0,
	} {
		srv, _ := cannedServer(t, 200, body)
		var pages []HistoryPage
		err := newTestClient(t, srv.URL, nil).TokenHistoryPages(context.Background(), HistoryQuery{}, func(p HistoryPage) error {
			pages = append(pages, p)
			return nil
		})
		if err != nil || len(pages) != 1 || pages[0].ServerTimeMs != want {
			t.Errorf("%s: pages %+v, %v; want server time %d", body, pages, err, want)
		}
	}
}
