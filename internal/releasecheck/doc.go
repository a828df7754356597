// Package releasecheck holds no code: its tests hold the release to working
// order.
//
// Always: the systemd unit in deploy/systemd passes systemd-analyze verify,
// its exposure (systemd-analyze security) is the one docs/deploying.md
// quotes, the /etc/default file and the example accounts file name the
// credentials and state directory the unit provides (and the example loads
// as a configuration), the strace record that judges a run against the
// unit's sandbox finds what it must, and .goreleaser.yaml names the
// packages as Debian's policy allows (prometheus-woox-exporter, replacing
// woox_exporter), as the docs do, with the license in every archive and
// package and the .deb's copyright file. Those that run systemd-analyze skip
// without Debian's systemd; CI installs it.
//
// With WOOX_RELEASE_RUN=1, as root, on a machine whose packages it may
// change (.ci/run does): GoReleaser builds a snapshot release into dist/;
// every archive's binary reports the snapshot's version and commit (linux
// binaries run, the foreign one through qemu-user; every binary's build
// info shows its -ldflags, cgo off and -trimpath); the checksums match; the
// .deb and .rpm hold the files they must with their modes and name the
// package they replace; the .deb installs (its user, its state directory, a
// unit systemd-analyze accepts), survives a reinstall with its edited
// configuration, runs as its unit would (the unit's user, environment file,
// credentials, umask) against the fake exchange under strace, within the
// unit's sandbox, and is removed and purged cleanly.
//
// Each check returns the problems it finds, one line each naming what is
// wrong, so that a test can run it on the shipped files and on a broken
// copy.
package releasecheck
