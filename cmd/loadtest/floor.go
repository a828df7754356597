package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
)

// startFloor runs the floor in a process of its own, as the exporter runs:
// served from the load test's process it would share the runtime, and the
// garbage collector, with the scrapers, and the machine's CPUs among fewer
// processes than the exporter.
func startFloor(mfs []*dto.MetricFamily) (url string, stop func(), err error) {
	f, err := os.CreateTemp("", "loadtest-floor-*.pb")
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	enc := expfmt.NewEncoder(f, expfmt.NewFormat(expfmt.TypeProtoDelim))
	for _, mf := range mfs {
		if err := enc.Encode(mf); err != nil {
			os.Remove(f.Name())
			return "", nil, err
		}
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", nil, err
	}
	addr, err := exportertest.FreeAddr()
	if err != nil {
		os.Remove(f.Name())
		return "", nil, err
	}
	self, err := os.Executable()
	if err != nil {
		os.Remove(f.Name())
		return "", nil, err
	}
	cmd := exec.Command(self, "--serve-floor="+f.Name(), "--floor-address="+addr)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		os.Remove(f.Name())
		return "", nil, fmt.Errorf("start the floor: %w", err)
	}
	stop = func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
		os.Remove(f.Name())
	}
	url = "http://" + addr
	hc := &http.Client{Timeout: 10 * time.Second}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := scrape(hc, url+"/metrics"); err == nil {
			return url, stop, nil
		} else if time.Now().After(deadline) {
			stop()
			return "", nil, fmt.Errorf("floor not serving within 30s: %w", err)
		}
	}
}

// serveFloor serves the families in file with promhttp, as the exporter's
// /metrics is served, until interrupted.
func serveFloor(file, addr string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	dec := expfmt.NewDecoder(f, expfmt.NewFormat(expfmt.TypeProtoDelim))
	var mfs []*dto.MetricFamily
	for {
		mf := &dto.MetricFamily{}
		if err := dec.Decode(mf); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			f.Close()
			return fmt.Errorf("read %s: %w", file, err)
		}
		mfs = append(mfs, mf)
	}
	f.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: promhttp.HandlerFor(
		prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) { return mfs, nil }),
		promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError, EnableOpenMetrics: true})}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
