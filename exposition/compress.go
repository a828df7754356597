package exposition

import (
	"bytes"
	"compress/gzip"
	"strconv"
	"strings"

	kgzip "github.com/klauspost/compress/gzip"
)

// compress is b as a gzip member: the data is compressed again whenever
// its part changes, so at the fastest level, and with klauspost/compress,
// which there is faster than compress/flate on the bodies a part holds (a
// few hundred bytes to a few kilobytes) for as many bytes. The member is
// copied out at its size: thousands are kept.
func compress(b []byte) []byte {
	z := scratchPool.Get().(*bytes.Buffer)
	defer scratchPool.Put(z)
	z.Reset()
	gz := fastWriters.get()
	defer fastWriters.put(gz)
	gz.Reset(z)
	_, _ = gz.Write(b)
	_ = gz.Close()
	return bytes.Clone(z.Bytes())
}

// freeList keeps a few idle values to reuse, made by newValue when none
// is idle. Not a sync.Pool: a compressor is most of a megabyte to make, and a
// sync.Pool is emptied by every other GC, which a busy exporter runs often;
// these stay.
type freeList[T any] struct {
	idle     chan *T
	newValue func() *T
}

func newFreeList[T any](newValue func() *T) freeList[T] {
	return freeList[T]{idle: make(chan *T, 8), newValue: newValue}
}

func (l freeList[T]) get() *T {
	select {
	case v := <-l.idle:
		return v
	default:
		return l.newValue()
	}
}

func (l freeList[T]) put(v *T) {
	select {
	case l.idle <- v:
	default:
	}
}

// perScrapeWriters compress the per-scrape families of each answer; fastWriters the
// data's members.
var (
	perScrapeWriters = newFreeList(func() *gzip.Writer {
		gz, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
		return gz
	})
	fastWriters = newFreeList(func() *kgzip.Writer {
		gz, _ := kgzip.NewWriterLevel(nil, kgzip.BestSpeed)
		return gz
	})
)

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
