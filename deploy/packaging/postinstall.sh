#!/bin/sh
# Runs after the package's files are in place, on install and upgrade, for
# the .deb ($1 = configure) and the .rpm ($1 = 1 on install, 2 on upgrade).
set -e

if ! getent group woox_exporter >/dev/null; then
	groupadd --system woox_exporter
fi
if ! getent passwd woox_exporter >/dev/null; then
	useradd --system --gid woox_exporter --no-create-home \
		--home-dir /var/lib/woox_exporter --shell /usr/sbin/nologin \
		--comment "WOO X Prometheus exporter" woox_exporter
fi

# systemd creates it too (StateDirectory=); this is for starts without systemd.
install -d -m 0700 -o woox_exporter -g woox_exporter /var/lib/woox_exporter

# Without systemd running (a container, a chroot) there is nothing to tell.
if [ -d /run/systemd/system ]; then
	systemctl daemon-reload || true
	upgrade=false
	case "$1" in
	configure) [ -n "$2" ] && upgrade=true ;;
	2) upgrade=true ;;
	esac
	# A fresh install is not started: the exporter needs its account first.
	if [ "$upgrade" = true ]; then
		systemctl try-restart woox_exporter.service || true
	fi
fi
