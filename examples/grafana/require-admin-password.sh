#!/bin/sh
# Entrypoint of the example's Grafana: refuses to start without a usable
# admin password, then runs its arguments (the image's own /run.sh).
#
# run.sh reads GF_SECURITY_ADMIN_PASSWORD__FILE into GF_SECURITY_ADMIN_PASSWORD;
# a file it cannot read, or an empty one, gives an empty value, which Grafana
# ignores: it would start with its default password, admin. Compose mounts a
# file secret with the host file's owner and mode, and Grafana runs as uid 472,
# so the file must be readable by that uid on the host (docs/deploying.md, Compose).
set -eu
f=${GF_SECURITY_ADMIN_PASSWORD__FILE:?GF_SECURITY_ADMIN_PASSWORD__FILE is not set}
host=examples/secrets/grafana_admin_password
if [ ! -f "$f" ]; then
	echo "grafana: no admin password: $f is missing or not a file; create $host (docs/deploying.md, Compose)" >&2
	exit 1
fi
if [ ! -r "$f" ]; then
	echo "grafana: uid $(id -u) cannot read $f: compose mounts it with the host file's owner and mode; on the host: chown 472 $host" >&2
	exit 1
fi
if ! grep -q '[^[:space:]]' "$f"; then
	echo "grafana: the admin password in $f is empty; put one in $host" >&2
	exit 1
fi
exec "$@"
