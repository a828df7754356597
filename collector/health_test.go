package collector

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// woox_poll_duration_seconds, left out of the golden files because it varies,
// is exported for every (endpoint, account) once its first poll finished,
// failed polls included, is positive, and lints clean.
func TestPollDurationPerEndpointAndAccount(t *testing.T) {
	other := mainAccount()
	other.Name, other.Keys[0].APIKey = "other", "OTHERKEYaaaaaaaaaaaa0001"
	r := newRig(t, &fakeexchange.Scenario{Accounts: []fakeexchange.Account{mainAccount(), other}})
	r.add(t, hrec(1, 30*time.Minute, "USDT", "DEPOSIT", "1"))
	r.fake.InjectFault(fakeexchange.Fault{Endpoint: endpoint.Credentials, Kind: fakeexchange.FaultHTTPError, Status: 500})
	e := newExporter(t, testConfig(r))
	health, ok := e.byName["health"].(*HealthCollector)
	if !ok {
		t.Fatal("the last collector is not the health collector")
	}
	if n := testutil.CollectAndCount(health, "woox_poll_duration_seconds"); n != 0 {
		t.Errorf("%d durations before any poll, want none", n)
	}
	pollAll(e)

	want := map[[2]string]bool{}
	for _, name := range endpoint.Names(false, testConfig(r).Collectors) {
		want[[2]string{name, ""}] = true
	}
	for _, name := range endpoint.Names(true, nil) {
		want[[2]string{name, "main"}] = true
		want[[2]string{name, "other"}] = true
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(health)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[[2]string]bool{}
	for _, mf := range mfs {
		if mf.GetName() != "woox_poll_duration_seconds" {
			continue
		}
		for _, m := range mf.GetMetric() {
			var k [2]string
			for _, l := range m.GetLabel() {
				switch l.GetName() {
				case "endpoint":
					k[0] = l.GetValue()
				case "account":
					k[1] = l.GetValue()
				}
			}
			if got[k] {
				t.Errorf("%v exported twice", k)
			}
			got[k] = true
			if v := m.GetGauge().GetValue(); !(v > 0) {
				t.Errorf("woox_poll_duration_seconds%v = %v, want > 0 after a poll", k, v)
			}
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("no woox_poll_duration_seconds for endpoint %q account %q", k[0], k[1])
		}
	}
	for k := range got {
		if !want[k] {
			t.Errorf("unexpected woox_poll_duration_seconds for endpoint %q account %q", k[0], k[1])
		}
	}
	problems, err := testutil.CollectAndLint(health, "woox_poll_duration_seconds")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("lint: %s: %s", p.Metric, p.Text)
	}
}

// Every reason of woox_poll_failures_total exists at 0 before the first
// poll, and each failure counts under what an operator does about it.
func TestPollFailuresByReason(t *testing.T) {
	var next error
	p := testPoller(endpoint.Balances, "main", withoutRows(func(ctx context.Context, _ func()) error {
		if errors.Is(next, errStalled) {
			<-ctx.Done()
			return &client.Error{Op: "get balances", Kind: client.KindTransient, Err: ctx.Err()}
		}
		return next
	}), historyNow)
	p.stallAfter = 20 * time.Millisecond
	hc := newHealthCollector([]*poller{p}, nil)
	want := map[string]float64{}
	for _, r := range failureReasons {
		want[r] = 0
	}
	check := func(when string) {
		t.Helper()
		reg := prometheus.NewPedanticRegistry()
		reg.MustRegister(hc)
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]float64{}
		for _, mf := range mfs {
			if mf.GetName() != "woox_poll_failures_total" {
				continue
			}
			for _, m := range mf.GetMetric() {
				for _, l := range m.GetLabel() {
					if l.GetName() == "reason" {
						got[l.GetValue()] = m.GetCounter().GetValue()
					}
				}
			}
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: failures %v, want %v", when, got, want)
		}
	}
	check("before any poll")
	for _, tc := range []struct {
		err    error
		reason string
	}{
		{&client.Error{Kind: client.KindRateLimited, StatusCode: 429}, "rate_limited"},
		{&client.Error{Kind: client.KindAuth, StatusCode: 401, Code: client.CodeInvalidSignature}, "auth"},
		{&client.Error{Kind: client.KindMaintenance, Code: client.CodeMaintenance}, "maintenance"},
		{&client.Error{Kind: client.KindTransient, StatusCode: 502}, "transient"},
		{&client.Error{Kind: client.KindBadResponse}, "bad_response"},
		{&client.Error{Kind: client.KindOther, StatusCode: 400, Code: -1005}, "bad_response"},
		{errors.New("token history row 3: malformed"), "bad_response"},
		{errStalled, "stalled"},
		{nil, ""},
	} {
		next = tc.err
		p.pollOnce(context.Background())
		if tc.reason != "" {
			want[tc.reason]++
		}
		check(fmt.Sprintf("after %v", tc.err))
	}
}
