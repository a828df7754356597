package collector

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
	"github.com/woox-exporter/woox_exporter/ledger"
)

var update = flag.Bool("update", false, "rewrite testdata/*.metrics from the collectors' output")

// expectMetrics compares what c exports (only the named metrics, if any)
// with testdata/<golden> and lints it.
func expectMetrics(t *testing.T, c prometheus.Collector, golden string, names ...string) {
	t.Helper()
	path := filepath.Join("testdata", golden)
	if *update {
		reg := prometheus.NewPedanticRegistry()
		reg.MustRegister(c)
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		for _, mf := range mfs {
			if len(names) > 0 && !slices.Contains(names, mf.GetName()) {
				continue
			}
			if _, err := expfmt.MetricFamilyToText(&buf, mf); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := testutil.CollectAndCompare(c, f, names...); err != nil {
		t.Error(err)
	}
	problems, err := testutil.CollectAndLint(c, names...)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("lint: %s: %s", p.Metric, p.Text)
	}
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

const (
	// ownKey is the key account "main" of the test scenarios signs with.
	ownKey    = "OWNKEYaaaaaaaaaaaaaa0001"
	ownSecret = "OWN-SECRET-never-in-output-0001"
)

// historyNow is where a rig's clock starts.
var historyNow = time.UnixMilli(1_700_000_000_000)

// rig is the fake exchange served over HTTP and read by the real client, as
// the exporter reads the exchange: a public client and one client per
// scenario account, signing with the account's first key, the fake and the
// clients on one clock.
type rig struct {
	fake *fakeexchange.Exchange
	// clock is the settable clock the rig runs on, nil with realTime.
	clock *testsupport.Clock
	now   func() time.Time
	// public reads the public endpoints; apis the accounts', by name.
	public   *client.Client
	apis     map[string]*client.Client
	keys     map[string]string
	accounts []string
	// logs is where the exporters of config log.
	logs *testsupport.SyncBuffer
}

type rigSettings struct {
	realTime  bool
	fakeOpts  []fakeexchange.Option
	clientCfg []func(*client.Config)
}

// rigOption changes how newRig builds a rig.
type rigOption func(*rigSettings)

// realTime runs the rig on the real clock, with the clients' real sleeps,
// for tests of rate limits and timeouts.
func realTime() rigOption { return func(s *rigSettings) { s.realTime = true } }

// fakeOptions are given to fakeexchange.New after the rig's own (the clock,
// no rate limits), so they override them.
func fakeOptions(opts ...fakeexchange.Option) rigOption {
	return func(s *rigSettings) { s.fakeOpts = append(s.fakeOpts, opts...) }
}

// clientConfig changes the config of every client before it is built.
func clientConfig(fn func(*client.Config)) rigOption {
	return func(s *rigSettings) { s.clientCfg = append(s.clientCfg, fn) }
}

// mainAccount is account "main" (Main, user 12523), signing with ownKey:
// the account of a scenario that names none.
func mainAccount() fakeexchange.Account {
	return fakeexchange.Account{Name: "main", AccountName: "Main", UserID: 12523,
		Keys: []fakeexchange.Key{{APIKey: ownKey, APISecret: ownSecret, Permissions: []string{"READ"}}}}
}

// newRig serves s, given mainAccount when it has no account, on a clock
// standing at historyNow (see realTime). The clients never wait for their
// budget, which is far above what a test sends; their sleeps move the
// clock, so a wait after a 429 or between retries passes at once.
func newRig(t testing.TB, s *fakeexchange.Scenario, opts ...rigOption) *rig {
	t.Helper()
	var set rigSettings
	for _, o := range opts {
		o(&set)
	}
	if len(s.Accounts) == 0 {
		s.Accounts = []fakeexchange.Account{mainAccount()}
	}
	r := &rig{now: time.Now, apis: map[string]*client.Client{}, keys: map[string]string{}, logs: &testsupport.SyncBuffer{}}
	if !set.realTime {
		r.clock = testsupport.NewClock(historyNow)
		r.now = r.clock.Now
	}
	fake, err := fakeexchange.New(s, append([]fakeexchange.Option{fakeexchange.WithClock(r.now),
		fakeexchange.WithRateLimit(0, 0), fakeexchange.WithPublicRateLimit(0, 0)}, set.fakeOpts...)...)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	// Runs before the server closes, which waits for every request: ends
	// those a latency fault holds.
	t.Cleanup(fake.ClearFaults)
	r.fake = fake
	shared := client.NewClock(r.now)
	build := func(account, key, secret string) *client.Client {
		cfg := client.Config{BaseURL: srv.URL, Account: account, APIKey: key, APISecret: secret,
			RateLimit: client.RateLimit{Requests: 100000, Window: time.Second}, Budget: 1,
			Clock: shared, Public: r.public, Now: r.now}
		if r.clock != nil {
			cfg.Sleep = func(ctx context.Context, d time.Duration) error {
				r.clock.Add(d)
				return ctx.Err()
			}
		}
		for _, fn := range set.clientCfg {
			fn(&cfg)
		}
		c, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	r.public = build("", "", "")
	for _, a := range s.Accounts {
		r.accounts = append(r.accounts, a.Name)
		r.keys[a.Name] = a.Keys[0].APIKey
		r.apis[a.Name] = build(a.Name, a.Keys[0].APIKey, a.Keys[0].APISecret)
	}
	return r
}

// newTestRig is the rig of the account and token network tests: account
// "main" listing credentialRows, and tokenNetworkRows, which repeat a row
// as the exchange does (a scenario refuses that, so they are set after).
func newTestRig(t testing.TB, opts ...rigOption) *rig {
	t.Helper()
	r := newRig(t, &fakeexchange.Scenario{}, opts...)
	r.listTokenNetworks(t, tokenNetworkRows())
	r.listCredentials(t, credentialRows())
	return r
}

// listCredentials makes the credentials of "main" list rows (a credentials
// event); ownKey still signs.
func (r *rig) listCredentials(t testing.TB, rows []fakeexchange.Key) {
	t.Helper()
	if err := r.fake.Apply(fakeexchange.Event{Credentials: &fakeexchange.Change[fakeexchange.Key]{Account: "main", All: true, Rows: rows}}); err != nil {
		t.Fatal(err)
	}
}

// listTokenNetworks makes the token networks list rows, repeats and all.
func (r *rig) listTokenNetworks(t testing.TB, rows []fakeexchange.TokenNetworkRow) {
	t.Helper()
	if err := r.fake.Apply(fakeexchange.Event{TokenNetwork: &fakeexchange.Change[fakeexchange.TokenNetworkRow]{All: true, Rows: rows}}); err != nil {
		t.Fatal(err)
	}
}

// api is the client of account "main".
func (r *rig) api() *client.Client { return r.apis["main"] }

// config is an exporter Config over the rig: the public client, every
// scenario account with its client and key, every endpoint polled hourly
// (Run polls each once), the rig's clock, logging into r.logs.
func (r *rig) config() Config {
	cfg := Config{Public: r.public, Intervals: map[string]time.Duration{},
		HistoryOverlap: 5 * time.Minute, HistoryLookback: time.Hour,
		Logger: log.NewLogfmtLogger(r.logs), Now: r.now}
	for _, ep := range endpoint.All {
		cfg.Intervals[ep.Name] = time.Hour
	}
	for _, name := range r.accounts {
		cfg.Accounts = append(cfg.Accounts, Account{Name: name, APIKey: r.keys[name], API: r.apis[name]})
	}
	return cfg
}

// newExporter builds an exporter from cfg or fails the test.
func newExporter(t testing.TB, cfg Config) *Exporter {
	t.Helper()
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// onlyEndpoint builds an exporter that polls one per-account endpoint of
// the rig's accounts, and polls it once.
func onlyEndpoint(t testing.TB, r *rig, name string) *Exporter {
	t.Helper()
	cfg := r.config()
	cfg.Public, cfg.Collectors = nil, map[string]bool{}
	for _, ep := range endpoint.All {
		cfg.Collectors[ep.Name] = ep.Name == name
	}
	e := newExporter(t, cfg)
	if len(e.pollers) != 1 || e.pollers[0].endpoint != name {
		t.Fatalf("pollers %v, want one of %s", e.pollers, name)
	}
	e.pollers[0].pollOnce(context.Background())
	return e
}

// pollAll polls every poller once, in order.
func pollAll(e *Exporter) {
	for _, p := range e.pollers {
		p.pollOnce(context.Background())
	}
}

// run runs e until the test ends.
func run(t testing.TB, e *Exporter) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); e.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
}

// setPageSize makes every account of e read its token history in pages of
// size rows.
func setPageSize(e *Exporter, size int) {
	for _, a := range e.history.accounts {
		a.pageSize = size
	}
}

// add appends records to the history of "main".
func (r *rig) add(t testing.TB, recs ...fakeexchange.HistoryRecord) {
	t.Helper()
	if err := r.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main", Records: recs}}); err != nil {
		t.Fatal(err)
	}
}

// hist is a history record stamped ts.
func hist(id int64, ts time.Time, typ, token, amount string) fakeexchange.HistoryRecord {
	return fakeexchange.HistoryRecord{ID: id, Type: typ, Token: token, Amount: amount, Timestamp: ts.UnixMilli()}
}

// hrec is a history record stamped ago before historyNow.
func hrec(id int64, ago time.Duration, token, typ, amount string) fakeexchange.HistoryRecord {
	return hist(id, historyNow.Add(-ago), typ, token, amount)
}

// holdHistoryPage holds the first request for token history page n until
// release is called (at the latest when the test ends), and returns a
// channel closed when that request arrives: by then every page before it
// was counted.
func (r *rig) holdHistoryPage(t testing.TB, n int) (arrived <-chan struct{}, release func()) {
	in, out := make(chan struct{}), make(chan struct{})
	var once, held sync.Once
	release = func() { once.Do(func() { close(out) }) }
	r.fake.BeforeHistoryPage(func(_ string, page int) {
		if page != n {
			return
		}
		first := false
		held.Do(func() { first = true })
		if first {
			close(in)
			<-out
		}
	})
	t.Cleanup(release)
	return in, release
}

// requests are the requests of endpoint the fake answered, oldest first.
func (r *rig) requests(endpoint string) []fakeexchange.RequestRecord {
	var out []fakeexchange.RequestRecord
	for _, q := range r.fake.Requests() {
		if q.Endpoint == endpoint {
			out = append(out, q)
		}
	}
	return out
}

// query is one parameter of a request.
func query(t testing.TB, q fakeexchange.RequestRecord, name string) string {
	t.Helper()
	v, err := url.ParseQuery(q.RawQuery)
	if err != nil {
		t.Fatal(err)
	}
	return v.Get(name)
}

// served are the records the fake holds for account stamped within [from,
// until], less the ids in except.
func (r *rig) served(account string, from, until time.Time, except ...int64) []fakeexchange.HistoryRecord {
	return slices.DeleteFunc(r.fake.ServedHistory(account), func(rec fakeexchange.HistoryRecord) bool {
		return rec.Timestamp < from.UnixMilli() || rec.Timestamp > until.UnixMilli() || slices.Contains(except, rec.ID)
	})
}

// totalsDiff lists how the counted totals differ from exact sums over recs;
// none when they agree.
func totalsDiff(counted []ledger.Total, recs []fakeexchange.HistoryRecord) []string {
	got := map[testsupport.HistoryKey]testsupport.HistorySums{}
	var diffs []string
	for _, c := range counted {
		k := testsupport.HistoryKey{Token: c.Token, Type: c.Type}
		if _, twice := got[k]; twice {
			diffs = append(diffs, fmt.Sprintf("%s %s: totals listed twice", c.Token, c.Type))
		}
		got[k] = testsupport.HistorySums{Records: c.Records, Inflow: c.Inflow, Outflow: c.Outflow}
	}
	return append(diffs, testsupport.DiffTotals(got, testsupport.HistoryTotals(recs, fakeexchange.HistoryRecord.Leg))...)
}

// checkTotals fails the test for every way the counted totals differ from
// exact sums over recs.
func checkTotals(t testing.TB, counted []ledger.Total, recs []fakeexchange.HistoryRecord) {
	t.Helper()
	for _, d := range totalsDiff(counted, recs) {
		t.Error(d)
	}
}

// testPoller wraps a poll like the Exporter does, for tests that drive
// polls one by one.
func testPoller(endpoint, account string, poll listPollFunc, now time.Time) *poller {
	return &poller{endpoint: endpoint, account: account, interval: time.Minute, stallAfter: time.Minute, poll: poll,
		logger: log.NewNopLogger(), now: func() time.Time { return now }}
}
