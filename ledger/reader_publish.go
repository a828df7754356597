package ledger

// Observer is told what a Reader's polls find, as they find it: the totals
// to show, the poll counters and the lines to log. Totals are handed out
// between pages, not only at the end of a poll, so that a long catch-up
// shows its progress.
type Observer interface {
	// Publish shows s. With a state file, it holds only saved totals.
	Publish(s Snapshot)
	// Count adds c to the poll counters.
	Count(c Counts)
	// Note is a line for the log.
	Note(n Note)
	// Replaced says the restored state was set aside and l counts from now
	// on, from zero.
	Replaced(l *Ledger)
}

// Counts are additions to the poll counters.
type Counts struct {
	// Inconsistent counts polls that found fewer distinct records than a
	// meta.total that held steady while paging.
	Inconsistent int
	// Outside counts rows returned outside the window asked for.
	Outside int
	// Malformed counts malformed rows skipped.
	Malformed int
}

// NoteLevel is how much a Note matters.
type NoteLevel int

// The levels of a Note, as a logger has them.
const (
	NoteDebug NoteLevel = iota
	NoteInfo
	NoteWarn
	NoteError
)

// Note is a line for the log, about the account polled.
type Note struct {
	Level NoteLevel
	Msg   string
	// KV are key/value pairs, keys first.
	KV []any
}

func (r *Reader) note(lvl NoteLevel, msg string, kv ...any) {
	r.obs.Note(Note{Level: lvl, Msg: msg, KV: kv})
}

func (r *Reader) publish() { r.obs.Publish(r.l.Snapshot()) }

// countedRecords publishes the ledger's totals after records were counted,
// or, with a state file, leaves them for saveThenPublish: a counter shown
// before it is saved would go back after a crash, which Prometheus reads
// as a reset and turns into a spike of the account's whole history.
func (r *Reader) countedRecords() {
	if r.cfg.Save == nil {
		r.publish()
		return
	}
	r.unsaved = true
}

// saveThenPublish ends a poll with a state file: it saves the ledger state
// when the poll read every page (the cursor may have moved) or counted a
// record, and publishes the totals once they are saved. After a failed
// write the totals shown stay the saved ones until a write succeeds.
func (r *Reader) saveThenPublish(readAll bool) {
	if r.cfg.Save == nil || (!readAll && !r.unsaved) {
		return
	}
	if err := r.cfg.Save(r.l.Export()); err != nil {
		r.note(NoteError, "cannot save token history state", "err", err)
		return
	}
	if r.unsaved {
		r.unsaved = false
		r.publish()
	}
}
