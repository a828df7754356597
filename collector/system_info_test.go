package collector

import (
	"context"
	"testing"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// Odd bytes in every label (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape).
var _ = addOddAnswer(endpoint.SystemInfo, oddAnswer{path: endpoint.PathOf(endpoint.SystemInfo), family: "woox_exchange_status",
	body: `{"success":true,"data":{"status":7,"msg":"odd\xff status"},"timestamp":1700000000000}`})

// The system status through the real client and the fake: every known
// state exported, the current one at 1, an unknown code under its own name,
// and the end of maintenance only while one is announced.
func TestSystemInfoMetrics(t *testing.T) {
	r := newRig(t, &fakeexchange.Scenario{})
	c := &SystemInfoCollector{api: r.public}
	expectMetrics(t, c, "system_info_empty.metrics")
	for _, tc := range []struct {
		status fakeexchange.SystemStatus
		golden string
	}{
		{fakeexchange.SystemStatus{Status: 0, Msg: "System is functioning properly."}, "system_info_normal.metrics"},
		{fakeexchange.SystemStatus{Status: 2, Msg: "maintenance", EstimatedEndTime: 1749963600362}, "system_info_maintenance.metrics"},
		{fakeexchange.SystemStatus{Status: 9, Msg: "something new"}, "system_info_unknown.metrics"},
	} {
		if err := r.fake.Apply(fakeexchange.Event{SystemStatus: &fakeexchange.Change[fakeexchange.SystemStatus]{Row: tc.status}}); err != nil {
			t.Fatal(err)
		}
		if err := c.poll(context.Background(), func() {}); err != nil {
			t.Fatal(err)
		}
		expectMetrics(t, c, tc.golden)
	}
}
