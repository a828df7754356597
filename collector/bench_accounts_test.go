package collector

import (
	"fmt"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/exposition"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// benchAccounts is the number of accounts of BenchmarkScrapeOneAccountChanged.
const benchAccounts = 300

// manyAccounts polls benchAccounts accounts of 20 balances each once, every
// endpoint on.
func manyAccounts(b *testing.B) *Exporter {
	b.Helper()
	s := &fakeexchange.Scenario{}
	for i := range benchAccounts {
		a := mainAccount()
		a.Name, a.Keys[0].APIKey = fmt.Sprintf("acct-%03d", i), fmt.Sprintf("BENCHKEYaaaaaaaaaaaa%04d", i)
		for j := range 20 {
			a.Balances = append(a.Balances, fakeexchange.Balance{Token: fmt.Sprintf("TOK%02d", j), Holding: "1.5", Frozen: "0.5",
				AvailableBalance: "1", MarkPrice: "2.25"})
		}
		s.Accounts = append(s.Accounts, a)
	}
	r := newRig(b, s)
	cfg := r.config()
	cfg.Collectors = map[string]bool{endpoint.SystemInfo: false}
	e := newExporter(b, cfg)
	pollAll(e)
	return e
}

// BenchmarkScrapeOneAccountChanged is a scrape after one account's balances
// changed, a different account each time: what a scrape costs with many
// accounts, whose polls finish between any two scrapes. "all" is the answer
// as served, "data" leaves out the per-scrape families (the poll health of every
// account and endpoint, encoded at every scrape).
func BenchmarkScrapeOneAccountChanged(b *testing.B) {
	e := manyAccounts(b)
	reg := prometheus.NewRegistry()
	balances := e.byName[endpoint.Balances].(*BalancesCollector)
	for _, withPerScrape := range []bool{true, false} {
		b.Run(map[bool]string{true: "all", false: "data"}[withPerScrape], func(b *testing.B) {
			src := e.Source(reg)
			if !withPerScrape {
				src.PerScrape = prometheus.NewRegistry()
			}
			n := 0
			poll := func() {
				l := balances.accounts[n%len(balances.accounts)]
				v := append([]client.Balance(nil), *l.load()...)
				holding := decimal.NewFromInt(int64(n))
				v[0].Holding = &holding
				_ = l.set(v, nil)
				n++
			}
			benchScrape(b, exposition.NewHandler(src, exposition.Options{}), seriesOf(b, e.Gatherer(reg)), poll)
		})
	}
}

// BenchmarkScrapeEveryPartChanged is a scrape after every account's polls
// changed its data (a Prometheus scraping every 15 s of a thousand accounts
// polled every few seconds), beside the floor: promhttp gathering and
// encoding the same families.
func BenchmarkScrapeEveryPartChanged(b *testing.B) {
	e := manyAccounts(b)
	reg := prometheus.NewRegistry()
	b.Run("exporter", func(b *testing.B) {
		src := e.Source(reg)
		moved := newMovedParts(&src)
		all := moved.all()
		benchScrape(b, exposition.NewHandler(src, exposition.Options{}), seriesOf(b, e.Gatherer(reg)), func() { moved.move(all) })
	})
	b.Run("floor", func(b *testing.B) {
		g := e.Gatherer(reg)
		benchScrape(b, promhttp.HandlerFor(g, handlerOpts), seriesOf(b, g), nil)
	})
}
