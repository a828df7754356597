package collector

import (
	"bytes"
	"cmp"
	"context"
	"flag"
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

// fakeNetworks is a TokenNetworkAPI returning fixed rows or an error, and
// blocking while block is open.
type fakeNetworks struct {
	mu    sync.Mutex
	rows  []client.TokenNetwork
	err   error
	block chan struct{}
}

func (f *fakeNetworks) set(rows []client.TokenNetwork, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rows, f.err = rows, err
}

func (f *fakeNetworks) TokenNetworks(ctx context.Context) ([]client.TokenNetwork, error) {
	f.mu.Lock()
	rows, err, block := f.rows, f.err, f.block
	f.mu.Unlock()
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return slices.Clone(rows), err
}

// fakeAccount is an AccountAPI over in-memory credentials and history,
// served newest first like the exchange.
type fakeAccount struct {
	mu       sync.Mutex
	creds    []client.Credential
	credsErr error
	history  []client.HistoryRecord
	histErr  error
	pageSize int
	now      time.Time
	// afterPage runs after page n was handed to the caller; it may block.
	afterPage func(ctx context.Context, page int) error
	queries   []client.HistoryQuery
	// totalSkew is added to meta.total; paging still goes to the last row.
	totalSkew int

	info        client.AccountInfo
	balances    []client.Balance
	transfers   []client.Transfer
	walletCalls [][2]int64
	subAccounts []client.SubAccount
	// healthErr fails the account info, balances, wallet and sub-accounts
	// calls.
	healthErr error
}

func (f *fakeAccount) AccountInfo(context.Context) (client.AccountInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.info, f.healthErr
}

func (f *fakeAccount) Balances(context.Context) ([]client.Balance, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.balances), f.healthErr
}

// WalletHistory serves the transfers created within the window, as the
// exchange filters them.
func (f *fakeAccount) WalletHistory(_ context.Context, startMs, endMs int64) ([]client.Transfer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.walletCalls = append(f.walletCalls, [2]int64{startMs, endMs})
	var out []client.Transfer
	for _, t := range f.transfers {
		if t.CreatedMs >= startMs && t.CreatedMs <= endMs {
			out = append(out, t)
		}
	}
	return out, f.healthErr
}

func (f *fakeAccount) SubAccounts(context.Context) ([]client.SubAccount, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.subAccounts), f.healthErr
}

func (f *fakeAccount) Credentials(context.Context) ([]client.Credential, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.creds), f.credsErr
}

func (f *fakeAccount) ServerNow() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeAccount) TokenHistoryPages(ctx context.Context, q client.HistoryQuery, fn func(client.HistoryPage) error) error {
	f.mu.Lock()
	f.queries = append(f.queries, q)
	size := cmp.Or(f.pageSize, 1000)
	f.mu.Unlock()
	for page := 1; ; page++ {
		f.mu.Lock()
		if f.histErr != nil {
			err := f.histErr
			f.mu.Unlock()
			return err
		}
		var match []client.HistoryRecord
		for _, r := range f.history {
			if r.Timestamp >= q.StartTime && r.Timestamp <= q.EndTime {
				match = append(match, r)
			}
		}
		after, skew := f.afterPage, f.totalSkew
		f.mu.Unlock()
		slices.SortFunc(match, func(a, b client.HistoryRecord) int {
			return cmp.Or(cmp.Compare(b.Timestamp, a.Timestamp), cmp.Compare(b.ID, a.ID))
		})
		lo, hi := min((page-1)*size, len(match)), min(page*size, len(match))
		if err := fn(client.HistoryPage{Records: match[lo:hi], Meta: client.PageMeta{Total: max(len(match)+skew, 0), RecordsPerPage: size, CurrentPage: page}}); err != nil {
			return err
		}
		if after != nil {
			if err := after(ctx, page); err != nil {
				return err
			}
		}
		if hi-lo < size || page*size >= len(match) {
			return nil
		}
	}
}

func (f *fakeAccount) addHistory(rs ...client.HistoryRecord) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.history = append(f.history, rs...)
}

// syncBuffer is a log destination safe for concurrent writers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// testPoller wraps a pollFunc like the Exporter does, for tests that drive
// polls one by one.
func testPoller(endpoint, account string, poll pollFunc, now time.Time) *poller {
	return &poller{endpoint: endpoint, account: account, interval: time.Minute, stallAfter: time.Minute, poll: poll,
		logger: log.NewNopLogger(), now: func() time.Time { return now }}
}
