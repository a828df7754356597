package collector

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/proto"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/exposition"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// accountsRig is the rig with accounts named out of order (the parts are
// served in name order, not the configuration's), every endpoint on, polled
// once.
func accountsRig(t *testing.T) (*rig, *Exporter) {
	t.Helper()
	var accounts []fakeexchange.Account
	for i, name := range []string{"zeta", "main", "alpha-2", "alpha"} {
		a := mainAccount()
		if name != "main" {
			a.Name, a.Keys[0].APIKey = name, "ACCTKEYaaaaaaaaaaaaaa00"+string(rune('0'+i))
		}
		accounts = append(accounts, a)
	}
	r := newRig(t, &fakeexchange.Scenario{Accounts: accounts})
	r.add(t, hrec(1, 30*time.Minute, "USDT", "DEPOSIT", "1"))
	for _, name := range []string{"zeta", "alpha"} {
		// Balances in some accounts only.
		if err := r.fake.Apply(fakeexchange.Event{Balance: &fakeexchange.Change[fakeexchange.Balance]{Account: name,
			Row: fakeexchange.Balance{Token: "BTC", Holding: "1.5", MarkPrice: "60000"}}}); err != nil {
			t.Fatal(err)
		}
	}
	cfg := r.config()
	cfg.Collectors = map[string]bool{}
	for _, ep := range endpoint.All {
		cfg.Collectors[ep.Name] = true
	}
	e := newExporter(t, cfg)
	pollAll(e)
	return r, e
}

var (
	descLabels  = regexp.MustCompile(`variableLabels: \{([^}]*)\}`)
	constLabels = regexp.MustCompile(`constLabels: \{([^}]*)\}`)
)

// Every family of a per-account collector has the account label first
// among its label names: a part per account, in account order, is then in
// the order a registry sorts the metrics in.
func TestAccountLabelSortsFirst(t *testing.T) {
	_, e := accountsRig(t)
	splits := map[exposition.Split]bool{}
	for _, a := range e.served.Accounts() {
		if splits[a.Split] {
			continue
		}
		splits[a.Split] = true
		ch := make(chan *prometheus.Desc, 100)
		a.Split.Describe(ch)
		close(ch)
		for d := range ch {
			m := descLabels.FindStringSubmatch(d.String())
			if m == nil {
				t.Fatalf("cannot read the labels of %s", d)
			}
			labels := strings.Split(m[1], ",")
			if c := constLabels.FindStringSubmatch(d.String()); c != nil && c[1] != "" {
				for _, pair := range strings.Split(c[1], ",") {
					name, _, _ := strings.Cut(pair, "=")
					labels = append(labels, name)
				}
			}
			slices.Sort(labels)
			if labels[0] != "account" {
				t.Errorf("%s: label names %v, want account first", d, labels)
			}
		}
	}
	split := len(splits)
	accounts := map[string]int{}
	for _, a := range e.served.Accounts() {
		accounts[a.Account]++
	}
	// The poll health's two halves have a part for the public endpoints
	// too (account "").
	if split < 10 || len(accounts) != 5 || accounts[""] != 2 || len(e.served.Accounts()) != 4*split+2 || len(e.served.Whole()) != len(endpoint.Names(false, nil)) {
		t.Errorf("%d per-account collectors, %d account parts of %d accounts (%d public), %d whole parts; want at least 10, "+
			"a part per account and collector of 4 accounts and the public poll health's 2, and one per public endpoint (%d)",
			split, len(e.served.Accounts()), len(accounts), accounts[""], len(e.served.Whole()), len(endpoint.Names(false, nil)))
	}
}

// The handler over Source serves every family as promhttp over one
// registry of the same collectors does, in every stitched format.
func TestSourceServesWhatOneRegistryServes(t *testing.T) {
	_, e := accountsRig(t)
	perScrape := prometheus.NewRegistry()
	h := exposition.NewHandler(e.Source(perScrape), exposition.Options{})
	plain := promhttp.HandlerFor(e.Gatherer(perScrape), promhttp.HandlerOpts{EnableOpenMetrics: true})
	for _, accept := range []string{"", "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8",
		"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited"} {
		for _, gz := range []bool{false, true} {
			got, want := scrapeFamilies(t, h, accept, gz), scrapeFamilies(t, plain, accept, gz)
			if len(got) != len(want) || len(want) < 30 {
				t.Errorf("%q gzip %v: %d families, promhttp %d", accept, gz, len(got), len(want))
			}
			for name, block := range want {
				if got[name] != block {
					t.Errorf("%q gzip %v: family %s\n got: %q\nwant: %q", accept, gz, name, got[name], block)
				}
			}
		}
	}
}

// A poll that changes an account's data moves that account's part alone; a
// poll that changes nothing moves no data part.
func TestOnlyTheChangedAccountsPartMoves(t *testing.T) {
	r, e := accountsRig(t)
	gens := func() map[string]uint64 {
		out := map[string]uint64{}
		for _, a := range e.served.Accounts() {
			// The poll times move with every poll; the outcomes must not
			// when nothing changed.
			if h, health := splitOf(a).(healthHalf); !health || !h.times {
				out[a.Account] += a.Generation()
			}
		}
		return out
	}
	before := gens()
	pollAll(e)
	if after := gens(); !maps.Equal(before, after) {
		t.Errorf("polls that changed nothing moved parts: %v, then %v", before, after)
	}
	if err := r.fake.Apply(fakeexchange.Event{Balance: &fakeexchange.Change[fakeexchange.Balance]{Account: "main",
		Row: fakeexchange.Balance{Token: "ETH", Holding: "2", MarkPrice: "3000"}}}); err != nil {
		t.Fatal(err)
	}
	for _, p := range e.pollers {
		if p.endpoint == endpoint.Balances {
			p.pollOnce(context.Background())
		}
	}
	after := gens()
	for name, g := range after {
		if moved := g != before[name]; moved != (name == "main") {
			t.Errorf("account %s: generation %d, then %d", name, before[name], g)
		}
	}
}

// scrapeFamilies splits a scrape into its families, by name: the lines of
// each in the text formats, the marshalled message in protobuf.
func scrapeFamilies(t *testing.T, h http.Handler, accept string, gz bool) map[string]string {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
	req.Header.Set("Accept", accept)
	if gz {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	body := rec.Body.Bytes()
	if rec.Header().Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	out := map[string]string{}
	if strings.Contains(accept, "protobuf") {
		br := bufio.NewReader(bytes.NewReader(body))
		for {
			mf := &dto.MetricFamily{}
			if err := protodelim.UnmarshalFrom(br, mf); errors.Is(err, io.EOF) {
				return out
			} else if err != nil {
				t.Fatal(err)
			}
			b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(mf)
			if _, dup := out[mf.GetName()]; dup {
				t.Fatalf("family %s twice", mf.GetName())
			}
			out[mf.GetName()] = string(b)
		}
	}
	current := ""
	for _, line := range strings.SplitAfter(string(body), "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == "#" && (f[1] == "HELP" || f[1] == "TYPE") {
			if f[2] != current && out[f[2]] != "" {
				t.Fatalf("family %s twice", f[2])
			}
			current = f[2]
		}
		out[current] += line
	}
	return out
}

// The poll health is a part per account: a poll of one account moves its
// health part and no other account's.
func TestPollHealthMovesOnlyThePolledAccountsPart(t *testing.T) {
	_, e := accountsRig(t)
	pollAll(e)
	health := func() map[string]uint64 {
		out := map[string]uint64{}
		for _, a := range e.served.Accounts() {
			if h, ok := splitOf(a).(healthHalf); ok && h.times {
				out[a.Account] = a.Generation()
			}
		}
		return out
	}
	before := health()
	if len(before) != 5 {
		t.Fatalf("health parts %v, want the 4 accounts' and the public endpoints'", before)
	}
	for _, p := range e.pollers {
		if p.account == "main" && p.endpoint == endpoint.Balances {
			p.pollOnce(context.Background())
		}
	}
	for name, g := range health() {
		if moved := g != before[name]; moved != (name == "main") {
			t.Errorf("health part of account %q: generation %d, then %d", name, before[name], g)
		}
	}
}

// An account's poll outcomes move when a poll changes one (a failure, the
// success after it), not at a poll that changes none, and each scrape after
// a change serves it: its encoding is not kept past the change.
func TestPollOutcomesMoveWhenAnOutcomeChanges(t *testing.T) {
	r, e := accountsRig(t)
	h := exposition.NewHandler(e.Source(prometheus.NewRegistry()), exposition.Options{MaxAge: time.Nanosecond})
	outcomes := func() uint64 {
		for _, a := range e.served.Accounts() {
			if hh, ok := splitOf(a).(healthHalf); ok && !hh.times && a.Account == "main" {
				return a.Generation()
			}
		}
		t.Fatal("no poll outcomes part of main")
		return 0
	}
	pollBalances := func() {
		for _, p := range e.pollers {
			if p.account == "main" && p.endpoint == endpoint.Balances {
				p.pollOnce(context.Background())
			}
		}
	}
	served := func() string {
		return scrapeFamilies(t, h, "text/plain", true)["woox_poll_success"]
	}
	failed := `woox_poll_success{account="main",endpoint="balances"} 0`
	succeeded := `woox_poll_success{account="main",endpoint="balances"} 1`
	g := outcomes()
	if s := served(); !strings.Contains(s, succeeded) || strings.Contains(s, failed) {
		t.Fatalf("before the failure, served:\n%s", s)
	}
	pollBalances()
	if outcomes() != g {
		t.Errorf("a success after a success moved the outcomes: %d, then %d", g, outcomes())
	}
	r.fake.InjectFault(fakeexchange.Fault{Endpoint: endpoint.Balances, Kind: fakeexchange.FaultMaintenance})
	pollBalances()
	r.fake.ClearFaults()
	if s := served(); outcomes() == g || !strings.Contains(s, failed) || strings.Contains(s, succeeded) {
		t.Errorf("after the failure (generation %d, was %d), served:\n%s", outcomes(), g, s)
	}
	g = outcomes()
	pollBalances()
	if s := served(); outcomes() == g || !strings.Contains(s, succeeded) {
		t.Errorf("after the success that followed (generation %d, was %d), served:\n%s", outcomes(), g, s)
	}
}

// With request counters, an account's poll times and request counters are
// one part, which gathers as a registry of both would, and which a poll of
// the account moves.
func TestPollTimesAndRequestCountersAreOnePart(t *testing.T) {
	metrics := client.NewProcessMetrics(nil)
	r := newRig(t, &fakeexchange.Scenario{}, clientConfig(func(c *client.Config) { c.Metrics = metrics }))
	e := newExporter(t, r.config())
	pollAll(e)
	var main *exposition.AccountPart
	for _, a := range e.served.Accounts() {
		if _, ok := splitOf(a).(*clientMetrics); ok {
			t.Errorf("the request counters of %q are a part of their own", a.Account)
		}
		if _, ok := splitOf(a).(*pairedSplit); ok && a.Account == "main" {
			main = a
		}
	}
	if main == nil {
		t.Fatal("no part of main's poll times and request counters")
	}
	got, err := main.Gather()
	if err != nil {
		t.Fatal(err)
	}
	want, err := testsupport.RegistryGather(t, main)
	if err != nil {
		t.Fatal(err)
	}
	testsupport.SameFamilies(t, "main", got, want)
	names := map[string]bool{}
	for _, mf := range got {
		names[mf.GetName()] = true
	}
	if !names["woox_poll_duration_seconds"] || !names["woox_api_requests_total"] || names["woox_poll_success"] {
		t.Errorf("families %v, want the poll times and the request counters, not the outcomes", slices.Sorted(maps.Keys(names)))
	}
	g := main.Generation()
	for _, p := range e.pollers {
		if p.account == "main" && p.endpoint == endpoint.Balances {
			p.pollOnce(context.Background())
		}
	}
	if main.Generation() == g {
		t.Error("a poll of main did not move its part")
	}
}

// splitOf is the collector a part is of.
func splitOf(a *exposition.AccountPart) accountSplit { return a.Split.(split).accountSplit }

// Every account part of every collector gathers, without a registry, as a
// registry of it would.
func TestEveryAccountPartGathersAsARegistry(t *testing.T) {
	_, e := accountsRig(t)
	series := 0
	for _, a := range e.served.Accounts() {
		got, err := a.Gather()
		if err != nil {
			t.Errorf("%s of %T: %v", a.Account, splitOf(a), err)
		}
		want, err := testsupport.RegistryGather(t, a)
		if err != nil {
			t.Fatal(err)
		}
		testsupport.SameFamilies(t, a.Account, got, want)
		for _, mf := range got {
			series += len(mf.GetMetric())
		}
	}
	if series < 100 {
		t.Errorf("%d series in the account parts, want the rig's hundreds", series)
	}
}
