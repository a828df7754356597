// Package exposition serves /metrics from two kinds of metric families: the
// per-scrape ones (Go, process, build), gathered and encoded on every scrape, and
// the data ones, which change only when a poll changes them. The data
// families come in parts (one per account and collector, say), each kept
// encoded in each format asked for, and encoded again only when it
// changed: every answer holds the data as it was at most Options.MaxAge
// before it began (refresh.go). A scrape stitches the parts' encodings
// into one answer, each family written once, its metrics in part order.
// Parts makes the parts of a set of collectors: each whole, or a Split a
// part per account, gathered as a registry would without one. A
// gzipped format keeps each part's metrics of each family as a gzip member,
// compressed once per change of that part; an answer is the per-scrape families'
// member, then the data's members one after another, the headers between them as
// stored members (RFC 1952 allows any number of members; Go's and
// Prometheus' readers read them all); an OpenMetrics answer has its one
// "# EOF" at the end.
package exposition

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

// Source is what a Handler serves.
type Source struct {
	// PerScrape is gathered and encoded on every scrape.
	PerScrape prometheus.Gatherer
	// Data returns the families that change only with polls, in parts
	// that change independently (one per account, say): a change gathers
	// and re-encodes only its part. The parts, and their number, are the
	// same at every call. A family may be in several parts: it is served
	// once, with its metrics in part order, so the parts must be in the
	// order a registry sorts their metrics in (by the value of a family's
	// first label name, when each part holds one value of it).
	Data func() []Part
}

// Part is one independently changing set of data families.
type Part struct {
	// Generation changes whenever the families do; read before Gather.
	Generation uint64
	// Gather returns the families, called only when they are to be
	// encoded: they are not kept after.
	Gather func() ([]*dto.MetricFamily, error)
}

// Options tune a Handler.
type Options struct {
	// ErrorLog receives gathering and encoding errors; nil drops them.
	ErrorLog promhttp.Logger
	// Idle is how long an encoding nobody asked for is kept, and kept up
	// to date; 2 minutes when zero (longer than any common scrape
	// interval: keeping a format up to date costs an encoding of every
	// change). A format is kept from Prometheus' first scrape, or else
	// from its second request within Idle.
	Idle time.Duration
	// MaxAge is how much older than the answer the data it holds may be:
	// a change older than MaxAge is in every answer. 1 s when zero.
	MaxAge time.Duration
	// Now is the clock for Idle and MaxAge; nil means time.Now.
	Now func() time.Time
	// MaxEncodings is how many scrapes may encode at once (the per-scrape
	// families, and the data's changes when the refresher is behind);
	// more wait their turn, or until their client gives up. Encoding is
	// CPU bound, so more at once than CPUs raise memory, not throughput.
	// 0 is no limit. The refresher takes none: it never delays a scrape.
	MaxEncodings int
	// Workers is how many goroutines encode many changed parts at once;
	// 0 or 1 is one.
	Workers int
}

// Handler serves the metrics; see the package comment.
type Handler struct {
	src      Source
	opts     Options
	accepted []expfmt.Format
	// fallback serves what the cache does not: a name[] filter, the
	// protobuf text formats.
	fallback http.Handler

	// encodings holds a token per scrape encoding; nil is no limit.
	encodings chan struct{}

	mu      sync.Mutex
	entries map[cacheKey]*entry
	// askedOnce are the formats asked for once, not kept yet, and when.
	askedOnce map[cacheKey]time.Time
	// refresherRuns is whether the refresher runs: from the first format
	// kept until none is.
	refresherRuns bool
}

// NewHandler serves src.
func NewHandler(src Source, opts Options) *Handler {
	if opts.Idle <= 0 {
		opts.Idle = 2 * time.Minute
	}
	if opts.MaxAge <= 0 {
		opts.MaxAge = time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	all := prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) {
		gs := prometheus.Gatherers{src.PerScrape}
		for _, p := range src.Data() {
			gs = append(gs, prometheus.GathererFunc(p.Gather))
		}
		return gs.Gather()
	})
	var encodings chan struct{}
	if opts.MaxEncodings > 0 {
		encodings = make(chan struct{}, opts.MaxEncodings)
	}
	return &Handler{
		src: src, opts: opts, accepted: expfmt.DefaultOpenMetricsAcceptedFormats(), encodings: encodings,
		fallback: promhttp.HandlerFor(all, promhttp.HandlerOpts{ErrorLog: opts.ErrorLog, ErrorHandling: promhttp.ContinueOnError, EnableOpenMetrics: true}),
		entries:  map[cacheKey]*entry{}, askedOnce: map[cacheKey]time.Time{},
	}
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := cacheKey{format: expfmt.NegotiateAccept(r.Header, h.accepted...), gzip: acceptsGzip(r.Header.Get("Accept-Encoding"))}
	switch t := key.format.FormatType(); {
	case r.URL != nil && len(r.URL.Query()["name[]"]) > 0, t == expfmt.TypeProtoText, t == expfmt.TypeProtoCompact:
		h.fallback.ServeHTTP(w, r)
		return
	}
	enc, ok := h.encode(r, key)
	if !ok {
		return
	}
	defer scratchPool.Put(enc.buf)

	w.Header().Add("Vary", "Accept")
	w.Header().Add("Vary", "Accept-Encoding")
	w.Header().Set("Content-Type", string(key.format))
	if key.gzip {
		w.Header().Set("Content-Encoding", "gzip")
	}
	if _, err := w.Write(enc.buf.Bytes()); err != nil {
		return
	}
	if err := enc.data.write(w); err != nil {
		return
	}
	_, _ = w.Write(enc.end)
}

// encoded is one answer made ready to send: the per-scrape families encoded
// (compressed when the key says) into buf, the data's view, what ends it.
type encoded struct {
	buf  *bytes.Buffer
	data view
	end  []byte
}

// encode encodes the per-scrape families, and the data's changes when its kept
// encoding is older than Options.MaxAge, holding one of
// Options.MaxEncodings; it returns false when
// the client gave up waiting. Sending the answer holds none: a slow client
// keeps no encoding waiting, and the data is sent from the kept encodings,
// never copied.
func (h *Handler) encode(r *http.Request, key cacheKey) (encoded, bool) {
	if h.encodings != nil {
		select {
		case h.encodings <- struct{}{}:
			defer func() { <-h.encodings }()
		case <-r.Context().Done():
			return encoded{}, false
		}
	}
	// Prometheus sends its scrape timeout with every scrape.
	v, end, err := h.data(key, r.Header.Get("X-Prometheus-Scrape-Timeout-Seconds") != "")
	if err != nil {
		h.logf("error gathering or encoding the data metrics: %v", err)
	}
	perScrape, err := h.src.PerScrape.Gather()
	if err != nil {
		h.logf("error gathering the per-scrape metrics: %v", err)
	}
	buf := scratchPool.Get().(*bytes.Buffer)
	buf.Reset()
	var out io.Writer = buf
	var gz *gzip.Writer
	if key.gzip {
		gz = perScrapeWriters.get()
		defer perScrapeWriters.put(gz)
		gz.Reset(buf)
		out = gz
	}
	enc := expfmt.NewEncoder(out, key.format)
	for _, mf := range perScrape {
		if v.plan.names[mf.GetName()] {
			h.logf("metric family %s is both per-scrape and data: served once, as data", mf.GetName())
			continue
		}
		if err := enc.Encode(mf); err != nil {
			h.logf("error encoding metric family %s: %v", mf.GetName(), err)
			break
		}
	}
	// The encoder is not closed: OpenMetrics' "# EOF" comes after the data.
	if gz != nil {
		_ = gz.Close()
	}
	return encoded{buf: buf, data: v, end: end}, true
}

// data returns the data encoded for key, at most Options.MaxAge old: the
// kept encoding, brought up to date first when it is older.
func (h *Handler) data(key cacheKey, prometheus bool) (view, []byte, error) {
	now := h.opts.Now()
	e := h.entryFor(key, prometheus, now)
	notBefore := now.Add(-h.opts.MaxAge)
	cur := e.cur.Load()
	if cur == nil || cur.asOf.Before(notBefore) {
		cur = h.refresh(e, notBefore)
	}
	v := view{parts: cur.parts, plan: cur.plan, proto: key.format.FormatType() == expfmt.TypeProtoDelim, gzip: key.gzip}
	return v, e.end, cur.err
}

var scratchPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func (h *Handler) logf(format string, args ...any) {
	if h.opts.ErrorLog != nil {
		h.opts.ErrorLog.Println(fmt.Sprintf(format, args...))
	}
}
