package collector

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-kit/log"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// skewTotal serves next, adding skew to meta.total of every token history
// answer: an exchange that over- or understates how many rows it holds. The
// fake exchange has no such fault; the rest of the answer is untouched.
func skewTotal(next http.Handler, skew int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != client.PathTokenHistory {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		var env map[string]any
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber() // ids, timestamps and amounts pass through exactly
		if rec.Code == http.StatusOK && dec.Decode(&env) == nil {
			if data, ok := env["data"].(map[string]any); ok {
				if meta, ok := data["meta"].(map[string]any); ok {
					n, _ := meta["total"].(json.Number).Int64()
					meta["total"] = max(int(n)+skew, 0)
					body, _ = json.Marshal(env)
				}
			}
		}
		for k, v := range rec.Header() {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	})
}

const skewKey, skewSecret = "skew-read-key-0123456789", "SKEW-SECRET"

// skewRig is one account's token history read by the real client from the
// fake exchange through skewTotal, polled by hand.
type skewRig struct {
	fake   *fakeexchange.Exchange
	hist   *historyAccount
	logs   *syncBuffer
	nextID int64
}

func newSkewRig(t *testing.T, skew int) *skewRig {
	t.Helper()
	fake, err := fakeexchange.New(&fakeexchange.Scenario{
		RateLimit: "0/0s",
		Accounts: []fakeexchange.Account{{Name: "main", AccountName: "Main", UserID: 1,
			Keys: []fakeexchange.Key{{APIKey: skewKey, APISecret: skewSecret, Permissions: []string{"READ"}}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(skewTotal(fake, skew))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, Account: "main", APIKey: skewKey, APISecret: skewSecret,
		RateLimit: client.RateLimit{Requests: 1000, Window: time.Second}, Budget: 1})
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	l := ledger.New(time.Now().Add(-time.Hour).UnixMilli(), ledger.Config{Overlap: time.Minute, LateWindow: DefaultHistoryLateWindow})
	a := newHistoryAccount("main", c, l, historyOptions{lateInterval: DefaultHistoryLateInterval}, log.NewLogfmtLogger(logs))
	a.pageSize = 2
	return &skewRig{fake: fake, hist: a, logs: logs, nextID: 1}
}

// add appends n records, stamped a few seconds ago, with exact amounts.
func (r *skewRig) add(t *testing.T, n int) {
	t.Helper()
	var recs []fakeexchange.HistoryRecord
	for range n {
		recs = append(recs, fakeexchange.HistoryRecord{ID: r.nextID, Type: "DEPOSIT", Token: "USDT",
			Amount: "0.100000000000000000000000000001", Timestamp: time.Now().Add(-5 * time.Second).UnixMilli()})
		r.nextID++
	}
	if err := r.fake.AppendHistory("main", recs...); err != nil {
		t.Fatal(err)
	}
}

func (r *skewRig) poll(t *testing.T) {
	t.Helper()
	if err := r.hist.poll(context.Background(), func() {}); err != nil {
		t.Fatalf("poll: %v", err)
	}
}

// checkOnce fails unless every record the fake holds is counted exactly once.
func (r *skewRig) checkOnce(t *testing.T) {
	t.Helper()
	served := r.fake.ServedHistory("main")
	want := decimal.Zero
	for _, rec := range served {
		want = want.Add(decimal.RequireFromString(rec.Amount))
	}
	got := r.hist.ledger.Snapshot().Totals
	if len(got) != 1 || got[0].Records != uint64(len(served)) || !got[0].Inflow.Equal(want) {
		t.Errorf("totals %+v, want %d records with inflow %s, each counted once", got, len(served), want)
	}
}

func (r *skewRig) inconsistent(t *testing.T) float64 {
	t.Helper()
	return sumOf(t, &TokenHistoryCollector{accounts: []*historyAccount{r.hist}}, "woox_token_history_inconsistent_polls_total")
}

// An exchange whose meta.total promises rows it never serves: the first
// poll holds the cursor, the re-read that finds nothing new moves it, every
// record is counted once, and the counter and one warning show it.
func TestTokenHistoryOverstatedTotalAdvancesAfterReRead(t *testing.T) {
	r := newSkewRig(t, 3)
	r.add(t, 5)
	start := r.hist.ledger.Start()

	r.poll(t)
	if r.hist.ledger.Start() != start {
		t.Fatal("cursor moved after a single short read")
	}
	if got := r.inconsistent(t); got != 1 {
		t.Errorf("inconsistent polls = %v after the first poll, want 1", got)
	}
	r.checkOnce(t)

	// The re-read counts nothing, but the counter moved: the exporter
	// must regather the family.
	gen := (&TokenHistoryCollector{accounts: []*historyAccount{r.hist}}).generation()
	r.poll(t)
	if (&TokenHistoryCollector{accounts: []*historyAccount{r.hist}}).generation() == gen {
		t.Error("generation unchanged after an inconsistent poll: the pregathered counter would go stale")
	}
	if r.hist.ledger.Start() <= start {
		t.Fatal("cursor did not move after a re-read found nothing new")
	}
	if got := r.inconsistent(t); got != 2 {
		t.Errorf("inconsistent polls = %v after the re-read, want 2", got)
	}
	r.checkOnce(t)

	// The exchange keeps overstating while records arrive (stamped before
	// the last poll's end, like late records): the poll that finds them
	// re-reads, the next moves the cursor, and nothing is counted twice.
	for range 3 {
		r.add(t, 3)
		before := r.hist.ledger.Start()
		r.poll(t)
		r.poll(t)
		if r.hist.ledger.Start() <= before {
			t.Fatalf("cursor stuck at %d while records arrive", before)
		}
	}
	r.checkOnce(t)
	if n := strings.Count(r.logs.String(), "level=warn"); n != 1 {
		t.Errorf("%d warnings, want one for the whole streak:\n%s", n, r.logs.String())
	}
}

// An exchange whose meta.total is lower than the rows it holds: a client
// that pages until a short page reads them all, and the poll is consistent.
func TestTokenHistoryUnderstatedTotalCountsEveryRecordOnce(t *testing.T) {
	r := newSkewRig(t, -3)
	var pages atomic.Int64
	r.fake.BeforeHistoryPage(func(string, int) { pages.Add(1) })
	r.add(t, 7)
	r.poll(t)
	if n := pages.Load(); n < 4 {
		// 7 rows in pages of 2 need 4 pages; meta.total says 4 rows, 2 pages.
		t.Fatalf("%d history pages fetched, want 4: the client stopped paging at meta.total", n)
	}
	r.checkOnce(t)
	before := r.hist.ledger.Start()
	r.add(t, 2)
	r.poll(t)
	r.checkOnce(t)
	if r.hist.ledger.Start() <= before {
		t.Error("cursor did not move after consistent polls")
	}
	if got := r.inconsistent(t); got != 0 {
		t.Errorf("inconsistent polls = %v, want 0: more rows than meta.total is consistent", got)
	}
}

// The same with the in-memory fake, which always pages to the last row:
// runs whatever the client does today.
func TestTokenHistoryUnderstatedTotalWithFakeAccount(t *testing.T) {
	api := &fakeAccount{now: historyNow, pageSize: 2, totalSkew: -3}
	for i := int64(1); i <= 7; i++ {
		api.addHistory(hrec(i, time.Duration(30-i)*time.Minute, "USDT", "DEPOSIT", "1"))
	}
	a := newTestHistory(api)
	if err := a.poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	if got := a.ledger.Snapshot().Totals; len(got) != 1 || got[0].Records != 7 || !got[0].Inflow.Equal(dec("7")) {
		t.Errorf("totals %+v, want 7 records once", got)
	}
	if a.ledger.Start() == historyNow.Add(-time.Hour).UnixMilli() {
		t.Error("cursor did not move: more rows than meta.total must be consistent")
	}
	if n := a.inconsistent.Load(); n != 0 {
		t.Errorf("inconsistent polls = %d, want 0", n)
	}
}
