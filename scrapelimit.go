package main

import (
	"bytes"
	"net/http"
	"sync"
)

// limitEncoding lets at most n requests run h at once and makes the rest wait
// their turn (or until their client gives up). Each scrape holds a gzip
// compressor and encoding buffers, so many concurrent scrapers cost memory,
// while encoding is CPU bound: more encodings at once than CPUs do not raise throughput, only
// memory (main.go passes GOMAXPROCS). h writes into a buffer and the slot is
// released before the buffered (compressed) answer is sent, so a
// slow or stalled client never holds a slot. Only scrapes wait here: polls
// are never involved.
func limitEncoding(h http.Handler, n int) http.Handler {
	slots := make(chan struct{}, max(n, 1))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case slots <- struct{}{}:
		case <-r.Context().Done():
			return
		}
		buf := bufferPool.Get().(*bytes.Buffer)
		defer bufferPool.Put(buf)
		buf.Reset()
		rec := &bufferedResponse{header: http.Header{}, status: http.StatusOK, body: buf}
		h.ServeHTTP(rec, r)
		<-slots

		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.status)
		_, _ = w.Write(buf.Bytes())
	})
}

var bufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// bufferedResponse is an http.ResponseWriter that keeps the answer.
type bufferedResponse struct {
	header      http.Header
	status      int
	wroteHeader bool
	body        *bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header { return b.header }

func (b *bufferedResponse) WriteHeader(status int) {
	if !b.wroteHeader {
		b.status, b.wroteHeader = status, true
	}
}

func (b *bufferedResponse) Write(p []byte) (int, error) {
	b.wroteHeader = true
	return b.body.Write(p)
}
