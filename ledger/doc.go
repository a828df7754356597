// Package ledger counts an account's token history records exactly once
// while the exporter reads the history again and again through overlapping
// query windows. It is arithmetic: it imports nothing from this module, does
// no I/O and calls nothing back. The collector's poll loop asks a Ledger for
// the query window to read, hands it each page as it arrives (ObservePage, with a
// PollCheck to judge the pages), tells it how the read ended (Finish,
// Complete), asks it for the late sweep's slices (NextSweep, SweepRead),
// and saves and publishes what Export and Snapshot return.
//
// # Cursor
//
// The ledger keeps a cursor, the start of the next query window. A fresh
// ledger starts at now − lookback. Each poll asks the exchange for the
// records with timestamps in [start, end], end being a time fixed for the
// poll and never later than the exchange's own clock has confirmed. Only
// after a complete and consistent poll (every page fetched, the result set
// unchanged while paging) does Finish advance the cursor, to
//
//	max(start, newest record timestamp seen − overlap, end − max(overlap, IdleWindow))
//
// so the next query window re-reads the last overlap before the newest record:
// records the exchange shows late, with a timestamp inside that overlap,
// are still found. The third term only bounds the query window of an account
// that has had no records for a long time; it never cuts into the overlap.
// After a failed or inconsistent poll the cursor stays, and the next poll
// re-reads the same query window.
//
// # Identity and memory
//
// A record is identified by its id together with its token and type: the
// exchange may reuse one id for the legs of one trade, and such rows are
// distinct records (counted, and counted as shared-id records). A row whose
// id, token and type were seen before is the same record even when its
// timestamp moved (a status update): it is never counted twice.
//
// The ledger remembers every record it counted whose latest timestamp is at
// or after the horizon, a time that only moves forward and trails the
// cursor by the late window (see Late sweep). A row older than the horizon
// (less TruncationSlack) cannot be told apart from one counted before its id
// was forgotten; ObservePage reports such rows instead of counting them, and
// the poll fails loudly. A row between the horizon and the
// cursor is counted if it is new: the exchange returned it although it lies
// before the query window, perhaps because it sends times in whole seconds.
//
// # Late sweep
//
// Nothing documents when a record becomes visible relative to its
// timestamp. A record listed after the overlap has passed it would never be
// counted by the regular polls, so from time to time the poll sweeps
// the late window behind the cursor ([max(horizon, now − late window),
// cursor)) in time slices that each fit one page, a few per poll. Records it
// finds that were never counted are counted now, and counted as late.
//
// # An exchange that overstates meta.total
//
// A poll is consistent when meta.total did not change while paging and at
// least that many distinct records arrived (more is fine: paging on past a
// page that may be capped finds rows an understated total leaves out). If the exchange
// reports more rows than it ever serves, no poll is consistent and the
// cursor would never move. So a poll whose total held steady but came up
// short (and that the poll could not complete by reading the query window
// again in smaller slices) leaves its end pending; a later steady poll that
// counts nothing new up to that end has read the query window again and found
// what the first read found: the query window is as complete as the exchange will
// make it, and Finish advances the cursor to the pending end. Any record
// counted at or before the pending end in between shows the earlier read was
// incomplete and the query window is re-read again.
//
// # Saving before publishing
//
// Export (the State to save) and Snapshot (the totals to show) are apart so
// that the poll loop can show only what the state file holds: a counter
// shown before it is saved would go back after a crash, which Prometheus
// reads as a reset. Without a state file the loop shows the totals after
// each page that counted a record.
//
// # A saved state
//
// State.Check judges a cursor loaded from the state file against the
// exchange's clock before the first poll (a host whose clock is behind at
// boot would find a good cursor in its future); the poll loop sets one too
// far ahead aside and the account counts from zero.
//
// # Tallies: transfers, funding fees; withdrawals
//
// A Tally counts the records of a history once by id into totals by their
// labels, re-reading a late window behind its cursor: the transfers between
// accounts (kept in the state file as a TransfersState) and the funding
// fees are each counted with one. Withdrawals counts the withdrawals of the
// wallet history by destination. Each takes the same care: ids are
// remembered for as long as a later read may list them again.
package ledger
