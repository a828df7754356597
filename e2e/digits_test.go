package e2e

import (
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/exportertest"
)

// digitBomb is an answer under the 8 MiB cap whose envelope code is
// 3,000,000 digits: an arbitrary-precision parse of it cost 15.5 s of CPU.
func digitBomb() []byte {
	return []byte(`{"success":true,"code":` + strings.Repeat("9", 3_000_000) + `,"data":{"rows":[]},"timestamp":` +
		strconv.FormatInt(time.Now().UnixMilli(), 10) + `}`)
}

// cpuSeconds is the CPU time process pid has used, from /proc.
func cpuSeconds(t *testing.T, pid int) float64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	// Fields after the command's closing parenthesis; utime and stime are
	// the 14th and 15th of the line, in clock ticks (100 a second on Linux).
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / 100
}

// Every endpoint answering with a 3,000,000-digit code is a bad response
// on every poll, found without an arbitrary-precision parse: the exporter
// is ready (every endpoint polled once) well within the bound, where the
// parse alone took 15.5 s of CPU an answer.
func TestBinaryRefusesADigitBombCheaply(t *testing.T) {
	bomb := digitBomb()
	url := serveFake(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(bomb)
	}))
	p := exportertest.Start(t, defaultSecrets, "--woox.api-url="+url, "--config.file="+accountsConfig(t, t.TempDir(), "main"))
	if _, err := p.Ready(10 * time.Second); err != nil {
		t.Fatalf("every endpoint's first poll of the digit bomb took longer than 10 s: %v", tail(err.Error(), 10))
	}
	s := p.Scrape(t)
	polled := 0
	for _, ep := range endpoint.All {
		series := fmt.Sprintf(`woox_poll_failures_total{account="main", endpoint=%q, reason="bad_response"}`, ep.Name)
		if !ep.PerAccount {
			series = fmt.Sprintf(`woox_poll_failures_total{account="", endpoint=%q, reason="bad_response"}`, ep.Name)
		}
		if v, ok := s[series]; ok && v.Value >= 1 {
			polled++
		}
	}
	if polled == 0 {
		t.Fatalf("no endpoint failed as a bad response:\n%s", tail(p.Output(), 20))
	}
	t.Logf("%d endpoints refused the digit bomb; the exporter used %.2f s of CPU", polled, cpuSeconds(t, p.Pid()))
	p.Stop(t)
}
