package main

import (
	"runtime/debug"
	"testing"

	"github.com/prometheus/common/version"
)

func TestFillVersionFromBuildInfo(t *testing.T) {
	saved := [3]string{version.Version, version.Revision, version.BuildDate}
	t.Cleanup(func() { version.Version, version.Revision, version.BuildDate = saved[0], saved[1], saved[2] })
	for _, tc := range []struct {
		name                    string
		ldflags                 [3]string
		info                    *debug.BuildInfo
		ok                      bool
		version, revision, date string
	}{
		{"no build info", [3]string{}, nil, false, "devel", "", ""},
		{"go build in a checkout", [3]string{}, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-23T01:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			true, "devel", "abc123-modified", "2026-11-23T01:00:00Z"},
		{"go install at a version", [3]string{}, &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, true, "v0.1.0", "", ""},
		{"release build with ldflags", [3]string{"0.1.0", "fedcba", "20261123"}, &debug.BuildInfo{Main: debug.Module{Version: "v9"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}}}, true, "0.1.0", "fedcba", "20261123"},
	} {
		version.Version, version.Revision, version.BuildDate = tc.ldflags[0], tc.ldflags[1], tc.ldflags[2]
		fillVersion(tc.info, tc.ok)
		if version.Version != tc.version || version.Revision != tc.revision || version.BuildDate != tc.date {
			t.Errorf("%s: version %q revision %q date %q, want %q %q %q", tc.name,
				version.Version, version.Revision, version.BuildDate, tc.version, tc.revision, tc.date)
		}
	}
}
