// Command woox_exporter exports the health of WOO X accounts and assets to
// Prometheus: token network deposit and withdrawal flags and fees, the
// exchange's maintenance status, API key permissions and IP restrictions,
// token balance-change history, margin and fees, balances, deposits and
// withdrawals in flight, and sub-accounts.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/prometheus/common/version"

	"github.com/woox-exporter/woox_exporter/internal/server"
)

// defaultGCPercent replaces Go's default GOGC of 100 unless GOGC is set: a
// heap goal of 1.25x the heap in use keeps the peak within what
// docs/performance.md sizes replicas by, for a little more GC work (its
// "GOGC" section weighs 25, 50 and 100).
const defaultGCPercent = 25

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
	fillVersion(debug.ReadBuildInfo())
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, os.Environ()))
}

// run is main without the process exit, so tests can drive it: parse and
// validate the flags, build the exporter, listen, serve until stopped. env
// is the environment, as os.Environ gives it.
func run(args []string, stdout, stderr io.Writer, env []string) int {
	app, exited := newApp(stdout, stderr)
	o := &options{}
	o.AddFlags(app)
	_, err := app.Parse(args)
	if *exited {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", exporterName, withDoubleDash(args, nameFlag(args, err)))
		return 2
	}
	logger, slogger := newLogger(stderr, o.logFormat, o.logLevel)
	if err := o.Validate(); err != nil {
		return fail(stderr, err)
	}
	w, err := prepare(o, env, logger)
	if err != nil {
		return fail(stderr, err)
	}
	w.app, w.args = app, args
	defer w.lock.Release() //nolint:errcheck // the process is ending
	if o.configCheck {
		w.configOK(stdout)
		return 0
	}
	exporter, store, err := w.exporter()
	if err != nil {
		return fail(stderr, err)
	}
	// Listening before the first poll: an address in use stops the exporter
	// before it calls the exchange.
	listeners, err := server.Listen(o.web, server.DefaultLimits.MaxConnections)
	if err != nil {
		return fail(stderr, err)
	}
	w.logStart(store)
	return w.serveUntilStopped(exporter, listeners, slogger)
}

// withDoubleDash adds to kingpin's "unknown short flag '-c'" the long flag
// meant, when the argument was a long flag written with one dash
// (-config.file, as Go's flag package takes it).
func withDoubleDash(args []string, err error) error {
	letter, ok := strings.CutPrefix(err.Error(), "unknown short flag '-")
	if !ok || len(letter) < 1 {
		return err
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if len(a) > 2 && a[0] == '-' && a[1] == letter[0] {
			name, _, _ := strings.Cut(a[1:], "=")
			return fmt.Errorf("%w: long flags take two dashes, as in --%s", err, name)
		}
	}
	return err
}

func fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "%s: %v\n", exporterName, err)
	return 1
}

// fillVersion fills what a release build's -ldflags would set from the
// module's build info: `go install ...@v1.2.0` knows its version, and a
// build in a git checkout knows its revision and commit time. Without
// either, the version says devel rather than nothing.
func fillVersion(info *debug.BuildInfo, ok bool) {
	if version.Version != "" {
		return
	}
	version.Version = "devel"
	if !ok {
		return
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		version.Version = v
	}
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			if version.Revision == "" {
				version.Revision = s.Value
			}
		case "vcs.time":
			if version.BuildDate == "" {
				version.BuildDate = s.Value
			}
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if modified && version.Revision != "" {
		version.Revision += "-modified"
	}
}
