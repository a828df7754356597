package server

import (
	"net/http"
)

// reloadPath re-reads the configuration, as Prometheus' does.
const reloadPath = "/-/reload"

// reloadHandler answers POST or PUT /-/reload as Prometheus does with
// --web.enable-lifecycle: 200 once the reload succeeded, 500 naming why it
// failed; without the flag (reload nil), 403, so that nobody who can reach
// the port can make the exporter read its files.
func reloadHandler(reload func() error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if reload == nil {
			http.Error(w, "Lifecycle API is not enabled.", http.StatusForbidden)
			return
		}
		if r.Method != http.MethodPost && r.Method != http.MethodPut {
			w.Header().Set("Allow", "POST, PUT")
			http.Error(w, "Only POST or PUT requests allowed.", http.StatusMethodNotAllowed)
			return
		}
		if err := reload(); err != nil {
			http.Error(w, "failed to reload config: "+err.Error(), http.StatusInternalServerError)
			return
		}
		_, _ = w.Write([]byte("configuration reloaded\n"))
	}
}
