package ledger

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// reconcileRig is a ledger fed balances answers and history reads at
// minutes after t0.
type reconcileRig struct {
	t  *testing.T
	l  *Ledger
	id int64
}

const t0 = int64(1_800_000_000_000)

func minute(m int) int64 { return t0 + int64(m)*time.Minute.Milliseconds() }

func newReconcileRig(t *testing.T) *reconcileRig {
	l := New(t0-time.Hour.Milliseconds(), Config{Overlap: 5 * time.Minute, LateWindow: 24 * time.Hour})
	l.ReconcileBalances()
	return &reconcileRig{t: t, l: l}
}

func holdings(atMs int64, kv ...string) Holdings {
	h := Holdings{TimeMs: atMs, Tokens: map[string]decimal.Decimal{}}
	for i := 0; i < len(kv); i += 2 {
		h.Tokens[kv[i]] = decimal.RequireFromString(kv[i+1])
	}
	return h
}

// read counts records as one history read of the query window ending at endMs.
func (x *reconcileRig) read(endMs int64, recs ...Record) {
	x.l.ObservePage(recs, endMs)
	x.l.Complete(endMs)
}

func (x *reconcileRig) rec(atMs int64, token, amount string) Record {
	x.id++
	return Record{ID: x.id, Token: token, Type: "DEPOSIT", Amount: decimal.RequireFromString(amount), TimestampMs: atMs}
}

// want checks the unexplained change, token by token, exactly.
func (x *reconcileRig) want(what string, kv ...string) {
	x.t.Helper()
	got, ok := x.l.Unexplained()
	if !ok {
		x.t.Fatalf("%s: no reconciliation yet", what)
	}
	want := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		want[kv[i]] = kv[i+1]
	}
	texts := map[string]string{}
	for token, d := range got {
		texts[token] = d.String()
	}
	if !maps.Equal(texts, want) {
		x.t.Errorf("%s: unexplained %v, want %v", what, texts, want)
	}
}

func TestReconcileExplainedChangesReadZero(t *testing.T) {
	x := newReconcileRig(t)
	if _, ok := x.l.Unexplained(); ok {
		t.Fatal("reconciled before any balances answer")
	}
	x.l.ObserveBalances(holdings(minute(0), "USDT", "1000", "BTC", "1"))
	x.want("baseline", "USDT", "0", "BTC", "0")
	x.read(minute(1), x.rec(minute(0)+1, "USDT", "250.5"), x.rec(minute(1), "BTC", "-0.25"))
	x.l.ObserveBalances(holdings(minute(1), "USDT", "1250.5", "BTC", "0.75"))
	x.want("deposit and withdrawal", "USDT", "0", "BTC", "0")
}

func TestReconcileUnrecordedMoveReadsItsAmountExactly(t *testing.T) {
	x := newReconcileRig(t)
	x.l.ObserveBalances(holdings(minute(0), "USDT", "1000.000000000000000000000000000001"))
	x.read(minute(1), x.rec(minute(1), "USDT", "0.000000000000000000000000000001"))
	// 0.1 more than the records explain, at 30 decimals.
	x.l.ObserveBalances(holdings(minute(1), "USDT", "1000.100000000000000000000000000002"))
	x.want("unrecorded move", "USDT", "0.1")
	// It stays: the next explained change adds nothing.
	x.read(minute(2), x.rec(minute(2), "USDT", "-100"))
	x.l.ObserveBalances(holdings(minute(2), "USDT", "900.100000000000000000000000000002"))
	x.want("after an explained change", "USDT", "0.1")
}

func TestReconcileWaitsForTheHistoryToReadPastTheSnapshot(t *testing.T) {
	x := newReconcileRig(t)
	x.l.ObserveBalances(holdings(minute(0), "USDT", "100"))
	x.read(minute(1), x.rec(minute(1), "USDT", "50"))
	x.l.ObserveBalances(holdings(minute(1), "USDT", "150"))
	x.want("explained", "USDT", "0")
	// The deposit at 1m30 shows in the 2m snapshot before the history
	// has been read up to 2m: nothing is compared yet.
	x.l.ObserveBalances(holdings(minute(2), "USDT", "175"))
	x.want("history not read past the snapshot", "USDT", "0")
	x.read(minute(2), x.rec(minute(1)+30_000, "USDT", "25"))
	x.want("history read past it", "USDT", "0")
	// A record after the snapshot waits for a later snapshot.
	x.read(minute(3), x.rec(minute(3), "USDT", "5"))
	x.want("a record after the compared snapshot", "USDT", "0")
	x.l.ObserveBalances(holdings(minute(3), "USDT", "180"))
	x.want("the next snapshot", "USDT", "0")
}

func TestReconcileLateRecordExplainsItsChangeWhenItArrives(t *testing.T) {
	x := newReconcileRig(t)
	x.l.ObserveBalances(holdings(minute(0), "USDT", "100"))
	late := x.rec(minute(1), "USDT", "40")
	x.read(minute(2))
	x.l.ObserveBalances(holdings(minute(2), "USDT", "140"))
	x.want("before the late record", "USDT", "40")
	x.read(minute(3), late) // the late sweep finds it
	x.want("after the late record", "USDT", "0")
	// A record dated before the first baseline explains nothing here.
	x.read(minute(4), x.rec(minute(0)-1, "USDT", "7"))
	x.want("a record from before the baseline", "USDT", "0")
}

func TestReconcileTokensAppearAndDisappearFromZero(t *testing.T) {
	x := newReconcileRig(t)
	x.l.ObserveBalances(holdings(minute(0), "USDT", "10"))
	x.read(minute(1))
	x.l.ObserveBalances(holdings(minute(1), "ETH", "2"))
	x.want("USDT gone, ETH new, neither recorded", "USDT", "-10", "ETH", "2")
	x.read(minute(2), x.rec(minute(2), "ETH", "-2"), x.rec(minute(2), "ETH", "2"), x.rec(minute(2), "USDT", "10"))
	x.l.ObserveBalances(holdings(minute(2), "ETH", "2", "USDT", "10"))
	x.want("explained changes after", "USDT", "-10", "ETH", "2")
}

// With a state file, money that moved with no record while the exporter
// was down shows after the restart.
func TestReconcileSurvivesARestart(t *testing.T) {
	x := newReconcileRig(t)
	x.l.ObserveBalances(holdings(minute(0), "USDT", "100"))
	// Read up to 6m; the record of 5m waits for a snapshot after it.
	x.read(minute(6), x.rec(minute(1), "USDT", "1"), x.rec(minute(5), "USDT", "2"))
	x.l.ObserveBalances(holdings(minute(1), "USDT", "101"))
	b, err := json.Marshal(x.l.Export())
	if err != nil {
		t.Fatal(err)
	}
	var st State
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	restored, err := FromState(st, x.l.cfg)
	if err != nil {
		t.Fatal(err)
	}
	restored.ReconcileBalances()
	x.l = restored
	x.want("restored", "USDT", "0")
	// Down from 1m to 10m: the pending record of 5m (2) is explained, 30
	// moved without one.
	x.read(minute(10))
	x.l.ObserveBalances(holdings(minute(10), "USDT", "133"))
	x.want("after the restart", "USDT", "30")
}

func TestReconcileStateErrors(t *testing.T) {
	for _, st := range []*ReconcileState{
		{Base: map[string]string{"USDT": "secret-x"}},
		{Base: map[string]string{}, Unexplained: map[string]string{"USDT": "1.2.3secret"}},
		{Base: map[string]string{}, Pending: []PendingRecord{{Token: "USDT", Amount: "secret"}}},
	} {
		l := New(t0, Config{})
		exported := l.Export()
		exported.Reconcile = st
		_, err := FromState(exported, Config{})
		if err == nil {
			t.Errorf("state %+v restored", st)
			continue
		}
		// The error names the field and the token, never the value.
		if strings.Contains(err.Error(), "secret") || !strings.HasSuffix(err.Error(), "USDT: not a decimal") {
			t.Errorf("state %+v: %v, want the token and \"not a decimal\" without the value", st, err)
		}
	}
}

// Without balances polled, the ledger keeps and saves nothing for the
// reconciliation; before the first balances answer it keeps only the
// records that may be dated after it.
func TestReconcileKeepsNothingWithoutBalances(t *testing.T) {
	l := New(t0, Config{})
	l.ObservePage([]Record{{ID: 1, Token: "USDT", Amount: decimal.NewFromInt(1), TimestampMs: minute(1)}}, minute(1))
	if len(l.rec.pending) != 0 || l.Export().Reconcile != nil {
		t.Errorf("kept %d records, saved %+v without balances", len(l.rec.pending), l.Export().Reconcile)
	}
	l.ReconcileBalances()
	for i := range 100 {
		l.ObservePage([]Record{{ID: int64(i + 2), Token: "USDT", Amount: decimal.NewFromInt(1), TimestampMs: minute(i)}}, minute(i))
	}
	if n := len(l.rec.pending); n > 16 {
		t.Errorf("%d records kept before the first balances answer, want those of the last 15 minutes", n)
	}
}

// An answer older than the one waiting for the history (answers arriving
// out of order) does not replace it.
func TestReconcileKeepsTheNewestWaitingSnapshot(t *testing.T) {
	x := newReconcileRig(t)
	x.l.ObserveBalances(holdings(minute(0), "USDT", "100"))
	x.l.ObserveBalances(holdings(minute(2), "USDT", "130"))
	x.l.ObserveBalances(holdings(minute(1), "USDT", "999"))
	x.read(minute(2), x.rec(minute(1), "USDT", "10"), x.rec(minute(2), "USDT", "20"))
	x.want("compared with the newest answer", "USDT", "0")
}
