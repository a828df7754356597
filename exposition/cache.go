package exposition

import (
	"bytes"
	"errors"
	"sync"
	"time"

	"github.com/prometheus/common/expfmt"
)

// cacheKey is one encoding of the data: the negotiated format (with its
// escaping scheme) and whether it is gzipped.
type cacheKey struct {
	format expfmt.Format
	gzip   bool
}

// entry is the data encoded in one format: the newest encoding of every
// part, and when to encode the parts that changed since (sched).
type entry struct {
	key cacheKey
	// mu guards cur, and serialises the encoding of parts that have none
	// yet: the scrapes of a new format share one encoding.
	mu  sync.Mutex
	cur *encoding
	// families holds one copy of each family's header and tail, by name:
	// every account's part of a family has the same.
	familiesMu sync.Mutex
	families   map[string]*family
	// end is what follows the data: "# EOF" for OpenMetrics, gzipped as a
	// member of its own when the format is.
	end []byte
	// lastUsed is guarded by the Handler's mu.
	lastUsed time.Time
	sched    schedule
}

// encoding is every part encoded, each for some generation, with the plan
// that stitches them; replaced whole, never changed, so an answer is
// written from one without a lock, and never mixes two.
type encoding struct {
	parts []*encodedPart
	plan  *plan
	err   error
}

// encodedPart is one part's families encoded for one generation.
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

// current is e's newest encoding; nil before its first scrape.
func (e *entry) current() *encoding {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cur
}

// entryFor returns the entry of key, and whether it is kept (and so
// encoded in the background) or made for this scrape alone; it releases
// the entries nobody asked for within Options.Idle.
func (h *Handler) entryFor(key cacheKey, prometheus bool, now time.Time) (*entry, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e, ok := h.entries[key]
	if !ok {
		e = &entry{key: key, end: encodeEnd(key), families: map[string]*family{}}
		// A format is kept from Prometheus' first scrape (it comes back),
		// otherwise from its second request within Idle: a one-off
		// scrape in another format (someone's curl) is encoded for itself
		// and pins nothing.
		if asked, again := h.askedOnce[key]; prometheus || again && now.Sub(asked) <= h.opts.Idle {
			delete(h.askedOnce, key)
			h.entries[key] = e
			ok = true
		} else {
			h.askedOnce[key] = now
		}
	}
	e.lastUsed = now
	for k, old := range h.entries {
		if now.Sub(old.lastUsed) > h.opts.Idle {
			old.sched.stop()
			delete(h.entries, k)
		}
	}
	for k, asked := range h.askedOnce {
		if now.Sub(asked) > h.opts.Idle {
			delete(h.askedOnce, k)
		}
	}
	return e, ok
}

// newest returns e's newest encoding, first encoding every part when it
// has none (the format's first scrape, a new set of parts). A part that
// changed since its encoding is served as encoded: a pass encodes it.
func (h *Handler) newest(e *entry) *encoding {
	e.mu.Lock()
	defer e.mu.Unlock()
	parts := h.src.Data()
	if e.cur != nil && len(e.cur.parts) == len(parts) {
		return e.cur
	}
	all := make([]int, len(parts))
	for i := range all {
		all[i] = i
	}
	e.cur = h.reencode(e, &encoding{parts: make([]*encodedPart, len(parts))}, parts, all)
	return e.cur
}

// reencode returns cur with parts[which] gathered and encoded again, on up
// to Options.Workers goroutines. A gzipped format keeps each part's
// metrics of each family compressed, as a gzip member of its own, and
// nothing uncompressed: a change compresses only its part, and the answer
// is the members written in turn.
func (h *Handler) reencode(e *entry, cur *encoding, parts []Part, which []int) *encoding {
	keep := func(s segment) kept {
		k := kept{fam: e.sharedFamily(s), size: s.size}
		switch {
		case len(s.body) == 0:
		case e.key.gzip:
			k.body = compress(s.body)
		default:
			k.body = bytes.Clone(s.body)
		}
		return k
	}
	next := &encoding{parts: make([]*encodedPart, len(parts)), plan: cur.plan}
	copy(next.parts, cur.parts)
	h.eachParallel(len(which), func(j int) {
		i := which[j]
		mfs, gatherErr := parts[i].Gather()
		segs, err := encodeSegments(mfs, e.key.format, keep)
		next.parts[i] = &encodedPart{generation: parts[i].Generation, segs: segs, err: errors.Join(gatherErr, err)}
	})
	for _, i := range which {
		if old := cur.parts[i]; old == nil || !sameFamilies(old.segs, next.parts[i].segs) {
			next.plan = nil
		}
	}
	if next.plan == nil {
		next.plan = newPlan(next.parts)
	}
	errs := make([]error, 0, len(next.parts))
	for _, p := range next.parts {
		errs = append(errs, p.err)
	}
	next.err = errors.Join(errs...)
	return next
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

// CachedBytes is how many bytes of encoded data the handler holds, over
// every format it keeps.
func (h *Handler) CachedBytes() int {
	n := 0
	for _, e := range h.kept() {
		if cur := e.current(); cur != nil {
			for _, p := range cur.parts {
				for _, s := range p.segs {
					n += len(s.body)
				}
			}
		}
		e.familiesMu.Lock()
		for _, f := range e.families {
			n += len(f.head) + len(f.tail)
		}
		e.familiesMu.Unlock()
	}
	return n
}

// kept are the entries of the formats kept.
func (h *Handler) kept() []*entry {
	h.mu.Lock()
	defer h.mu.Unlock()
	entries := make([]*entry, 0, len(h.entries))
	for _, e := range h.entries {
		entries = append(entries, e)
	}
	return entries
}

// Formats is how many encodings the handler keeps.
func (h *Handler) Formats() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.entries)
}
