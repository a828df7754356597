package main

import (
	"bytes"
	"compress/gzip"
	"slices"
	"strings"
	"testing"
	"time"
)

// An exposition as the exporter writes it, in OpenMetrics, with families
// around the one read and one whose name begins with its name.
const ageExposition = `# HELP woox_poll_duration_seconds Duration of the last background poll of the endpoint.
# TYPE woox_poll_duration_seconds gauge
woox_poll_duration_seconds{account="acct-000",endpoint="positions"} 0.004
# HELP woox_poll_last_success_timestamp_seconds Unix time of the last successful background poll of the endpoint.
# TYPE woox_poll_last_success_timestamp_seconds gauge
woox_poll_last_success_timestamp_seconds{account="acct-000",endpoint="positions"} 1.7000000035e+09
woox_poll_last_success_timestamp_seconds{account="acct-001",endpoint="positions"} 1700000001.25
woox_poll_last_success_timestamp_seconds{account="acct-000",endpoint="balances"} 1.69999999e+09
woox_poll_last_success_timestamp_seconds{account="",endpoint="system_info"} 1.69999998e+09
# HELP woox_poll_last_success_timestamp_seconds_x Not the family read.
# TYPE woox_poll_last_success_timestamp_seconds_x gauge
woox_poll_last_success_timestamp_seconds_x{account="acct-000",endpoint="positions"} 1
# EOF
`

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestLastSuccessesReadsOnlyItsFamily(t *testing.T) {
	for _, format := range []string{"OpenMetrics", "text"} {
		expo := ageExposition
		if format == "text" {
			expo = strings.TrimSuffix(expo, "# EOF\n")
		}
		got, err := lastSuccesses(strings.NewReader(expo))
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		want := []pollSuccess{
			{"positions", "acct-000", time.Unix(1700000003, 500_000_000)},
			{"positions", "acct-001", time.Unix(1700000001, 250_000_000)},
			{"balances", "acct-000", time.Unix(1699999990, 0)},
			{"system_info", "", time.Unix(1699999980, 0)},
		}
		key := func(p pollSuccess) string { return p.endpoint + " " + p.account }
		slices.SortFunc(got, func(a, b pollSuccess) int { return strings.Compare(key(a), key(b)) })
		slices.SortFunc(want, func(a, b pollSuccess) int { return strings.Compare(key(a), key(b)) })
		if len(got) != len(want) {
			t.Fatalf("%s: %d series, want %d: %v", format, len(got), len(want), got)
		}
		for i := range want {
			// A float of seconds holds a Unix time to a microsecond.
			if key(got[i]) != key(want[i]) || got[i].at.Sub(want[i].at).Abs() > time.Microsecond {
				t.Errorf("%s: series %d = %v, want %v", format, i, got[i], want[i])
			}
		}
	}
}

func TestLastSuccessesRefusesAMalformedSample(t *testing.T) {
	_, err := lastSuccesses(strings.NewReader(`woox_poll_last_success_timestamp_seconds{account="a",endpoint="positions"} soon` + "\n"))
	if err == nil {
		t.Error("no error for a value that is not a number")
	}
}

// Ages are taken from each kept scrape's start, per endpoint, from the time
// the endpoint is judged on.
func TestDataAgesFromTheWarmUpOn(t *testing.T) {
	body := gzipped(t, ageExposition)
	at := time.Unix(1700000006, 0)
	kept := []keptScrape{{at: at, body: body}, {at: at.Add(time.Second), body: body}}
	judgedFrom := map[string]time.Time{
		"positions":   at,                             // both scrapes
		"balances":    at.Add(500 * time.Millisecond), // the second only
		"system_info": at.Add(time.Hour),              // neither
	}
	ages := map[string][]time.Duration{}
	if err := dataAges(ages, kept, judgedFrom); err != nil {
		t.Fatal(err)
	}
	for ep, want := range map[string][]time.Duration{
		"positions": {2500 * time.Millisecond, 4750 * time.Millisecond, 3500 * time.Millisecond, 5750 * time.Millisecond},
		"balances":  {17 * time.Second},
	} {
		got := slices.Sorted(slices.Values(ages[ep]))
		slices.Sort(want)
		if len(got) != len(want) {
			t.Errorf("%s: ages %v, want %v", ep, got, want)
			continue
		}
		for i := range want {
			if (got[i] - want[i]).Abs() > time.Microsecond {
				t.Errorf("%s: ages %v, want %v", ep, got, want)
				break
			}
		}
	}
	if len(ages["system_info"]) != 0 {
		t.Errorf("system_info: ages %v before it is judged", ages["system_info"])
	}

	figures := ageFigures(ages, map[string]time.Duration{"positions": 5 * time.Second, "balances": 15 * time.Second, "system_info": time.Minute})
	if p := figures["positions"]; p.samples != 4 || p.max != 5750*time.Millisecond || p.p50 != 3500*time.Millisecond {
		t.Errorf("positions: %+v, want 4 ages, p50 3.5s, max 5.75s", p)
	}
	if s := figures["system_info"]; s.samples != 0 || ageText(s) != "-" {
		t.Errorf("system_info: %+v (%s), want no age", s, ageText(s))
	}
}

// The sampler keeps a scrape a second, whichever scraper makes it.
func TestAgeSamplerKeepsAScrapeASecond(t *testing.T) {
	s := &ageSampler{every: time.Second}
	t0 := time.Unix(1700000000, 0)
	var kept []bool
	for _, d := range []time.Duration{0, 300 * time.Millisecond, 999 * time.Millisecond, time.Second, 1500 * time.Millisecond, 2100 * time.Millisecond} {
		kept = append(kept, s.want(t0.Add(d)))
	}
	if want := []bool{true, false, false, true, false, true}; !slices.Equal(kept, want) {
		t.Errorf("kept %v, want %v", kept, want)
	}
	var none *ageSampler
	if none.want(t0) {
		t.Error("a nil sampler wants a scrape")
	}
}
