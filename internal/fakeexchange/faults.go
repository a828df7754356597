package fakeexchange

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"
)

// FaultKind names a way the exchange (or what is in front of it) misbehaves.
type FaultKind string

// Fault kinds.
const (
	// FaultLatency delays the answer by Fault.Delay (until ClearFaults at
	// most).
	FaultLatency FaultKind = "latency"
	// FaultHTTPError answers Fault.Status (502 by default), with an HTML
	// body when Fault.HTML is set or the status is 502/503/504.
	FaultHTTPError FaultKind = "http_error"
	// FaultMalformedJSON answers 200 with a body that is not JSON.
	FaultMalformedJSON FaultKind = "malformed_json"
	// FaultTruncatedJSON answers with the first half of the real body.
	FaultTruncatedJSON FaultKind = "truncated_json"
	// FaultSuccessFalse answers HTTP 200 with success:false and code -1000.
	FaultSuccessFalse FaultKind = "success_false"
	// FaultMaintenance answers HTTP 400 with code "-1011" as a JSON string.
	FaultMaintenance FaultKind = "maintenance"
	// FaultRateLimitStorm answers 429 with code -1003 regardless of budget.
	FaultRateLimitStorm FaultKind = "rate_limit_storm"
	// FaultConnectionReset closes the connection without an answer; Go's
	// transport retries once, so a Count of 1 goes unseen by a Go client.
	FaultConnectionReset FaultKind = "connection_reset"
	// FaultOversizedBody streams a valid envelope padded to Fault.Size bytes.
	FaultOversizedBody FaultKind = "oversized_body"
	// FaultWrongContent answers 200 with an HTML page.
	FaultWrongContent FaultKind = "wrong_content"
)

// DefaultOversizedBodySize is the size of an oversized body fault.
const DefaultOversizedBodySize = 20 << 20

// Fault is an injected misbehaviour, applied after authentication and rate
// limits: a faulted request has used budget.
type Fault struct {
	// Endpoint limits the fault to one endpoint; empty means all.
	Endpoint string    `yaml:"endpoint"`
	Kind     FaultKind `yaml:"kind"`
	// Count is how many requests the fault hits; 0 means until cleared.
	Count int `yaml:"count"`
	// Delay, Status, HTML and Size are read by the kinds that name them.
	Delay  time.Duration `yaml:"delay"`
	Status int           `yaml:"status"`
	HTML   bool          `yaml:"html"`
	Size   int           `yaml:"size"`
}

func (f Fault) validate() error {
	if _, known := routeOf(f.Endpoint); f.Endpoint != "" && !known {
		return fieldErr("endpoint", "unknown endpoint %q", f.Endpoint)
	}
	switch f.Kind {
	case FaultLatency:
		if f.Delay <= 0 {
			return fieldErr("delay", "must be positive for a latency fault")
		}
	case FaultHTTPError:
		if f.Status != 0 && (f.Status < 500 || f.Status > 599) {
			return fieldErr("status", "must be 5xx")
		}
	case FaultMalformedJSON, FaultTruncatedJSON, FaultSuccessFalse, FaultMaintenance,
		FaultRateLimitStorm, FaultConnectionReset, FaultOversizedBody, FaultWrongContent:
	default:
		return fieldErr("kind", "unknown fault kind %q", f.Kind)
	}
	if f.Count < 0 {
		return fieldErr("count", "must not be negative")
	}
	return nil
}

// InjectFault adds a fault: every matching latency fault adds its delay, the
// first other one decides the answer. It panics on an invalid fault.
func (e *Exchange) InjectFault(f Fault) {
	if err := f.validate(); err != nil {
		panic(fmt.Sprintf("fakeexchange: invalid fault: %v", err))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.faults = append(e.faults, &f)
}

// ClearFaults removes every fault; requests held by latency are answered at once.
func (e *Exchange) ClearFaults() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.faults = nil
	close(e.cleared)
	e.cleared = make(chan struct{})
}

// takeFaults consumes the faults of a request; cleared closes at ClearFaults.
func (e *Exchange) takeFaults(endpoint string) (delay time.Duration, answer *Fault, cleared <-chan struct{}) {
	e.mu.Lock()
	defer e.mu.Unlock()
	kept := e.faults[:0]
	for _, f := range e.faults {
		hit := f.Endpoint == "" || f.Endpoint == endpoint
		if hit && f.Kind == FaultLatency {
			delay += f.Delay
		} else if hit && answer == nil {
			c := *f
			answer = &c
		} else {
			hit = false
		}
		if hit && f.Count > 0 {
			f.Count--
			if f.Count == 0 {
				continue
			}
		}
		kept = append(kept, f)
	}
	clear(e.faults[len(kept):])
	e.faults = kept
	return delay, answer, e.cleared
}

// sleep waits d or until cleared is closed; false when ctx is done first.
func sleep(ctx context.Context, d time.Duration, cleared <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-cleared:
		return true
	case <-ctx.Done():
		return false
	}
}

// answerFault writes a fault's answer; body is the request's own answer.
func (e *Exchange) answerFault(w http.ResponseWriter, r *http.Request, rec *RequestRecord, f Fault, status int, body []byte) {
	rec.Fault = f.Kind
	switch f.Kind {
	case FaultHTTPError:
		st := cmp.Or(f.Status, http.StatusBadGateway)
		if f.HTML || st == http.StatusBadGateway || st == http.StatusServiceUnavailable || st == http.StatusGatewayTimeout {
			rec.Status = st
			writeRaw(w, st, "text/html", htmlPage(st, http.StatusText(st)))
			return
		}
		e.writeError(w, rec, &apiError{status: st, code: -1000, message: "internal server error"})
	case FaultMalformedJSON:
		rec.Status = http.StatusOK
		writeRaw(w, http.StatusOK, contentTypeJSON, []byte(`{"success":true,"data":{"rows":[{"token":"USDT",,}]`+"\x00}"))
	case FaultTruncatedJSON:
		rec.Status = status
		writeRaw(w, status, contentTypeJSON, body[:len(body)/2])
	case FaultSuccessFalse:
		e.writeError(w, rec, &apiError{status: http.StatusOK, code: -1000, message: "an unknown error occurred while processing the request"})
	case FaultMaintenance:
		e.writeError(w, rec, &apiError{status: http.StatusBadRequest, code: -1011, codeAsString: true, message: "system under maintenance"})
	case FaultRateLimitStorm:
		e.writeError(w, rec, errTooManyRequests())
	case FaultConnectionReset:
		rec.Status = 0
		// Recorded before the client can see the reset and send again.
		if rw, ok := w.(*recordingWriter); ok {
			rw.before()
		}
		resetConnection(w)
	case FaultOversizedBody:
		rec.Status = http.StatusOK
		e.writeOversized(r.Context(), w, f.Size)
	case FaultWrongContent:
		rec.Status = http.StatusOK
		writeRaw(w, http.StatusOK, "text/html; charset=utf-8", htmlPage(http.StatusOK, "Welcome"))
	}
}

func htmlPage(status int, title string) []byte {
	return []byte(fmt.Sprintf("<!DOCTYPE html>\n<html><head><title>%d %s</title></head>\n<body><center><h1>%d %s</h1></center><hr><center>nginx</center></body></html>\n",
		status, title, status, title))
}

// resetConnection drops the connection, with an RST when it is TCP.
func resetConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// writeOversized streams a valid envelope padded to size bytes (20 MiB if not
// positive).
func (e *Exchange) writeOversized(ctx context.Context, w http.ResponseWriter, size int) {
	if size <= 0 {
		size = DefaultOversizedBodySize
	}
	meta := mustJSON(e.meta(e.s.SnakeCaseMeta, 0, 1, DefaultPageSize))
	head := []byte(`{"success":true,"data":{"rows":[],"meta":` + string(meta) + `},"padding":"`)
	tail := []byte(`","timestamp":` + string(mustJSON(e.integer(e.now().UnixMilli()))) + `}`)
	size = max(size, len(head)+len(tail))
	w.Header().Set("Content-Type", contentTypeJSON)
	w.Header().Set("Content-Length", strconv.Itoa(size))
	w.WriteHeader(http.StatusOK)
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	if _, err := w.Write(head); err != nil {
		return
	}
	for left := size - len(head) - len(tail); left > 0 && ctx.Err() == nil; {
		n := min(left, len(chunk))
		if _, err := w.Write(chunk[:n]); err != nil {
			return
		}
		left -= n
	}
	_, _ = w.Write(tail)
}
