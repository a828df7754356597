package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// runtimeReading is what the exporter's own go_* metrics (runtime/metrics,
// through client_golang's Go collector) say at one instant.
type runtimeReading struct {
	mallocs, allocBytes, gcs float64
}

// runtimePath asks only the Go runtime's families, which the exporter
// serves through promhttp when a name[] filter is given: reading them
// costs the exporter next to nothing and re-encodes no data part.
const runtimePath = "/metrics?name[]=go_memstats_mallocs_total&name[]=go_memstats_alloc_bytes_total&name[]=go_gc_duration_seconds"

// readRuntime reads the exporter's allocation and collection counters.
func readRuntime(client *http.Client, base string) (runtimeReading, error) {
	mfs, err := gatherProto(client, base+runtimePath)
	if err != nil {
		return runtimeReading{}, fmt.Errorf("read the exporter's go_* metrics: %w", err)
	}
	var r runtimeReading
	found := 0
	for _, mf := range mfs {
		if len(mf.GetMetric()) == 0 {
			continue
		}
		m := mf.GetMetric()[0]
		switch mf.GetName() {
		case "go_memstats_mallocs_total":
			r.mallocs, found = m.GetCounter().GetValue(), found+1
		case "go_memstats_alloc_bytes_total":
			r.allocBytes, found = m.GetCounter().GetValue(), found+1
		case "go_gc_duration_seconds":
			r.gcs, found = float64(m.GetSummary().GetSampleCount()), found+1
		}
	}
	if found != 3 {
		return r, errors.New("the exporter's /metrics lacks go_memstats_mallocs_total, go_memstats_alloc_bytes_total or go_gc_duration_seconds")
	}
	return r, nil
}

// requestCost is what one request to the exchange cost the exporter, over
// a window with nobody scraping: CPU, heap allocations and bytes, and
// garbage collections a minute.
type requestCost struct {
	cpu           time.Duration
	allocs, bytes float64
	gcsPerMinute  float64
}

// costPerRequest divides what the process spent between two readings by
// the requests it sent meanwhile.
func costPerRequest(cpu time.Duration, before, after runtimeReading, requests int, window time.Duration) requestCost {
	c := requestCost{gcsPerMinute: (after.gcs - before.gcs) / window.Minutes()}
	if requests > 0 {
		c.cpu = cpu / time.Duration(requests)
		c.allocs = (after.mallocs - before.mallocs) / float64(requests)
		c.bytes = (after.allocBytes - before.allocBytes) / float64(requests)
	}
	return c
}

// profiles takes a CPU profile and an allocation profile of the exporter
// over d (Go's delta profiles, through --web.enable-profiling) and writes
// them into dir as PREFIX-cpu.pprof and PREFIX-allocs.pprof. It returns at
// once; the returned wait blocks until both are written.
func profiles(ctx context.Context, base, dir, prefix string, d time.Duration) (wait func() error) {
	client := &http.Client{Timeout: d + time.Minute}
	seconds := int(d.Seconds())
	errs := make(chan error, 2)
	for _, p := range []struct{ path, file string }{
		{fmt.Sprintf("/debug/pprof/profile?seconds=%d", seconds), prefix + "-cpu.pprof"},
		{fmt.Sprintf("/debug/pprof/allocs?seconds=%d", seconds), prefix + "-allocs.pprof"},
	} {
		go func() { errs <- fetchProfile(ctx, client, base+p.path, filepath.Join(dir, p.file)) }()
	}
	return func() error { return errors.Join(<-errs, <-errs) }
}

// fetchProfile writes what url answers into file.
func fetchProfile(ctx context.Context, client *http.Client, url, file string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("profile: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("profile %s: status %d (is --web.enable-profiling set?)", url, resp.StatusCode)
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	fmt.Printf("profile: %s\n", file)
	return f.Close()
}
