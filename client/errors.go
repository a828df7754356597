package client

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Kind classifies a failed exchange call by what a caller should do about it.
type Kind int

const (
	// KindOther is a request the exchange refused for a reason no retry fixes
	// (bad parameter, not found, ...).
	KindOther Kind = iota
	// KindRateLimited is HTTP 429 or exchange code -1003.
	KindRateLimited
	// KindAuth is a rejected key, signature, timestamp or IP (HTTP 401, codes -1001, -1002).
	KindAuth
	// KindMaintenance is exchange code -1011 while the public system status
	// says maintenance (status 1 or 2).
	KindMaintenance
	// KindTransient is a 5xx answer, a timeout, a connection error, or code
	// -1011 while the system status does not say maintenance: the exchange
	// uses -1011 for passing internal errors too.
	KindTransient
	// KindBadResponse is an answer that is not the documented JSON envelope:
	// not JSON, truncated, success:false, missing data, over the size cap, or
	// a redirect (3xx), which the client never follows.
	KindBadResponse
	// KindTLS is an https connection that cannot be made or trusted: the
	// server's certificate does not verify, or the server does not speak
	// TLS (an https URL pointed at a plain-http server). No retry fixes it:
	// the CA bundle or the URL must change.
	KindTLS
)

func (k Kind) String() string {
	switch k {
	case KindRateLimited:
		return "rate limited"
	case KindAuth:
		return "authentication failed"
	case KindMaintenance:
		return "exchange under maintenance"
	case KindTransient:
		return "transient failure"
	case KindBadResponse:
		return "bad response"
	case KindTLS:
		return "TLS failure"
	default:
		return "request failed"
	}
}

// Exchange error codes, from the legacy API's table.
const (
	CodeUnknown          = -1000
	CodeInvalidSignature = -1001
	CodeUnauthorized     = -1002
	CodeTooManyRequests  = -1003
	CodeMaintenance      = -1011
)

// Error is the one error type of the client. It never holds the API secret,
// the signature or request headers.
type Error struct {
	// Op names the operation, e.g. "get token history page 2".
	Op string
	// Kind says what class of failure this is.
	Kind Kind
	// StatusCode is the HTTP status, 0 when no response came.
	StatusCode int
	// Code is the exchange's error code, 0 when the answer had none.
	Code int
	// Message is the exchange's error message, if any.
	Message string
	// Err is the underlying cause, if any.
	Err error
}

func (e *Error) Error() string {
	msg := e.Op + ": " + e.Kind.String()
	if e.StatusCode != 0 {
		msg += fmt.Sprintf(" (HTTP %d", e.StatusCode)
		if e.Code != 0 {
			msg += fmt.Sprintf(", code %d", e.Code)
		}
		msg += ")"
	} else if e.Code != 0 {
		msg += fmt.Sprintf(" (code %d)", e.Code)
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

func kindOf(err error) (Kind, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind, true
	}
	return 0, false
}

func isKind(err error, k Kind) bool {
	got, ok := kindOf(err)
	return ok && got == k
}

// IsRateLimited reports whether the exchange refused the call for exceeding its rate limit.
func IsRateLimited(err error) bool { return isKind(err, KindRateLimited) }

// IsAuth reports whether the exchange rejected the key, signature, timestamp or source IP.
func IsAuth(err error) bool { return isKind(err, KindAuth) }

// IsMaintenance reports whether the exchange is under maintenance.
func IsMaintenance(err error) bool { return isKind(err, KindMaintenance) }

// IsTransient reports whether the call failed in a way a later retry may fix:
// a 5xx answer, a timeout, a connection error or a -1011 outside maintenance.
func IsTransient(err error) bool { return isKind(err, KindTransient) }

// IsBadResponse reports whether the exchange answered with something that is
// not the documented envelope.
func IsBadResponse(err error) bool { return isKind(err, KindBadResponse) }

// IsTLS reports whether the https connection could not be made or trusted.
func IsTLS(err error) bool { return isKind(err, KindTLS) }

// TLSHint is what to check about a TLS failure.
func TLSHint(err error) string {
	if notTLS(err) {
		return "the URL is https but the server answers plain http: check the scheme of --woox.api-url"
	}
	return "the server's certificate does not verify: check the CA bundle (SSL_CERT_FILE, SSL_CERT_DIR), the host name in --woox.api-url and the clock"
}

// transportKind is the Kind of an error of the HTTP client's Do: a TLS
// failure, or else transient.
func transportKind(err error) Kind {
	var (
		verify   *tls.CertificateVerificationError
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
	)
	if errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &hostname) || errors.As(err, &invalid) || notTLS(err) {
		return KindTLS
	}
	return KindTransient
}

// notTLS reports whether an https request met a server that does not speak
// TLS.
func notTLS(err error) bool {
	var record tls.RecordHeaderError
	return errors.As(err, &record) || strings.Contains(err.Error(), "server gave HTTP response to HTTPS client")
}

// classify maps an HTTP status and exchange code to a Kind.
func classify(status, code int) Kind {
	switch {
	case status == 429 || code == CodeTooManyRequests:
		return KindRateLimited
	case code == CodeMaintenance:
		// Until the system status says maintenance (see Client.get).
		return KindTransient
	case status == 401 || status == 403 || code == CodeInvalidSignature || code == CodeUnauthorized:
		return KindAuth
	case status >= 500:
		return KindTransient
	case status >= 200 && status < 300:
		// A 2xx answer with success:false and no recognised code.
		return KindBadResponse
	default:
		return KindOther
	}
}

// NotPermitted reports whether the exchange refused the key this call:
// code -1002 or HTTP 403, as a sub-account's key is refused on an endpoint
// only a main account may read. A bad signature or timestamp (-1001) is
// not this.
func NotPermitted(err error) bool {
	var e *Error
	return errors.As(err, &e) && (e.Code == CodeUnauthorized || e.StatusCode == http.StatusForbidden)
}
