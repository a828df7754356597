package fakeexchange

// PathSystemInfo is the public endpoint that reports whether the exchange
// is under maintenance.
const PathSystemInfo = "/v3/public/systemInfo"

// EndpointSystemInfo names the system info endpoint in faults and the
// request log.
const EndpointSystemInfo = "system_info"

var systemInfoRoute = route{path: PathSystemInfo, name: EndpointSystemInfo, public: true,
	serve: func(e *Exchange, _, rawQuery string) (any, *apiError) { return e.serveSystemInfo(rawQuery) }}

// SystemStatus is what the system info endpoint reports.
type SystemStatus struct {
	// Status is 0 when the system works normally, 1 under trading
	// maintenance, 2 under system maintenance; other values are served as
	// given, so clients can be shown to cope with new ones.
	Status int    `yaml:"status"`
	Msg    string `yaml:"msg"`
	// EstimatedEndTime is when maintenance should end, in Unix
	// milliseconds; 0 leaves the field out of the answer.
	EstimatedEndTime int64 `yaml:"estimated_end_time"`
}

// normalSystemStatus is served when the scenario sets no status.
var normalSystemStatus = SystemStatus{Msg: "System is functioning properly."}

func (s SystemStatus) validate() error {
	if s.Status < 0 {
		return fieldErr("status", "must not be negative")
	}
	if s.EstimatedEndTime < 0 {
		return fieldErr("estimated_end_time", "must not be negative")
	}
	return nil
}

type systemInfoJSON struct {
	Status           any    `json:"status"`
	Msg              string `json:"msg"`
	EstimatedEndTime any    `json:"estimatedEndTime,omitempty"`
}

func (e *Exchange) serveSystemInfo(rawQuery string) (any, *apiError) {
	if _, aerr := parseQuery(rawQuery); aerr != nil {
		return nil, aerr
	}
	e.mu.Lock()
	s := e.systemStatus
	e.mu.Unlock()
	out := systemInfoJSON{Status: e.integer(int64(s.Status)), Msg: s.Msg}
	if s.EstimatedEndTime != 0 {
		out.EstimatedEndTime = e.integer(s.EstimatedEndTime)
	}
	return out, nil
}

// SetSystemStatus sets what the system info endpoint reports from now on.
// It only changes that answer: other endpoints keep answering.
func (e *Exchange) SetSystemStatus(s SystemStatus) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.systemStatus = s
}
