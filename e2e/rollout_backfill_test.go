package e2e

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/model"
)

// scraped is one series of a scrape and its value.
type scraped struct {
	metric model.Metric
	value  float64
}

// rolloutScrape is what Prometheus would store of one scrape of shard s:
// the series the rules read (woox_*, process_start_time_seconds) with job
// and instance labels, and up.
func rolloutScrape(t *testing.T, s *rolloutShard) []scraped {
	t.Helper()
	target := model.LabelSet{"job": "woox", "instance": model.LabelValue(s.addr)}
	out := []scraped{{model.Metric(target.Merge(model.LabelSet{model.MetricNameLabel: "up"})), 1}}
	for _, smp := range s.p.Scrape(t) {
		name := string(smp.Metric[model.MetricNameLabel])
		if strings.HasPrefix(name, "woox_") || name == "process_start_time_seconds" {
			out = append(out, scraped{model.Metric(model.LabelSet(smp.Metric).Merge(target)), float64(smp.Value)})
		}
	}
	return out
}

// rolloutBackfill is the OpenMetrics text of the scraped series as
// exporters running since from would have shown them every rolloutEvery
// until to: each value as scraped, but process_start_time_seconds (from),
// the poll and state file times (each sample's own), and the times of the
// newest history record and transfer, left out while later than their
// sample (nothing had happened yet). Counters stay level: a quiet past.
func rolloutBackfill(scrapes [][]scraped, from, to time.Time) []byte {
	var all []scraped
	for _, s := range scrapes {
		all = append(all, s...)
	}
	names := make([]string, len(all))
	for i, s := range all {
		names[i] = openMetricsSeries(s.metric)
	}
	var b bytes.Buffer
	for at := from; at.Before(to); at = at.Add(rolloutEvery) {
		now := float64(at.Unix())
		for i, s := range all {
			v := s.value
			switch s.metric[model.MetricNameLabel] {
			case "process_start_time_seconds":
				v = float64(from.Unix())
			case "woox_poll_last_success_timestamp_seconds", "woox_exporter_state_file_last_write_timestamp_seconds":
				v = now
			case "woox_token_history_last_record_timestamp_seconds", "woox_transfer_last_timestamp_seconds":
				if v > now {
					continue
				}
			}
			fmt.Fprintf(&b, "%s %s %d\n", names[i], strconv.FormatFloat(v, 'g', -1, 64), at.Unix())
		}
	}
	b.WriteString("# EOF\n")
	return b.Bytes()
}

// openMetricsSeries is m's name and labels in the OpenMetrics text format,
// labels sorted.
func openMetricsSeries(m model.Metric) string {
	var names []string
	for l := range m {
		if l != model.MetricNameLabel {
			names = append(names, string(l))
		}
	}
	slices.Sort(names)
	esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	var b strings.Builder
	b.WriteString(string(m[model.MetricNameLabel]))
	b.WriteString("{")
	for i, l := range names {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `%s="%s"`, l, esc.Replace(string(m[model.LabelName(l)])))
	}
	b.WriteString("}")
	return b.String()
}
