package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// runtimeSample is what the exporter's runtime/metrics say at one
// instant (its /debug/runtime-metrics, served with --web.enable-profiling).
type runtimeSample struct {
	allocs, allocBytes, gcs, gcCPU float64
}

// readRuntime reads the exporter's allocation and collection counters.
// Unlike /metrics it gathers and encodes nothing: a full gather at a
// thousand accounts would allocate more than a minute of polls, and raise
// the peak RSS measured after.
func readRuntime(client *http.Client, base string) (runtimeSample, error) {
	resp, err := client.Get(base + "/debug/runtime-metrics")
	if err != nil {
		return runtimeSample{}, fmt.Errorf("read the exporter's runtime metrics: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return runtimeSample{}, fmt.Errorf("read the exporter's runtime metrics: status %d", resp.StatusCode)
	}
	values := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if name, v, ok := strings.Cut(sc.Text(), " "); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				values[name] = f
			}
		}
	}
	if err := sc.Err(); err != nil {
		return runtimeSample{}, err
	}
	r := runtimeSample{}
	for name, dst := range map[string]*float64{"/gc/heap/allocs:objects": &r.allocs, "/gc/heap/allocs:bytes": &r.allocBytes,
		"/gc/cycles/total:gc-cycles": &r.gcs, "/cpu/classes/gc/total:cpu-seconds": &r.gcCPU} {
		v, ok := values[name]
		if !ok {
			return r, fmt.Errorf("the exporter's runtime metrics lack %s", name)
		}
		*dst = v
	}
	return r, nil
}

// requestCost is what one request to the exchange cost the exporter, over
// an idle window, nobody scraping: CPU, heap allocations and bytes, and
// garbage collections a minute.
type requestCost struct {
	cpu           time.Duration
	allocs, bytes float64
	gcsPerMinute  float64
	// gcShare is the part of the CPU the runtime counts as garbage
	// collection (its own estimate, /cpu/classes/gc/total:cpu-seconds).
	gcShare float64
}

// costPerRequest divides what the process spent between two samples by
// the requests it sent meanwhile.
func costPerRequest(cpu time.Duration, before, after runtimeSample, requests int, idle time.Duration) requestCost {
	c := requestCost{gcsPerMinute: (after.gcs - before.gcs) / idle.Minutes()}
	if requests > 0 {
		c.cpu = cpu / time.Duration(requests)
		c.allocs = (after.allocs - before.allocs) / float64(requests)
		c.bytes = (after.allocBytes - before.allocBytes) / float64(requests)
	}
	if cpu > 0 {
		c.gcShare = (after.gcCPU - before.gcCPU) / cpu.Seconds()
	}
	return c
}

// profiles takes a CPU profile and an allocation profile of the exporter
// over d (Go's delta profiles) and writes
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
