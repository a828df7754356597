package fakeexchange

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/go-kit/log"
)

const contentTypeJSON = "application/json;charset=UTF-8"

// DefaultRequestLogLimit is how many requests Requests keeps by default.
const DefaultRequestLogLimit = 100000

// Exchange is a fake WOO X REST API, an http.Handler safe for concurrent use.
type Exchange struct {
	clock  func() time.Time
	logger log.Logger
	// s is the scenario's settings (see settings), without its accounts.
	s Scenario
	// private and public are the rate limits: per account and endpoint, per IP.
	private     map[string]*slidingWindow
	public      *slidingWindow
	maxRequests int
	startOnce   sync.Once

	mu       sync.Mutex
	accounts map[string]*accountState
	keys     map[string]keyRef
	faults   []*Fault
	// cleared is closed by ClearFaults, to end latency faults under way.
	cleared           chan struct{}
	beforeHistoryPage func(account string, page int)
	requests          []RequestRecord
	// started is the server time of Start; zero before it.
	started time.Time
	// historyServes counts history answers, to turn tie groups.
	historyServes int
	// rows are the public endpoints' rows, by endpoint name.
	rows map[string]any
}

// accountState is one account's keys and history.
type accountState struct {
	name        string
	accountName string
	userID      int64
	keyOrder    []string
	// listed, when not nil, is what credentials lists instead.
	listed  []Key
	history []HistoryRecord // ascending by compareRecords
	keys    map[legKey]bool
	// listAt is when records appended late are first listed.
	listAt map[legKey]time.Time
	// balancesAt is the timestamp of the latest balances answer (Unix ms).
	balancesAt int64
	maxID      int64
	generator  *HistoryGenerator

	isSubAccount bool
	// rows are its endpoints' rows, by endpoint name.
	rows map[string]any
}

// RequestRecord is one request the fake received, whatever its fate.
type RequestRecord struct {
	// Time is when it arrived, by the clock (without the server time offset).
	Time     time.Time
	Method   string
	Path     string
	RawQuery string
	// Endpoint is the endpoint's name, "" for an unknown path or method.
	Endpoint string
	// Account is the account of the API key, "" for public or unknown keys.
	Account string
	APIKey  string
	// Signature and APITimestamp are the headers as received, for secret
	// checks.
	Signature    string
	APITimestamp string
	// Status is the HTTP status sent, 0 when none was.
	Status int
	// Code is the exchange error code sent, 0 on success.
	Code int
	// Fault is the kind of injected fault that hit the request, if any.
	Fault FaultKind
}

// New builds an exchange holding the scenario (nil: none); Start runs it.
func New(s *Scenario, opts ...Option) (*Exchange, error) {
	if s == nil {
		s = &Scenario{}
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("invalid scenario: %w", err)
	}
	o := options{clock: time.Now, logger: log.NewNopLogger(), maxRequests: DefaultRequestLogLimit}
	for _, opt := range opts {
		opt(&o)
	}
	e := &Exchange{
		clock:       o.clock,
		logger:      o.logger,
		s:           settings(s),
		private:     o.privateLimiters(s),
		public:      newSlidingWindow(o.publicLimit(s)),
		maxRequests: o.maxRequests,
		accounts:    map[string]*accountState{},
		keys:        map[string]keyRef{},
		cleared:     make(chan struct{}),
		rows:        map[string]any{},
	}
	for _, ep := range routes {
		if ep.seed != nil {
			ep.seed(e, s)
		}
	}
	created := e.now()
	for _, a := range s.Accounts {
		e.addAccount(a, created)
	}
	return e, nil
}

// settings is a copy of the scenario's settings that later changes to s do not
// reach, defaults filled in, without the accounts.
func settings(s *Scenario) Scenario {
	c := *s
	c.Accounts = nil
	c.SnakeCaseMeta = s.SnakeCaseMeta || s.NumbersAsStrings // as captured
	c.WalletTimeUnit = cmp.Or(s.WalletTimeUnit, RowTimeSecondsFraction)
	c.MalformedIDs, c.UndocumentedTypes = slices.Clone(s.MalformedIDs), slices.Clone(s.UndocumentedTypes)
	c.MaintenanceWindows, c.Events = slices.Clone(s.MaintenanceWindows), slices.Clone(s.Events)
	c.UnreadableRows = map[string]int{} // of its own: events change it
	maps.Copy(c.UnreadableRows, s.UnreadableRows)
	c.LateListing, c.ErrorTimestamp = clone(s.LateListing), clone(s.ErrorTimestamp)
	return c
}

func clone[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

// addAccount adds a scenario account, its keys and its endpoints' sections.
func (e *Exchange) addAccount(a Account, created time.Time) {
	st := &accountState{name: a.Name, accountName: a.AccountName, userID: a.UserID, isSubAccount: a.IsSubAccount,
		keys: map[legKey]bool{}, listAt: map[legKey]time.Time{}, rows: map[string]any{}}
	e.accounts[a.Name] = st
	for _, k := range a.Keys {
		st.keyOrder = append(st.keyOrder, k.APIKey)
		e.keys[k.APIKey] = keyRef{account: a.Name, key: cloneKey(k)}
	}
	for _, ep := range routes {
		if ep.seedAccount != nil {
			ep.seedAccount(e, st, a, created)
		}
	}
}

// now is the server time: the clock plus the scenario's offset.
func (e *Exchange) now() time.Time { return e.clock().Add(e.s.ServerTimeOffset) }

// ServeHTTP answers a request: route, authenticate, limit, faults, validate,
// answer.
func (e *Exchange) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := RequestRecord{Time: e.clock(), Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery,
		Signature: r.Header.Get("x-api-signature"), APITimestamp: r.Header.Get("x-api-timestamp")}
	// Recorded before the answer goes out: a caller with its answer finds it.
	var once sync.Once
	recordOnce := func() { once.Do(func() { e.record(rec) }) }
	defer recordOnce()
	w = &recordingWriter{ResponseWriter: w, before: recordOnce}

	ep, ok := routeOf(r.URL.Path)
	if !ok || r.Method != http.MethodGet {
		e.writeError(w, &rec, &apiError{status: http.StatusNotFound, code: -1006, message: "resource not found"})
		return
	}
	rec.Endpoint = ep.Name
	now := e.now()
	limiterKey := remoteIP(r).String()
	limiter := e.public
	if ep.PerAccount {
		ref, aerr := e.authenticate(r, now)
		rec.Account, rec.APIKey = ref.account, ref.key.APIKey
		if aerr != nil {
			e.writeError(w, &rec, aerr)
			return
		}
		limiterKey, limiter = ref.account, e.private[ep.Name]
	}
	if !limiter.allow(limiterKey, e.clock()) {
		e.writeError(w, &rec, errTooManyRequests())
		return
	}
	e.mu.Lock()
	mw, open := e.openMaintenanceLocked(now)
	e.mu.Unlock()
	if open && mw.RefusePrivate && ep.PerAccount {
		e.writeError(w, &rec, &apiError{status: http.StatusBadRequest, code: -1011, message: "system under maintenance"})
		return
	}

	delay, fault, cleared := e.takeFaults(ep.Name)
	if delay > 0 {
		rec.Fault = FaultLatency
		if !sleep(r.Context(), delay, cleared) {
			return
		}
	}
	if fault != nil && fault.Kind != FaultTruncatedJSON { // the one that needs the answer
		e.answerFault(w, r, &rec, *fault, 0, nil)
		return
	}

	data, aerr := ep.serve(e, rec.Account, r.URL.RawQuery)
	status, body := http.StatusOK, []byte(nil)
	if aerr != nil {
		status, body, rec.Code = aerr.status, e.errorBody(aerr), aerr.code
	} else {
		body = e.successBody(data)
	}
	if fault != nil {
		e.answerFault(w, r, &rec, *fault, status, body)
		return
	}
	rec.Status = status
	writeRaw(w, status, contentTypeJSON, body)
}

// recordingWriter calls before ahead of the first byte of the answer.
type recordingWriter struct {
	http.ResponseWriter
	before func()
}

func (w *recordingWriter) WriteHeader(status int) {
	w.before()
	w.ResponseWriter.WriteHeader(status)
}

func (w *recordingWriter) Write(b []byte) (int, error) {
	w.before()
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *recordingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (e *Exchange) record(rec RequestRecord) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.maxRequests > 0 && len(e.requests) >= e.maxRequests {
		drop := len(e.requests) - e.maxRequests + 1
		e.requests = append(e.requests[:0], e.requests[drop:]...)
	}
	e.requests = append(e.requests, rec)
}

// Requests returns the requests received (up to the log limit), oldest first.
func (e *Exchange) Requests() []RequestRecord {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]RequestRecord(nil), e.requests...)
}

// apiError is an exchange error answer.
type apiError struct {
	status  int
	code    int
	message string
	// codeAsString sends the code as a JSON string, as seen for -1011.
	codeAsString bool
}

// body is the error envelope; timestamp is left out when nil.
func (a *apiError) body(timestamp any) []byte {
	var code any = a.code
	if a.codeAsString {
		code = strconv.Itoa(a.code)
	}
	return mustJSON(struct {
		Success   bool   `json:"success"`
		Code      any    `json:"code"`
		Message   string `json:"message"`
		Timestamp any    `json:"timestamp,omitempty"`
	}{false, code, a.message, timestamp})
}

func errUnauthorized(msg string) *apiError {
	return &apiError{status: http.StatusUnauthorized, code: -1002, message: msg}
}

func errInvalidSignature(msg string) *apiError {
	return &apiError{status: http.StatusUnauthorized, code: -1001, message: msg}
}

func errTooManyRequests() *apiError {
	return &apiError{status: http.StatusTooManyRequests, code: -1003, message: "too many requests"}
}

func errInvalidParam(format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, code: -1005, message: fmt.Sprintf(format, args...)}
}

func (e *Exchange) writeError(w http.ResponseWriter, rec *RequestRecord, a *apiError) {
	rec.Status, rec.Code = a.status, a.code
	writeRaw(w, a.status, contentTypeJSON, e.errorBody(a))
}

// errorBody is a's answer in the number mode, with the bogus timestamp if any.
func (e *Exchange) errorBody(a *apiError) []byte {
	var ts any
	if e.s.ErrorTimestamp != nil {
		ts = e.integer(e.s.ErrorTimestamp.at(e.now()))
	}
	if e.s.NumbersAsStrings {
		c := *a
		c.codeAsString = true
		return c.body(ts)
	}
	return a.body(ts)
}

func writeRaw(w http.ResponseWriter, status int, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// mustJSON marshals values built by this package, which always marshal.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("fakeexchange: marshal answer: %v", err))
	}
	return b
}
