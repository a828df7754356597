package main

import (
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The rate cap run's figures from a request log: requests counted in the
// cap window only, public ones apart, each fast poller's gaps measured from the
// request before the cap window and to the cap window's end, slow pollers' left
// out, the mean wait from the counters' increase.
func TestCapRowsCountTheWindowAndItsGaps(t *testing.T) {
	from := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	to := from.Add(60 * time.Second)
	at := func(s float64) time.Time { return from.Add(time.Duration(s * float64(time.Second))) }
	reqs := []fakeexchange.RequestRecord{
		{Time: at(-20), Account: "acct-000", Endpoint: endpoint.Positions},
		{Time: at(5), Account: "acct-000", Endpoint: endpoint.Positions},  // 25 s after the one before
		{Time: at(15), Account: "acct-000", Endpoint: endpoint.Positions}, // then 45 s to the end
		{Time: at(-100), Account: "acct-000", Endpoint: endpoint.Credentials},
		{Time: at(30), Account: "acct-000", Endpoint: endpoint.Credentials}, // slow: no gap
		{Time: at(10), Account: "acct-001", Endpoint: endpoint.Balances},
		{Time: at(40), Account: "acct-001", Endpoint: endpoint.Balances},
		{Time: at(20), Endpoint: endpoint.SystemInfo},
		{Time: at(61), Account: "acct-001", Endpoint: endpoint.Balances}, // after the cap window
	}
	sample := func(v float64) *model.Sample { return &model.Sample{Value: model.SampleValue(v)} }
	before := map[string]*model.Sample{
		`woox_api_rate_cap_wait_seconds_total{account="acct-000"}`: sample(10),
		`woox_api_rate_cap_admitted_total{account="acct-000"}`:     sample(4),
	}
	after := map[string]*model.Sample{
		`woox_api_rate_cap_wait_seconds_total{account="acct-000"}`: sample(40),
		`woox_api_rate_cap_admitted_total{account="acct-000"}`:     sample(7),
	}
	rows, public, all := capRows(reqs, 2, from, to, before, after)
	if public != 1 || len(all) != 6 {
		t.Errorf("public %d, all %d; want 1, 6", public, len(all))
	}
	want := []capRow{
		{account: "acct-000", requests: 3, meanWait: 10 * time.Second, longestGap: 45 * time.Second, gapEndpoint: endpoint.Positions},
		{account: "acct-001", requests: 2, longestGap: 30 * time.Second, gapEndpoint: endpoint.Balances},
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d = %+v, want %+v", i, rows[i], want[i])
		}
	}
}
