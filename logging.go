package main

import (
	"io"
	"log/slog"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	sloggokit "github.com/tjhop/slog-gokit"
)

// newLogger builds the go-kit logger every package logs through, and an
// slog.Logger bridged onto the same output for exporter-toolkit, so there is
// one logging stack.
func newLogger(w io.Writer, format, lvl string) (log.Logger, *slog.Logger) {
	var base log.Logger
	if format == "json" {
		base = log.NewJSONLogger(log.NewSyncWriter(w))
	} else {
		base = log.NewLogfmtLogger(log.NewSyncWriter(w))
	}
	logger := base
	slogLevel := new(slog.LevelVar)
	switch lvl {
	case "debug":
		logger = level.NewFilter(logger, level.AllowDebug())
		slogLevel.Set(slog.LevelDebug)
	case "warn":
		logger = level.NewFilter(logger, level.AllowWarn())
		slogLevel.Set(slog.LevelWarn)
	case "error":
		logger = level.NewFilter(logger, level.AllowError())
		slogLevel.Set(slog.LevelError)
	default:
		logger = level.NewFilter(logger, level.AllowInfo())
		slogLevel.Set(slog.LevelInfo)
	}
	// The bridge adds its own time and caller, so it gets the bare logger;
	// ours use its key, "time", so every line has one timestamp key.
	slogger := slog.New(sloggokit.NewGoKitHandler(base, slogLevel))
	return log.With(logger, "time", log.DefaultTimestampUTC, "caller", log.DefaultCaller), slogger
}
