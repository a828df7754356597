package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
)

// startUp measures how long after the answers of the first polls /-/ready
// says ready, on the large account. Its exporter polls every hour, so every
// request it sends is part of a first poll: with short intervals a second
// poll's request could land after a late ready and hide it.
func startUp(ctx context.Context, c config, requests int, limitWindow time.Duration, r *report) error {
	fake, err := largeFake(c, requests, limitWindow)
	if err != nil {
		return err
	}
	answers := &answerLog{h: fake}
	fakeURL, stopFake, err := serve(answers)
	if err != nil {
		return err
	}
	defer stopFake()
	ex, err := startExporter(ctx, c, fakeURL, append([]string{"--collector.sub-accounts"}, exportertest.IntervalFlags(time.Hour)...)...)
	if err != nil {
		return err
	}
	defer ex.stop()
	readyAt, err := ex.Ready(30 * time.Second)
	if err != nil {
		return err
	}
	n, last := answers.last()
	if n == 0 {
		return errors.New("ready before any request reached the exchange")
	}
	// The fake's handler returns a moment after the exporter may have read
	// the answer: a ready seen before that counts as at once.
	afterPoll := max(readyAt.Sub(last), 0)
	r.add("start-up: /-/ready after the last first-poll answer", afterPoll, maxReadyAfterPoll, "", afterPoll <= maxReadyAfterPoll, true,
		fmt.Sprintf("(%d first-poll requests, intervals 1h; start to ready %s)", n, readyAt.Sub(ex.Started).Round(time.Millisecond)))
	return ex.checkLog()
}

// answerLog passes requests to h and keeps when each was answered.
type answerLog struct {
	h          http.Handler
	mu         sync.Mutex
	n          int
	lastAnswer time.Time
}

func (a *answerLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.h.ServeHTTP(w, r)
	now := time.Now()
	a.mu.Lock()
	a.n++
	if now.After(a.lastAnswer) {
		a.lastAnswer = now
	}
	a.mu.Unlock()
}

// last returns how many requests were answered and when the last one was.
func (a *answerLog) last() (int, time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n, a.lastAnswer
}
