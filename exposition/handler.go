// Package exposition serves /metrics from two kinds of metric families: the
// live ones (Go, process, client and poll health), gathered and encoded on
// every scrape, and the data ones, which change only when a poll changes
// them. The data families are encoded once per change and per format asked
// for, and every scrape until the next change copies those bytes after the
// live part. A gzip answer is two gzip members, the live one compressed per
// scrape and the cached one compressed once (RFC 1952 allows any number of
// members; Go's and Prometheus' readers read them all); an OpenMetrics
// answer has its one "# EOF" at the end of the cached part.
package exposition

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

// Source is what a Handler serves.
type Source struct {
	// Live is gathered and encoded on every scrape.
	Live prometheus.Gatherer
	// Data returns the families that change only with polls and a
	// generation that changes whenever they do. The families are shared:
	// read only.
	Data func() (mfs []*dto.MetricFamily, generation uint64, err error)
}

// Options tune a Handler.
type Options struct {
	// ErrorLog receives gathering and encoding errors; nil drops them.
	ErrorLog promhttp.Logger
	// Idle is how long an encoding nobody asked for is kept; 10 minutes
	// when zero (several scrape intervals of any common setup).
	Idle time.Duration
	// Now is the clock for Idle; nil means time.Now.
	Now func() time.Time
}

// Handler serves the metrics; see the package comment.
type Handler struct {
	src      Source
	opts     Options
	accepted []expfmt.Format
	// fallback serves what the cache does not: a name[] filter.
	fallback http.Handler

	mu      sync.Mutex
	entries map[cacheKey]*entry
}

// cacheKey is one encoding of the data: the negotiated format (with its
// escaping scheme) and whether it is gzipped.
type cacheKey struct {
	format expfmt.Format
	gzip   bool
}

// entry is the data encoded in one format, for one generation.
type entry struct {
	mu         sync.Mutex
	generation uint64
	valid      bool
	body       []byte
	// names are the data's family names, to refuse a live family of the
	// same name (a family served twice breaks the scrape).
	names    map[string]bool
	err      error
	lastUsed time.Time
}

// NewHandler serves src.
func NewHandler(src Source, opts Options) *Handler {
	if opts.Idle <= 0 {
		opts.Idle = 10 * time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	all := prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) {
		live, err := src.Live.Gather()
		data, _, derr := src.Data()
		return append(live, data...), errors.Join(err, derr)
	})
	return &Handler{
		src: src, opts: opts, accepted: expfmt.DefaultOpenMetricsAcceptedFormats(),
		fallback: promhttp.HandlerFor(all, promhttp.HandlerOpts{ErrorLog: opts.ErrorLog, ErrorHandling: promhttp.ContinueOnError, EnableOpenMetrics: true}),
		entries:  map[cacheKey]*entry{},
	}
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL != nil && len(r.URL.Query()["name[]"]) > 0 {
		h.fallback.ServeHTTP(w, r)
		return
	}
	key := cacheKey{format: expfmt.NegotiateAccept(r.Header, h.accepted...), gzip: acceptsGzip(r.Header.Get("Accept-Encoding"))}
	data, names, err := h.data(key)
	if err != nil {
		h.logf("error gathering or encoding the data metrics: %v", err)
	}
	live, err := h.src.Live.Gather()
	if err != nil {
		h.logf("error gathering the live metrics: %v", err)
	}

	w.Header().Add("Vary", "Accept")
	w.Header().Add("Vary", "Accept-Encoding")
	w.Header().Set("Content-Type", string(key.format))
	var out io.Writer = w
	var gz *gzip.Writer
	if key.gzip {
		w.Header().Set("Content-Encoding", "gzip")
		gz = gzipPool.Get().(*gzip.Writer)
		defer gzipPool.Put(gz)
		gz.Reset(w)
		out = gz
	}
	enc := expfmt.NewEncoder(out, key.format)
	for _, mf := range live {
		if names[mf.GetName()] {
			h.logf("metric family %s is both live and data: served once, as data", mf.GetName())
			continue
		}
		if err := enc.Encode(mf); err != nil {
			h.logf("error encoding metric family %s: %v", mf.GetName(), err)
			return
		}
	}
	// The encoder is not closed: OpenMetrics' "# EOF" ends the data part.
	if gz != nil {
		if err := gz.Close(); err != nil {
			return
		}
	}
	_, _ = w.Write(data)
}

// data returns the data encoded for key, encoding it if the data changed
// since or it was never asked for in this format; scrapes of one format
// share one encoding.
func (h *Handler) data(key cacheKey) ([]byte, map[string]bool, error) {
	now := h.opts.Now()
	h.mu.Lock()
	e, ok := h.entries[key]
	if !ok {
		e = &entry{}
		h.entries[key] = e
	}
	e.lastUsed = now
	for k, old := range h.entries {
		if now.Sub(old.lastUsed) > h.opts.Idle {
			delete(h.entries, k)
		}
	}
	h.mu.Unlock()

	e.mu.Lock()
	defer e.mu.Unlock()
	mfs, gen, err := h.src.Data()
	if e.valid && e.generation == gen {
		return e.body, e.names, e.err
	}
	body, names, encErr := encode(mfs, key)
	e.body, e.names, e.generation, e.valid, e.err = body, names, gen, true, errors.Join(err, encErr)
	return e.body, e.names, e.err
}

// encode writes mfs in key's format, closed (OpenMetrics ends in
// "# EOF"), and gzipped into a member of its own if key says so.
func encode(mfs []*dto.MetricFamily, key cacheKey) ([]byte, map[string]bool, error) {
	var buf bytes.Buffer
	var out io.Writer = &buf
	var gz *gzip.Writer
	if key.gzip {
		gz = gzipPool.Get().(*gzip.Writer)
		defer gzipPool.Put(gz)
		gz.Reset(&buf)
		out = gz
	}
	enc := expfmt.NewEncoder(out, key.format)
	names := make(map[string]bool, len(mfs))
	var errs []error
	for _, mf := range mfs {
		if names[mf.GetName()] {
			errs = append(errs, fmt.Errorf("metric family %s gathered twice", mf.GetName()))
			continue
		}
		names[mf.GetName()] = true
		if err := enc.Encode(mf); err != nil {
			errs = append(errs, fmt.Errorf("encode %s: %w", mf.GetName(), err))
		}
	}
	if c, ok := enc.(expfmt.Closer); ok {
		errs = append(errs, c.Close())
	}
	if gz != nil {
		errs = append(errs, gz.Close())
	}
	return bytes.Clone(buf.Bytes()), names, errors.Join(errs...)
}

// CachedBytes is how many bytes of encoded data the handler holds, over
// every format it keeps.
func (h *Handler) CachedBytes() int {
	h.mu.Lock()
	entries := make([]*entry, 0, len(h.entries))
	for _, e := range h.entries {
		entries = append(entries, e)
	}
	h.mu.Unlock()
	n := 0
	for _, e := range entries {
		e.mu.Lock()
		n += len(e.body)
		e.mu.Unlock()
	}
	return n
}

// Formats is how many encodings the handler keeps.
func (h *Handler) Formats() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.entries)
}

func (h *Handler) logf(format string, args ...any) {
	if h.opts.ErrorLog != nil {
		h.opts.ErrorLog.Println(fmt.Sprintf(format, args...))
	}
}

var gzipPool = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}

// acceptsGzip reports whether an Accept-Encoding header allows gzip: listed
// (or as *) with a q-value above 0.
func acceptsGzip(header string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(k, "q") {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					q = f
				}
			}
		}
		switch strings.ToLower(strings.TrimSpace(coding)) {
		case "gzip", "x-gzip":
			return q > 0
		case "*":
			star = q > 0
		}
	}
	return star
}
