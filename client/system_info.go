package client

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// Values of SystemInfo.Status the exchange documents.
const (
	SystemNormal             = 0
	SystemTradingMaintenance = 1
	SystemMaintenance        = 2
)

// SystemInfo is the answer of GET /v3/public/systemInfo.
type SystemInfo struct {
	Status  int    // one of the above, or as sent
	Message string // e.g. "System is functioning properly."
	// EstimatedEndTime is when maintenance should end, in Unix ms; 0 when
	// unreadable, which does not cost the status.
	EstimatedEndTime int64
}

// Maintenance reports whether the status is a maintenance one.
func (s SystemInfo) Maintenance() bool {
	return s.Status == SystemTradingMaintenance || s.Status == SystemMaintenance
}

// SystemInfo returns the exchange's system status. The endpoint is public.
func (c *Client) SystemInfo(ctx context.Context) (SystemInfo, error) {
	return c.systemInfo(ctx, false)
}

// systemInfo asks the system status; as a probe, once (see request.probe).
func (c *Client) systemInfo(ctx context.Context, probe bool) (SystemInfo, error) {
	if probe && c.cfg.Public != nil && c.cfg.Public != c {
		return c.cfg.Public.systemInfo(ctx, probe)
	}
	return getData(ctx, c, request{op: "get system info", endpoint: endpoint.SystemInfo, probe: probe}, decodeSystemInfo)
}

// systemInfoData accepts camelCase and the legacy snake_case.
type systemInfoData struct {
	Status                flexInt         `json:"status"`
	Msg                   string          `json:"msg"`
	Message               string          `json:"message"`
	EstimatedEndTime      json.RawMessage `json:"estimatedEndTime"`
	EstimatedEndTimeSnake json.RawMessage `json:"estimated_end_time"`
}

func decodeSystemInfo(data json.RawMessage) (SystemInfo, error) {
	var d systemInfoData
	if err := decodeData(data, &d); err != nil {
		return SystemInfo{}, err
	}
	if !d.Status.set {
		return SystemInfo{}, errors.New("system info has no status")
	}
	out := SystemInfo{Status: int(d.Status.Value), Message: d.Msg}
	if out.Message == "" {
		out.Message = d.Message
	}
	for _, raw := range []json.RawMessage{d.EstimatedEndTime, d.EstimatedEndTimeSnake} {
		if b, present, _ := fieldBytes(raw); present {
			if ms, err := parseTimeBytes(b); err == nil {
				out.EstimatedEndTime = ms
				break
			}
		}
	}
	return out, nil
}
