package main

import (
	"runtime/debug"

	"github.com/prometheus/common/version"
)

// fillVersion fills what a release build's -ldflags would set from the
// module's build info: `go install ...@v1.2.0` knows its version, and a
// build in a git checkout knows its revision and commit time. Without
// either, the version says devel rather than nothing.
func fillVersion(info *debug.BuildInfo, ok bool) {
	if version.Version != "" {
		return
	}
	version.Version = "devel"
	if !ok {
		return
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		version.Version = v
	}
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			if version.Revision == "" {
				version.Revision = s.Value
			}
		case "vcs.time":
			if version.BuildDate == "" {
				version.BuildDate = s.Value
			}
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if modified && version.Revision != "" {
		version.Revision += "-modified"
	}
}
