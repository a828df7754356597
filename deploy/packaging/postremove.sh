#!/bin/sh
# Runs after the package's files are gone, for the .deb ($1 = remove, purge,
# upgrade, ...) and the .rpm ($1 = 0 on erase, 1 on upgrade).
set -e

if [ -d /run/systemd/system ]; then
	systemctl daemon-reload || true
fi

# Purge (.deb only) also drops what the admin and the exporter wrote: the API
# secrets and the token history state. The user stays, as Debian's packages
# leave theirs, in case a file elsewhere still belongs to it.
if [ "$1" = purge ]; then
	rm -rf /etc/woox_exporter/secrets /var/lib/woox_exporter
	rmdir /etc/woox_exporter 2>/dev/null || true
fi
