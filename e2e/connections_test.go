package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
)

// idleConnections is how many connections that send nothing the scrape
// competes with: 20 times the exporter's cap of 512 per listener.
const idleConnections = 10000

// TestBinaryAnswersAScrapeWithin1sWhile10000ConnectionsSendNothing opens
// 10,000 connections to the exporter that never send a request, then
// scrapes /metrics on a new connection: it must answer within 1 s (Prometheus'
// default scrape timeout is 10 s). The scrape is sent 2 s after the last
// connection opened: the exporter accepts about 5,000 connections a second
// on two CPUs, so by then the kernel's listen backlog is drained and what is
// timed is the server holding 512 silent connections, not the machine's
// accept rate (which made the time vary from 9 to 820 ms on a loaded
// machine). With the old cap the silent connections hold every place for
// their 5 s header timeout, and the scrape waits behind them.
func TestBinaryAnswersAScrapeWithin1sWhile10000ConnectionsSendNothing(t *testing.T) {
	raiseFileLimit(t, idleConnections+256)
	url := serveFake(t, startFake(t))
	p := exportertest.Start(t, nil, "--woox.api-url="+url)
	p.WaitReady(t)

	dialStart := time.Now()
	conns, err := dialIdle(p.Addr, idleConnections, 30*time.Second)
	t.Logf("%d connections opened in %v", len(conns), time.Since(dialStart))
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	if err != nil {
		t.Fatalf("%d connections open: %v", len(conns), err)
	}
	time.Sleep(2 * time.Second)
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	start := time.Now()
	samples, err := exportertest.Samples(hc, p.URL()+"/metrics")
	took := time.Since(start)
	if err != nil {
		t.Fatalf("scrape with %d idle connections open: %v after %v", len(conns), err, took)
	}
	t.Logf("scrape with %d idle connections open: %d series in %v", len(conns), len(samples), took)
	if took > time.Second {
		t.Errorf("scrape with %d idle connections open took %v, want at most 1s", len(conns), took)
	}
	p.Stop(t)
}

// raiseFileLimit raises this process's soft limit on open files to at least
// n, or skips the test if the hard limit is lower.
func raiseFileLimit(t *testing.T, n uint64) {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Cur >= n {
		return
	}
	if lim.Max < n {
		t.Skipf("open files limited to %d, want %d", lim.Max, n)
	}
	lim.Cur = n
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
}

// dialIdle opens n TCP connections to addr, 64 at a time, and returns those
// it opened; it stops at the first error or when the time is up.
func dialIdle(addr string, n int, within time.Duration) ([]net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	var (
		mu       sync.Mutex
		conns    []net.Conn
		firstErr error
		wg       sync.WaitGroup
	)
	next := make(chan struct{})
	go func() {
		defer close(next)
		for range n {
			select {
			case next <- struct{}{}:
			case <-ctx.Done():
				return
			}
		}
	}()
	var d net.Dialer
	for range 64 {
		wg.Go(func() {
			for range next {
				c, err := d.DialContext(ctx, "tcp", addr)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
					cancel()
				} else if err == nil {
					conns = append(conns, c)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if firstErr == nil && len(conns) < n {
		firstErr = fmt.Errorf("%d of %d connections opened within %v", len(conns), n, within)
	}
	return conns, firstErr
}

// A request with both Content-Length and a chunked body, carrying a hidden
// second request after the chunked body, is answered and its connection
// closed: the hidden request gets no answer.
func TestBinaryClosesTheConnectionAfterARequestWithContentLengthAndChunkedBody(t *testing.T) {
	url := serveFake(t, startFake(t))
	p := exportertest.Start(t, nil, "--woox.api-url="+url)
	p.WaitReady(t)

	c, err := net.Dial("tcp", p.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	hidden := "GET /-/ready HTTP/1.1\r\nHost: x\r\n\r\n"
	body := "0\r\n\r\n" + hidden
	req := fmt.Sprintf("POST /-/healthy HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nTransfer-Encoding: chunked\r\n\r\n%s", len(body), body)
	if err := c.SetDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("first request: %v", err)
	}
	first, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(first), "Healthy") {
		t.Errorf("first answer %d %q, want Healthy", resp.StatusCode, first)
	}
	if rest, err := io.ReadAll(br); err != nil || len(rest) > 0 {
		t.Errorf("after the first answer: read %q, %v; want the connection closed with nothing more", rest, err)
	}
	p.Stop(t)
}
