package fakeexchange

import (
	"cmp"
	"fmt"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

func init() {
	r := systemInfos.route()
	validate := r.validate
	r.validate = func(s *Scenario) error {
		for i, w := range s.MaintenanceWindows {
			if err := w.validate(); err != nil {
				return fmt.Errorf("maintenance_windows[%d].%w", i, err)
			}
		}
		return validate(s)
	}
	addRoute(endpoint.SystemInfo, r)
}

// systemInfos answer the status set (by default as captured) or the open
// maintenance window's.
var systemInfos = &rowsEndpoint[SystemStatus]{name: endpoint.SystemInfo, section: "system_status", event: "system_status",
	one: true, recorded: SystemStatus{Msg: "System is functioning properly.", EstimatedEndTime: 1749963600362}, change: replace,
	scenario: func(s *Scenario, _ Account) []SystemStatus {
		if s.SystemStatus == nil {
			return nil
		}
		return []SystemStatus{*s.SystemStatus}
	},
	servedAt: func(e *Exchange, _ *accountState, s SystemStatus, _, now time.Time) SystemStatus {
		if w, open := e.openMaintenanceLocked(now); open {
			s = SystemStatus{Status: w.Status, Msg: "System is under maintenance.",
				EstimatedEndTime: e.started.Add(w.After + w.Duration).UnixMilli()}
		}
		return s
	},
}

// SystemStatus is what the system info endpoint reports, in camelCase.
type SystemStatus struct {
	// Status is 0 normally, 1 under trading and 2 under system maintenance;
	// other values are served as given.
	Status int    `yaml:"status" wire:"status,integer,always"`
	Msg    string `yaml:"msg" wire:"msg,always"`
	// EstimatedEndTime is Unix ms; 0 leaves it out.
	EstimatedEndTime int64 `yaml:"estimated_end_time" wire:"estimatedEndTime,integer,snake=estimatedEndTime"`
}

func (s SystemStatus) check() error {
	return cmp.Or(fieldErrIf(s.Status < 0, "status", "must not be negative"),
		fieldErrIf(s.EstimatedEndTime < 0, "estimated_end_time", "must not be negative"))
}

// MaintenanceWindow is maintenance from After Start for Duration: system info
// reports Status and its end, and with RefusePrivate private endpoints answer
// -1011.
type MaintenanceWindow struct {
	After    time.Duration `yaml:"after"`
	Duration time.Duration `yaml:"duration"`
	// Status is 1 or 2 (the default).
	Status        int  `yaml:"status"`
	RefusePrivate bool `yaml:"refuse_private"`
}

func (w MaintenanceWindow) validate() error {
	return cmp.Or(fieldErrIf(w.After < 0, "after", "must not be negative"), fieldErrIf(w.Duration <= 0, "duration", "must be positive"),
		fieldErrIf(w.Status != 0 && w.Status != 1 && w.Status != 2, "status", "must be 1 or 2, got %d", w.Status))
}

// openMaintenanceLocked is the maintenance window open at now, none before Start; mu held.
func (e *Exchange) openMaintenanceLocked(now time.Time) (MaintenanceWindow, bool) {
	if e.started.IsZero() {
		return MaintenanceWindow{}, false
	}
	for _, w := range e.s.MaintenanceWindows {
		from := e.started.Add(w.After)
		if !now.Before(from) && now.Before(from.Add(w.Duration)) {
			if w.Status == 0 {
				w.Status = 2
			}
			return w, true
		}
	}
	return MaintenanceWindow{}, false
}
