package exposition

import (
	"bytes"
	"errors"
	"sync"
	"sync/atomic"
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
// part.
type entry struct {
	key cacheKey
	// cur is read without a lock, so that a scrape never waits for a
	// refresh it does not need; refreshing serialises the refreshes.
	cur        atomic.Pointer[encoding]
	refreshing sync.Mutex
	// families holds one copy of each family's header and tail, by name:
	// every account's part of a family has the same.
	familiesMu sync.Mutex
	families   map[string]*family
	// end is what follows the data: "# EOF" for OpenMetrics, gzipped as a
	// member of its own when the format is.
	end []byte
	// lastUsed is guarded by the Handler's mu.
	lastUsed time.Time
}

// encoding is every part encoded, each for some generation, with the plan
// that stitches them; replaced whole, never changed, so an answer is
// written from one without a lock, and never mixes two. asOf is when the
// generations were read: every change before it is encoded.
type encoding struct {
	parts []*encodedPart
	plan  *plan
	err   error
	asOf  time.Time
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

// entryFor returns the entry of key: the one kept (and refreshed in the
// background), or one made for this scrape alone; it releases the entries
// nobody asked for within Options.Idle.
func (h *Handler) entryFor(key cacheKey, prometheus bool, now time.Time) *entry {
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
			h.startRefresher()
		} else {
			h.askedOnce[key] = now
		}
	}
	e.lastUsed = now
	h.releaseIdle(now)
	return e
}

// releaseIdle releases the formats nobody asked for within Options.Idle.
// Called with h.mu held.
func (h *Handler) releaseIdle(now time.Time) {
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
}

// reencode returns cur with parts[which] gathered and encoded again, on up
// to Options.Workers goroutines. A gzipped format keeps each part's
// metrics of each family compressed, as a gzip member of its own, and
// nothing uncompressed: a change compresses only its part, and the answer
// is the members written one after another.
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
		if cur := e.cur.Load(); cur != nil {
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
