package fakeexchange

import (
	"fmt"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// EndpointSystemInfo is the endpoint's name in the endpoint table (endpoint.All).
const EndpointSystemInfo = endpoint.SystemInfo

// PathSystemInfo is the endpoint's path in the endpoint table.
var PathSystemInfo = endpoint.PathOf(endpoint.SystemInfo)

func init() {
	addRoute(endpoint.SystemInfo, route{
		serve:         func(e *Exchange, _, rawQuery string) (any, *apiError) { return e.serveSystemInfo(rawQuery) },
		validate:      validateSystemInfo,
		validateEvent: validateSystemStatusEvent,
		seed:          seedSystemInfo,
		apply:         applySystemStatusEvent,
	})
}

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

// normalSystemStatus is served when the scenario sets no status: as
// captured live, with a stale estimate of when a past maintenance ended.
var normalSystemStatus = SystemStatus{Msg: "System is functioning properly.", EstimatedEndTime: 1749963600362}

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
	now := e.now()
	e.mu.Lock()
	s := e.systemStatus
	started := e.started
	e.mu.Unlock()
	if w, open := e.openMaintenance(now); open {
		s = SystemStatus{Status: w.Status, Msg: "System is under maintenance.",
			EstimatedEndTime: started.Add(w.After + w.Duration).UnixMilli()}
	}
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

// MaintenanceWindow is maintenance announced After the exchange's Start for
// Duration: meanwhile the system info endpoint reports Status with the
// window's end as estimatedEndTime, and with RefusePrivate every private
// endpoint answers -1011.
type MaintenanceWindow struct {
	After    time.Duration `yaml:"after"`
	Duration time.Duration `yaml:"duration"`
	// Status is SystemTradingMaintenance (1) or SystemMaintenance (2);
	// 0 means 2.
	Status        int  `yaml:"status"`
	RefusePrivate bool `yaml:"refuse_private"`
}

func (w MaintenanceWindow) validate() error {
	switch {
	case w.After < 0:
		return fieldErr("after", "must not be negative")
	case w.Duration <= 0:
		return fieldErr("duration", "must be positive")
	case w.Status != 0 && w.Status != 1 && w.Status != 2:
		return fieldErr("status", "must be 1 or 2, got %d", w.Status)
	}
	return nil
}

// openMaintenance is the maintenance window open at server time now, if
// any; none before Start.
func (e *Exchange) openMaintenance(now time.Time) (MaintenanceWindow, bool) {
	e.mu.Lock()
	started := e.started
	e.mu.Unlock()
	if started.IsZero() {
		return MaintenanceWindow{}, false
	}
	for _, w := range e.maintenance {
		from := started.Add(w.After)
		if !now.Before(from) && now.Before(from.Add(w.Duration)) {
			if w.Status == 0 {
				w.Status = 2
			}
			return w, true
		}
	}
	return MaintenanceWindow{}, false
}

// validateSystemInfo checks the scenario's system status and maintenance
// windows.
func validateSystemInfo(s *Scenario) error {
	if st := s.SystemStatus; st != nil {
		if err := st.validate(); err != nil {
			return fmt.Errorf("system_status.%w", err)
		}
	}
	for i, w := range s.MaintenanceWindows {
		if err := w.validate(); err != nil {
			return fmt.Errorf("maintenance_windows[%d].%w", i, err)
		}
	}
	return nil
}

func validateSystemStatusEvent(_ *Scenario, ev Event, _ map[string]bool) error {
	if st := ev.SystemStatus; st != nil {
		if err := st.validate(); err != nil {
			return fmt.Errorf("system_status.%w", err)
		}
	}
	return nil
}

func applySystemStatusEvent(e *Exchange, ev Event) error {
	if ev.SystemStatus != nil {
		e.SetSystemStatus(*ev.SystemStatus)
	}
	return nil
}

// seedSystemInfo sets the scenario's status, or the normal one, and its
// maintenance windows.
func seedSystemInfo(e *Exchange, s *Scenario) {
	e.systemStatus = normalSystemStatus
	if s.SystemStatus != nil {
		e.systemStatus = *s.SystemStatus
	}
	e.maintenance = append([]MaintenanceWindow(nil), s.MaintenanceWindows...)
}
