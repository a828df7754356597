package collector

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-kit/log/level"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// restoredState is a saved state not yet judged: a host whose clock is
// behind at boot would find a good cursor in its future, so the cursor is
// judged against the exchange's clock, which is known only after an answer.
type restoredState struct {
	state ledger.State
	// fresh is the ledger of a fresh start at the exchange's time nowMs.
	fresh func(nowMs int64) *ledger.Ledger
	// setAside moves the account's saved state out of the state file and
	// says where to.
	setAside func() (string, error)
}

// judge checks the restored state's cursor against the exchange's clock
// before the first poll; an impossible one is set aside for this account
// alone and its counting starts afresh.
func (a *historyAccount) judge(ctx context.Context, src historySource) error {
	rs := a.restored
	nowMs, err := exchangeNowMs(ctx, src, rs.state.StartMs)
	if err != nil {
		return err
	}
	a.restored = nil
	cerr := rs.state.Check(nowMs)
	if cerr == nil {
		return nil
	}
	aside, err := rs.setAside()
	a.note(level.Warn, "saved token history state of the account is impossible: set aside, its counters start from zero",
		"set_aside_as", aside, "err", errors.Join(cerr, err))
	a.l = rs.fresh(nowMs)
	a.resume = false
	a.firstPoll = "the saved state was set aside: it reads --token-history.lookback"
	a.inUse.replace(a.l)
	a.publish()
	return nil
}

// exchangeNowMs is the exchange's time: from the clock the clients share
// once an answer set it, else from the envelope of one small read. Before
// any answer, a cursor the local clock already accepts costs no read.
func exchangeNowMs(ctx context.Context, src historySource, cursorMs int64) (int64, error) {
	local, known := src.now()
	if known || cursorMs <= local+ledger.MaxFutureCursor.Milliseconds() {
		return local, nil
	}
	var serverMs int64
	err := src.pages(ctx, client.HistoryQuery{StartTime: local - time.Minute.Milliseconds(), EndTime: local, PageSize: 1},
		func(p client.HistoryPage) error {
			serverMs = p.ServerTimeMs
			return errStopPaging
		})
	if err != nil && !errors.Is(err, errStopPaging) {
		return 0, fmt.Errorf("read the exchange's time to judge the saved token history: %w", err)
	}
	if now, known := src.now(); known || serverMs == 0 {
		// Without a time in the answer, the local clock is all there is.
		return now, nil
	}
	return serverMs, nil
}
