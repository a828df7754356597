package collector

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// faultRig runs the whole exporter (real client, real pollers, real
// gatherer) against a fake exchange with a one-second rate-limit window, on
// the real clock.
type faultRig struct {
	*rig
	exporter *Exporter
	gatherer prometheus.Gatherer
	cancel   context.CancelFunc
	done     chan struct{}
	nextID   int64
}

const (
	faultKey    = "fault-main-read-key-0123=="
	faultSecret = "FAULT-SECRET-never-in-output"
	// faultWindow and faultLimit are the fake's and the client's rate limit;
	// with budget 0.5 the client may send 5 requests per endpoint a second.
	faultWindow = time.Second
	faultLimit  = 10
	faultBudget = 0.5
)

func newFaultRig(t *testing.T) *faultRig {
	t.Helper()
	r := newRig(t, &fakeexchange.Scenario{
		Accounts: []fakeexchange.Account{{
			Name: "main", AccountName: "Main", UserID: 1,
			Keys: []fakeexchange.Key{{APIKey: faultKey, APISecret: faultSecret, Permissions: []string{"READ"}}},
		}},
		TokenNetworks: []fakeexchange.TokenNetworkRow{
			{Token: "USDT", Network: "ETH", Protocol: "ERC20", Name: "Ethereum", MinimumWithdrawal: "10", WithdrawalFee: "1.5", AllowDeposit: 1, AllowWithdraw: 1},
		},
	}, realTime(),
		fakeOptions(fakeexchange.WithRateLimit(faultLimit, faultWindow), fakeexchange.WithPublicRateLimit(faultLimit, faultWindow)),
		clientConfig(func(c *client.Config) {
			c.RateLimit, c.Budget = client.RateLimit{Requests: faultLimit, Window: faultWindow}, faultBudget
			c.HTTPClient, c.MaxBodyBytes = client.NewHTTPClient(150*time.Millisecond), 64<<10
		}))
	cfg := r.config()
	for _, ep := range faultEndpoints {
		cfg.Intervals[ep] = 250 * time.Millisecond
	}
	cfg.HistoryOverlap = time.Minute
	e := newExporter(t, cfg)
	f := &faultRig{rig: r, exporter: e, gatherer: e.Gatherer(prometheus.NewRegistry()), nextID: 1}
	f.appendHistory(t, 3)
	ctx, cancel := context.WithCancel(context.Background())
	f.cancel, f.done = cancel, make(chan struct{})
	go func() { defer close(f.done); e.Run(ctx) }()
	t.Cleanup(f.stop)
	return f
}

func (r *faultRig) stop() {
	r.cancel()
	<-r.done
}

// appendHistory adds n records with odd exact amounts, stamped now.
func (r *faultRig) appendHistory(t *testing.T, n int) {
	t.Helper()
	var recs []fakeexchange.HistoryRecord
	for range n {
		typ, amount := "DEPOSIT", fmt.Sprintf("%d.000000000000000000000000000001", r.nextID)
		if r.nextID%2 == 0 {
			typ, amount = "WITHDRAW", "-"+amount
		}
		recs = append(recs, fakeexchange.HistoryRecord{ID: r.nextID, Type: typ, Token: "USDT", Amount: amount, Timestamp: time.Now().UnixMilli() - 1})
		r.nextID++
	}
	if err := r.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main", Records: recs}}); err != nil {
		t.Fatal(err)
	}
}

// gauges gathers through the exporter's gatherer, as a scrape does, and
// returns every gauge and counter by name and label values.
func (r *faultRig) gather(t *testing.T) map[string]float64 {
	t.Helper()
	mfs, err := r.gatherer.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			key := mf.GetName() + "{" + strings.Join(labels, ",") + "}"
			switch mf.GetType() {
			case dto.MetricType_COUNTER:
				out[key] = m.GetCounter().GetValue()
			case dto.MetricType_GAUGE:
				out[key] = m.GetGauge().GetValue()
			}
		}
	}
	return out
}

// exact reports whether the ledger totals equal the exact decimal sums of
// every record the fake holds.
func (r *faultRig) exact() bool {
	return len(totalsDiff(r.exporter.ledgers["main"].Load().Snapshot().Totals, r.fake.ServedHistory("main"))) == 0
}

var faultEndpoints = []string{endpoint.TokenNetwork, endpoint.Credentials, endpoint.TokenHistory}

func pollSuccess(name string) string {
	account := "main"
	if name == endpoint.TokenNetwork {
		account = ""
	}
	return "woox_poll_success{account=" + account + ",endpoint=" + name + "}"
}

// checkBudget fails the test if any endpoint of any account got more
// requests past authentication in one rate-limit window than the budget
// allows, counted at the fake.
func checkBudget(t *testing.T, fake *fakeexchange.Exchange) {
	t.Helper()
	allowed := client.RateLimit{Requests: faultLimit, Window: faultWindow}.Allowed(faultBudget)
	times := map[string][]time.Time{}
	for _, rec := range fake.Requests() {
		times[rec.Account+"/"+rec.Endpoint] = append(times[rec.Account+"/"+rec.Endpoint], rec.Time)
	}
	for k, ts := range times {
		slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
		for i := range ts {
			j := i
			for j < len(ts) && ts[j].Sub(ts[i]) < faultWindow {
				j++
			}
			if j-i > allowed {
				t.Errorf("%s: %d requests within %s from %s; the budget allows %d", k, j-i, faultWindow, ts[i].Format(time.StampMilli), allowed)
				break
			}
		}
	}
}

// Under every fault the exchange can throw, the exporter keeps the last good
// data, shows the failure in woox_poll_success, stays within its budget,
// recovers on its own once the fault clears, and then holds every record
// exactly once. Goroutines return to their baseline once it stops.
func TestFaultsKeepLastGoodDataAndRecoverExactlyOnce(t *testing.T) {
	baseline := runtime.NumGoroutine()
	cases := []struct {
		name   string
		inject func(f *fakeexchange.Exchange)
	}{
		{"5xx burst", func(f *fakeexchange.Exchange) {
			f.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultHTTPError, Status: 503})
		}},
		{"5xx with envelope", func(f *fakeexchange.Exchange) {
			f.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultHTTPError, Status: 500})
		}},
		{"timeout beyond the client timeout", func(f *fakeexchange.Exchange) {
			f.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultLatency, Delay: time.Second})
		}},
		{"connection reset", func(f *fakeexchange.Exchange) {
			f.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultConnectionReset})
		}},
		{"429 storm", func(f *fakeexchange.Exchange) {
			f.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultRateLimitStorm})
		}},
		{"maintenance", func(f *fakeexchange.Exchange) {
			f.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultMaintenance})
		}},
		{"success false", func(f *fakeexchange.Exchange) {
			f.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultSuccessFalse})
		}},
		{"truncated JSON", func(f *fakeexchange.Exchange) {
			f.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultTruncatedJSON})
		}},
		{"malformed JSON", func(f *fakeexchange.Exchange) {
			f.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultMalformedJSON})
		}},
		{"HTML instead of JSON", func(f *fakeexchange.Exchange) {
			f.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultWrongContent})
		}},
		{"oversized body", func(f *fakeexchange.Exchange) {
			f.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultOversizedBody, Size: 1 << 20})
		}},
		{"signature rejected", func(f *fakeexchange.Exchange) {
			// The exchange no longer knows the exporter's secret: every
			// signed request is rejected, as with a wrong secret.
			if err := f.Apply(fakeexchange.Event{Key: &fakeexchange.Change[fakeexchange.Key]{Account: "main", Row: fakeexchange.Key{APIKey: faultKey, APISecret: "ROTATED"}}}); err != nil {
				panic(err)
			}
		}},
	}
	t.Run("group", func(t *testing.T) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				r := newFaultRig(t)
				testsupport.WaitFor(t, "the first good polls", func() bool { return r.exporter.Ready() && r.exact() })
				before := r.gather(t)
				network := `woox_token_network_withdrawal_fee{network=ETH,protocol=ERC20,token=USDT}`
				if before[network] != 1.5 {
					t.Fatalf("%s = %v before the fault", network, before[network])
				}
				tc.inject(r.fake)
				r.appendHistory(t, 2) // arrives during the fault
				failing := faultEndpoints
				if tc.name == "signature rejected" {
					// The public endpoint needs no signature.
					failing = []string{endpoint.Credentials, endpoint.TokenHistory}
				}
				testsupport.WaitFor(t, "woox_poll_success 0 on every endpoint", func() bool {
					m := r.gather(t)
					for _, ep := range failing {
						if v, ok := m[pollSuccess(ep)]; !ok || v != 0 {
							return false
						}
					}
					return true
				})
				during := r.gather(t)
				for _, k := range []string{network,
					`woox_token_history_inflow_total{account=main,token=USDT,transaction_type=DEPOSIT}`,
					`woox_api_key_permission{account=main,api_key=faul...23==,permission=READ}`} {
					if during[k] != before[k] {
						t.Errorf("%s = %v during the fault, want the last good %v", k, during[k], before[k])
					}
				}

				r.fake.ClearFaults()
				if tc.name == "signature rejected" {
					if err := r.fake.Apply(fakeexchange.Event{Key: &fakeexchange.Change[fakeexchange.Key]{Account: "main", Row: fakeexchange.Key{APIKey: faultKey, APISecret: faultSecret}}}); err != nil {
						t.Fatal(err)
					}
				}
				r.appendHistory(t, 2) // arrives after
				testsupport.WaitFor(t, "recovery with every record counted once", func() bool {
					m := r.gather(t)
					for _, ep := range faultEndpoints {
						if m[pollSuccess(ep)] != 1 {
							return false
						}
					}
					return r.exact()
				})
				r.stop()
				checkBudget(t, r.fake)
			})
		}
	})
	// Every rig has stopped and its server closed: nothing may linger.
	var now int
	deadline := time.Now().Add(5 * time.Second)
	for {
		if now = runtime.NumGoroutine(); now <= baseline+2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("goroutines: %d before, %d after %d fault cases", baseline, now, len(cases))
	if now > baseline+2 {
		buf := make([]byte, 1<<20)
		t.Errorf("goroutines: %d before, %d after recovery and shutdown\n%s", baseline, now, buf[:runtime.Stack(buf, true)])
	}
}

// oddAnswer is one endpoint's raw answer with odd bytes in every label
// (the fake cannot send invalid UTF-8), and a family it must still export.
// The body spells bytes as \xNN so that they are raw on the wire.
type oddAnswer struct {
	path, body, family string
}

// oddAnswers are every endpoint's odd answer, by name: each endpoint's test
// file adds its own (addOddAnswer).
var oddAnswers = map[string]oddAnswer{}

func addOddAnswer(endpoint string, a oddAnswer) bool {
	oddAnswers[endpoint] = a
	return true
}

var (
	// oddLong is a label value far longer than any the exchange sends.
	oddLong = strings.Repeat("L", 4096)
	// oddCreated is within the wallet lookback, which ends at the client's
	// clock.
	oddCreated = strconv.FormatInt(time.Now().Add(-time.Hour).UnixMilli(), 10)
)

// Label values the exchange sends as invalid UTF-8 (raw bytes or lone
// surrogate escapes) would make client_golang reject the whole family at
// scrape time; the JSON decoder replaces them with U+FFFD, and the scrape
// succeeds. Repeated rows and unknown types and permissions do not break it
// either. Every endpoint answers its odd answer, with every collector on.
func TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape(t *testing.T) {
	bodies := map[string]string{}
	collectors := map[string]bool{}
	var wantFamilies []string
	for _, ep := range endpoint.All {
		a, ok := oddAnswers[ep.Name]
		if !ok {
			t.Errorf("%s: no odd answer: add one in its test file (addOddAnswer)", ep.Name)
			continue
		}
		bodies[a.path] = a.body
		collectors[ep.Name] = true
		wantFamilies = append(wantFamilies, a.family)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		raw := strings.NewReplacer(`\xff`, "\xff", `\xfe`, "\xfe", `\xc3\x28`, "\xc3\x28").Replace(bodies[r.URL.Path])
		_, _ = w.Write([]byte(raw))
	}))
	t.Cleanup(srv.Close)
	newClient := func(account, key, secret string) *client.Client {
		c, err := client.New(client.Config{BaseURL: srv.URL, Account: account, APIKey: key, APISecret: secret,
			RateLimit: client.RateLimit{Requests: 100, Window: time.Second}, Budget: 1})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	e, err := New(Config{
		Public:     newClient("", "", ""),
		Accounts:   []Account{{Name: "main", APIKey: faultKey, API: newClient("main", faultKey, faultSecret)}},
		Collectors: collectors,
		Now:        func() time.Time { return time.UnixMilli(1700000000000) },
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range e.pollers {
		p.pollOnce(context.Background())
		if !p.lastStatus().success {
			t.Fatalf("%s poll failed", p.endpoint)
		}
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(e.collectors...)
	for name, g := range map[string]prometheus.Gatherer{"collectors": reg, "exporter gatherer": e.Gatherer(prometheus.NewRegistry())} {
		mfs, err := g.Gather()
		if err != nil {
			t.Fatalf("%s: scrape failed: %v", name, err)
		}
		var series int
		families := map[string]bool{}
		for _, mf := range mfs {
			families[mf.GetName()] = true
			for _, m := range mf.GetMetric() {
				series++
				for _, l := range m.GetLabel() {
					if !utf8.ValidString(l.GetValue()) {
						t.Errorf("%s: invalid UTF-8 label %s=%q", name, l.GetName(), l.GetValue())
					}
				}
			}
		}
		if series == 0 {
			t.Errorf("%s: nothing exported", name)
		}
		for _, want := range wantFamilies {
			if !families[want] {
				t.Errorf("%s: no %s", name, want)
			}
		}
	}
	totals := e.ledgers["main"].Load().Snapshot().Totals
	var records uint64
	for _, tot := range totals {
		records += tot.Records
	}
	if records != 3 {
		t.Errorf("%d records counted, want 3: %+v", records, totals)
	}
}
