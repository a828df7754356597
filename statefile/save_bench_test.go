package statefile

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/ledger"
)

// BenchmarkSave is the cost of the write that ends every token history poll
// with a state file, and that the poll's counts now wait for before they
// are shown: one account remembering `seen` records (a day's records are
// remembered, for the late window).
func BenchmarkSave(b *testing.B) {
	for _, seen := range []int{100, 3_000, 30_000} {
		b.Run(fmt.Sprintf("seen=%d", seen), func(b *testing.B) {
			l := ledger.New(1_700_000_000_000, ledger.Config{Overlap: 5 * time.Minute, LateWindow: 24 * time.Hour})
			recs := make([]ledger.Record, seen)
			for i := range recs {
				recs[i] = ledger.Record{ID: int64(1_000_000 + i), Type: []string{"DEPOSIT", "CONVERT", "TRANSACTION_FEE"}[i%3],
					Token: []string{"USDT", "BTC", "ETH"}[i%3], Amount: decimal.New(int64(i%1000+1), -3), TimestampMs: 1_700_000_000_000 + int64(i)}
			}
			l.ObservePage(recs, 1_700_000_000_000+int64(seen))
			st := l.Export()
			path := filepath.Join(b.TempDir(), "state.json")
			s, err := Open(path, time.Now(), testSections...)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if err := save(s, "main", st); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			fi, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(fi.Size()), "bytes/save")
		})
	}
}
