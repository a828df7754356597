#!/bin/sh
# Runs before the package's files go, for the .deb ($1 = remove, or upgrade
# on an upgrade) and the .rpm ($1 = 0 on erase, 1 on upgrade).
set -e

case "$1" in
remove | 0)
	if [ -d /run/systemd/system ]; then
		systemctl --no-reload disable --now woox_exporter.service || true
	fi
	;;
esac
