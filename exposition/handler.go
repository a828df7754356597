// Package exposition serves /metrics from two kinds of metric families: the
// live ones (Go, process, build), gathered and encoded on every scrape, and
// the data ones, which change only when a poll changes them. The data
// families come in parts (one per account, say), each encoded once per
// change and per format asked for; a scrape stitches the parts' encodings
// into one answer, each family written once, its metrics in part order.
// Parts makes the parts of a set of collectors: each whole, or a Split a
// part per account, gathered as a registry would without one. A
// gzipped format keeps each part's metrics of each family as a gzip member,
// compressed once per change of that part; an answer is the live families'
// member, then the data's members in turn with the headers between them as
// stored members (RFC 1952 allows any number of members; Go's and
// Prometheus' readers read them all); an OpenMetrics answer has its one
// "# EOF" at the end.
package exposition

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
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
	// Idle is how long an encoding nobody asked for is kept; 10 minutes
	// when zero (several scrape intervals of any common setup). A format
	// is kept from Prometheus' first scrape, or else from its second
	// request within Idle.
	Idle time.Duration
	// Now is the clock for Idle; nil means time.Now.
	Now func() time.Time
	// MaxEncodings is how many scrapes may encode at once (the data that
	// changed, the live families); more wait their turn, or until their
	// client gives up. Encoding is CPU bound, so more at once than CPUs
	// raise memory, not throughput. 0 is no limit.
	MaxEncodings int
	// Workers is how many goroutines a scrape that finds many parts
	// changed encodes them on; 0 or 1 is the scrape's own only.
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
}

// cacheKey is one encoding of the data: the negotiated format (with its
// escaping scheme) and whether it is gzipped.
type cacheKey struct {
	format expfmt.Format
	gzip   bool
}

// entry is the data encoded in one format: each part for its generation,
// and the plan that stitches them, until a part's families change.
type entry struct {
	mu    sync.Mutex
	parts []*encodedPart
	plan  *plan
	// families holds one copy of each family's header and tail, by name:
	// every account's part of a family has the same.
	familiesMu sync.Mutex
	families   map[string]*family
	// end is what follows the data: "# EOF" for OpenMetrics, gzipped as a
	// member of its own when the format is.
	end      []byte
	lastUsed time.Time
}

// encodedPart is one part's families encoded for one generation; replaced,
// never changed, once made.
type encodedPart struct {
	generation uint64
	segs       []kept
	err        error
}

// sharedFamily returns the kept family of s; parts are encoded in
// parallel, so it takes familiesMu.
func (e *entry) sharedFamily(s segment) *family {
	e.familiesMu.Lock()
	defer e.familiesMu.Unlock()
	if f, ok := e.families[s.name]; ok && bytes.Equal(f.head, s.head) && bytes.Equal(f.tail, s.tail) {
		return f
	}
	f := &family{name: s.name, head: bytes.Clone(s.head), tail: bytes.Clone(s.tail)}
	e.families[s.name] = f
	return f
}

// parallelFrom is how many changed parts a scrape encodes on more than one
// goroutine: below it, starting them costs more than it saves.
const parallelFrom = 32

// eachParallel calls f(0) ... f(n-1), on up to Options.Workers goroutines
// when n is at least parallelFrom: after a pause (a burst of polls, an
// exporter stopped and resumed) a scrape finds thousands of parts changed,
// and encodes them on every CPU instead of one.
func (h *Handler) eachParallel(n int, f func(int)) {
	workers := min(h.opts.Workers, n/parallelFrom)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		})
	}
	wg.Wait()
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
		gs := prometheus.Gatherers{src.Live}
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
	live, ok := h.encode(r, key)
	if !ok {
		return
	}
	defer scratchPool.Put(live.buf)

	w.Header().Add("Vary", "Accept")
	w.Header().Add("Vary", "Accept-Encoding")
	w.Header().Set("Content-Type", string(key.format))
	if key.gzip {
		w.Header().Set("Content-Encoding", "gzip")
	}
	if _, err := w.Write(live.buf.Bytes()); err != nil {
		return
	}
	if err := live.data.write(w); err != nil {
		return
	}
	_, _ = w.Write(live.end)
}

// encoded is one answer made ready to send: the live families encoded
// (compressed when the key says) into buf, the data's view, what ends it.
type encoded struct {
	buf  *bytes.Buffer
	data view
	end  []byte
}

// encode encodes what changed of the data, and the live families, holding
// one of Options.MaxEncodings; it returns false when the client gave up
// waiting. Sending the answer holds none: a slow client keeps no encoding
// waiting, and the data is sent from the kept encodings, never copied.
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
	live, err := h.src.Live.Gather()
	if err != nil {
		h.logf("error gathering the live metrics: %v", err)
	}
	buf := scratchPool.Get().(*bytes.Buffer)
	buf.Reset()
	var out io.Writer = buf
	var gz *gzip.Writer
	if key.gzip {
		gz = liveWriters.get()
		defer liveWriters.put(gz)
		gz.Reset(buf)
		out = gz
	}
	enc := expfmt.NewEncoder(out, key.format)
	for _, mf := range live {
		if v.plan.names[mf.GetName()] {
			h.logf("metric family %s is both live and data: served once, as data", mf.GetName())
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

// data returns the data encoded for key, encoding each part that changed
// since, or that was never asked for in this format; scrapes of one format
// share one encoding. A gzipped format keeps each part's metrics of each
// family compressed, as a gzip member of its own, and nothing
// uncompressed: a change compresses only its part, and the answer is the
// members written in turn.
func (h *Handler) data(key cacheKey, prometheus bool) (view, []byte, error) {
	now := h.opts.Now()
	h.mu.Lock()
	e, ok := h.entries[key]
	if !ok {
		e = &entry{end: encodeEnd(key), families: map[string]*family{}}
		// A format is kept from Prometheus' first scrape (it comes back),
		// otherwise from its second request within Idle: a one-off
		// scrape in another format (someone's curl) is encoded for itself
		// and pins nothing.
		if asked, again := h.askedOnce[key]; prometheus || again && now.Sub(asked) <= h.opts.Idle {
			delete(h.askedOnce, key)
			h.entries[key] = e
		} else {
			h.askedOnce[key] = now
		}
	}
	e.lastUsed = now
	for k, old := range h.entries {
		if now.Sub(old.lastUsed) > h.opts.Idle {
			delete(h.entries, k)
		}
	}
	for k, asked := range h.askedOnce {
		if now.Sub(asked) > h.opts.Idle {
			delete(h.askedOnce, k)
		}
	}
	h.mu.Unlock()

	keep := func(s segment) kept {
		k := kept{fam: e.sharedFamily(s), size: s.size}
		switch {
		case len(s.body) == 0:
		case key.gzip:
			k.body = compress(s.body)
		default:
			k.body = bytes.Clone(s.body)
		}
		return k
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	parts := h.src.Data()
	if len(e.parts) != len(parts) {
		e.parts, e.plan = make([]*encodedPart, len(parts)), nil
	}
	var changed []int
	for i, p := range parts {
		if old := e.parts[i]; old == nil || old.generation != p.Generation {
			changed = append(changed, i)
		}
	}
	old := make([]*encodedPart, len(changed))
	for j, i := range changed {
		old[j] = e.parts[i]
	}
	h.eachParallel(len(changed), func(j int) {
		i := changed[j]
		mfs, gatherErr := parts[i].Gather()
		segs, err := encodeSegments(mfs, key.format, keep)
		e.parts[i] = &encodedPart{generation: parts[i].Generation, segs: segs, err: errors.Join(gatherErr, err)}
	})
	for j, i := range changed {
		if old[j] == nil || !sameFamilies(old[j].segs, e.parts[i].segs) {
			e.plan = nil
		}
	}
	var errs []error
	for _, p := range e.parts {
		errs = append(errs, p.err)
	}
	if e.plan == nil {
		e.plan = newPlan(e.parts)
	}
	v := view{parts: slices.Clone(e.parts), plan: e.plan, proto: key.format.FormatType() == expfmt.TypeProtoDelim, gzip: key.gzip}
	return v, e.end, errors.Join(errs...)
}

// encodeEnd is what ends an answer in key's format.
func encodeEnd(key cacheKey) []byte {
	if key.format.FormatType() != expfmt.TypeOpenMetrics {
		return nil
	}
	var buf bytes.Buffer
	c, _ := expfmt.NewEncoder(&buf, key.format).(expfmt.Closer)
	_ = c.Close()
	if !key.gzip {
		return buf.Bytes()
	}
	return compress(buf.Bytes())
}

var scratchPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

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
		for _, p := range e.parts {
			if p == nil {
				continue
			}
			for _, s := range p.segs {
				n += len(s.body)
			}
		}
		for _, f := range e.families {
			n += len(f.head) + len(f.tail)
		}
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
