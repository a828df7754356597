package server

import (
	"bytes"
	"net/http"
	"sync"
)

// limitEncoding lets at most n encodings (h answering a scrape) run at once;
// a scrape beyond them waits its turn, or until its client gives up. Each
// encoding holds a gzip compressor and buffers, so many at once cost memory,
// while encoding is CPU bound: more encodings at once than CPUs do not raise
// throughput, only memory (newMux allows GOMAXPROCS). h writes into a buffer
// and the encoding ends before the buffered (compressed) answer is sent, so
// a slow or stalled client never holds one of the n. Only scrapes wait
// here: polls never encode.
func limitEncoding(h http.Handler, n int) http.Handler {
	encodings := make(chan struct{}, max(n, 1))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case encodings <- struct{}{}:
		case <-r.Context().Done():
			return
		}
		buf := bufferPool.Get().(*bytes.Buffer)
		defer bufferPool.Put(buf)
		buf.Reset()
		rec := &bufferedResponse{header: http.Header{}, status: http.StatusOK, body: buf}
		h.ServeHTTP(rec, r)
		<-encodings

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
