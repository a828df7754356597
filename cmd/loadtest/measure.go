package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"

	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// prometheusAccept is the Accept header Prometheus 3 sends by default.
const prometheusAccept = "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.5," +
	"application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.3," +
	"text/plain;version=0.0.4;q=0.2,*/*;q=0.1"

const protoAccept = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited"

// scrape fetches url as Prometheus does and returns the compressed size.
func scrape(client *http.Client, url string) (int64, error) { return scrapeSampled(client, url, nil) }

// scrapeSampled is scrape, handing the body to s when it wants one.
func scrapeSampled(client *http.Client, url string, s *ageSampler) (int64, error) {
	began := time.Now()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", prometheusAccept)
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("X-Prometheus-Scrape-Timeout-Seconds", "10")
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var kept *bytes.Buffer
	w := io.Discard
	if s.want(began) {
		kept = &bytes.Buffer{}
		w = kept
	}
	n, err := io.Copy(w, resp.Body)
	if err != nil {
		return n, err
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "gzip" {
		return n, fmt.Errorf("scrape %s: status %d, Content-Encoding %q", url, resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
	if kept != nil {
		s.keep(began, kept.Bytes())
	}
	return n, nil
}

// paced scrapes url every interval for d, as Prometheus does, handing s the
// bodies it wants.
func paced(client *http.Client, url string, every, d time.Duration, s *ageSampler) error {
	next := time.Now()
	for end := next.Add(d); next.Before(end); next = next.Add(every) {
		time.Sleep(time.Until(next))
		if _, err := scrapeSampled(client, url, s); err != nil {
			return err
		}
	}
	return nil
}

// sequential scrapes url back to back for d and returns every scrape time.
func sequential(client *http.Client, url string, d time.Duration) ([]time.Duration, int64, error) {
	var lat []time.Duration
	var size int64
	for end := time.Now().Add(d); time.Now().Before(end); {
		t := time.Now()
		n, err := scrape(client, url)
		if err != nil {
			return nil, 0, err
		}
		lat = append(lat, time.Since(t))
		size = n
	}
	return lat, size, nil
}

// concurrent runs n scrapers against url for d and returns how many scrapes
// they completed and how long they took.
func concurrent(client *http.Client, url string, n int, d time.Duration) (int64, time.Duration, error) {
	var count atomic.Int64
	var firstErr atomic.Pointer[error]
	var wg sync.WaitGroup
	start := time.Now()
	end := start.Add(d)
	for range n {
		wg.Go(func() {
			for time.Now().Before(end) {
				if _, err := scrape(client, url); err != nil {
					firstErr.CompareAndSwap(nil, &err)
					return
				}
				count.Add(1)
			}
		})
	}
	wg.Wait()
	if e := firstErr.Load(); e != nil {
		return 0, 0, *e
	}
	return count.Load(), time.Since(start), nil
}

// gatherProto fetches url in the delimited protobuf format and returns its
// metric families.
func gatherProto(client *http.Client, url string) ([]*dto.MetricFamily, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", protoAccept)
	// gzip, as Prometheus asks: an identity answer would stay cached in
	// the exporter for a format no scraper uses.
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: status %d", url, resp.StatusCode)
	}
	body := io.Reader(resp.Body)
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, err
		}
		body = zr
	}
	dec := expfmt.NewDecoder(body, expfmt.NewFormat(expfmt.TypeProtoDelim))
	var mfs []*dto.MetricFamily
	for {
		mf := &dto.MetricFamily{}
		if err := dec.Decode(mf); errors.Is(err, io.EOF) {
			return mfs, nil
		} else if err != nil {
			return nil, err
		}
		mfs = append(mfs, mf)
	}
}

// valueOf returns the value of the first series of family name whose label
// has the given value.
func valueOf(mfs []*dto.MetricFamily, name, label, value string) (float64, bool) {
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if lp.GetName() == label && lp.GetValue() == value {
					return m.GetGauge().GetValue() + m.GetCounter().GetValue() + m.GetUntyped().GetValue(), true
				}
			}
		}
	}
	return 0, false
}

// sumOf is the sum of the counters of family name.
func sumOf(mfs []*dto.MetricFamily, name string) float64 {
	var s float64
	for _, mf := range mfs {
		if mf.GetName() == name {
			for _, m := range mf.GetMetric() {
				s += m.GetCounter().GetValue()
			}
		}
	}
	return s
}

// requestCount is how many requests the fake received, how many of them
// it answered 429, and how many each endpoint received.
type requestCount struct {
	total, tooMany int
	byEndpoint     map[string]int
}

// countRequests counts the requests the fake received in [from, to).
func countRequests(fake *fakeexchange.Exchange, from, to time.Time) requestCount {
	c := requestCount{byEndpoint: map[string]int{}}
	for _, q := range fake.Requests() {
		if q.Time.Before(from) || !q.Time.Before(to) {
			continue
		}
		c.total++
		c.byEndpoint[q.Endpoint]++
		if q.Status == http.StatusTooManyRequests {
			c.tooMany++
		}
	}
	return c
}

// quantile is the q-quantile of d (nearest rank).
func quantile(d []time.Duration, q float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(math.Ceil(q*float64(len(s))))-1)]
}
