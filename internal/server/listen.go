package server

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/coreos/go-systemd/v22/activation"
	"github.com/mdlayher/vsock"
	"github.com/prometheus/exporter-toolkit/web"
)

// DefaultListenAddress uses a port from the Prometheus default port
// allocations that no listed exporter uses.
const DefaultListenAddress = ":10110"

// Listen opens the listeners that the web flags name, as exporter-toolkit's
// ListenAndServe would (systemd sockets, vsock:// or TCP addresses), each
// accepting at most maxConns connections at once. exporter-toolkit opens
// them itself, with no way to bound them.
func Listen(flags *web.FlagConfig, maxConns int) ([]net.Listener, error) {
	var listeners []net.Listener
	closeAll := func() {
		for _, l := range listeners {
			l.Close()
		}
	}
	if *flags.WebSystemdSocket {
		ls, err := activation.Listeners()
		if err != nil {
			return nil, fmt.Errorf("--web.systemd-socket: %w", err)
		}
		for _, l := range ls {
			if l != nil {
				listeners = append(listeners, l)
			}
		}
		if len(listeners) < len(ls) || len(listeners) == 0 {
			closeAll()
			return nil, errors.New("--web.systemd-socket: systemd passed no socket, or one that is not a listening socket")
		}
	} else {
		for _, addr := range *flags.WebListenAddresses {
			l, err := listenOn(addr)
			if err != nil {
				closeAll()
				return nil, fmt.Errorf("--web.listen-address %s: %w", addr, err)
			}
			listeners = append(listeners, l)
		}
	}
	for i, l := range listeners {
		listeners[i] = newEvictingListener(l, maxConns)
	}
	return listeners, nil
}

func listenOn(addr string) (net.Listener, error) {
	if strings.HasPrefix(addr, "vsock://") {
		port, err := vsockPort(addr)
		if err != nil {
			return nil, err
		}
		return vsock.Listen(port, nil)
	}
	return net.Listen("tcp", addr)
}

// CheckListenAddresses refuses a --web.listen-address that cannot be
// listened on as written, so that it fails before anything polls.
func CheckListenAddresses(addrs []string) error {
	for _, a := range addrs {
		var err error
		if strings.HasPrefix(a, "vsock://") {
			_, err = vsockPort(a)
		} else {
			err = checkHostPort(a)
		}
		if err != nil {
			return fmt.Errorf("--web.listen-address %q: want [host]:port such as %s, or vsock://:port: %w", a, DefaultListenAddress, err)
		}
	}
	return nil
}

func checkHostPort(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	// A service name (":http") is a port too.
	_, err = net.LookupPort("tcp", port)
	return err
}

// vsockPort is the port of a vsock://:port address, as exporter-toolkit
// reads it.
func vsockPort(addr string) (uint32, error) {
	u, err := url.Parse(addr)
	if err != nil {
		return 0, err
	}
	_, port, err := net.SplitHostPort(u.Host)
	if err != nil {
		return 0, err
	}
	p, err := strconv.ParseUint(port, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("port %q: not a number", port)
	}
	return uint32(p), nil
}
