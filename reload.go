package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/go-kit/log/level"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/collector"
	"github.com/woox-exporter/woox_exporter/config"
	"github.com/woox-exporter/woox_exporter/internal/reload"
	"github.com/woox-exporter/woox_exporter/internal/server"
)

// serveUntilStopped runs the pollers and serves until SIGINT or SIGTERM,
// reloading the accounts on SIGHUP (and POST /-/reload with
// --web.enable-lifecycle), then waits for the pollers to save their state.
// It returns the exit code.
func (w *wiring) serveUntilStopped(exporter *collector.Exporter, listeners []net.Listener, slogger *slog.Logger) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	live := collector.NewLive(exporter, w.logger)
	w.reg.MustRegister(live)
	reloader := reload.New(func() error { return w.reload(live) }, w.reg, w.logger, time.Now)
	reloader.HandleSIGHUP(ctx)
	var reloadEndpoint func() error
	if w.o.lifecycle {
		reloadEndpoint = reloader.Reload
	}
	pollersDone := make(chan struct{})
	go func() {
		defer close(pollersDone)
		live.Run(ctx)
	}()

	err := server.Serve(ctx, listeners, server.Config{
		Name: exporterName, Flags: w.o.web, MetricsPath: w.o.metricsPath, Source: live.Source(w.reg), Ready: live.Ready, ReadyNote: live.ReadyNote,
		Reload: reloadEndpoint, Profiling: w.o.profiling, Limits: server.DefaultLimits, Logger: w.logger, ToolkitLogger: slogger,
	})
	stop()
	<-pollersDone // every account's token history state is saved by now
	if err != nil {
		level.Error(w.logger).Log("msg", "HTTP server failed", "err", err)
		return 1
	}
	level.Info(w.logger).Log("msg", "stopped")
	return 0
}

// reloadReadyWithin bounds how long the old data is served while a reload's pollers poll.
const reloadReadyWithin = 30 * time.Second

// reload reads the accounts again (--config.file and every secret) and,
// when they changed, replaces the exporter: added accounts are polled,
// removed ones dropped, a rotated key or secret signs the next request, and
// kept accounts' counters continue. It checks everything before it changes
// anything.
func (w *wiring) reload(live *collector.Live) error {
	configured, err := config.Load(w.o.configFile, config.LookupIn(w.env))
	if err != nil {
		return err
	}
	accounts := slices.DeleteFunc(slices.Clone(configured), func(a config.Account) bool { return !w.o.shard.Owns(a.Name) })
	if len(configured) > 0 {
		if err := w.o.checkAccountIntervals(); err != nil {
			return err
		}
	}
	w.warnChangedFlags()
	changes := reload.Diff(w.accounts, accounts)
	w.configured, w.unread = configured, config.UnreadVariables(w.env, config.ReadVariables(configured))
	if changes.None() {
		return nil
	}
	clients := map[string]*client.Client{}
	for _, a := range accounts {
		c, ok := w.clients[a.Name]
		if !ok {
			if c, err = w.newClient(a.Name, a.APIKey, a.Secret.Reveal()); err != nil {
				return err
			}
		}
		clients[a.Name] = c
	}
	if _, err := w.newExporter(accounts, clients, nil); err != nil {
		return err
	}
	// Checked: from here on the reload happens. A rotated secret is
	// swapped in place; a new key, or an account added or removed, needs
	// a new exporter (the credentials collector knows the exporter's own key).
	for _, a := range accounts {
		if slices.Contains(changes.Rotated, a.Name) {
			if err := clients[a.Name].SetCredentials(a.APIKey, a.Secret.Reveal()); err != nil {
				return err
			}
		}
	}
	if len(changes.Added)+len(changes.Removed) > 0 || changes.NewKey {
		err = live.Replace(func(h *collector.Handoff) (*collector.Exporter, error) {
			e, err := w.newExporter(accounts, clients, h)
			if err != nil { // checked above: not expected, but never stop polling
				e, _ = w.newExporter(w.accounts, w.clients, h)
			}
			return e, err
		}, reloadReadyWithin)
		if err != nil {
			return err
		}
	}
	w.accounts, w.clients = accounts, clients
	w.watched.Set(float64(len(accounts)))
	level.Info(w.logger).Log("msg", "accounts reloaded", "added", strings.Join(changes.Added, ","),
		"removed", strings.Join(changes.Removed, ","), "rotated", strings.Join(changes.Rotated, ","), "accounts", len(accounts))
	return nil
}

// warnChangedFlags names the flags whose values on the command line, read
// again (an @file argument is read again), differ from those in use: a
// reload does not apply them.
func (w *wiring) warnChangedFlags() {
	app, _ := newApp(io.Discard, io.Discard)
	(&options{}).AddFlags(app)
	if _, err := app.Parse(w.args); err != nil {
		level.Warn(w.logger).Log("msg", "the command line no longer parses; a reload does not apply flags, restart to change them", "err", err)
		return
	}
	changed := reload.ChangedFlags(w.app, app)
	if len(changed) > 0 {
		level.Warn(w.logger).Log("msg", "flags changed since start are not applied by a reload; restart to change them", "flags", strings.Join(changed, ","))
	}
}
