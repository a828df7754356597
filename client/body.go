package client

import (
	"bytes"
	"io"
	"sync"
)

// bodyBuffers are the buffers answers are read into, reused: every poll
// of every account reads an answer, and each is dropped once decoded.
var bodyBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBody is the largest buffer kept for reuse: a rare answer of
// megabytes (a token network list) is not held on to.
const maxPooledBody = 256 << 10

// readBody reads an answer's body into a buffer of bodyBuffers, at most
// limit bytes and one more to tell a longer one. Give the buffer back with
// releaseBody once nothing uses its bytes.
func readBody(body io.Reader, limit int64) (*bytes.Buffer, error) {
	buf := bodyBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	_, err := buf.ReadFrom(io.LimitReader(body, limit+1))
	return buf, err
}

// releaseBody gives back a buffer of readBody.
func releaseBody(buf *bytes.Buffer) {
	if buf.Cap() <= maxPooledBody {
		bodyBuffers.Put(buf)
	}
}
