// Package reload re-reads the exporter's configuration on SIGHUP and on
// POST /-/reload, one reload at a time, and exports how the last one went
// under the names Prometheus and Alertmanager use.
package reload

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"
)

// Reloader runs apply, the exporter's reload, one call at a time.
type Reloader struct {
	apply  func() error
	logger log.Logger
	now    func() time.Time

	mu          sync.Mutex
	successful  prometheus.Gauge
	successTime prometheus.Gauge
}

// New returns a Reloader of apply whose metrics are registered with reg; the
// configuration read at start counts as the first successful load.
func New(apply func() error, reg prometheus.Registerer, logger log.Logger, now func() time.Time) *Reloader {
	r := &Reloader{apply: apply, logger: logger, now: now,
		successful: prometheus.NewGauge(prometheus.GaugeOpts{Name: "woox_exporter_config_last_reload_successful",
			Help: "1 if the last reload of the configuration (SIGHUP or POST /-/reload) succeeded, or none was asked since start; 0 if it failed and the configuration before it is still in use."}),
		successTime: prometheus.NewGauge(prometheus.GaugeOpts{Name: "woox_exporter_config_last_reload_success_timestamp_seconds",
			Help: "Unix time of the last successful load of the configuration: the start, or the last successful reload."}),
	}
	r.successful.Set(1)
	r.successTime.Set(float64(now().UnixNano()) / 1e9)
	reg.MustRegister(r.successful, r.successTime)
	return r
}

// Reload applies the configuration as it is now. A failure changes nothing
// and is logged at error level with why; the error is returned too, for
// /-/reload to answer with.
func (r *Reloader) Reload() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.apply(); err != nil {
		r.successful.Set(0)
		level.Error(r.logger).Log("msg", "configuration reload failed; the configuration before it stays in use", "err", err)
		return err
	}
	r.successful.Set(1)
	r.successTime.Set(float64(r.now().UnixNano()) / 1e9)
	level.Info(r.logger).Log("msg", "configuration reloaded")
	return nil
}

// HandleSIGHUP reloads on every SIGHUP until ctx is done. From its return
// on, a SIGHUP no longer ends the process (Go's default), also during the
// shutdown after ctx.
func (r *Reloader) HandleSIGHUP(ctx context.Context) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				_ = r.Reload() // logged by Reload
			}
		}
	}()
}
