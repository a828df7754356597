package ledger

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// judge checks the restored state's cursor against the exchange's clock
// before the first poll; an impossible one is set aside for this account
// alone and its counting starts afresh.
func (r *Reader) judge(ctx context.Context, src Source) error {
	rs := r.restored
	nowMs, err := exchangeNowMs(ctx, src, rs.State.StartMs)
	if err != nil {
		return err
	}
	r.restored = nil
	cerr := rs.State.Check(nowMs)
	if cerr == nil {
		return nil
	}
	aside, err := rs.SetAside()
	r.note(NoteWarn, "saved token history state of the account is impossible: set aside, its counters start from zero",
		"set_aside_as", aside, "err", errors.Join(cerr, err))
	r.l = rs.Fresh(nowMs)
	r.obs.Replaced(r.l)
	r.publish()
	return nil
}

// exchangeNowMs is the exchange's time: from the clock the clients share
// once an answer set it, else from the envelope of one small read. Before
// any answer, a cursor the local clock already accepts costs no read.
func exchangeNowMs(ctx context.Context, src Source, cursorMs int64) (int64, error) {
	local, known := src.Now()
	if known || cursorMs <= local+MaxFutureCursor.Milliseconds() {
		return local, nil
	}
	var serverMs int64
	err := src.Pages(ctx, Query{StartMs: local - time.Minute.Milliseconds(), EndMs: local, PageSize: 1},
		func(p FetchedPage) error {
			serverMs = p.ServerTimeMs
			return errStopPaging
		})
	if err != nil && !errors.Is(err, errStopPaging) {
		return 0, fmt.Errorf("read the exchange's time to judge the saved token history: %w", err)
	}
	if now, known := src.Now(); known || serverMs == 0 {
		// Without a time in the answer, the local clock is all there is.
		return now, nil
	}
	return serverMs, nil
}
