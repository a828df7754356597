package collector

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// asText gathers g and renders it as text; it fails on a gather error.
func asText(t *testing.T, g prometheus.Gatherer) string {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, mf := range mfs {
		if _, err := expfmt.MetricFamilyToText(&buf, mf); err != nil {
			t.Fatal(err)
		}
	}
	return buf.String()
}

func TestGathererServesExactlyWhatTheCollectorsExportAfterEachPoll(t *testing.T) {
	r := newTestRig(t)
	r.add(t, hrec(1, 30*time.Minute, "USDT", "DEPOSIT", "1.5"))
	e := newExporter(t, testConfig(r))
	plain := prometheus.NewPedanticRegistry()
	plain.MustRegister(e.collectors...)
	g := e.Gatherer(prometheus.NewRegistry())
	if got, want := asText(t, g), asText(t, plain); got != want {
		t.Fatalf("before any poll, Gatherer serves\n%s\nthe collectors export\n%s", got, want)
	}
	for round := range 2 {
		if round == 1 {
			r.add(t, hrec(2, 10*time.Minute, "BTC", "WITHDRAW", "-0.25"))
			r.listCredentials(t, credentialRows()[1:3])
			r.listTokenNetworks(t, tokenNetworkRows()[1:])
		}
		pollAll(e)
		got, want := asText(t, g), asText(t, plain)
		if got != want {
			t.Fatalf("after poll %d, Gatherer serves\n%s\nthe collectors export\n%s", round+1, got, want)
		}
		if !strings.Contains(got, "woox_token_history_records_total") || !strings.Contains(got, "woox_poll_success") {
			t.Fatalf("after poll %d, exposition lacks history or poll health:\n%s", round+1, got)
		}
	}
}

func TestGathererShowsEachPageOfAPollInProgressWithoutWaiting(t *testing.T) {
	r := newTestRig(t)
	r.add(t, hrec(1, 30*time.Minute, "USDT", "DEPOSIT", "1"), hrec(2, 20*time.Minute, "USDT", "DEPOSIT", "2"))
	pageServed, release := r.holdHistoryPage(t, 2)
	e := newExporter(t, testConfig(r))
	setPageSize(e, 1)
	run(t, e)

	<-pageServed
	g := e.Gatherer(prometheus.NewRegistry())
	gathered := make(chan string)
	go func() { gathered <- asText(t, g) }()
	select {
	case text := <-gathered:
		if !strings.Contains(text, `woox_token_history_records_total{account="main",token="USDT",transaction_type="DEPOSIT"} 1`+"\n") {
			t.Errorf("while the poll hangs after page 1, want 1 record counted:\n%s", text)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Gather did not complete within 2s while a poll was in progress")
	}
	release()
	testsupport.WaitFor(t, "every first poll", e.Ready)
	if text := asText(t, g); !strings.Contains(text, `transaction_type="DEPOSIT"} 2`+"\n") {
		t.Errorf("after the poll, want 2 records counted:\n%s", text)
	}
}

func TestHistoryPartChangesOnlyWhenRecordsWereCounted(t *testing.T) {
	l := ledger.New(historyNow.Add(-time.Hour).UnixMilli(), ledger.Config{Overlap: 5 * time.Minute, LateWindow: DefaultHistoryLateWindow})
	a := newHistoryAccount("main", nil, l, nil, historyOptions{lateInterval: DefaultHistoryLateInterval}, log.NewNopLogger())
	pg := newDataPart(&TokenHistoryCollector{accounts: []*historyAccount{a}})
	pg.Refresh()
	first := pg.Generation()
	pg.Refresh()
	if pg.Generation() != first {
		t.Fatal("the generation moved although nothing was counted")
	}
	end := historyNow.UnixMilli()
	if l.ObservePage(toLedger([]client.HistoryRecord{deposit(1, 10*time.Minute)}), end).Counted != 1 {
		t.Fatal("record not counted")
	}
	a.show(l.Snapshot())
	pg.Refresh()
	if pg.Generation() == first {
		t.Fatal("the generation did not move after a record was counted")
	}
	mfs, err := pg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	if got := asText(t, static(mfs)); !strings.Contains(got, `transaction_type="DEPOSIT"} 1`) {
		t.Errorf("the gather does not show the record:\n%s", got)
	}
}

func TestTokenNetworkPartChangesOnlyWhenTheListChanged(t *testing.T) {
	r := newTestRig(t)
	c := newTokenNetworkCollector(r.public, nil, nil)
	pg := newDataPart(c)
	poll := refreshing(pg, c.poll)
	if _, err := poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	first := pg.Generation()
	if _, err := poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	if pg.Generation() != first {
		t.Fatal("an unchanged list moved the generation")
	}
	rows := tokenNetworkRows()
	rows[0].AllowWithdraw = 1 - rows[0].AllowWithdraw
	r.listTokenNetworks(t, rows)
	if _, err := poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	if pg.Generation() == first {
		t.Fatal("a changed withdrawal flag did not move the generation")
	}
}

// The end of a poll whose last page already moved the generation does not
// move it again, so the exposition handler does not encode the same
// families twice.
func TestEndOfPollAfterAPageKeepsTheGeneration(t *testing.T) {
	l := ledger.New(historyNow.Add(-time.Hour).UnixMilli(), ledger.Config{Overlap: 5 * time.Minute, LateWindow: DefaultHistoryLateWindow})
	a := newHistoryAccount("main", nil, l, nil, historyOptions{lateInterval: DefaultHistoryLateInterval}, log.NewNopLogger())
	pg := newDataPart(&TokenHistoryCollector{accounts: []*historyAccount{a}})
	pg.Refresh()
	before := pg.Generation()
	if l.ObservePage(toLedger([]client.HistoryRecord{deposit(1, 10*time.Minute)}), historyNow.UnixMilli()).Counted != 1 {
		t.Fatal("record not counted")
	}
	a.show(l.Snapshot())
	pg.Refresh() // the page
	page := pg.Generation()
	if page == before {
		t.Fatal("a page that counted a record did not move the generation")
	}
	pg.Refresh() // the end of the poll
	if pg.Generation() != page {
		t.Error("the end of the poll moved the generation although nothing changed since the page")
	}
}

// deposit is a client's record of a deposit of 5 USDT, ago before
// historyNow, for tests that hand records to the ledger.
func deposit(id int64, ago time.Duration) client.HistoryRecord {
	return client.HistoryRecord{ID: id, Timestamp: historyNow.Add(-ago).UnixMilli(), Token: "USDT", Type: "DEPOSIT", Amount: dec("5")}
}

// static gathers mfs as they are.
func static(mfs []*dto.MetricFamily) prometheus.Gatherer {
	return prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) { return mfs, nil })
}
